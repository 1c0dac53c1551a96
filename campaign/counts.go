package campaign

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// Counts say what a campaign did with its cases, keeping apart what can fail
// and what cannot: a check that compares two values or two errors can catch
// a wrong implementation; two `unsupported` outcomes agree on their form
// alone; a decline, a Go panic in the backend and a harness failure are not
// checks at all.
type Counts struct {
	Cases    int64 `json:"cases"`    // drawn
	Declined int64 `json:"declined"` // the backend does not support the case
	// UnclaimedDeclines counts the declined cases the model answers and the
	// backend lists no gap for (tensor.GapLister): findings of their own kind.
	UnclaimedDeclines int64 `json:"unclaimed_declines"`
	// Matched counts the checks on which the backend agreed with the
	// model, by the form of the outcome (value, error, panic, crash,
	// unsupported).
	Matched  FormCounts `json:"matched"`
	Diverged FormCounts `json:"diverged"` // checks on which it did not, by the model's form
	// Unspecified counts the elements that matched only because the model
	// leaves them unspecified ("?").
	Unspecified     int64 `json:"unspecified_elements"`
	BackendPanics   int64 `json:"backend_panics"`   // Go panics escaping the backend (findings of their own kind)
	BackendHangs    int64 `json:"backend_hangs"`    // backend calls that did not return (findings of their own kind: hang.go)
	HarnessFailures int64 `json:"harness_failures"` // the harness got no answer (reported, not shrunk)
	// NotModeled counts supported cases the model states no outcome for (a
	// program step reading unspecified elements): not checks.
	NotModeled int64 `json:"not_modeled"`
	// Views and Programs count the drawn cases with a view input and the
	// programs; ViewChecks and ProgramChecks those of them checked.
	Views         int64 `json:"view_cases"`
	Programs      int64 `json:"program_cases"`
	ViewChecks    int64 `json:"view_checks"`
	ProgramChecks int64 `json:"program_checks"`
}

// FormCounts counts checks by outcome form.
type FormCounts struct {
	Value       int64 `json:"value"`
	Error       int64 `json:"error"`
	Panic       int64 `json:"panic"`
	Crash       int64 `json:"crash"`
	Unsupported int64 `json:"unsupported"`
}

func (f FormCounts) total() int64 { return f.Value + f.Error + f.Panic + f.Crash + f.Unsupported }

// Checked is the number of cases compared with the model.
func (c Counts) Checked() int64 { return c.Matched.total() + c.Diverged.total() }

// ValueOrError is the number of checks whose expected outcome is a value or
// an error: the checks a wrong implementation is most likely to fail.
func (c Counts) ValueOrError() int64 {
	return c.Matched.Value + c.Matched.Error + c.Diverged.Value + c.Diverged.Error
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Cases += o.Cases
	c.Declined += o.Declined
	c.UnclaimedDeclines += o.UnclaimedDeclines
	c.Matched.add(o.Matched)
	c.Diverged.add(o.Diverged)
	c.Unspecified += o.Unspecified
	c.BackendPanics += o.BackendPanics
	c.BackendHangs += o.BackendHangs
	c.HarnessFailures += o.HarnessFailures
	c.NotModeled += o.NotModeled
	c.Views += o.Views
	c.Programs += o.Programs
	c.ViewChecks += o.ViewChecks
	c.ProgramChecks += o.ProgramChecks
}

func (f *FormCounts) add(o FormCounts) {
	f.Value += o.Value
	f.Error += o.Error
	f.Panic += o.Panic
	f.Crash += o.Crash
	f.Unsupported += o.Unsupported
}

// FormSplit renders how the checks split by form: "value 61%, error 20%, ...".
func (c Counts) FormSplit() string {
	n := c.Checked()
	if n == 0 {
		return "no checks"
	}
	var m FormCounts
	m.add(c.Matched)
	m.add(c.Diverged)
	pct := func(k int64) float64 { return 100 * float64(k) / float64(n) }
	return fmt.Sprintf("value %.0f%%, error %.0f%%, panic %.0f%%, crash %.0f%%, unsupported %.0f%%",
		pct(m.Value), pct(m.Error), pct(m.Panic), pct(m.Crash), pct(m.Unsupported))
}

// liveCounts are Counts updated by concurrent workers.
type liveCounts struct {
	cases, declined, unclaimed, unspecified, panics, hangs, harness atomic.Int64
	matched, diverged                                               [5]atomic.Int64 // by tensor.Form
	notModeled                                                      atomic.Int64
	views, programs, viewChecks, programChecks                      atomic.Int64
}

// kinds records a drawn case's views and program (checked: it was compared).
func (l *liveCounts) kinds(c *tensor.Case, checked bool) {
	view := false
	for _, a := range c.Args {
		view = view || a.Tensor != nil && a.Tensor.View != nil
	}
	switch {
	case checked && view:
		l.viewChecks.Add(1)
	case view:
		l.views.Add(1)
	}
	switch {
	case checked && c.IsProgram():
		l.programChecks.Add(1)
	case c.IsProgram():
		l.programs.Add(1)
	}
}

// tally records the check f of a supported case.
func (l *liveCounts) tally(f *props.Finding) {
	switch {
	case f.Got.HarnessFailure():
		l.harness.Add(1)
	case f.Panicked:
		l.panics.Add(1)
	case f.Compare.Match():
		l.matched[f.Want.Form].Add(1)
		l.unspecified.Add(int64(f.Compare.ThroughUnspecified))
	default:
		l.diverged[f.Want.Form].Add(1)
	}
}

func (l *liveCounts) snapshot() Counts {
	forms := func(a *[5]atomic.Int64) FormCounts {
		return FormCounts{Value: a[tensor.FormValue].Load(), Error: a[tensor.FormError].Load(),
			Panic: a[tensor.FormPanic].Load(), Crash: a[tensor.FormCrash].Load(), Unsupported: a[tensor.FormUnsupported].Load()}
	}
	return Counts{Cases: l.cases.Load(), Declined: l.declined.Load(), UnclaimedDeclines: l.unclaimed.Load(), Matched: forms(&l.matched),
		Diverged: forms(&l.diverged), Unspecified: l.unspecified.Load(), BackendPanics: l.panics.Load(), BackendHangs: l.hangs.Load(),
		HarnessFailures: l.harness.Load(), NotModeled: l.notModeled.Load(), Views: l.views.Load(),
		Programs: l.programs.Load(), ViewChecks: l.viewChecks.Load(), ProgramChecks: l.programChecks.Load()}
}

// TierCount is how many cases a campaign drew in one size tier.
type TierCount struct {
	Name    string  `json:"name"`
	Cases   int64   `json:"cases"`
	Seconds float64 `json:"seconds"` // worker time spent drawing and checking them
}

// ProfileCounts are the counts of one target (backend and profile).
type ProfileCounts struct {
	Target string `json:"target"` // backend@profile
	Counts
}

// summaryFile is the campaign's summary of its last run, rewritten at every
// checkpoint: counts per target, by outcome form, and per size tier.
const summaryFile = "summary.json"

type summary struct {
	Seed     uint64          `json:"seed"`
	Elapsed  float64         `json:"elapsed_seconds"`
	Workers  int             `json:"workers"`
	Total    Counts          `json:"total"`
	Targets  []ProfileCounts `json:"targets"`
	Tiers    []TierCount     `json:"tiers"`
	Findings int             `json:"findings"`
}

func (s summary) save(dir string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, summaryFile), append(data, '\n'))
}

// TierLine renders the tier counts with each tier's share of the time:
// "small 1204331 (62%), strided tiles 812 (4%), ...".
func TierLine(tiers []TierCount) string {
	var total float64
	for _, t := range tiers {
		total += t.Seconds
	}
	parts := make([]string, len(tiers))
	for i, t := range tiers {
		parts[i] = fmt.Sprintf("%s %d (%.0f%%)", t.Name, t.Cases, 100*t.Seconds/max(total, 1e-9))
	}
	return strings.Join(parts, ", ")
}

// tierNames returns the distinct tier names of the targets' aims, small first.
func tierNames(aims []props.Aim) []string {
	seen := map[string]bool{}
	var names []string
	for _, a := range aims {
		for i := range a.Tiers {
			if n := a.Tiers[i].Name(); !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return append([]string{"small"}, names...)
}
