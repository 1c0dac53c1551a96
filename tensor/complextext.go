package tensor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseComplexText parses the text of a complex scalar (case format, added
// 2026-12) the way Python's complex() parses a string: optional surrounding
// whitespace and parentheses, then a real part, an imaginary part ending in
// j or J ("2j", "-j", "nanj"), or both ("1.5+2j", "1-j", "inf-nanj"). Each
// part is a Python float literal (digits with single underscores between
// them, an exponent, "inf", "infinity" or "nan"); a missing real part is +0,
// so "-0j" is 0-0j.
func ParseComplexText(s string) (complex128, error) {
	bad := fmt.Errorf("%s is not a complex number in Python's complex() syntax", Quote(s))
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if t == "" {
		return 0, bad
	}
	first, rest := scanPyFloat(t)
	switch {
	case rest == "" && first != "": // "1.5"
		re, ok := pyFloatValue(first)
		if !ok {
			return 0, bad
		}
		return complex(re, 0), nil
	case isJ(rest): // "2j", "-j", "j"
		im, ok := pyImagCoefficient(first)
		if !ok {
			return 0, bad
		}
		return complex(0, im), nil
	case first == "" || rest[0] != '+' && rest[0] != '-':
		return 0, bad
	}
	re, ok := pyFloatValue(first)
	if !ok {
		return 0, bad
	}
	second, tail := scanPyFloat(rest)
	if !isJ(tail) {
		return 0, bad
	}
	im, ok := pyImagCoefficient(second)
	if !ok {
		return 0, bad
	}
	return complex(re, im), nil
}

func isJ(s string) bool { return s == "j" || s == "J" }

// scanPyFloat splits s after its longest prefix that is a signed Python
// float literal, or after a lone sign (the coefficient of "-j").
func scanPyFloat(s string) (token, rest string) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for _, word := range []string{"infinity", "inf", "nan"} {
		if len(s) >= i+len(word) && strings.EqualFold(s[i:i+len(word)], word) {
			return s[:i+len(word)], s[i+len(word):]
		}
	}
	digits := func(j int) int {
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '_') {
			j++
		}
		return j
	}
	j := digits(i)
	if j < len(s) && s[j] == '.' {
		j = digits(j + 1)
	}
	if j > i && j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if e := digits(k); e > k {
			j = e
		}
	}
	return s[:j], s[j:]
}

// pyFloatValue parses one float literal as Python does (underscores only
// between digits).
func pyFloatValue(tok string) (float64, bool) {
	body := strings.TrimLeft(tok, "+-")
	if body == "" || strings.HasPrefix(body, "_") || strings.HasSuffix(body, "_") ||
		strings.Contains(body, "__") || strings.Contains(body, "_.") || strings.Contains(body, "._") ||
		strings.ContainsAny(body, "xXpP") {
		return 0, false
	}
	if strings.EqualFold(body, "nan") {
		return math.NaN(), true // Go's ParseFloat takes no signed NaN
	}
	for _, sep := range []string{"_e", "_E", "e_", "E_"} {
		if strings.Contains(body, sep) {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(tok, "_", ""), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}

// pyImagCoefficient is the coefficient before j: a float, or ±1 for a lone sign.
func pyImagCoefficient(tok string) (float64, bool) {
	switch tok {
	case "", "+":
		return 1, true
	case "-":
		return -1, true
	}
	return pyFloatValue(tok)
}
