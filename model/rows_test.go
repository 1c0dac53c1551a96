package model

import (
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// outcomeRow is a table row of the op tests: a case under a profile, and
// the outcome worked out by hand from the sources the rules cite.
type outcomeRow struct {
	name, profile, line string
	// want is an outcome object: "?" exactly where the model must leave
	// elements open; an unsupported outcome whose message holds "not
	// modeled" where the model must state nothing.
	want string
}

// checkRows evaluates each row and compares with its outcome: the form,
// the error class, and for a value the dtype, shape and every element, "?"
// exactly where the row has "?" (Compare alone lets a "?" match anything).
func checkRows(t *testing.T, rows []outcomeRow) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tensor.DecodeCase([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			want, err := tensor.DecodeOutcome([]byte(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			got := Eval(tt.profile, c)
			if got.Form == tensor.FormUnsupported && want.Form == tensor.FormUnsupported {
				if (got.Cause == tensor.CauseNotModeled) != strings.Contains(tt.want, "not modeled") {
					t.Errorf("%s: got unsupported %q (cause %v), want %s", tt.profile, got.Message(), got.Cause, tt.want)
				}
				return
			}
			r := tensor.Compare(want, got, 0)
			same := r.Match()
			if same && want.Form == tensor.FormValue {
				for i := 0; i < want.Value.Len(); i++ {
					same = same && want.Value.IsUnspecified(i) == got.Value.IsUnspecified(i)
				}
			}
			if !same {
				t.Errorf("%s under %s: got %s, want %s (rules %v)", c.Describe(), tt.profile, tensor.EncodeOutcome(got), tt.want, got.Rules)
			}
		})
	}
}
