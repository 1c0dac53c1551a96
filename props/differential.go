package props

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// Finding is a case on which a backend departs from the model.
type Finding struct {
	Profile  string
	Backend  string
	Case     *tensor.Case
	Want     tensor.Outcome // the model's
	Got      tensor.Outcome // the backend's
	Compare  tensor.Comparison
	Panicked bool   // the backend's Go code panicked (a bug in the backend itself)
	Hung     bool   // the backend's call did not return (campaign/hang.go)
	Declined bool   // the backend declined a case the model answers, outside its gaps (tensor.GapLister)
	Stack    string // where, when it panicked
}

// Signature groups findings that are the same bug: profile, op (a
// program's chain of ops), input dtypes (a view marked /view) and how the
// outcomes differ.
func (f *Finding) Signature() string {
	kind := string(f.Compare.Divergence)
	switch {
	case f.Panicked:
		kind = "backend-panic"
	case f.Hung:
		kind = "backend-hang"
	case f.Declined:
		kind = "declined"
	case f.Got.HarnessFailure():
		kind = "harness-failure"
	}
	c := f.Case
	dtypes := ""
	for i, a := range c.Args {
		if i > 0 {
			dtypes += ","
		}
		switch {
		case a.IsNull():
			dtypes += "null"
		case a.Scalar != nil:
			dtypes += "scalar-" + string(a.Scalar.Kind)
		default:
			dtypes += a.Tensor.DType.String()
			if a.Tensor.View != nil {
				dtypes += "/view" // a strided path is another bug than the contiguous one
			}
		}
	}
	op := c.Op
	if c.Op == "cat" { // a list: its dtypes, once each (gen_matmul.go)
		dtypes = strings.Join(distinctDTypes(strings.Split(dtypes, ",")), ",")
	}
	if c.IsProgram() { // the chain of ops; the dtypes are the program's inputs'
		op = "program:" + strings.Join(c.Ops(), ">")
		for _, s := range c.Steps {
			if s.Attrs.To.Valid() {
				dtypes += "->" + s.Attrs.To.String()
			}
		}
	} else if c.Attrs.To.Valid() {
		dtypes += "->" + c.Attrs.To.String()
	}
	return fmt.Sprintf("%s %s(%s) %s", f.Profile, op, dtypes, kind)
}

func (f *Finding) Error() string {
	if f.Got.HarnessFailure() {
		return fmt.Sprintf("%s: %s gave no answer on %s: %s", f.Profile, f.Backend, f.Case.Describe(), f.Got.Message())
	}
	if f.Panicked {
		return fmt.Sprintf("%s: %s panicked on %s: %v\n%s", f.Profile, f.Backend, f.Case.Describe(), f.Got.Message(), f.Stack)
	}
	if f.Declined {
		return fmt.Sprintf("%s: %s declines %s, which the model answers (%s) and no gap of the backend's names", f.Profile, f.Backend, f.Case.Describe(), f.Want)
	}
	if f.Hung {
		return fmt.Sprintf("%s: %s did not return on %s: %s", f.Profile, f.Backend, f.Case.Describe(), f.Compare.Detail)
	}
	return fmt.Sprintf("%s: %s departs from the model on %s\n  model:   %s\n  backend: %s\n  %s\n  model rules: %v",
		f.Profile, f.Backend, f.Case.Describe(), f.Want, f.Got, f.Compare.Detail, f.Want.Rules)
}

// SafeEval runs the backend, turning an escaped Go panic into a finding's outcome.
func SafeEval(b tensor.Backend, profile string, c *tensor.Case) (out tensor.Outcome, stack string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			out = tensor.PanicOutcome("go panic in backend %s: %v", b.Name(), r)
			stack, panicked = string(debug.Stack()), true
		}
	}()
	return b.Eval(profile, c), "", false
}

// Supports reports whether b supports c under profile. A Go panic in the
// backend's Supports counts as support: Eval is then called, runs the same
// code (the CPU engine plans a case the same way in both) and SafeEval
// reports the panic as the backend's finding, where otherwise it would end
// the campaign.
func Supports(b tensor.Backend, profile string, c *tensor.Case) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = true
		}
	}()
	return b.Supports(profile, c)
}

// Check evaluates c under profile with the model and the backend and
// compares them; the result is a finding only when Failed.
func Check(b tensor.Backend, profile string, c *tensor.Case) *Finding {
	got, stack, panicked := SafeEval(b, profile, c)
	f := compareWithModel(b, profile, c, got, stack, panicked)
	return &f
}

// TryCheck is Check of a case b supports, with support decided and the case
// evaluated in one pass where b is a tensor.TryEvaler; supported is false
// when b declines c. A Go panic counts as support, as in Supports. The
// finding is a value: a campaign checks millions of cases and keeps (copies)
// the few that fail.
func TryCheck(b tensor.Backend, profile string, c *tensor.Case) (f Finding, supported bool) {
	te, ok := b.(tensor.TryEvaler)
	if !ok {
		if !Supports(b, profile, c) {
			return Finding{}, false
		}
		got, stack, panicked := SafeEval(b, profile, c)
		return compareWithModel(b, profile, c, got, stack, panicked), true
	}
	got, supported, stack, panicked := safeTryEval(te, b.Name(), profile, c)
	if !supported {
		return Finding{}, false
	}
	return compareWithModel(b, profile, c, got, stack, panicked), true
}

func safeTryEval(te tensor.TryEvaler, name, profile string, c *tensor.Case) (out tensor.Outcome, ok bool, stack string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			out, ok = tensor.PanicOutcome("go panic in backend %s: %v", name, r), true
			stack, panicked = string(debug.Stack()), true
		}
	}()
	out, ok = te.TryEval(profile, c)
	return out, ok, "", false
}

func compareWithModel(b tensor.Backend, profile string, c *tensor.Case, got tensor.Outcome, stack string, panicked bool) Finding {
	if err := got.Check(); err != nil && !panicked {
		// a malformed outcome (a tensor whose elements lie outside its
		// data) is the backend's bug, as a Go panic is: no comparison, and
		// no report, could read it
		got, panicked = tensor.PanicOutcome("malformed outcome from backend %s: %v", b.Name(), err), true
	}
	want := model.Eval(profile, c)
	return Finding{Profile: profile, Backend: b.Name(), Case: c, Want: want, Got: got,
		Compare: tensor.Compare(want, got, c.Tolerance()), Panicked: panicked, Stack: stack}
}

// UnclaimedDecline returns the finding of a case b declined (the caller
// knows it did) when the model answers it and b is a tensor.GapLister that
// names no gap for it, or nil.
func UnclaimedDecline(b tensor.Backend, profile string, c *tensor.Case) *Finding {
	gl, ok := b.(tensor.GapLister)
	if !ok {
		return nil
	}
	want := model.Eval(profile, c)
	if want.Form == tensor.FormUnsupported || gl.Gap(profile, c) != "" {
		return nil
	}
	got := tensor.UnsupportedOutcome("%s declines the case", b.Name())
	cmp := tensor.Compare(want, got, c.Tolerance())
	cmp.Detail = "declined outside every gap the backend lists"
	return &Finding{Profile: profile, Backend: b.Name(), Case: c, Want: want, Got: got, Compare: cmp, Declined: true}
}

// CheckDecline is UnclaimedDecline of a case b does not support, or nil.
func CheckDecline(b tensor.Backend, profile string, c *tensor.Case) *Finding {
	if Supports(b, profile, c) {
		return nil
	}
	return UnclaimedDecline(b, profile, c)
}

// HangFinding is the finding of a backend call on c that has not returned
// after limit: the model's outcome against a crash "timeout" (the signal an
// adapter's per-case timeout gives a framework that hangs).
func HangFinding(b tensor.Backend, profile string, c *tensor.Case, limit time.Duration) *Finding {
	want := model.Eval(profile, c)
	got := tensor.CrashOutcome("timeout")
	cmp := tensor.Compare(want, got, c.Tolerance())
	cmp.Detail = fmt.Sprintf("the backend's call ran for more than %s", limit)
	return &Finding{Profile: profile, Backend: b.Name(), Case: c, Want: want, Got: got, Compare: cmp, Hung: true}
}

// Failed reports whether the check is not a match: the outcomes differ, the
// backend panicked, or the harness got no answer from it (which is never a
// match, and never a finding about the implementation either).
func (f *Finding) Failed() bool {
	return f.Panicked || f.Hung || f.Declined || f.Got.HarnessFailure() || !f.Compare.Match()
}

// Differential evaluates c under profile with the model and the backend and
// returns a finding when they differ (or no answer came), or nil.
func Differential(b tensor.Backend, profile string, c *tensor.Case) *Finding {
	if f := Check(b, profile, c); f.Failed() {
		return f
	}
	return nil
}
