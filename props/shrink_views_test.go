package props

import (
	"slices"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/tensor"
)

// permBlindEngine is the CPU engine reading a permuted view's storage as if
// it were not permuted: the bug of a kernel that ignores strides.
type permBlindEngine struct{ *cpu.Engine }

func (w permBlindEngine) Eval(p string, c *tensor.Case) tensor.Outcome {
	d := *c
	d.Args = append([]tensor.Arg(nil), c.Args...)
	for i, a := range d.Args {
		if t := a.Tensor; t != nil && t.View != nil && t.View.Permute != nil && !isIdentity(t.View.Permute) {
			blind := &tensor.Tensor{DType: t.DType, Shape: t.Shape, Data: t.Data}
			if len(t.Data) < t.Len() {
				continue
			}
			d.Args[i].Tensor = blind
		}
	}
	return w.Engine.Eval(p, &d)
}

// negAfterStepEngine gets programs wrong: a neg step reading an earlier
// step's result returns it unchanged.
type negAfterStepEngine struct{ *cpu.Engine }

func (w negAfterStepEngine) Eval(p string, c *tensor.Case) tensor.Outcome {
	if !c.IsProgram() {
		return w.Engine.Eval(p, c)
	}
	vals := make([]*tensor.Tensor, len(c.Steps))
	var out tensor.Outcome
	for j, s := range c.Steps {
		sc := c.StepCase(j, vals)
		if s.Op == "neg" && s.Args[0].From == tensor.FromStep {
			out = tensor.ValueOutcome(sc.Args[0].Tensor)
		} else {
			out = w.Engine.Eval(p, sc)
		}
		if out.Form != tensor.FormValue {
			return out
		}
		vals[j] = out.Value
	}
	return out
}

// findAndShrink draws cases until one fails on eng, then shrinks it.
func findAndShrink(t *testing.T, eng tensor.Backend, profile string, opts CaseOptions, want func(*tensor.Case) bool) (found, shrunk *tensor.Case) {
	t.Helper()
	g := NewGen(opts)
	var f *Finding
	for seed := uint64(0); seed < 20000 && f == nil; seed++ {
		c, _ := g.Draw(NewStream(seed), Aim{Profile: profile})
		if want(c) && eng.Supports(profile, c) {
			f = Differential(eng, profile, c)
		}
	}
	if f == nil {
		t.Fatal("the planted bug was never seen")
	}
	s := Shrink(f.Case, func(c *tensor.Case) bool {
		g := Differential(eng, profile, c)
		return g != nil && g.Compare.Divergence == f.Compare.Divergence
	})
	return f.Case, s
}

func TestShrinkKeepsAViewTheDivergenceNeeds(t *testing.T) {
	permuted := func(c *tensor.Case) bool {
		for _, a := range c.Args {
			if a.Tensor != nil && a.Tensor.View != nil && a.Tensor.View.Permute != nil && !isIdentity(a.Tensor.View.Permute) && a.Tensor.Len() > 4 {
				return !c.IsProgram()
			}
		}
		return false
	}
	found, shrunk := findAndShrink(t, permBlindEngine{cpu.New()}, "numpy", CaseOptions{Ops: []string{"neg", "abs", "add"}, Views: true}, permuted)
	t.Logf("found on %s\nshrunk to %s", found.Describe(), shrunk.Describe())
	var view *tensor.Tensor
	elems := 0
	for _, a := range shrunk.Args {
		if a.Tensor != nil {
			elems += a.Tensor.Len()
			if a.Tensor.View != nil {
				view = a.Tensor
			}
		}
	}
	if view == nil || view.View.Permute == nil {
		t.Fatalf("the shrunk case lost the permuted view the divergence needs: %s", shrunk.Describe())
	}
	if view.Len() > 4 || elems > 5 || view.Rank() != 2 {
		t.Errorf("shrunk to %d elements, a view of rank %d: want a permuted 2-D view of 4 elements (and one partner)", elems, view.Rank())
	}
	// A permutation shows on 4 elements of a 2 x 2 view; with a slice, on
	// one element of a larger storage (fewer elements weigh less). Either
	// is minimal; a slice beside 4 elements, or a broadcast, is not.
	if view.View.Slice != nil && view.Len() >= 4 || view.View.Expand != nil {
		t.Errorf("the view kept steps the divergence does not need: %s", view.View)
	}
}

func TestShrinkTurnsViewsContiguous(t *testing.T) {
	eng := wrongNegEngine{cpu.New()}
	hasView := func(c *tensor.Case) bool { return hasViewArg(c) && c.Op == "neg" }
	found, shrunk := findAndShrink(t, eng, "numpy", CaseOptions{Ops: []string{"neg"}, Views: true, Programs: -1}, hasView)
	t.Logf("found on %s\nshrunk to %s", found.Describe(), shrunk.Describe())
	if hasViewArg(shrunk) || shrunk.Args[0].Tensor.Len() != 1 {
		t.Errorf("shrunk to %s, want one contiguous element", shrunk.Describe())
	}
}

func TestShrinkDropsSteps(t *testing.T) {
	longNeg := func(c *tensor.Case) bool {
		if len(c.Steps) < 3 {
			return false
		}
		for _, s := range c.Steps[1:] {
			if s.Op == "neg" && s.Args[0].From == tensor.FromStep {
				return true
			}
		}
		return false
	}
	found, shrunk := findAndShrink(t, negAfterStepEngine{cpu.New()}, "pytorch/cpu",
		CaseOptions{Ops: []string{"neg", "abs", "square", "add", "mul", "cast"}, Programs: 1}, longNeg)
	t.Logf("found on %s\nshrunk to %s", found.Describe(), shrunk.Describe())
	// the first step's inputs stay (the shrinker changes no op): one, or
	// two of a binary op, each of one element
	oneElement := func(a tensor.Arg) bool { return a.Tensor == nil || a.Tensor.Len() == 1 }
	if len(shrunk.Steps) != 2 || shrunk.Steps[1].Op != "neg" || len(shrunk.Args) > 2 || !oneElement(shrunk.Args[0]) || !oneElement(shrunk.Args[len(shrunk.Args)-1]) {
		t.Errorf("shrunk to %s, want a step and neg of it, on one element per input", shrunk.Describe())
	}
	if !strings.HasPrefix(shrunk.Describe(), "program(") {
		t.Errorf("shrunk to a single op: %s", shrunk.Describe())
	}
}

func TestDropStepReadsTheFirstTensorArgument(t *testing.T) {
	c, err := tensor.ParseCase("program(i8[2] [1, 2], i8[2] [3, 4]): add(arg1, arg0); neg(step0); mul(step1, step0)")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		k    int
		want string
	}{
		{2, "program(i8[2] [3, 4], i8[2] [1, 2]): add(arg0, arg1); neg(step0)"},
		{1, "program(i8[2] [3, 4], i8[2] [1, 2]): add(arg0, arg1); mul(step0, step0)"},
		{0, "program(i8[2] [3, 4]): neg(arg0); mul(step0, arg0)"},
	}
	for _, tt := range tests {
		d := dropStep(c, tt.k)
		if got := normalizeInputs(d).Describe(); got != tt.want {
			t.Errorf("dropping step %d: %s, want %s", tt.k, got, tt.want)
		}
	}
	one := singleOp(dropStep(dropStep(c, 2), 1))
	if got, want := one.Describe(), "add(i8[2] [3, 4], i8[2] [1, 2])"; got != want {
		t.Errorf("a program of one step became %s, want %s", got, want)
	}
}

// normalizeInputs reorders a program's inputs by first use, to compare it.
func normalizeInputs(c *tensor.Case) *tensor.Case {
	d := cloneCase(c)
	order := []int{}
	seen := map[int]int{}
	for j := range d.Steps {
		for i, a := range d.Steps[j].Args {
			if a.From != tensor.FromInput {
				continue
			}
			if _, ok := seen[a.Index]; !ok {
				seen[a.Index] = len(order)
				order = append(order, a.Index)
			}
			d.Steps[j].Args[i].Index = seen[a.Index]
		}
	}
	args := make([]tensor.Arg, len(order))
	for k, i := range order {
		args[k] = c.Args[i]
	}
	d.Args = args
	return d
}

func TestSignatureTellsViewsAndProgramsApart(t *testing.T) {
	sig := func(text string) string {
		c, err := tensor.ParseCase(text)
		if err != nil {
			t.Fatal(err)
		}
		return (&Finding{Profile: "numpy", Case: c, Compare: tensor.Comparison{Divergence: tensor.DiffValue}}).Signature()
	}
	plain := sig("neg(f32[2] [1, 2])")
	view := sig("neg(view(f32[3] [1, 0, 2], slice=[0:3:2]))")
	prog := sig("program(f32[2] [1, 2]): abs(arg0); neg(step0)")
	if plain == view || plain == prog || view == prog {
		t.Errorf("signatures do not tell them apart: %q, %q, %q", plain, view, prog)
	}
	if want := "numpy program:abs>neg(f32) value"; prog != want {
		t.Errorf("program signature %q, want %q", prog, want)
	}
	if want := "numpy neg(f32/view) value"; view != want {
		t.Errorf("view signature %q, want %q", view, want)
	}
}

// TestDrawnViewsHoldTheirElements: a drawn view of x reads x's elements
// (those at index 0 along the dims it broadcasts), whatever its storage
// holds elsewhere, and decodes from its file to the same elements and
// strides.
func TestDrawnViewsHoldTheirElements(t *testing.T) {
	g := NewGen(CaseOptions{Views: true, Programs: -1})
	views := 0
	for seed := uint64(0); seed < 3000; seed++ {
		d := &draw{src: NewStream(seed)}
		x := g.elements(d, pick(d, []tensor.DType{tensor.I32, tensor.F64, tensor.C64}), g.smallShape(d, 0), bias{})
		v := d.view(x, true)
		if v.View == nil {
			continue
		}
		views++
		bcast := map[int]bool{}
		lead := v.Rank() - len(v.View.Base)
		for k := 0; k < v.Rank(); k++ {
			bcast[k] = k < lead || v.Strides[k] == 0
		}
		idx := make([]int, v.Rank())
		for i := 0; i < v.Len(); i++ {
			rem, src := i, 0
			for k := v.Rank() - 1; k >= 0; k-- {
				idx[k] = rem % v.Shape[k]
				rem /= v.Shape[k]
			}
			for k := range idx {
				j := idx[k]
				if bcast[k] {
					j = 0
				}
				src = src*x.Shape[k] + j
			}
			if v.ElementString(i) != x.ElementString(src) {
				t.Fatalf("seed %d: %s element %d is %s, want %s (x = %s)", seed, v.Notation(), i, v.ElementString(i), x.ElementString(src), x.Notation())
			}
		}
		c := &tensor.Case{Op: "neg", Args: []tensor.Arg{{Tensor: v}}}
		back, err := tensor.DecodeCase(tensor.EncodeCase(c))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		w := back.Args[0].Tensor
		if w.View == nil || w.Notation() != v.Notation() || !slices.Equal(w.Strides, v.Strides) || w.Offset != v.Offset {
			t.Fatalf("seed %d: %s read back as %s", seed, v.Notation(), w.Notation())
		}
	}
	if views < 1000 {
		t.Errorf("only %d views drawn of 3000", views)
	}
}
