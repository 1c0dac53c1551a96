package main

import (
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestCaseCostBoundsResults: the result of every case, under every
// profile, has no more elements than tensor.CaseCost says before it is
// evaluated (the budget refuses cases by that bound, so an underestimate
// would let a case past it). Every recorded, seed and regression case under
// the profiles it names, and generated cases of every op under every profile.
func TestCaseCostBoundsResults(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, c *tensor.Case, profiles []string) {
		bound := tensor.CaseCost(c).ResultElements
		for _, p := range profiles {
			if out := model.Eval(p, c); out.Form == tensor.FormValue && int64(out.Value.Len()) > bound {
				t.Fatalf("%s under %s: %d result elements, CaseCost says at most %d", c.Describe(), p, out.Value.Len(), bound)
			}
		}
	}
	files, _ := filepath.Glob("../../corpus/*/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, f := range files {
		cases, err := tensor.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			check(t, c, profilesFor(c, nil))
		}
	}
	gen := props.GenCase(props.CaseOptions{Views: true})
	rapid.Check(t, func(t *rapid.T) { check(t, gen.Draw(t, "case"), model.Names()) })
}
