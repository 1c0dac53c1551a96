package tensor

import (
	"fmt"
	"strconv"
	"strings"
)

// Choices says what the valid choices are after an unknown name: the
// nearest one when it is a likely typo, then the whole list (or, for a long
// list, where to find it).
func Choices(name string, valid []string, seeAlso string) string {
	s := ""
	if near := nearest(name, valid); near != "" {
		s = fmt.Sprintf("did you mean %q? ", near)
	}
	if len(valid) > 20 && seeAlso != "" {
		return s + "see " + seeAlso
	}
	return s + "valid: " + strings.Join(valid, ", ")
}

// Quote is s Go-quoted, or only its start when it is long: names and
// numbers from a file someone sent are echoed in messages, and a text of
// 60 MB must not become a message of 60 MB.
func Quote(s string) string {
	const most, start = 80, 60
	if len(s) <= most {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(strings.ToValidUTF8(s[:start], "")), len(s))
}

// nearest returns the valid name closest to name when it is within a third
// of its length in edits (or name is a prefix of it), else "". A long name
// is no typo of a short one (and its edit distances would take long).
func nearest(name string, valid []string) string {
	if len(name) > 64 {
		return ""
	}
	best, bestD := "", len(name)/3+1
	for _, v := range valid {
		d := editDistance(strings.ToLower(name), v)
		if len(name) >= 3 && strings.HasPrefix(v, strings.ToLower(name)) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// OpNames lists the catalog's op names in its order.
func OpNames() []string {
	names := make([]string, len(Ops))
	for i, op := range Ops {
		names[i] = op.Name
	}
	return names
}

// DTypeNames lists the dtype names in the spec's order.
func DTypeNames() []string {
	names := make([]string, len(AllDTypes))
	for i, d := range AllDTypes {
		names[i] = d.String()
	}
	return names
}
