package metal

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestSeedCases replays every case of corpus/seeds that states an outcome
// for candle/metal through the simulated device and compares it with that
// expectation directly (no model in between): the Metal rows of the seed
// documents are the ground truth the simulator must reproduce. A case the
// backend does not support is listed, and must be one of the host-side ops
// it does not simulate (creation ops, to_host).
func TestSeedCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "corpus", "seeds", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed files: %v", err)
	}
	b := NewSim()
	var problems []string
	checked, declined := 0, 0
	for _, f := range files {
		cases, err := tensor.ReadFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range cases {
			want, ok := c.Expect.Get(Profile)
			if !ok {
				continue
			}
			if !b.Supports(Profile, c) {
				declined++
				if op, _ := tensor.LookupOp(c.Op); simulatedClasses[op.Class] {
					problems = append(problems, c.ID+": declined, but its op is simulated")
				}
				t.Logf("%s (%s): not simulated", c.ID, c.Op)
				continue
			}
			checked++
			got := b.Eval(Profile, c)
			if cmp := tensor.Compare(want, got, c.Attrs.ToleranceULPs); !cmp.Match() {
				problems = append(problems, c.ID+": "+c.Describe()+"\n    want "+want.String()+"\n    got  "+got.String())
				continue
			}
			if got.Form == tensor.FormValue && got.Value.HasUnspecified() {
				problems = append(problems, c.ID+": the simulator left elements unspecified: "+got.String())
			}
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Errorf("%d seed cases disagree:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	t.Logf("%d candle/metal seed cases replayed, %d not simulated", checked, declined)
	if checked < 20 {
		t.Errorf("only %d seed cases replayed", checked)
	}
}
