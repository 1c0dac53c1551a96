package adapter

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestReferenceAdapterNewOpsNumPy runs every op and attr added 2026-12
// through the reference adapter and the installed NumPy. The wants are
// NumPy 1.24's (Debian's; where NumPy 2.x answers otherwise the row says
// so), written from its documented behavior.
func TestReferenceAdapterNewOpsNumPy(t *testing.T) {
	if err := exec.Command(debianPython, "-c", "import numpy; assert numpy.__version__.startswith('1.24.')").Run(); err != nil {
		t.Skipf("%s has no NumPy 1.24 (apt-get install python3-numpy)", debianPython)
	}
	b, err := New(Config{Command: "TFUZZ_ADAPTER_FRAMEWORKS=numpy " + debianPython + " python/tfuzz_adapter.py",
		Timeout: 20 * time.Second, StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !b.Handshake().Has(FeatureOps2026) {
		t.Fatalf("the reference adapter's features: %v", b.Handshake().Features)
	}
	profile := "numpy"
	if !servesIn(b.Handshake(), profile) {
		profile = "numpy/cpu-arm64"
	}
	runNewOpRows(t, b, profile, []newOpRow{
		{"broadcast_add", "broadcast_add(i8[1, 2], i8[3])", `{"value": {"dtype": "i8", "shape": [2], "data": [4, 5]}}`},
		{"broadcast_div of integers is true division", "broadcast_div(i32[3, 4], i32[2])", `{"value": {"dtype": "f64", "shape": [2], "data": ["1.5", "2.0"]}}`},
		{"broadcast_maximum propagates NaN", "broadcast_maximum(f32[1.0, nan], f32[0.0])", `{"value": {"dtype": "f32", "shape": [2], "data": ["1.0", "nan"]}}`},
		{"broadcast_mul of shapes that do not broadcast", "broadcast_mul(f32[1.0, 2.0], f32[1.0, 2.0, 3.0])", `{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"where with a Python float", "where(bool[true, false], f32[1.0, 2.0], 0.5)", `{"value": {"dtype": "f32", "shape": [2], "data": ["1.0", "0.5"]}}`},
		{"where of a u8 condition: nonzero is true", "where(u8[2, 0], i64[1, 2], i64[3, 4])", `{"value": {"dtype": "i64", "shape": [2], "data": [1, 4]}}`},
		{"where broadcasts the condition", "where(bool[[true], [false]], i16[1, 2], i8[-1])", `{"value": {"dtype": "i16", "shape": [2, 2], "data": [1, 2, -1, -1]}}`},
		{"clamp with no min", "clamp(f32[-1.0, nan, 5.0], null, 2.0)", `{"value": {"dtype": "f32", "shape": [3], "data": ["-1.0", "nan", "2.0"]}}`},
		{"clamp with no max", "clamp(i32[-5, 0, 5], 0, null)", `{"value": {"dtype": "i32", "shape": [3], "data": [0, 0, 5]}}`},
		{"clamp with both bounds", "clamp(i32[-5, 0, 5], -1, 1)", `{"value": {"dtype": "i32", "shape": [3], "data": [-1, 0, 1]}}`},
		{"clamp with tensor bounds, min > max gives max", "clamp(f64[0.0, 9.0], f64[5.0], f64[1.0])", `{"value": {"dtype": "f64", "shape": [2], "data": ["1.0", "1.0"]}}`},
		// NumPy 2.x returns a copy: np.clip(a, None, None) is allowed from 2.1
		{"clamp with neither bound (1.24: ValueError)", "clamp(i32[1, 2], null, null)", `{"error": {"class": "Other", "message": ""}}`},
		{"cat of mixed dtypes", "cat(f32[1.0, 2.0], i64[16777217]) dim=0", `{"value": {"dtype": "f64", "shape": [3], "data": ["1.0", "2.0", "16777217.0"]}}`},
		{"cat along dim -1", "cat(u8[[1], [2]], u8[[3, 4], [5, 6]]) dim=-1", `{"value": {"dtype": "u8", "shape": [2, 3], "data": [1, 3, 4, 2, 5, 6]}}`},
		{"cat of one tensor", "cat(i8[1, 2]) dim=0", `{"value": {"dtype": "i8", "shape": [2], "data": [1, 2]}}`},
		{"cat of shapes that differ off the axis", "cat(i8[[1, 2]], i8[[1, 2], [3, 4]]) dim=1", `{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"cat along a dim the tensors lack", "cat(i8[1], i8[2]) dim=1", `{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"cat of 0-dim arrays", "cat(i8 1, i8 2) dim=0", `{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"shift_left by the width gives 0", "shift_left(u8[1, 2, 3], 8)", `{"value": {"dtype": "u8", "shape": [3], "data": [0, 0, 0]}}`},
		{"shift_left by a negative count gives 0", "shift_left(i8[1, 2], i8[-1, 3])", `{"value": {"dtype": "i8", "shape": [2], "data": [0, 16]}}`},
		{"shift_right past the width: the sign fill", "shift_right(i8[-128, 64], i8[7, 9])", `{"value": {"dtype": "i8", "shape": [2], "data": [-1, 0]}}`},
		{"shift_left of a float", "shift_left(f32[1.0], 1)", `{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"shift_right of a float by an int beyond int64 (1.24: the object loop's TypeError)", "shift_right(f16 0.0, 18446744073709551616)", `{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"sort puts NaN last", "sort(f32[1.0, nan, -2.0, 0.0])", `{"value": {"dtype": "f32", "shape": [4], "data": ["-2.0", "0.0", "1.0", "nan"]}}`},
		{"sort along dim 0", "sort(i16[[3, 1], [2, 4]]) dim=0", `{"value": {"dtype": "i16", "shape": [2, 2], "data": [2, 1, 3, 4]}}`},
		{"argsort", "argsort(i64[3, 1, 2])", `{"value": {"dtype": "i64", "shape": [3], "data": [1, 2, 0]}}`},
		// stable= came in NumPy 2.0, descending= in 2.5: 1.24 raises TypeError
		{"sort stable (1.24: no stable argument)", "sort(i64[2, 1]) stable=true", `{"error": {"class": "Other", "message": ""}}`},
		{"argsort descending (1.24: no descending argument)", "argsort(i64[2, 1]) descending=true", `{"error": {"class": "Other", "message": ""}}`},
		{"sort of a 0-dim array", "sort(f32 1.0)", `{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"argsort of a 0-dim array ravels it", "argsort(f32 1.0)", `{"value": {"dtype": "i64", "shape": [1], "data": [0]}}`},
		{"mask_select with a bool mask", "mask_select(f32[10.0, 20.0, 30.0], bool[true, false, true])", `{"value": {"dtype": "f32", "shape": [2], "data": ["10.0", "30.0"]}}`},
		{"mask_select of a 2-D mask", "mask_select(i8[[1, 2], [3, 4]], bool[[false, true], [true, false]])", `{"value": {"dtype": "i8", "shape": [2], "data": [2, 3]}}`},
		{"mask_select with a u8 mask: integer indices", "mask_select(f32[10.0, 20.0, 30.0], u8[1, 0, 1])", `{"value": {"dtype": "f32", "shape": [3], "data": ["20.0", "10.0", "20.0"]}}`},
		{"mask_select with a u8 index out of range", "mask_select(f32[10.0, 20.0], u8[5])", `{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"mask_select with a float mask", "mask_select(f32[10.0, 20.0], f32[1.0, 0.0])", `{"error": {"class": "IndexDType", "message": ""}}`},
		{"mask_select with a mask of another length", "mask_select(f32[10.0, 20.0], bool[true])", `{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"full with a dtype", "full() shape=[2] value=7 dtype=u8", `{"value": {"dtype": "u8", "shape": [2], "data": [7, 7]}}`},
		{"full of a Python float", "full() shape=[2] value=0.5", `{"value": {"dtype": "f64", "shape": [2], "data": ["0.5", "0.5"]}}`},
		{"full of an int", "full() shape=[1 2] value=-3", `{"value": {"dtype": "i64", "shape": [1, 2], "data": [-3, -3]}}`},
		{"full of true", "full() shape=[1] value=true", `{"value": {"dtype": "bool", "shape": [1], "data": [true]}}`},
		{"full of nan", "full() shape=[1] value=nan dtype=f16", `{"value": {"dtype": "f16", "shape": [1], "data": ["nan"]}}`},
		{"matmul of mixed floats", "matmul(f32[[1.0, 2.0, 3.0]], f64[[0.5], [0.5], [0.5]])", `{"value": {"dtype": "f64", "shape": [1, 1], "data": ["3.0"]}}`},
		{"matmul of i32 wraps", "matmul(i32[[1073741824, 1073741824]], i32[[2], [2]])", `{"value": {"dtype": "i32", "shape": [1, 1], "data": [0]}}`},
		{"matmul of vectors", "matmul(i64[1, 2], i64[3, 4])", `{"value": {"dtype": "i64", "shape": [], "data": [11]}}`},
		{"matmul of mismatched core dims", "matmul(f32[[1.0, 2.0]], f32[[1.0, 2.0]])", `{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"matmul of a 0-dim operand", "matmul(f32[1.0], f32 2.0)", `{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"sum with a dtype along dim", "sum(u8[[200, 100], [7, 1]]) dim=1 dtype=u8", `{"value": {"dtype": "u8", "shape": [2], "data": [44, 8]}}`},
		{"sum with a float dtype", "sum(u8[200, 100]) dtype=f32", `{"value": {"dtype": "f32", "shape": [], "data": ["300.0"]}}`},
		{"prod with a dtype", "prod(i8[100, 3]) dtype=i16", `{"value": {"dtype": "i16", "shape": [], "data": [300]}}`},
		{"mean with a dtype", "mean(i32[[1, 2]]) dim=1 keepdim=true dtype=f32", `{"value": {"dtype": "f32", "shape": [1, 1], "data": ["1.5"]}}`},
		{"cumsum without dim flattens", "cumsum(i8[[100, 100], [100, 1]])", `{"value": {"dtype": "i64", "shape": [4], "data": [100, 200, 300, 301]}}`},
		{"cumsum without dim, with a dtype", "cumsum(i16[[100, 100], [100, 1]]) dtype=i8", `{"value": {"dtype": "i8", "shape": [4], "data": [100, -56, 44, 45]}}`},
		{"cumsum along dim with a dtype", "cumsum(u8[[200, 100], [100, 1]]) dim=0 dtype=u16", `{"value": {"dtype": "u16", "shape": [2, 2], "data": [200, 100, 300, 101]}}`},
		{"from_literal with a dtype", "from_literal() literal=[1, 2] dtype=f16", `{"value": {"dtype": "f16", "shape": [2], "data": ["1.0", "2.0"]}}`},
		{"arange with a dtype", "arange() end=3 dtype=f32", `{"value": {"dtype": "f32", "shape": [3], "data": ["0.0", "1.0", "2.0"]}}`},
		{"a complex Python scalar", `{"op": "add", "args": [{"dtype": "c64", "shape": [1], "data": [["1.0", "0.0"]]}, {"scalar": "1.5+2j", "kind": "complex"}]}`,
			`{"value": {"dtype": "c64", "shape": [1], "data": [["2.5", "2.0"]]}}`},
		{"a null bound in a program step", "program(f32[1.0, 5.0]): neg(arg0); clamp(step0, -2.0, null)", `{"value": {"dtype": "f32", "shape": [2], "data": ["-1.0", "-2.0"]}}`},
		{"an error of a new op ends a program", "program(i8[1], i8[2]): cat(arg0, arg1) dim=1; neg(step0)", `{"error": {"class": "IndexOutOfRange", "message": ""}}`},
	})
}

// TestReferenceAdapterNewOpsFakeJAX runs the new ops through the JAX code
// of the reference adapter against the stand-in jax (testdata/fakejax:
// NumPy 1.24 underneath, with jnp.sort and jnp.argsort taking JAX's stable
// and descending keywords): what it checks is that each op reaches the jnp
// function the catalog names with the arguments JAX takes. The values are
// NumPy's; real JAX is checked where it is installed
// (scripts/adapter-campaign-on-gpu.sh).
func TestReferenceAdapterNewOpsFakeJAX(t *testing.T) {
	if err := exec.Command(debianPython, "-c", "import numpy").Run(); err != nil {
		t.Skipf("%s cannot import numpy", debianPython)
	}
	b, err := New(Config{Command: "PYTHONPATH=testdata/fakejax TFUZZ_ADAPTER_FRAMEWORKS=jax TFUZZ_ADAPTER_PROFILES=jax/cpu-x64 " + debianPython + " python/tfuzz_adapter.py",
		Timeout: 20 * time.Second, StartTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	runNewOpRows(t, b, "jax/cpu-x64", []newOpRow{
		{"broadcast_minimum", "broadcast_minimum(i64[1, 5], i64[3])", `{"value": {"dtype": "i64", "shape": [2], "data": [1, 3]}}`},
		{"where", "where(bool[true, false], i64[1, 2], 7)", `{"value": {"dtype": "i64", "shape": [2], "data": [1, 7]}}`},
		{"clip with no min", "clamp(f64[-1.0, 5.0], null, 2.0)", `{"value": {"dtype": "f64", "shape": [2], "data": ["-1.0", "2.0"]}}`},
		{"concatenate", "cat(i64[[1], [2]], i64[[3], [4]]) dim=0", `{"value": {"dtype": "i64", "shape": [4, 1], "data": [1, 2, 3, 4]}}`},
		{"left_shift", "shift_left(i64[1, 2], i64[3, 1])", `{"value": {"dtype": "i64", "shape": [2], "data": [8, 4]}}`},
		{"right_shift", "shift_right(i64[-8, 8], 2)", `{"value": {"dtype": "i64", "shape": [2], "data": [-2, 2]}}`},
		{"sort descending", "sort(f64[1.0, 3.0, 2.0]) descending=true", `{"value": {"dtype": "f64", "shape": [3], "data": ["3.0", "2.0", "1.0"]}}`},
		{"argsort stable along dim 0", "argsort(i64[[2, 1], [1, 1]]) dim=0 stable=true", `{"value": {"dtype": "i64", "shape": [2, 2], "data": [1, 0, 0, 1]}}`},
		{"indexing with a mask", "mask_select(i64[4, 5, 6], bool[false, true, true])", `{"value": {"dtype": "i64", "shape": [2], "data": [5, 6]}}`},
		{"full", "full() shape=[2] value=1.5 dtype=f32", `{"value": {"dtype": "f32", "shape": [2], "data": ["1.5", "1.5"]}}`},
		{"matmul", "matmul(f64[[1.0, 2.0]], f64[[3.0], [4.0]])", `{"value": {"dtype": "f64", "shape": [1, 1], "data": ["11.0"]}}`},
		{"cumsum without dim flattens", "cumsum(i64[[1, 2], [3, 4]])", `{"value": {"dtype": "i64", "shape": [4], "data": [1, 3, 6, 10]}}`},
		{"sum with a dtype", "sum(i64[[1, 2], [3, 4]]) dim=0 dtype=f32", `{"value": {"dtype": "f32", "shape": [2], "data": ["4.0", "6.0"]}}`},
		{"array with a dtype", "from_literal() literal=[1, 2] dtype=i8", `{"value": {"dtype": "i8", "shape": [2], "data": [1, 2]}}`},
	})
}

// newOpRow is one case and the outcome it must have (an error's message
// is not compared).
type newOpRow struct{ name, text, want string }

func runNewOpRows(t *testing.T, b *Backend, profile string, rows []newOpRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			c := newOpCase(t, r.text)
			want, err := tensor.DecodeOutcome([]byte(r.want))
			if err != nil {
				t.Fatal(err)
			}
			if !b.Supports(profile, c) {
				t.Fatalf("%s: declined", r.text)
			}
			if got := b.Eval(profile, c); !tensor.Compare(want, got, 0).Match() {
				t.Errorf("%s: got %s, want %s", r.text, got, want)
			}
		})
	}
}

// TestReferenceAdapterTorchSpelling checks, where no PyTorch is installed
// too, how the reference adapter spells the new ops in PyTorch: a recording
// stand-in for the torch module (testdata/torch_spelling.py) says which
// function each op calls with which arguments.
func TestReferenceAdapterTorchSpelling(t *testing.T) {
	out, err := exec.Command(debianPython, "testdata/torch_spelling.py").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "OK") {
		t.Errorf("the spelling check did not run to its end:\n%s", out)
	}
}
