package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

const rulesUsage = `usage: tfuzz rules [--open] [FILE|DIR...]

Lists the model's rules with their sources. Rules that may leave elements
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

func runRules(args []string, stdout, stderr io.Writer) int {
	var openOnly bool
	fl := pflag.NewFlagSet("rules", pflag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, rulesUsage, "\nflags:\n", fl.FlagUsages()) }
	fl.BoolVar(&openOnly, "open", false, `list only the rules that may leave elements unspecified ("?")`)
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "tfuzz rules: %v\n", err)
		return exitUsage
	}
	var tally *unspecifiedTally
	if fl.NArg() > 0 {
		files, err := caseFiles(fl.Args())
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz rules: %v\n", err)
			return exitUsage
		}
		if tally, err = countUnspecified(files); err != nil {
			fmt.Fprintf(stderr, "tfuzz rules: %v\n", err)
			return exitUsage
		}
	}
	for _, r := range model.Rules() {
		if openOnly && !r.Open {
			continue
		}
		fmt.Fprintf(stdout, "%s\n    %s\n    source: %s\n", r.Name, r.Doc, r.Source)
		if r.Open {
			line := `    open: may leave elements unspecified ("?")`
			if tally != nil {
				line += fmt.Sprintf("; over the files: %d elements in %d outcomes", tally.byRule[r.Name], tally.outcomes[r.Name])
			}
			fmt.Fprintln(stdout, line)
		}
	}
	if tally != nil {
		tally.print(stdout)
	}
	return exitClean
}

// countUnspecified evaluates every case of files under its profiles.
func countUnspecified(files []string) (*unspecifiedTally, error) {
	t := &unspecifiedTally{byRule: map[string]int{}, outcomes: map[string]int{}, byProfile: map[string]int{}, perProfile: map[string]int{}}
	for _, f := range files {
		cases, err := tensor.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			for _, p := range profilesFor(c, nil) {
				t.perProfile[p]++
				n, by := model.UnspecifiedElements(model.Eval(p, c))
				if n == 0 {
					continue
				}
				if by == "" {
					by = "(no open rule: a defect of the model)"
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
