package model

import (
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// UnspecifiedElements counts the "?" elements of an outcome and names the
// open rules (Rule.Open) among the rules that decided it, joined with " + "
// when several took part: the rule, or rules, that left those elements
// unspecified. An outcome with "?" elements and no open rule returns "" as
// its attribution; the model's tests treat that as a defect.
func UnspecifiedElements(o tensor.Outcome) (n int, by string) {
	if o.Form != tensor.FormValue || o.Value == nil {
		return 0, ""
	}
	for i := 0; i < o.Value.Len(); i++ {
		if o.Value.IsUnspecified(i) {
			n++
		}
	}
	if n == 0 {
		return 0, ""
	}
	var open []string
	for _, name := range o.Rules {
		if r, ok := LookupRule(name); ok && r.Open {
			open = append(open, name)
		}
	}
	return n, strings.Join(open, " + ")
}
