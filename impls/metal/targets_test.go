package metal

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// targetedCase is a case the real GPU must run (scripts/mac-check.sh): one
// where the simulator states a value candle's kernels fix in a way a
// generated case rarely reaches, or where it rests on an assumption.
type targetedCase struct {
	name string
	c    *tensor.Case
}

// targetedCases are the cases of issue 17's Mac check.
func targetedCases() []targetedCase {
	scalar := func(text string) tensor.Arg {
		return tensor.Arg{Scalar: &tensor.Scalar{Text: text, Kind: tensor.ScalarFloat}}
	}
	nan := math.NaN()
	var out []targetedCase
	add := func(name string, op string, attrs tensor.Attrs, args ...tensor.Arg) {
		out = append(out, targetedCase{name, &tensor.Case{ID: "target-" + strings.ReplaceAll(name, " ", "-"), Op: op, Args: args, Attrs: attrs}})
	}
	for _, src := range []tensor.DType{tensor.U8, tensor.U32} {
		add("i64 ids over "+src.String(), "index_select", tensor.Attrs{Dim: dim(0)},
			tensor.Arg{Tensor: ints(src, []int{3}, 10, 20, 30)}, tensor.Arg{Tensor: ints(tensor.I64, []int{2}, 2, 0)})
	}
	for _, d := range []tensor.DType{tensor.F32, tensor.F16} {
		bases := floats(d, []int{5}, -2, -0.5, -8, -1, 0)
		for _, e := range []string{"2.0", "0.5", "3.0", "0.0"} {
			add("powf of negative "+d.String()+" bases to "+e, "pow", tensor.Attrs{}, tensor.Arg{Tensor: bases}, scalar(e))
		}
	}
	add("u8 200 * 2.0", "mul", tensor.Attrs{}, tensor.Arg{Tensor: ints(tensor.U8, []int{3}, 200, 100, 0)}, scalar("2.0"))
	add("f32 to u8 of 300, -1, NaN", "cast", tensor.Attrs{To: tensor.U8},
		tensor.Arg{Tensor: floats(tensor.F32, []int{5}, 300, -1, nan, 255.9, -0.5)})
	add("u8 x / 0", "div", tensor.Attrs{}, tensor.Arg{Tensor: ints(tensor.U8, []int{3}, 7, 200, 0)},
		tensor.Arg{Tensor: ints(tensor.U8, []int{3}, 0, 0, 0)})
	for _, n := range []int{64, 128, 256, 1024, 2048, 4096} {
		// -2^30 where candle adds it to lane 0's 2^30 first: lane 0's own
		// second element under 64 threads, else the lane the first halving
		// adds to lane 0.
		block, far := min(1024, n/2), n/2
		if block >= 64 {
			far = block / 2
		}
		add("f32 sum of "+strconv.Itoa(n)+" in candle's order", "sum", tensor.Attrs{}, tensor.Arg{Tensor: candleOrderSum(n, far)})
		ramp := make([]float64, n)
		for i := range ramp {
			ramp[i] = float64(i%7) * 0.25
		}
		add("f32 sum of "+strconv.Itoa(n)+" quarters", "sum", tensor.Attrs{}, tensor.Arg{Tensor: floats(tensor.F32, []int{n}, ramp...)})
		odd := make([]float64, n)
		for i := range odd {
			odd[i] = 1 / float64(i+3)
		}
		add("f32 sum of "+strconv.Itoa(n)+" reciprocals", "sum", tensor.Attrs{}, tensor.Arg{Tensor: floats(tensor.F32, []int{n}, odd...)})
	}
	xs := []float64{2, 4, 0.5, 1, -1, 0, math.Copysign(0, -1), 65504, 1e-7, math.Inf(1)}
	for _, op := range []string{"sqrt", "exp"} {
		add("f16 "+op, op, tensor.Attrs{}, tensor.Arg{Tensor: floats(tensor.F16, []int{len(xs)}, xs...)})
	}
	return out
}

// TestTargetedCasesOnSim runs the Mac check's targeted cases on the
// simulator: each is supported, and the ones worked out by hand give the
// value candle's kernels fix.
func TestTargetedCasesOnSim(t *testing.T) {
	sim := NewSim()
	want := map[string]string{
		"i64 ids over u8":                   "error",
		"i64 ids over u32":                  "error",
		"f32 sum of 64 in candle's order":   "f32[] [62.0]",
		"f32 sum of 256 in candle's order":  "f32[] [252.0]",
		"f32 sum of 4096 in candle's order": "f32[] [4088.0]",
		"u8 200 * 2.0":                      "u8[3] [255, 200, 0]", // float-to-int: 400 saturates
		"f32 to u8 of 300, -1, NaN":         "u8[5] [255, 0, 0, 255, 0]",
		"u8 x / 0":                          "u8[3] [255, 255, 255]", // u8-div-by-zero
	}
	for _, tc := range targetedCases() {
		if !sim.Supports(Profile, tc.c) {
			t.Errorf("%s: the simulator declines it", tc.name)
			continue
		}
		got := sim.Eval(Profile, tc.c)
		w, ok := want[tc.name]
		switch {
		case !ok:
		case w == "error" && (got.Form != tensor.FormError || got.Class != tensor.UnsupportedDType):
			t.Errorf("%s: %s, want an UnsupportedDType error", tc.name, got)
		case w != "error" && (got.Form != tensor.FormValue || got.Value.String() != w || got.Value.HasUnspecified()):
			t.Errorf("%s: %s, want %s", tc.name, got, w)
		}
	}
}

// TestEveryAssumptionIsTouched checks that each assumption's Touches
// fires on a case resting on it and on no case of plain f32 arithmetic,
// so that the GPU test can excuse a difference only by an assumption that
// concerns the case.
func TestEveryAssumptionIsTouched(t *testing.T) {
	f32 := func(xs ...float64) tensor.Arg { return tensor.Arg{Tensor: floats(tensor.F32, []int{len(xs)}, xs...)} }
	scalar := tensor.Arg{Scalar: &tensor.Scalar{Text: "2.0", Kind: tensor.ScalarFloat}}
	big := make([]float64, 2048)
	samples := map[string]*tensor.Case{
		"float-to-int":           {Op: "cast", Args: []tensor.Arg{f32(300)}, Attrs: tensor.Attrs{To: tensor.U8}},
		"u8-div-by-zero":         {Op: "div", Args: []tensor.Arg{{Tensor: ints(tensor.U8, []int{1}, 7)}, {Tensor: ints(tensor.U8, []int{1}, 0)}}},
		"int-to-half-once":       {Op: "cast", Args: []tensor.Arg{{Tensor: ints(tensor.I64, []int{1}, 4097)}}, Attrs: tensor.Attrs{To: tensor.F16}},
		"nan-inf-ieee":           {Op: "lt", Args: []tensor.Arg{f32(math.NaN()), f32(1)}},
		"float-max-min-fmax":     {Op: "max", Args: []tensor.Arg{f32(math.NaN(), 1)}},
		"subnormals-kept":        {Op: "add", Args: []tensor.Arg{f32(1e-40), f32(0)}},
		"fast-math-specials":     {Op: "sqrt", Args: []tensor.Arg{f32(4)}},
		"half-arith-rounds-once": {Op: "add", Args: []tensor.Arg{{Tensor: floats(tensor.F16, []int{1}, 1)}, {Tensor: floats(tensor.F16, []int{1}, 2)}}},
		"fma-rounds-once":        {Op: "mul", Args: []tensor.Arg{f32(3), scalar}},
		"float-literal":          {Op: "div", Args: []tensor.Arg{scalar, f32(3)}},
		"kernel-order-kept":      {Op: "sum", Args: []tensor.Arg{f32(1, 2, 3)}},
		"barrier-visibility":     {Op: "sum", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{128}, big[:128]...)}}},
		"max-threads-1024":       {Op: "sum", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{2048}, big...)}}},
		"simd-int-wraps":         {Op: "sum", Args: []tensor.Arg{{Tensor: ints(tensor.U8, []int{8}, 1, 2, 3, 4, 5, 6, 7, 8)}}},
	}
	plain := &tensor.Case{Op: "add", Args: []tensor.Arg{f32(1, 2), f32(3, 4)}}
	sim := NewSim()
	for _, a := range Assumptions {
		c, ok := samples[a.Name]
		switch {
		case !ok:
			t.Errorf("assumption %s has no sample case here", a.Name)
		case !a.Touches(c, sim.Eval(Profile, c)):
			t.Errorf("assumption %s does not touch its sample %s", a.Name, c.Describe())
		}
		if a.Touches(plain, sim.Eval(Profile, plain)) {
			t.Errorf("assumption %s touches plain f32 addition", a.Name)
		}
		if a.Says == "" || a.Evidence == "" {
			t.Errorf("assumption %s does not say what it assumes and on what evidence", a.Name)
		}
	}
	if len(samples) != len(Assumptions) {
		t.Errorf("%d samples for %d assumptions", len(samples), len(Assumptions))
	}
}

// TestAssumptionsNamedExist checks that every "assumption NAME" the
// package's sources mention (the twins name the assumption a value rests
// on) is one of Assumptions, so that a renamed or dropped assumption
// leaves no comment pointing at nothing.
func TestAssumptionsNamedExist(t *testing.T) {
	known := map[string]bool{}
	for _, a := range Assumptions {
		known[a.Name] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	mention := regexp.MustCompile(`assumptions? ([a-z0-9]+(?:-[a-z0-9]+)+)`)
	seen := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mention.FindAllStringSubmatch(string(src), -1) {
			seen++
			if !known[m[1]] {
				t.Errorf("%s mentions assumption %s, which Assumptions does not list", f, m[1])
			}
		}
	}
	if seen == 0 {
		t.Error("no source names an assumption: the pattern is wrong")
	}
}
