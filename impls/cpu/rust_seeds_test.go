package cpu

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestRustProfilesReplaySeeds replays every case of corpus/seeds that has an
// expectation for a Rust profile (candle, burn, tenferro) through the engine
// and compares the outcome with the expectation the seed documents printed.
// Every such case must be supported: a seed example is evidence the engine
// has no reason to decline. It reports one error listing every violation
// and logs the count per profile.
func TestRustProfilesReplaySeeds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "corpus", "seeds", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed files: %v", err)
	}
	rust := map[string]bool{}
	for _, p := range append(append(append([]*profile{}, candleProfiles...), burnProfiles...), tenferroProfiles...) {
		rust[p.name] = true
	}
	engines := []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1))}
	counts := map[string]int{}
	var problems []string
	for _, f := range files {
		cases, err := tensor.ReadFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range cases {
			for _, pe := range c.Expect {
				if !rust[pe.Profile] {
					continue
				}
				where := fmt.Sprintf("%s %s [%s]", filepath.Base(f), c.ID, pe.Profile)
				for _, e := range engines {
					if !e.Supports(pe.Profile, c) {
						problems = append(problems, where+": declined")
						break
					}
					got := e.Eval(pe.Profile, c)
					if cmp := tensor.Compare(pe.Outcome, got, c.Attrs.ToleranceULPs); !cmp.Match() {
						problems = append(problems, fmt.Sprintf("%s: want %s, got %s (%s)", where, pe.Outcome, got, cmp.Detail))
						break
					}
				}
				counts[pe.Profile]++
			}
		}
	}
	var names []string
	for p := range counts {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		t.Logf("%-20s %3d seed cases replayed", p, counts[p])
	}
	if len(names) == 0 {
		t.Error("no seed case has an expectation for a Rust profile")
	}
	if len(problems) > 0 {
		t.Errorf("%d seed cases diverge:\n%s", len(problems), strings.Join(problems, "\n"))
	}
}
