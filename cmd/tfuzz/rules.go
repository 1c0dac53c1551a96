package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

const rulesUsage = `usage: tfuzz rules [--open] [PREFIX] [FILE|DIR...]

Lists the model's rules with their sources (with PREFIX, those whose name
starts with it: "numpy."). Rules that may leave elements
unspecified ("?") are marked open. With case files (a DIR stands for the
.jsonl files below it), every case is evaluated under the profiles of its
expect (every profile when it has none), and each open rule shows how many
"?" elements it produced there; a table per profile follows. Elements whose
outcome names several open rules are counted for that combination.
`

// unspecifiedTally counts the "?" elements the model produced over case files.
type unspecifiedTally struct {
	byRule     map[string]int // attribution ("a" or "a + b") -> elements
	outcomes   map[string]int // attribution -> outcomes with "?" elements
	byProfile  map[string]int // profile -> elements
	perProfile map[string]int // profile -> outcomes evaluated
}

func runRules(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var openOnly bool
	fl := newFlags("rules", rulesUsage, stdout, stderr)
	fl.BoolVar(&openOnly, "open", false, `list only the rules that may leave elements unspecified ("?")`)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	var prefix string
	var paths []string
	for _, a := range fl.Args() {
		if _, err := os.Stat(a); err == nil || strings.ContainsRune(a, os.PathSeparator) || strings.HasSuffix(a, ".jsonl") {
			paths = append(paths, a)
			continue
		}
		if prefix != "" {
			return fl.fail("want at most one PREFIX, got %q and %q", prefix, a)
		}
		prefix = a
	}
	var tally *unspecifiedTally
	if len(paths) > 0 {
		files, err := caseFiles(paths)
		if err != nil {
			return fl.errorf("%v", err)
		}
		if tally, err = countUnspecified(ctx, files); err != nil {
			return fl.errorf("%v", err)
		}
	}
	n := 0
	for _, r := range model.Rules() {
		if openOnly && !r.Open || !strings.HasPrefix(r.Name, prefix) {
			continue
		}
		n++
		fmt.Fprintf(stdout, "%s\n    %s\n    source: %s\n", r.Name, r.Doc, r.Source)
		if r.Open {
			line := `    open: may leave elements unspecified ("?")`
			if tally != nil {
				line += fmt.Sprintf("; over the files: %d elements in %d outcomes", tally.byRule[r.Name], tally.outcomes[r.Name])
			}
			fmt.Fprintln(stdout, line)
		}
	}
	if n == 0 {
		return fl.errorf("no rule starts with %q", prefix)
	}
	if tally != nil {
		tally.print(stdout)
	}
	return exitClean
}

// unattributed stands for the open rule of "?" elements that no open rule
// claims: a defect of the model.
const unattributed = "(no open rule: a defect of the model)"

// countUnspecified evaluates every case of files under its profiles.
func countUnspecified(ctx context.Context, files []string) (*unspecifiedTally, error) {
	t := &unspecifiedTally{byRule: map[string]int{}, outcomes: map[string]int{}, byProfile: map[string]int{}, perProfile: map[string]int{}}
	for _, f := range files {
		cases, err := tensor.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for _, p := range profilesFor(c, nil) {
				t.perProfile[p]++
				n, by := model.UnspecifiedElements(model.Eval(p, c))
				if n == 0 {
					continue
				}
				if by == "" {
					by = unattributed
				}
				t.byRule[by] += n
				t.outcomes[by]++
				t.byProfile[p] += n
			}
		}
	}
	return t, nil
}

func (t *unspecifiedTally) print(w io.Writer) {
	fmt.Fprintf(w, "\n\"?\" elements the model produced over the files, per profile:\n")
	fmt.Fprintf(w, "%-20s %9s %12s\n", "profile", "outcomes", "?-elements")
	profiles := make([]string, 0, len(t.perProfile))
	for p := range t.perProfile {
		profiles = append(profiles, p)
	}
	sort.SliceStable(profiles, func(i, j int) bool { return profileRank(profiles[i]) < profileRank(profiles[j]) })
	total := 0
	for _, p := range profiles {
		fmt.Fprintf(w, "%-20s %9d %12d\n", p, t.perProfile[p], t.byProfile[p])
		total += t.byProfile[p]
	}
	fmt.Fprintf(w, "%-20s %9s %12d\n", "total", "", total)
	var joint []string
	for by := range t.byRule {
		if strings.Contains(by, " + ") || strings.HasPrefix(by, "(") {
			joint = append(joint, by)
		}
	}
	if len(joint) == 0 {
		return
	}
	sort.Strings(joint)
	fmt.Fprintf(w, "\nelements of outcomes that name several open rules (or none):\n")
	for _, by := range joint {
		fmt.Fprintf(w, "  %6d in %4d outcomes  %s\n", t.byRule[by], t.outcomes[by], by)
	}
}
