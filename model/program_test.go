package model

import (
	"slices"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// prog writes a program case with the given inputs and steps.
func prog(args, steps string) string {
	return `{"format": 2, "args": [` + args + `], "steps": [` + steps + `]}`
}

func TestPrograms(t *testing.T) {
	u8 := `{"dtype": "u8", "shape": [2], "data": [200, 100]}`
	castSum := prog(u8, `{"op": "cast", "args": [{"arg": 0}], "attrs": {"to": "i64"}}, {"op": "sum", "args": [{"step": 0}]}`)
	// step 0 fails when it runs (NaN to I32); step 1 fails when the graph is built (convert I32 -> F32 is not a promotion)
	runThenBuild := prog(`{"dtype": "f64", "shape": [1], "data": ["nan"]}`,
		`{"op": "cast", "args": [{"arg": 0}], "attrs": {"to": "i32"}}, {"op": "cast", "args": [{"step": 0}], "attrs": {"to": "f32", "mode": "convert"}}`)
	rustCheck(t, []rustRow{
		{"u8 -> I64 then sum", "candle/cpu-release", castSum,
			`{"value":{"dtype":"i64","shape":[],"data":[300]}}`, "seed 000 §溢出 (u8 to I64 then sum: I64 [300])"},
		{"the sum alone wraps", "candle/cpu-release",
			`{"op": "sum", "args": [` + u8 + `]}`, `{"value":{"dtype":"u8","shape":[],"data":[44]}}`, "seed 000 §溢出"},
		{"the first failing step ends the program", "pytorch/cpu",
			prog(`{"dtype": "i64", "shape": [1], "data": [1]}, {"dtype": "i64", "shape": [1], "data": [0]}`,
				`{"op": "floor_div", "args": [{"arg": 0}, {"arg": 1}]}, {"op": "cast", "args": [{"step": 0}], "attrs": {"to": "f32"}}`),
			`{"error":{"class":"ZeroDivision","message":""}}`, "step 0's ZeroDivisionError; step 1 never runs"},
		{"eager tenferro: the run-time error of step 0", "tenferro/eager", runThenBuild,
			`{"error":{"class":"OutOfRange","message":""}}`, "the cast runs before the convert is built"},
		{"traced tenferro: the build error of step 1 first", "tenferro/traced", runThenBuild,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "the whole graph is built before it runs"},
		{"I32.cast(F32) + F32 is F32 in a traced graph", "tenferro/traced",
			prog(`{"dtype": "i32", "shape": [2], "data": [1, 2]}, {"dtype": "f32", "shape": [2], "data": ["0.5", "0.25"]}`,
				`{"op": "cast", "args": [{"arg": 0}], "attrs": {"to": "f32"}}, {"op": "add", "args": [{"step": 0}, {"arg": 1}]}`),
			`{"value":{"dtype":"f32","shape":[2],"data":["1.5","2.25"]}}`, "seed 001 §两个数组相遇 (traced F32)"},
		{"an earlier result is a burn tensor, not host data", "burn/flex-release",
			prog(`{"dtype": "i64", "shape": [2], "data": [1500000000, 1500000000]}`,
				`{"op": "cast", "args": [{"arg": 0}], "attrs": {"to": "i64"}}, {"op": "sum", "args": [{"step": 0}]}`),
			`{"value":{"dtype":"i64","shape":[1],"data":[3000000000]}}`, "seed 004 §改法 (cast I64: sum [3000000000]); host data would be stored as I32"},
		{"a literal step argument", "numpy",
			prog(`{"dtype": "i8", "shape": [2], "data": [1, 2]}`,
				`{"op": "add", "args": [{"arg": 0}, {"dtype": "i8", "shape": [1], "data": [100]}]}, {"op": "mul", "args": [{"step": 0}, {"scalar": "2", "kind": "int"}]}`),
			`{"value":{"dtype":"i8","shape":[2],"data":[-54,-52]}}`, "101*2 and 102*2 wrap in int8"},
	})
}

func TestProgramRuleTraceInOrder(t *testing.T) {
	c, err := tensor.DecodeCase([]byte(prog(`{"dtype": "u8", "shape": [2], "data": [200, 100]}`,
		`{"op": "cast", "args": [{"arg": 0}], "attrs": {"to": "i64"}}, {"op": "sum", "args": [{"step": 0}]}`)))
	if err != nil {
		t.Fatal(err)
	}
	out := Eval("candle/cpu-debug", c)
	cast := slices.Index(out.Rules, "candle.cpu.to-dtype-as")
	sum := slices.Index(out.Rules, "candle.reduce.sum-keeps-dtype")
	if out.Rules[0] != "program.eager" || cast < 0 || sum < 0 || cast > sum {
		t.Errorf("rules %v: want program.eager, the cast's rules, then the sum's", out.Rules)
	}
}

func TestProgramUnspecifiedOperandIsNotModeled(t *testing.T) {
	// tenferro's float rem is unspecified ("?"); a step reading it states nothing
	c, err := tensor.DecodeCase([]byte(prog(`{"dtype": "f64", "shape": [1], "data": ["1.5"]}`,
		`{"op": "rem", "args": [{"arg": 0}, {"arg": 0}]}, {"op": "neg", "args": [{"step": 0}]}`)))
	if err != nil {
		t.Fatal(err)
	}
	if out := Eval("tenferro/eager", c); !out.NotModeled() {
		t.Errorf("got %s (%v), want the model's silence", out, out.Rules)
	}
}

func TestViews(t *testing.T) {
	// the spec's view: [[1, 4], [3, 6]] taken from a [2, 3] storage
	f := `{"dtype": "f32", "shape": [2, 2], "data": ["1.0", "2.0", "3.0", "4.0", "5.0", "6.0"], "view": {"base": [2, 3], "permute": [1, 0], "slice": [[0, 3, 2], [0, 2, 1]]}}`
	narrow := `{"dtype": "f32", "shape": [2, 2], "data": ["1.0", "2.0", "3.0", "4.0", "5.0", "6.0"], "view": {"base": [2, 3], "slice": [[0, 2, 1], [1, 3, 1]]}}`
	ids := `{"dtype": "u32", "shape": [1], "data": [1]}`
	rustCheck(t, []rustRow{
		{"PyTorch reads the view's elements", "pytorch/cpu", `{"op": "neg", "args": [` + f + `]}`,
			`{"value":{"dtype":"f32","shape":[2,2],"data":["-1.0","-4.0","-3.0","-6.0"]}}`, "a view is its logical elements"},
		{"JAX: the contiguous array of the elements", "jax/cpu-x32", `{"op": "sum", "args": [` + f + `], "attrs": {"dim": 1}}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["5.0","9.0"]}}`, "value semantics"},
		{"candle has no strided slice", "candle/cpu-release", `{"op": "neg", "args": [` + f + `]}`,
			`{"unsupported":{"message":""}}`, "candle.view.no-strided-slice"},
		{"candle narrows", "candle/cpu-release", `{"op": "neg", "args": [` + narrow + `]}`,
			`{"value":{"dtype":"f32","shape":[2,2],"data":["-2.0","-3.0","-5.0","-6.0"]}}`, "narrow(1, 1, 2)"},
		{"candle CPU index_select needs a contiguous source", "candle/cpu-release",
			`{"op": "index_select", "args": [` + narrow + `, ` + ids + `], "attrs": {"dim": 0}}`,
			`{"error":{"class":"Other","message":""}}`, "cpu_backend/mod.rs:724-729"},
		{"burn slices with a step", "burn/flex-release", `{"op": "neg", "args": [` + f + `]}`,
			`{"value":{"dtype":"f32","shape":[2,2],"data":["-1.0","-4.0","-3.0","-6.0"]}}`, "s![0..3;2]"},
		{"from_vec of a view does not compile in Rust", "burn/flex-release",
			`{"op": "from_vec", "args": [{"dtype": "f32", "shape": [2], "data": ["1.0", "2.0", "3.0"], "view": {"base": [3], "slice": [[0, 3, 2]]}}], "attrs": {"shape": [2]}}`,
			`{"unsupported":{"message":""}}`, "from_vec takes a Vec"},
	})
	c, _ := tensor.DecodeCase([]byte(`{"op": "neg", "args": [` + f + `]}`))
	if out := Eval("tenferro/eager", c); !out.NotModeled() {
		t.Errorf("tenferro view: %s, want the model's silence", out)
	}
}

func TestViewReductionOrder(t *testing.T) {
	// 0.1 + 0.2 + 0.3 depends on the order. PyTorch's CPU reduces a view in
	// TensorIterator's order and NumPy in its iterator's (pinned); CUDA
	// specifies only order-free groups.
	perm := `{"dtype": "f64", "shape": [2, 3], "data": ["0.1", "0.0", "0.2", "0.0", "0.3", "0.0"], "view": {"base": [3, 2], "permute": [1, 0]}}`
	stepped := `{"dtype": "f64", "shape": [3], "data": ["0.1", "9.0", "0.2", "9.0", "0.3"], "view": {"base": [5], "slice": [[0, 5, 2]]}}`
	gaps := `{"dtype": "f64", "shape": [2, 2], "data": ["0.1", "9.0", "0.2", "9.0", "9.0", "0.3", "9.0", "0.0", "9.0", "9.0"], "view": {"base": [2, 5], "slice": [[0, 2, 1], [0, 3, 2]]}}`
	flat := `{"dtype": "f64", "shape": [2, 3], "data": ["0.1", "0.2", "0.3", "0.0", "0.0", "0.0", "9.0", "9.0", "9.0"], "view": {"base": [3, 3], "slice": [[0, 2, 1], [0, 3, 1]]}}`
	exact := `{"dtype": "f64", "shape": [2, 3], "data": ["1.0", "0.0", "2.0", "0.0", "4.0", "0.0"], "view": {"base": [3, 2], "permute": [1, 0]}}`
	for _, tt := range []struct {
		name, arg   string
		unspecified map[string]bool // per profile
	}{
		{"a permuted view", perm, map[string]bool{"pytorch/cpu": false, "numpy": false, "pytorch/cuda": true}},
		{"a stepped view along one axis", stepped, map[string]bool{"pytorch/cpu": false, "numpy": false, "pytorch/cuda": true}},
		{"a stepped view with gaps between rows", gaps, map[string]bool{"pytorch/cpu": false, "numpy": false, "pytorch/cuda": true}},
		{"a view in row-major order: pinned", flat, map[string]bool{"pytorch/cpu": false, "numpy": false, "pytorch/cuda": false}},
		{"exact sums are order-free", exact, map[string]bool{"pytorch/cpu": false, "numpy": false, "pytorch/cuda": false}},
	} {
		for p, want := range tt.unspecified {
			c, err := tensor.DecodeCase([]byte(`{"op": "sum", "args": [` + tt.arg + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			out := Eval(p, c)
			if out.Form != tensor.FormValue || out.Value.HasUnspecified() != want {
				t.Errorf("%s under %s: %s (%v), want unspecified %v", tt.name, p, out, out.Rules, want)
			}
		}
	}
}
