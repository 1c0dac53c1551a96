package props

import (
	"math"
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/tensor"
)

// wrongNegEngine is the CPU engine with one deliberately wrong rule: float
// neg computed as 0 - x, which turns -(+0) into +0 instead of -0.
type wrongNegEngine struct{ *cpu.Engine }

func (w wrongNegEngine) Eval(p string, c *tensor.Case) tensor.Outcome {
	out := w.Engine.Eval(p, c)
	if c.Op != "neg" || out.Form != tensor.FormValue || !out.Value.DType.IsFloat() {
		return out
	}
	v := out.Value.Clone()
	for i := 0; i < v.Len(); i++ {
		if x := c.Args[0].Tensor; x.Float(i) == 0 && !math.Signbit(x.Float(i)) {
			v.SetFloat(i, 0) // the bug: 0 - (+0) = +0
		}
	}
	return tensor.ValueOutcome(v)
}

// TestDifferentialPropertyCanFail shows the differential property is not
// vacuous: against an engine with a wrong rule it fails, and the case it
// reports shrinks to a single element.
func TestDifferentialPropertyCanFail(t *testing.T) {
	eng := wrongNegEngine{cpu.New()}
	var found *Finding
	for seed := 0; seed < 5000 && found == nil; seed++ {
		c := GenCase(CaseOptions{Ops: []string{"neg"}}).Example(seed)
		if eng.Supports("numpy", c) {
			found = Differential(eng, "numpy", c)
		}
	}
	if found == nil {
		t.Fatal("the differential check never saw the planted bug")
	}
	shrunk := Shrink(found.Case, func(c *tensor.Case) bool {
		f := Differential(eng, "numpy", c)
		return f != nil && f.Compare.Divergence == found.Compare.Divergence
	})
	if n := shrunk.Args[0].Tensor.Len(); n != 1 || shrunk.Args[0].Tensor.Rank() > 1 {
		t.Errorf("shrunk to %s, want one element", shrunk.Describe())
	}
	if found.Compare.Divergence != tensor.DiffZeroSign {
		t.Errorf("divergence %q, want %q", found.Compare.Divergence, tensor.DiffZeroSign)
	}
	t.Logf("found on %s, shrunk to %s", found.Case.Describe(), shrunk.Describe())
}
