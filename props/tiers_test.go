package props

import (
	"slices"
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestEveryTierIsDrawn: campaigns (Gen.Draw) and fuzz inputs (DrawTierFor)
// draw every tier of the CPU engine, the goroutine split and the streaming
// stores included, and a tier case has at least the tier's size less one.
func TestEveryTierIsDrawn(t *testing.T) {
	tiers := TiersOf(cpu.New())
	g := NewGen(CaseOptions{})
	drawn := make([]int, len(tiers))
	fuzzDrawn := make([]int, len(tiers))
	for i := uint64(0); i < 120_000; i++ {
		c, k := g.Draw(NewStream(i), Aim{Profile: "numpy", Tiers: tiers})
		if k < 0 {
			continue
		}
		if drawn[k]++; drawn[k] <= 3 {
			if n := largest(c); n < tiers[k].Elements-1 {
				t.Errorf("a %s case of %d elements (%s)", tiers[k].Name(), n, c.Op)
			}
		}
	}
	for i := uint64(0); i < 100_000; i++ {
		for _, op := range []string{"add", "sum", "cumsum", "sort", "matmul", "cat"} {
			if k := DrawTierFor(NewStream(i), tiers, op); k >= 0 {
				fuzzDrawn[k]++
			}
		}
	}
	for k := range tiers {
		t.Logf("%-22s %8d elements: %6d campaign cases per 120,000, %6d fuzz twins per 100,000 for each of add, sum, cumsum, sort, matmul, cat", tiers[k].Name(), tiers[k].Elements, drawn[k], fuzzDrawn[k])
		switch {
		case fuzzDrawn[k] == 0:
			t.Errorf("tier %s is never drawn for a fuzz input", tiers[k].Name())
		case drawn[k] == 0 && tiers[k].Elements <= 1<<16: // the streaming stores' 2^20 are drawn a few times a million
			t.Errorf("tier %s is never drawn in a campaign", tiers[k].Name())
		}
	}
}

// TestEnlargeReachesTheTier: a small case grown to a tier (a fuzz target's
// twin) has the tier's size, keeps its op, attrs and dtypes, and takes its
// elements from the small case.
func TestEnlargeReachesTheTier(t *testing.T) {
	tiers := TiersOf(cpu.New())
	small := func(op string) *tensor.Case {
		a := tensor.New(tensor.I8, 2, 3)
		b := tensor.New(tensor.I8, 3)
		for i := 0; i < 6; i++ {
			a.SetInt(i, int64(i-3))
		}
		for i := 0; i < 3; i++ {
			b.SetInt(i, 7)
		}
		c := &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: a}}}
		if op == "add" {
			c.Args = append(c.Args, tensor.Arg{Tensor: b})
		}
		dim := 1
		c.Attrs.Dim = &dim
		return c
	}
	for k := range tiers {
		for _, op := range []string{"add", "sum", "cumsum", "sort"} {
			if !tiers[k].reaches(op) || !tiers[k].holds(tensor.I8) {
				continue
			}
			c := small(op)
			x := Enlarge(c, &tiers[k], NewStream(uint64(k)))
			if x == nil {
				t.Fatalf("%s: no twin of %s", tiers[k].Name(), c.Describe())
			}
			a := x.Args[0].Tensor
			if a.Len() < tiers[k].Elements-1 || a.Rank() != 2 || a.Shape[0] != 2 || a.DType != tensor.I8 || *x.Attrs.Dim != 1 {
				t.Errorf("%s: %s grew to %v %s", tiers[k].Name(), op, a.Shape, a.DType)
			}
			if op == "add" && x.Args[1].Tensor.Shape[0] != a.Shape[1] {
				t.Errorf("%s: the broadcast partner has shape %v against %v", tiers[k].Name(), x.Args[1].Tensor.Shape, a.Shape)
			}
			for i := 0; i < a.Len(); i += 997 {
				if v := a.Int(i); v < -3 || v > 2 {
					t.Fatalf("%s: element %d is %d, not one of the small case's", tiers[k].Name(), i, v)
				}
			}
		}
	}
}

func largest(c *tensor.Case) int {
	n := 0
	for _, a := range c.Args {
		if a.Tensor != nil {
			n = max(n, a.Tensor.Len())
		}
	}
	return n
}

// TestTiersKeepToTheirPath: a target draws only the tiers whose path its
// profile takes (no streaming-store tier for candle), and a tier case's
// main input has a dtype the tier's path takes (i64 or f32 for the
// streaming stores, floats for the pairwise blocks).
func TestTiersKeepToTheirPath(t *testing.T) {
	eng := cpu.New()
	g := NewGen(CaseOptions{})
	for _, p := range []string{"numpy", "pytorch/cpu", "candle/cpu-release", "burn/flex-debug"} {
		tiers := TiersFor(eng, p)
		for _, tier := range tiers {
			if tier.Profiles != nil && !slices.Contains(tier.Profiles, p) {
				t.Errorf("%s: drew tier %s, whose path it does not take", p, tier.Name())
			}
		}
		for i := uint64(0); i < 40_000; i++ {
			c, k := g.Draw(NewStream(i), Aim{Profile: p, Tiers: tiers})
			if k < 0 || c.IsProgram() || len(c.Args) == 0 || c.Args[0].Tensor == nil {
				continue
			}
			if dt := c.Args[0].Tensor.DType; !tiers[k].holds(dt) {
				t.Errorf("%s: a %s case of %s, whose path it does not take", p, tiers[k].Name(), dt)
			}
		}
	}
	if slices.ContainsFunc(TiersFor(eng, "candle/cpu-release"), func(t Tier) bool { return t.Name() == "streaming stores" }) {
		t.Error("candle's targets draw the streaming-store tier of the Python binary family")
	}
}
