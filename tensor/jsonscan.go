package tensor

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"
)

// The codec reads a line in place: once encoding/json has checked that the
// whole line is valid JSON (json.Valid allocates nothing), the fields,
// arrays and elements below are sub-slices of the line, found by the
// scanner in this file. A 64 MiB line of 2^24 elements then costs the line
// and the tensor, not a json.RawMessage copy per nesting level and a slice
// header per element (which took 1.8 GB for a 32 MB line).

// checkJSON reports why data is not one valid JSON value, naming the
// top-level field whose value holds the error ("" when the error is in the
// line's own structure).
func checkJSON(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v struct{}
	err := json.Unmarshal(data, &v) // the syntax check runs before anything is decoded
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		if strings.Contains(syn.Error(), "after top-level value") {
			return errAt("", "trailing data after the object")
		}
		return errAt(topLevelKeyAt(data, int(syn.Offset)), "invalid JSON: %v", syn)
	}
	return errAt("", "invalid JSON: %v", err)
}

// topLevelKeyAt returns the key of the top-level object member whose value
// holds the syntax error at offset off (json.SyntaxError.Offset, which
// counts the offending byte), or "" when the error is between members.
func topLevelKeyAt(data []byte, off int) string {
	depth, key, inValue := 0, "", false
	for i := 0; i < off-1 && i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			end := stringEnd(data, i)
			switch {
			case depth == 1 && !inValue:
				key = unquoteKey(data[i:end])
			case depth == 1 && end <= off:
				inValue = false // a string value, complete
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 1 {
				inValue = false
			}
		case ':':
			inValue = inValue || depth == 1
		case ',':
			inValue = inValue && depth != 1
		}
	}
	if inValue {
		return key
	}
	return ""
}

// skipSpace returns the index of the first non-blank byte at or after i.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just after the string starting at data[i] == '"'.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// valueEnd returns the index just after the valid JSON value starting at data[i].
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && !strings.ContainsRune(",]} \t\n\r", rune(data[j])) {
		j++
	}
	return j
}

// unquoteKey returns the text of a JSON string.
func unquoteKey(quoted []byte) string {
	if len(quoted) >= 2 && !containsByte(quoted, '\\') && utf8.Valid(quoted) {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	_ = json.Unmarshal(quoted, &s)
	return s
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// eachItem calls fn with the index and text of every element of the JSON
// array data (valid JSON), without copying them; it stops at fn's first error.
func eachItem(data []byte, fn func(i int, item []byte) error) error {
	i := skipSpace(data, 0)
	i = skipSpace(data, i+1) // past '['
	for n := 0; i < len(data) && data[i] != ']'; n++ {
		end := valueEnd(data, i)
		if err := fn(n, data[i:end]); err != nil {
			return err
		}
		i = skipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return nil
}

// countItems returns the number of elements of the JSON array data (valid JSON).
func countItems(data []byte) int {
	n := 0
	_ = eachItem(data, func(int, []byte) error { n++; return nil })
	return n
}
