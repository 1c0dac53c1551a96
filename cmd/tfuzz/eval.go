package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/impls/adapter"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

const evalUsage = `usage: tfuzz eval [-p PROFILE]... [--check] [--json] [--op OP]... [--backend B] FILE|DIR...

Evaluates every case of the case files (a DIR stands for the .jsonl files
below it) under the given profiles: by default the profiles in each case's
expect, or every profile when it has none. Prints each outcome, or with
--json each case in case format with "got" added; --check compares with
expect and prints a summary per profile. The case format is described in
docs/case-format.md.

With --backend, the cases are evaluated by that backend instead of the
model, under the profiles it serves: python runs real PyTorch, NumPy and JAX
(whichever --python has), e.g.
  tfuzz eval --check --backend python corpus/oracle/real-frameworks.jsonl

Every file is read before anything is evaluated (a bad line stops the
command, naming its file, line and field); cases are then evaluated one at a
time. A case whose evaluation would need more than --max-case-mb is not
evaluated: it is named on stderr, counted, and the exit code is 2.
Exit 0 when clean, 1 with --check when a case mismatches, 2 on bad input.
`

type evalOptions struct {
	profiles    []string
	check, json bool
	ops         []string
	maxDiffs    int
	summaryOnly bool
	exceptions  []string
	columns     bool
	backendName string
	backend     tensor.Backend // nil: the model
	budget      tensor.Budget
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o evalOptions
	var python string
	fl := newFlags("eval", evalUsage, stdout, stderr)
	fl.StringArrayVarP(&o.profiles, "profile", "p", nil, "evaluate under this profile (repeatable; tfuzz profiles lists them)")
	fl.BoolVar(&o.check, "check", false, "compare with each case's expect; exit 1 on any mismatch")
	fl.BoolVar(&o.json, "json", false, `write each case back in case format with "got" added`)
	fl.StringArrayVar(&o.ops, "op", nil, "only cases of this op (repeatable; a program when every step's op is given)")
	fl.IntVar(&o.maxDiffs, "max-diffs", 10, "mismatches shown per profile with --check")
	fl.BoolVar(&o.summaryOnly, "summary-only", false, "with --check, print only the mismatches and the summary")
	fl.BoolVar(&o.columns, "columns", false, "print one row per case and one column per profile (default with 2 to 5 --profile flags)")
	fl.StringVar(&o.backendName, "backend", "", "evaluate with this backend instead of the model: "+backendHelp)
	fl.StringArrayVar(&o.exceptions, "exceptions", nil, "with --check, a file of known differences (case-id profile reason) to excuse (repeatable)")
	maxCaseMB := budgetFlag(fl)
	pythonFlag(fl, &python)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if fl.NArg() == 0 {
		return fl.fail("no case files given")
	}
	if err := checkProfiles("--profile", o.profiles); err != nil {
		return fl.errorf("%v", err)
	}
	if err := checkOps("--op", o.ops); err != nil {
		return fl.errorf("%v", err)
	}
	if *maxCaseMB <= 0 || o.maxDiffs < 0 {
		return fl.errorf("--max-case-mb must be positive and --max-diffs not negative")
	}
	o.budget = tensor.Budget{MaxBytes: int64(*maxCaseMB) << 20}
	setPython(python)
	files, err := caseFiles(fl.Args())
	if err != nil {
		return fl.errorf("%v", err)
	}
	// Every file is read once before anything is evaluated, so that a bad
	// line fails the command before it prints results; only one case is
	// held at a time.
	for _, f := range files {
		if err := eachCase(ctx, f, func(*tensor.Case, int) error { return nil }); err != nil {
			if ctx.Err() != nil {
				err = errors.New("interrupted")
			}
			fmt.Fprintf(stderr, "tfuzz eval: %v\n", err)
			return exitUsage
		}
	}
	if n := len(o.profiles); n >= 2 && n <= 5 && !o.check && !o.json {
		o.columns = true
	}
	excused, err := readExceptions(o.exceptions)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz eval: %v\n", err)
		return exitUsage
	}
	if o.backendName != "" {
		b, err := openBackend(o.backendName)
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz eval: --backend: %v\n", err)
			return exitUsage
		}
		defer closeBackend(b)
		for _, p := range o.profiles {
			if !contains(b.Profiles(), p) {
				fmt.Fprintf(stderr, "tfuzz eval: --profile: %s\n", notServed(b, p))
				return exitUsage
			}
		}
		o.backend = b
		fmt.Fprintf(stderr, "tfuzz eval: backend %s\n", describeBackend(b))
	}
	code := evalFiles(ctx, files, o, excused, stdout, stderr)
	if a, ok := o.backend.(interface{ Stats() adapter.Stats }); ok {
		st := a.Stats()
		fmt.Fprintf(stderr, "tfuzz eval: adapter: %d cases, %d crashed, %d timed out, %d processes started\n",
			st.Cases, st.Crashes, st.Timeouts, st.Starts)
	}
	return code
}

// describeBackend says what a backend is: for an adapter, its frameworks'
// versions, the profiles it serves and what it could not load.
func describeBackend(b tensor.Backend) string {
	s := fmt.Sprintf("%s (profiles %v)", b.Name(), b.Profiles())
	if a, ok := b.(interface{ Handshake() adapter.Handshake }); ok {
		h := a.Handshake()
		s += "\n  " + h.Versions()
		notes := h.Notes
		if b.Name() == pythonBackend {
			notes = pythonNotes(h)
		}
		for _, n := range notes {
			s += "\n  note: " + n
		}
	}
	return s
}

// answer says whether an outcome is an answer to the case at all. A
// backend that declines the case, a Go panic escaping it and a harness that
// got no answer (an adapter that did not start or broke the protocol) are
// counted apart: none of them is ever a match.
type answer int

const (
	answered     answer = iota
	declined            // the backend does not support the case
	backendPanic        // a Go panic escaped the backend: a bug of the backend
	harnessFail         // no answer came: infrastructure
)

// evalOne is the outcome of c under profile p: the model's, or the backend's
// (a Go panic of the backend becomes a panic outcome that says so), and
// whether it is an answer. A signal interrupts it (the outcome then says
// so, and the caller stops).
func evalOne(ctx context.Context, o evalOptions, p string, c *tensor.Case) (tensor.Outcome, answer) {
	kind := answered
	out, ok := interruptible(ctx, func() tensor.Outcome {
		if o.backend == nil {
			return model.Eval(p, c)
		}
		if !props.Supports(o.backend, p, c) {
			kind = declined
			return tensor.UnsupportedOutcome("tfuzz: backend %s does not support this case", o.backend.Name())
		}
		got, _, panicked := props.SafeEval(boundBackend{o.backend, ctx}, p, c)
		switch {
		case panicked:
			kind = backendPanic
		case got.HarnessFailure():
			kind = harnessFail
		}
		return got
	})
	if !ok {
		return tensor.UnsupportedOutcome("tfuzz: interrupted"), answered
	}
	return out, kind
}

// caseFiles expands directories into the .jsonl files below them, sorted.
func caseFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
				if err := campaign.CheckRegular(path); err != nil {
					return err
				}
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no .jsonl files", a)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// profilesFor returns the profiles a case is evaluated under.
func profilesFor(c *tensor.Case, asked []string) []string {
	if len(asked) > 0 {
		return asked
	}
	if len(c.Expect) > 0 {
		return c.Expect.Profiles()
	}
	return model.Names()
}

// tally counts --check results for one profile.
type tally struct {
	matched, mismatched, missing int
	byForm                       [5]int // matched cases by outcome form (value, error, panic, crash, unsupported)
	declined, panics, harness    int    // no answer to compare: see answer
	excused, staleExcuses        int    // mismatches listed as known differences; listed cases that match
	throughUnspecified           int    // matched cases where some element matched only through "?"
	unspecifiedElements          int
	diffs                        []string
	reasons                      map[string]int // excused cases by reason
}

// eachCase calls fn with every case of the case file path and its line. A
// signal interrupts the reading too: decoding a line of 64 MiB takes
// seconds, minutes when its floats are subnormal (strconv's slow path).
func eachCase(ctx context.Context, path string, fn func(c *tensor.Case, line int) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := tensor.NewReader(f, path)
	type read struct {
		c   *tensor.Case
		err error
	}
	for {
		next, ok := interruptible(ctx, func() read {
			c, err := r.Next()
			return read{c, err}
		})
		if !ok {
			return ctx.Err()
		}
		c, err := next.c, next.err
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(c, r.Line()); err != nil {
			return err
		}
	}
}

// evaluator evaluates the cases of eval one at a time: each profile's
// outcome is printed, tallied or written as soon as it is computed and then
// dropped, so that memory is that of one case and one outcome.
type evaluator struct {
	ctx     context.Context
	o       evalOptions
	excused exceptions
	stdout  io.Writer
	tallies map[string]*tally
	order   []string
	columns *columnTable
	skipped int // cases over the budget
}

func evalFiles(ctx context.Context, files []string, o evalOptions, excused exceptions, stdout, stderr io.Writer) int {
	e := &evaluator{ctx: ctx, o: o, excused: excused, stdout: stdout, tallies: map[string]*tally{}}
	if o.columns {
		e.columns = &columnTable{}
	}
	for _, f := range files {
		err := eachCase(ctx, f, func(c *tensor.Case, line int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if len(o.ops) > 0 && !containsAll(o.ops, c.Ops()) { // a program: every step's op
				return nil
			}
			if err := o.budget.Check(c, 1); err != nil {
				fmt.Fprintf(stderr, "tfuzz eval: %s:%d: case %s: %v\n", f, line, caseName(c), err)
				e.skipped++
				return nil
			}
			return e.evalCase(c)
		})
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "tfuzz eval: interrupted")
			return exitUsage
		}
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz eval: %v\n", err)
			return exitUsage
		}
	}
	if e.columns != nil {
		e.columns.print(stdout)
	}
	code := exitClean
	if o.check {
		code = printSummary(e.tallies, e.order, o, stdout)
	}
	if e.skipped > 0 {
		fmt.Fprintf(stderr, "tfuzz eval: %d cases not evaluated: over the per-case budget (--max-case-mb %d)\n",
			e.skipped, o.budget.MaxBytes>>20)
		code = exitUsage
	}
	return code
}

func (e *evaluator) evalCase(c *tensor.Case) error {
	o := e.o
	profiles := profilesFor(c, o.profiles)
	if o.backend != nil {
		profiles = servedProfiles(o.backend, profiles)
	}
	quiet := o.json || o.columns || (o.check && o.summaryOnly)
	if !quiet {
		fmt.Fprintf(e.stdout, "%s  %s\n", caseName(c), c.Describe())
	}
	var row *columnRow
	if e.columns != nil {
		row = e.columns.add(caseName(c))
	}
	got := func(p string) tensor.Outcome {
		out, kind := evalOne(e.ctx, o, p, c)
		if e.ctx.Err() != nil {
			return out // not printed or counted: the command ends
		}
		line := e.tally(c, p, out, kind)
		if !quiet {
			fmt.Fprintln(e.stdout, line)
		}
		if row != nil {
			row.set(p, compactOutcome(out))
		}
		return out
	}
	if o.json {
		c.Got = nil
		return tensor.WriteCaseGot(e.stdout, c, profiles, got)
	}
	for _, p := range profiles {
		got(p)
	}
	return nil
}

// tally counts the outcome of c under p for --check and returns the line
// that shows it.
func (e *evaluator) tally(c *tensor.Case, p string, got tensor.Outcome, kind answer) string {
	line := "  " + padRight(p, 20) + " " + got.String()
	if !e.o.check {
		return line
	}
	t := e.tallies[p]
	if t == nil {
		t = &tally{}
		e.tallies[p] = t
		e.order = append(e.order, p)
	}
	switch kind {
	case declined:
		t.declined++
		return line + "   DECLINED (not a check)"
	case backendPanic:
		t.panics++
		return line + "   BACKEND PANIC (a bug of the backend)"
	case harnessFail:
		t.harness++
		return line + "   HARNESS FAILURE (no answer)"
	}
	want, ok := c.Expect.Get(p)
	if !ok {
		t.missing++
		return line + "   (no expectation)"
	}
	cmp := tensor.Compare(want, got, c.Tolerance())
	reason, isExcused := e.excused[exceptionKey{c.ID, p}]
	switch {
	case isExcused && cmp.Match():
		t.matched++
		t.staleExcuses++
		return line + "   ok (listed as a known difference: remove it)"
	case isExcused:
		t.excused++
		if t.reasons == nil {
			t.reasons = map[string]int{}
		}
		t.reasons[reason]++
		return line + "   known difference: " + reason
	case cmp.Match():
		t.matched++
		t.byForm[want.Form]++
		if cmp.ThroughUnspecified > 0 {
			t.throughUnspecified++
			t.unspecifiedElements += cmp.ThroughUnspecified
		}
		return line + "   ok"
	}
	t.mismatched++
	if len(t.diffs) < e.o.maxDiffs {
		t.diffs = append(t.diffs, fmt.Sprintf("%s %s\n      want %s\n      got  %s\n      %s\n      rules %s",
			caseName(c), c.Describe(), want, got, cmp.Detail, strings.Join(got.Rules, ", ")))
	}
	return line + "   MISMATCH " + cmp.Detail
}

func printSummary(tallies map[string]*tally, order []string, o evalOptions, stdout io.Writer) int {
	w := stdout
	if o.json {
		w = os.Stderr // keep stdout valid JSON Lines
	}
	code := exitClean
	sort.SliceStable(order, func(i, j int) bool { return profileRank(order[i]) < profileRank(order[j]) })
	for _, p := range order {
		t := tallies[p]
		if len(t.diffs) > 0 {
			fmt.Fprintf(w, "\nfirst mismatches for %s:\n", p)
			for _, d := range t.diffs {
				fmt.Fprintf(w, "  %s\n", d)
			}
		}
	}
	fmt.Fprintf(w, "\n%-20s %6s %8s %20s %10s %7s %14s %9s %8s\n",
		"profile", "cases", "matched", "matched-by-form", "mismatched", "excused", "matched-via-?", "no-expect", "agree")
	fmt.Fprintf(w, "%-20s %s\n", "", "matched-by-form: value/error/panic/crash/unsupported (only value and error compare elements or classes)")
	for _, p := range order {
		t := tallies[p]
		n := t.matched + t.mismatched + t.excused + t.declined + t.panics + t.harness
		pct := 100.0
		if n > 0 {
			pct = 100 * float64(t.matched) / float64(n)
		}
		f := t.byForm
		fmt.Fprintf(w, "%-20s %6d %8d %20s %10d %7d %14s %9d %7.2f%%\n", p, n, t.matched,
			fmt.Sprintf("%d/%d/%d/%d/%d", f[0], f[1], f[2], f[3], f[4]), t.mismatched, t.excused,
			fmt.Sprintf("%d (%d el)", t.throughUnspecified, t.unspecifiedElements), t.missing, pct)
		if o.backend != nil {
			fmt.Fprintf(w, "%-20s not checks: %d declined, %d backend panics, %d harness failures\n", "", t.declined, t.panics, t.harness)
		}
		if t.mismatched > 0 || t.panics > 0 {
			code = exitDiverged
		}
		if t.harness > 0 && code == exitClean {
			code = exitUsage // no answer from the adapter: its command or installation is at fault
		}
		if o.backend != nil {
			printReasons(w, t.reasons)
		}
		if t.staleExcuses > 0 {
			fmt.Fprintf(w, "%-20s %d listed known differences now match: remove them from the exceptions file\n", "", t.staleExcuses)
		}
	}
	return code
}

// servedProfiles keeps the profiles the backend serves.
func servedProfiles(b tensor.Backend, profiles []string) []string {
	var kept []string
	for _, p := range profiles {
		if contains(b.Profiles(), p) {
			kept = append(kept, p)
		}
	}
	return kept
}

// printReasons lists the known differences by reason, most frequent first.
func printReasons(w io.Writer, reasons map[string]int) {
	keys := make([]string, 0, len(reasons))
	for r := range reasons {
		keys = append(keys, r)
	}
	sort.Slice(keys, func(i, j int) bool {
		if reasons[keys[i]] != reasons[keys[j]] {
			return reasons[keys[i]] > reasons[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, r := range keys {
		fmt.Fprintf(w, "%-20s %6d known: %s\n", "", reasons[r], r)
	}
}

func caseName(c *tensor.Case) string {
	if c.ID != "" {
		return c.ID
	}
	return "(no id)"
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat(" ", n-len(s))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// profileRank orders profiles as the case format lists them.
func profileRank(name string) int {
	for i, p := range tensor.Profiles {
		if p == name {
			return i
		}
	}
	return len(tensor.Profiles)
}

// containsAll reports whether every one of xs is in list.
func containsAll(list, xs []string) bool {
	for _, x := range xs {
		if !contains(list, x) {
			return false
		}
	}
	return true
}
