package props

import (
	"path/filepath"
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/impls/metal"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestRegressions replays corpus/regressions: every finding that was fixed
// keeps its minimal case there, with the expected outcome its evidence
// gives. The model and every backend that claims the profile and supports
// the case must produce it.
func TestRegressions(t *testing.T) { replayCorpus(t, "../corpus/regressions") }

// TestFidelityCases replays corpus/fidelity: cases written by hand from the
// frameworks' sources (each names its file and line), for the classes of
// behaviour the model once got wrong. The model and every backend that
// claims the profile and supports the case must produce them.
func TestFidelityCases(t *testing.T) { replayCorpus(t, "../corpus/fidelity") }

func replayCorpus(t *testing.T, dir string) {
	files, _ := filepath.Glob(dir + "/*.jsonl")
	if len(files) == 0 {
		t.Fatalf("no cases under %s", dir)
	}
	backends := []tensor.Backend{cpu.New(), metal.NewSim()}
	for _, f := range files {
		cases, err := tensor.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			for _, po := range c.Expect {
				check := func(who string, got tensor.Outcome) {
					if cmp := tensor.Compare(po.Outcome, got, c.Tolerance()); !cmp.Match() {
						t.Errorf("%s: %s on %s: %s\n  want %s\n  got  %s", c.ID, who, po.Profile, cmp.Detail, po.Outcome, got)
					}
				}
				check("model", model.Eval(po.Profile, c))
				for _, b := range backends {
					if claims(b, po.Profile) && b.Supports(po.Profile, c) {
						check(b.Name(), b.Eval(po.Profile, c))
					}
				}
			}
		}
	}
}

func claims(b tensor.Backend, profile string) bool {
	for _, p := range b.Profiles() {
		if p == profile {
			return true
		}
	}
	return false
}
