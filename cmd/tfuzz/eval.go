package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tfuzz/tfuzz/impls/adapter"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

const evalUsage = `usage: tfuzz eval [--profile P]... [--check] [--json] [--op OP]... [--backend B] FILE...

Evaluates every case of the case files (a FILE may be a directory of .jsonl
files) under the given profiles: by default the profiles in each case's
expect, or every profile when it has none. Prints a table, or with --json
each case in case format with "got" added.

With --backend, the cases are evaluated by that backend instead of the
model, under the profiles it serves: a registered backend, or exec:COMMAND,
a real framework behind an adapter (impls/adapter/PROTOCOL.md), e.g.
  tfuzz eval --check --backend exec:'python3 impls/adapter/python/tfuzz_adapter.py' FILE
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
}

func runEval(args []string, stdout, stderr io.Writer) int {
	var o evalOptions
	fl := pflag.NewFlagSet("eval", pflag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, evalUsage, "\nflags:\n", fl.FlagUsages()) }
	fl.StringArrayVarP(&o.profiles, "profile", "p", nil, "evaluate under this profile (repeatable)")
	fl.BoolVar(&o.check, "check", false, "compare with each case's expect; exit 1 on any mismatch")
	fl.BoolVar(&o.json, "json", false, `write each case back in case format with "got" added`)
	fl.StringArrayVar(&o.ops, "op", nil, "only cases of this op (repeatable)")
	fl.IntVar(&o.maxDiffs, "max-diffs", 10, "mismatches shown per profile with --check")
	fl.BoolVar(&o.summaryOnly, "summary-only", false, "with --check, print only the mismatches and the summary")
	fl.BoolVar(&o.columns, "columns", false, "print one row per case and one column per profile (default with 2 to 5 --profile flags)")
	fl.StringVar(&o.backendName, "backend", "", "evaluate with this backend instead of the model (a registered name, or exec:COMMAND)")
	fl.StringArrayVar(&o.exceptions, "exceptions", nil, "with --check, a file of known differences (case-id profile reason) to excuse (repeatable)")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "tfuzz eval: %v\n", err)
		return exitUsage
	}
	if fl.NArg() == 0 {
		fmt.Fprint(stderr, "tfuzz eval: no case files given\n\n")
		fl.Usage()
		return exitUsage
	}
	for _, p := range o.profiles {
		if _, ok := model.Lookup(p); !ok {
			fmt.Fprintf(stderr, "tfuzz eval: --profile: unknown profile %q (see tfuzz profiles)\n", p)
			return exitUsage
		}
	}
	for _, op := range o.ops {
		if _, ok := tensor.LookupOp(op); !ok {
			fmt.Fprintf(stderr, "tfuzz eval: --op: unknown op %q (see tfuzz ops)\n", op)
			return exitUsage
		}
	}
	files, err := caseFiles(fl.Args())
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz eval: %v\n", err)
		return exitUsage
	}
	var cases []*tensor.Case
	for _, f := range files {
		cs, err := tensor.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz eval: %v\n", err)
			return exitUsage
		}
		for _, c := range cs {
			if len(o.ops) == 0 || contains(o.ops, c.Op) {
				cases = append(cases, c)
			}
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
				fmt.Fprintf(stderr, "tfuzz eval: --profile: backend %s does not serve %q (it serves %v)\n", b.Name(), p, b.Profiles())
				return exitUsage
			}
		}
		o.backend = b
		fmt.Fprintf(stderr, "tfuzz eval: backend %s\n", describeBackend(b))
	}
	code := evalCases(cases, o, excused, stdout)
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
		for _, n := range h.Notes {
			s += "\n  note: " + n
		}
	}
	return s
}

// evalOne is the outcome of c under profile p: the model's, or the backend's
// (a Go panic of the backend becomes a panic outcome that says so).
func evalOne(o evalOptions, p string, c *tensor.Case) tensor.Outcome {
	if o.backend == nil {
		return model.Eval(p, c)
	}
	if !o.backend.Supports(p, c) {
		return tensor.UnsupportedOutcome("tfuzz: backend %s does not support this case", o.backend.Name())
	}
	got, _, _ := props.SafeEval(o.backend, p, c)
	return got
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
	excused, staleExcuses        int // mismatches listed as known differences; listed cases that match
	throughUnspecified           int // matched cases where some element matched only through "?"
	unspecifiedElements          int
	diffs                        []string
	reasons                      map[string]int // excused cases by reason
}

func evalCases(cases []*tensor.Case, o evalOptions, excused exceptions, stdout io.Writer) int {
	tallies := map[string]*tally{}
	var order []string
	for _, c := range cases {
		profiles := profilesFor(c, o.profiles)
		if o.backend != nil {
			profiles = servedProfiles(o.backend, profiles)
		}
		c.Got = nil
		quiet := o.json || o.columns || (o.check && o.summaryOnly)
		if !quiet {
			fmt.Fprintf(stdout, "%s  %s\n", caseName(c), c.Describe())
		}
		for _, p := range profiles {
			got := evalOne(o, p, c)
			c.Got.Set(p, got)
			line := "  " + padRight(p, 20) + " " + got.String()
			if o.check {
				t := tallies[p]
				if t == nil {
					t = &tally{}
					tallies[p] = t
					order = append(order, p)
				}
				want, ok := c.Expect.Get(p)
				if !ok {
					t.missing++
					line += "   (no expectation)"
				} else {
					cmp := tensor.Compare(want, got, c.Attrs.ToleranceULPs)
					reason, isExcused := excused[exceptionKey{c.ID, p}]
					switch {
					case isExcused && cmp.Match():
						t.matched++
						t.staleExcuses++
						line += "   ok (listed as a known difference: remove it)"
					case isExcused:
						t.excused++
						if t.reasons == nil {
							t.reasons = map[string]int{}
						}
						t.reasons[reason]++
						line += "   known difference: " + reason
					case cmp.Match():
						t.matched++
						if cmp.ThroughUnspecified > 0 {
							t.throughUnspecified++
							t.unspecifiedElements += cmp.ThroughUnspecified
						}
						line += "   ok"
					default:
						t.mismatched++
						line += "   MISMATCH " + cmp.Detail
						if len(t.diffs) < o.maxDiffs {
							t.diffs = append(t.diffs, fmt.Sprintf("%s %s\n      want %s\n      got  %s\n      %s\n      rules %s",
								caseName(c), c.Describe(), want, got, cmp.Detail, strings.Join(got.Rules, ", ")))
						}
					}
				}
			}
			if !quiet {
				fmt.Fprintln(stdout, line)
			}
		}
		if o.json {
			stdout.Write(tensor.EncodeCase(c))
			fmt.Fprintln(stdout)
		}
	}
	if o.columns {
		printColumns(cases, stdout)
	}
	if !o.check {
		return exitClean
	}
	return printSummary(tallies, order, o, stdout)
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
	fmt.Fprintf(w, "\n%-20s %6s %8s %10s %7s %14s %9s %8s\n",
		"profile", "cases", "matched", "mismatched", "excused", "matched-via-?", "no-expect", "agree")
	for _, p := range order {
		t := tallies[p]
		n := t.matched + t.mismatched + t.excused
		pct := 100.0
		if n > 0 {
			pct = 100 * float64(t.matched) / float64(n)
		}
		fmt.Fprintf(w, "%-20s %6d %8d %10d %7d %14s %9d %7.2f%%\n", p, n, t.matched, t.mismatched, t.excused,
			fmt.Sprintf("%d (%d el)", t.throughUnspecified, t.unspecifiedElements), t.missing, pct)
		if t.mismatched > 0 {
			code = exitDiverged
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
