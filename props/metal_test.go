package props

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/impls/metal"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// metalTarget is how many supported cases TestMetalSimMatchesModel checks
// (a fifth with -short).
const metalTarget = 20000

// metalOps are the ops whose candle calls reach the Metal kernels.
func metalOps() []string {
	var ops []string
	for _, op := range tensor.Ops {
		switch op.Class {
		case tensor.ClassBinary, tensor.ClassUnary, tensor.ClassCast, tensor.ClassReduce, tensor.ClassIndexSelect,
			tensor.ClassBroadcast, tensor.ClassWhere, tensor.ClassClamp, tensor.ClassFull,
			tensor.ClassCat, tensor.ClassSort, tensor.ClassMatmul:
			ops = append(ops, op.Name)
		}
	}
	return ops
}

// metalCases draws 55% of its cases from GenCase over the ops that reach
// the Metal kernels (over the six Metal dtypes, over candle's nine, or, one
// time in twenty, over every dtype, which candle mostly cannot hold; one
// time in ten with non-contiguous views as inputs) and the rest from
// metalFocused, which aims at the kernels: candle's own ops, the six Metal
// dtypes, operands that pass candle's shape and dtype checks, few empty
// tensors.
func metalCases() *rapid.Generator[*tensor.Case] {
	candle := []tensor.DType{tensor.U8, tensor.U32, tensor.I16, tensor.I32, tensor.I64,
		tensor.BF16, tensor.F16, tensor.F32, tensor.F64}
	return rapid.Custom(func(t *rapid.T) *tensor.Case {
		switch r := rapid.IntRange(0, 19).Draw(t, "source"); {
		case r == 0:
			return GenCase(CaseOptions{Ops: metalOps()}).Draw(t, "case")
		case r <= 4:
			return GenCase(CaseOptions{Ops: metalOps(), DTypes: candle}).Draw(t, "case")
		case r <= 8:
			return GenCase(CaseOptions{Ops: metalOps(), DTypes: metalCoreDTypes}).Draw(t, "case")
		case r <= 10: // strided, broadcast and offset views: the kernels' layout variants
			return GenCase(CaseOptions{Ops: metalOps(), DTypes: metalCoreDTypes, Views: true}).Draw(t, "case")
		}
		return metalFocused(t)
	})
}

// metalCoreDTypes are the dtypes of candle's Metal kernels.
var metalCoreDTypes = []tensor.DType{tensor.F32, tensor.F16, tensor.BF16, tensor.U8, tensor.U32, tensor.I64}

// metalFocused draws a case of an op candle has, on a Metal dtype.
func metalFocused(t *rapid.T) *tensor.Case {
	op := rapid.SampledFrom([]string{"add", "sub", "mul", "div", "maximum", "minimum", "pow",
		"eq", "ne", "lt", "le", "gt", "ge", "neg", "abs", "sign", "sqrt", "exp", "floor", "ceil", "round",
		"square", "cast", "sum", "mean", "max", "min", "argmax", "argmin", "index_select",
		"broadcast_add", "broadcast_sub", "broadcast_mul", "broadcast_div", "broadcast_maximum", "broadcast_minimum",
		"where", "clamp", "full", "cat", "sort", "argsort", "matmul"}).Draw(t, "op")
	info, _ := tensor.LookupOp(op)
	d := rapid.SampledFrom(metalCoreDTypes).Draw(t, "dtype")
	shape := make([]int, rapid.IntRange(0, 3).Draw(t, "rank"))
	for i := range shape {
		shape[i] = rapid.IntRange(1, 5).Draw(t, "dim")
		if rapid.IntRange(0, 15).Draw(t, "empty") == 0 {
			shape[i] = 0
		}
	}
	a := genElements(t, d, shape, "a")
	c := &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: a}}}
	switch info.Class {
	case tensor.ClassBinary:
		if rapid.IntRange(0, 3).Draw(t, "scalar") == 0 {
			s := genScalar(t)
			c.Args = append(c.Args, tensor.Arg{Scalar: s})
			if rapid.IntRange(0, 3).Draw(t, "scalar on the left") == 0 {
				c.Args[0], c.Args[1] = c.Args[1], c.Args[0]
			}
		} else {
			c.Args = append(c.Args, tensor.Arg{Tensor: genElements(t, d, shape, "b")})
		}
	case tensor.ClassCast:
		c.Attrs.To = rapid.SampledFrom(append(metalCoreDTypes, tensor.I32, tensor.F64)).Draw(t, "to")
	case tensor.ClassReduce:
		if len(shape) > 0 && rapid.IntRange(0, 3).Draw(t, "all") != 0 {
			dim := rapid.IntRange(-len(shape), len(shape)-1).Draw(t, "dim")
			c.Attrs.Dim = &dim
		}
		if rapid.Bool().Draw(t, "has keepdim") {
			k := rapid.Bool().Draw(t, "keepdim")
			c.Attrs.Keepdim = &k
		}
	case tensor.ClassBroadcast, tensor.ClassWhere, tensor.ClassClamp, tensor.ClassFull:
		metalFocusedNew(t, c, info.Class, d, shape)
	case tensor.ClassCat, tensor.ClassMatmul, tensor.ClassSort:
		metalFocusedCopyMatmulSort(t, c, info.Class, d, shape) // metal_newops_test.go
	case tensor.ClassIndexSelect:
		if len(shape) == 0 {
			a = genElements(t, d, []int{rapid.IntRange(1, 5).Draw(t, "n")}, "a")
			c.Args[0].Tensor = a
		}
		dim := rapid.IntRange(-a.Rank(), a.Rank()-1).Draw(t, "dim")
		c.Attrs.Dim = &dim
		size := a.Shape[(dim+a.Rank())%a.Rank()]
		it := rapid.SampledFrom([]tensor.DType{tensor.U8, tensor.U32, tensor.I64, tensor.U8, tensor.U32,
			tensor.I64, tensor.I32}).Draw(t, "ids dtype")
		ids := tensor.New(it, rapid.IntRange(0, 4).Draw(t, "n ids"))
		for i := 0; i < ids.Len(); i++ {
			v := int64(rapid.IntRange(-1, size+1).Draw(t, "id"))
			if rapid.IntRange(0, 15).Draw(t, "sentinel") == 0 {
				v = int64(it.MaxUint())
			}
			ids.SetInt(i, v)
		}
		c.Args = append(c.Args, tensor.Arg{Tensor: ids})
	}
	return c
}

// metalFocusedNew draws the operands of the ops added 2026-12 for
// metalFocused: a broadcast partner made of shape's trailing dims with
// some set to 1 (or shape itself with dims set to 1, on the left); a
// condition of the dtypes candle's Metal host names (u8 mostly), values of
// the condition's shape; clamp bounds of x's shape and dtype or scalars;
// full's fill value written for dtype d, or an integer or float literal.
func metalFocusedNew(t *rapid.T, c *tensor.Case, class tensor.OpClass, d tensor.DType, shape []int) {
	a := c.Args[0].Tensor
	ones := func(dims []int) []int {
		out := append([]int{}, dims...)
		for i := range out {
			if rapid.IntRange(0, 2).Draw(t, "one") == 0 {
				out[i] = 1
			}
		}
		return out
	}
	switch class {
	case tensor.ClassBroadcast:
		partner := ones(shape[rapid.IntRange(0, len(shape)).Draw(t, "dropped dims"):])
		b := genElements(t, d, partner, "b")
		if rapid.Bool().Draw(t, "partner on the left") {
			a, b = b, a
		}
		c.Args = []tensor.Arg{{Tensor: a}, {Tensor: b}}
	case tensor.ClassWhere:
		cd := rapid.SampledFrom([]tensor.DType{tensor.U8, tensor.U8, tensor.U8, tensor.U32, tensor.I64}).Draw(t, "cond dtype")
		cond := tensor.New(cd, shape...)
		for i := 0; i < cond.Len(); i++ {
			cond.SetUint(i, uint64(rapid.IntRange(0, 2).Draw(t, "cond")))
		}
		fd := d
		if rapid.IntRange(0, 7).Draw(t, "other dtype") == 0 {
			fd = rapid.SampledFrom(metalCoreDTypes).Draw(t, "false dtype")
		}
		c.Args = []tensor.Arg{{Tensor: cond}, {Tensor: a}, {Tensor: genElements(t, fd, shape, "f")}}
	case tensor.ClassClamp:
		bound := func(name string) tensor.Arg {
			switch rapid.IntRange(0, 9).Draw(t, name) {
			case 0:
				return tensor.Arg{}
			case 1, 2, 3, 4:
				return tensor.Arg{Scalar: genScalar(t)}
			}
			return tensor.Arg{Tensor: genElements(t, d, shape, name)}
		}
		c.Args = append(c.Args, bound("min"), bound("max"))
	case tensor.ClassFull:
		c.Args = nil
		c.Attrs.Shape = shape
		text := rapid.SampledFrom([]string{"7", "0", "-3", "255", "256", "0.5", "-2.25", "1e3", "3.0e38", "7u8", "2f32", "-1i64", "true"}).Draw(t, "value")
		c.Attrs.Value = &text
		if rapid.Bool().Draw(t, "has dtype") {
			c.Attrs.DType = rapid.SampledFrom(append(metalCoreDTypes, tensor.I32, tensor.I16, tensor.F64)).Draw(t, "fill dtype")
		}
	}
}

// TestMetalSimMatchesModel is the differential property for the simulated
// Metal device: on at least metalTarget generated cases it supports, its
// outcome for candle/metal matches the model's. Every disagreement fails:
// the classes where the simulator followed candle's code and the model did
// not (zero-element launches, zero-output sums, sign_i64, rank-0 sums,
// the arg index modulo the last dim, the finite init of max/min) are now
// rules of the model (candle.metal.*).
//
// It is stricter than Differential in one way: an element the simulator
// leaves unspecified (a read of undefined device memory) must be
// unspecified in the model too, so that "?" on the simulator's side cannot
// hide a wrong result.
func TestMetalSimMatchesModel(t *testing.T) {
	target := metalTarget
	if testing.Short() {
		target /= 5
	}
	target = withRapidChecks(t, target)
	sim := metal.NewSim()
	supported, notModeled := 0, 0
	forms := map[string]int{}
	prop := func(rt *rapid.T) {
		c := metalCases().Draw(rt, "case")
		if !sim.Supports(metal.Profile, c) {
			return
		}
		supported++
		f := Differential(sim, metal.Profile, c)
		if f == nil {
			forms[metalForm(sim.Eval(metal.Profile, c))]++
			if err := metalUnspecifiedOnlyWhereModelIs(sim, c); err != nil {
				rt.Fatalf("%s: %v", c.Describe(), err)
			}
			return
		}
		if NotModeled(f.Want) {
			notModeled++
			return
		}
		rt.Fatalf("%v", f)
	}
	for round := 0; supported < target && round < 50; round++ {
		rapid.Check(t, prop)
		if t.Failed() {
			return
		}
	}
	if supported < target {
		t.Errorf("only %d supported cases checked, want %d", supported, target)
	}
	t.Logf("candle/metal: %d supported cases checked against the model (%d not modeled)", supported, notModeled)
	t.Logf("  agreeing outcomes: %d values, %d empty values, %d errors, %d panics, %d unsupported",
		forms["value"], forms["empty"], forms["error"], forms["panic"], forms["unsupported"])
}

// metalForm classifies an outcome for the summary.
func metalForm(o tensor.Outcome) string {
	if o.Form == tensor.FormValue && o.Value.Len() == 0 {
		return "empty"
	}
	return o.Form.String()
}

// withRapidChecks raises -rapid.checks to target (plus a margin for the
// cases the backend declines) unless the flag or RAPID_CHECKS was given,
// in which case that number is the target. It returns the target.
func withRapidChecks(t *testing.T, target int) int {
	f := flag.Lookup("rapid.checks")
	if f == nil {
		return target
	}
	explicit := os.Getenv("RAPID_CHECKS") != ""
	flag.Visit(func(g *flag.Flag) { explicit = explicit || g.Name == "rapid.checks" })
	if explicit {
		n, err := strconv.Atoi(f.Value.String())
		if err == nil && n > 0 {
			target = n * 9 / 10
		}
		return target
	}
	old := f.Value.String()
	if err := f.Value.Set(strconv.Itoa(target + target/10)); err != nil {
		t.Fatalf("set -rapid.checks: %v", err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
	return target
}

// metalUnspecifiedOnlyWhereModelIs reports an element that the simulator
// leaves unspecified while the model states its value.
func metalUnspecifiedOnlyWhereModelIs(b tensor.Backend, c *tensor.Case) error {
	got := b.Eval(metal.Profile, c)
	if got.Form != tensor.FormValue || !got.Value.HasUnspecified() {
		return nil
	}
	want := model.Eval(metal.Profile, c)
	if want.Form != tensor.FormValue {
		return nil // a different form is Differential's to report
	}
	for i := 0; i < got.Value.Len(); i++ {
		if got.Value.IsUnspecified(i) && !want.Value.IsUnspecified(i) {
			return fmt.Errorf("element %d: the simulator leaves it unspecified, the model says %s", i, want.Value.ElementString(i))
		}
	}
	return nil
}

// TestMetalSimSeedCases replays the seed cases with a candle/metal
// expectation through the simulator against the model too: the model and
// the simulator must both reproduce them.
func TestMetalSimSeedCases(t *testing.T) {
	sim := metal.NewSim()
	n := 0
	for _, c := range seedCasesFor(t, metal.Profile) {
		if !sim.Supports(metal.Profile, c) {
			continue
		}
		n++
		want, _ := c.Expect.Get(metal.Profile)
		got := sim.Eval(metal.Profile, c)
		if cmp := tensor.Compare(want, got, c.Attrs.ToleranceULPs); !cmp.Match() {
			t.Errorf("%s: simulator %s, seed %s (%s)", c.ID, got, want, cmp.Detail)
		}
		if f := Differential(sim, metal.Profile, c); f != nil {
			t.Errorf("%s: %v", c.ID, f)
		}
	}
	t.Logf("%d seed cases of candle/metal replayed", n)
}

// seedCasesFor reads corpus/seeds and returns the cases expecting profile.
func seedCasesFor(t *testing.T, profile string) []*tensor.Case {
	t.Helper()
	entries, err := os.ReadDir("../corpus/seeds")
	if err != nil {
		t.Fatalf("corpus/seeds: %v", err)
	}
	var out []*tensor.Case
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		cases, err := tensor.ReadFile("../corpus/seeds/" + e.Name())
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for _, c := range cases {
			if _, ok := c.Expect.Get(profile); ok {
				out = append(out, c)
			}
		}
	}
	return out
}
