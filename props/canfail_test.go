package props

import (
	"math"
	"strings"
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

// shortResultEngine is the CPU engine whose neg returns a tensor holding
// one element fewer than its shape: a malformed outcome.
type shortResultEngine struct{ *cpu.Engine }

func (s shortResultEngine) Eval(p string, c *tensor.Case) tensor.Outcome {
	out := s.Engine.Eval(p, c)
	if c.Op == "neg" && out.Form == tensor.FormValue && out.Value.Len() > 0 {
		v := out.Value.Clone()
		v.Data = v.Data[:len(v.Data)-1]
		return tensor.ValueOutcome(v)
	}
	return out
}

// TestMalformedOutcomeIsTheBackendsBug: a backend outcome that cannot be
// read (a tensor shorter than its shape) is a finding of a backend bug,
// not a crash of the comparison or of the report that encodes it.
func TestMalformedOutcomeIsTheBackendsBug(t *testing.T) {
	c := &tensor.Case{Op: "neg", Args: []tensor.Arg{{Tensor: tensor.New(tensor.I32, 3)}}}
	f := Check(shortResultEngine{cpu.New()}, "numpy", c)
	if !f.Failed() || !f.Panicked || !strings.Contains(f.Got.Message(), "malformed") {
		t.Fatalf("got %s (panicked %t), want a malformed-outcome finding", f.Got, f.Panicked)
	}
	if b := tensor.EncodeCase(&tensor.Case{Op: "neg", Args: c.Args, Got: tensor.Outcomes{{Profile: "numpy", Outcome: f.Got}}}); len(b) == 0 {
		t.Fatal("the finding does not encode")
	}
}
