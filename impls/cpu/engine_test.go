package cpu

import (
	"math"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Table tests: cases whose outcome the oracle or the analysis notes record,
// evaluated through Engine.Eval. Expected values are written by hand from
// that evidence, never computed by the engine or the model.

func ints(d tensor.DType, vals ...int64) *tensor.Tensor {
	t := tensor.New(d, len(vals))
	for i, v := range vals {
		t.SetInt(i, v)
	}
	return t
}

func floats(d tensor.DType, vals ...float64) *tensor.Tensor {
	t := tensor.New(d, len(vals))
	for i, v := range vals {
		t.SetFloat(i, v)
	}
	return t
}

func scalar(kind tensor.ScalarKind, text string) tensor.Arg {
	return tensor.Arg{Scalar: &tensor.Scalar{Text: text, Kind: kind}}
}

func args(ts ...*tensor.Tensor) []tensor.Arg {
	a := make([]tensor.Arg, len(ts))
	for i, t := range ts {
		a[i] = tensor.Arg{Tensor: t}
	}
	return a
}

func value(t *tensor.Tensor) tensor.Outcome { return tensor.ValueOutcome(t) }

func fail(c tensor.ErrorClass) tensor.Outcome { return tensor.ErrorOutcome(c, "") }

const (
	minI64 = math.MinInt64
	maxI64 = math.MaxInt64
)

func TestEngineTable(t *testing.T) {
	f16 := func(v ...float64) *tensor.Tensor { return floats(tensor.F16, v...) }
	tests := []struct {
		name, reason, profile, op string
		args                      []tensor.Arg
		to                        tensor.DType
		want                      tensor.Outcome
	}{
		{"x86 trunc_div i32 MIN/-1 traps", "idiv raises SIGFPE (oracle-00105)", "pytorch/cpu", "trunc_div",
			args(ints(tensor.I32, math.MinInt32), ints(tensor.I32, -1)), 0, tensor.CrashOutcome("SIGFPE")},
		{"arm64 trunc_div i32 MIN/-1 wraps", "sdiv does not trap (DESIGN.md)", "pytorch/cpu-arm64", "trunc_div",
			args(ints(tensor.I32, math.MinInt32), ints(tensor.I32, -1)), 0, value(ints(tensor.I32, math.MinInt32))},
		{"x86 trunc_div i8 MIN/-1 wraps", "i8 is divided as int: no trap", "pytorch/cpu", "trunc_div",
			args(ints(tensor.I8, -128), ints(tensor.I8, -1)), 0, value(ints(tensor.I8, -128))},
		{"pytorch zero divisor", "TORCH_CHECK(b != 0) (oracle-00016)", "pytorch/cpu", "floor_div",
			args(ints(tensor.I8, 7, -7), ints(tensor.I8, 2, 0)), 0, fail(tensor.ZeroDivision)},
		{"first fault: trap before zero", "elements are visited in order", "pytorch/cpu", "trunc_div",
			args(ints(tensor.I64, minI64, 5), ints(tensor.I64, -1, 0)), 0, tensor.CrashOutcome("SIGFPE")},
		{"first fault: zero before trap", "elements are visited in order", "pytorch/cpu", "trunc_div",
			args(ints(tensor.I64, 5, minI64), ints(tensor.I64, 0, -1)), 0, fail(tensor.ZeroDivision)},
		{"floor_div MIN/-1 does not trap", "oracle-00146", "pytorch/cpu", "floor_div",
			args(ints(tensor.I64, minI64), ints(tensor.I64, -1)), 0, value(ints(tensor.I64, minI64))},
		{"numpy x // 0 is 0", "oracle-00016", "numpy", "floor_div",
			args(ints(tensor.I8, 7, -128, 127, 0, -7), ints(tensor.I8, 0, 0, 0, 0, 0)), 0,
			value(ints(tensor.I8, 0, 0, 0, 0, 0))},
		{"jax x // 0", "XLA x / 0 = -1, floor correction (oracle-00016)", "jax/cpu-x64", "floor_div",
			args(ints(tensor.I8, 7, -128, 127, 0, -7), ints(tensor.I8, 0, 0, 0, 0, 0)), 0,
			value(ints(tensor.I8, -2, -2, -2, -1, -2))},
		{"jax x32 narrows i64 first", "MIN -> 0, MAX -> -1 (oracle-00145)", "jax/cpu-x32", "floor_div",
			args(ints(tensor.I64, 7, minI64, maxI64, 0, -7), ints(tensor.I64, 0, 0, 0, 0, 0)), 0,
			value(ints(tensor.I32, -2, -1, -2, -1, -2))},
		{"jax rem by zero is 0", "jnp.remainder replaces a zero divisor by 1 (oracle-00020)", "jax/cpu-x64", "rem",
			args(ints(tensor.I16, 7, -7), ints(tensor.I16, 0, 0)), 0, value(ints(tensor.I16, 0, 0))},
		{"torch f64 -> u8 through i64", "oracle-00864[14]: 255", "pytorch/cpu", "cast",
			args(floats(tensor.F64, -2147483649)), tensor.U8, value(ints(tensor.U8, 255))},
		{"numpy f64 -> u8 through i32", "oracle-00864[14]: 0", "numpy", "cast",
			args(floats(tensor.F64, -2147483649)), tensor.U8, value(ints(tensor.U8, 0))},
		{"x86 f32 -> u32 vector body and scalar tail", "split32 for the first n - n%4, low32 after (casts.md §4.1)",
			"numpy", "cast", args(floats(tensor.F32, math.NaN(), -1, 1e20, 0x1p32, 5)), tensor.U32,
			value(ints(tensor.U32, 1<<31, 4294967295, 0, 0, 5))},
		{"x86 f16 -> u32 is scalar code", "oracle-00881: NaN and inf give 0", "pytorch/cpu", "cast",
			args(f16(math.NaN(), math.Inf(1), math.Inf(-1), 7)), tensor.U32, value(ints(tensor.U32, 0, 0, 0, 7))},
		{"jax f32 -> i8 saturates", "oracle-00850: 255.5 -> 127, NaN -> 0", "jax/cpu-x64", "cast",
			args(floats(tensor.F32, 255.5, math.NaN(), -1e20)), tensor.I8, value(ints(tensor.I8, 127, 0, -128))},
		{"x86 f32 -> i8 keeps the low bits of cvtt32", "oracle-00850: 300 -> 44", "numpy", "cast",
			args(floats(tensor.F32, 300, 255.5, math.NaN())), tensor.I8, value(ints(tensor.I8, 44, -1, 0))},
		{"jax x32 cast to i64 is i32", "astype narrows the target (oracle-00856)", "jax/cpu-x32", "cast",
			args(floats(tensor.F32, 1e20)), tensor.I64, value(ints(tensor.I32, math.MaxInt32))},
		{"torch f64 -> f16 rounds twice", "c10::Half(float(x)) (casts.md §6)", "pytorch/cpu", "cast",
			args(floats(tensor.F64, 1+0x1p-11+0x1p-40)), tensor.F16, value(f16(1))},
		{"numpy f64 -> f16 rounds once", "npy_doublebits_to_halfbits (casts.md §6)", "numpy", "cast",
			args(floats(tensor.F64, 1+0x1p-11+0x1p-40)), tensor.F16, value(f16(1.0009765625))},
		{"cast mode convert", "tenferro's checked convert has no Python spelling", "numpy", "cast",
			args(ints(tensor.I8, 1)), tensor.I16, tensor.UnsupportedOutcome("")},
		{"torch f16 * 0.1 reads the scalar at f32", "oracle-00829", "pytorch/cpu", "mul",
			[]tensor.Arg{{Tensor: f16(1, 3, 65504)}, scalar(tensor.ScalarFloat, "0.1")}, 0,
			value(f16(0.0999755859375, 0.300048828125, 6552))},
		{"numpy f16 * 0.1 rounds the scalar to f16", "oracle-00829", "numpy", "mul",
			[]tensor.Arg{{Tensor: f16(1, 3, 65504)}, scalar(tensor.ScalarFloat, "0.1")}, 0,
			value(f16(0.0999755859375, 0.2998046875, 6548))},
		{"torch int scalar wraps", "i8 + 300 adds 44 (oracle-00704)", "pytorch/cpu", "add",
			[]tensor.Arg{{Tensor: ints(tensor.I8, 127, 1)}, scalar(tensor.ScalarInt, "300")}, 0,
			value(ints(tensor.I8, -85, 45))},
		{"numpy int scalar out of bounds", "NEP 50 OverflowError (oracle-00704)", "numpy", "add",
			[]tensor.Arg{{Tensor: ints(tensor.I8, 127)}, scalar(tensor.ScalarInt, "300")}, 0, fail(tensor.OutOfRange)},
		{"jax x32 int scalar beyond int32", "argument parsing overflow (oracle2-00071)", "jax/cpu-x32", "add",
			[]tensor.Arg{{Tensor: ints(tensor.I8, 1)}, scalar(tensor.ScalarInt, "2147483648")}, 0, fail(tensor.OutOfRange)},
		{"numpy compares out-of-range ints exactly", "NumPy 2", "numpy", "lt",
			[]tensor.Arg{{Tensor: ints(tensor.U8, 0, 255)}, scalar(tensor.ScalarInt, "300")}, 0,
			value(ints(tensor.Bool, 1, 1))},
		{"torch u64 ** True copies", "no kernel runs (oracle2-00771)", "pytorch/cpu", "pow",
			[]tensor.Arg{{Tensor: ints(tensor.U64, 5, 7)}, scalar(tensor.ScalarBool, "true")}, 0, value(ints(tensor.U64, 5, 7))},
		{"torch u64 + u64 has no kernel", "add_stub (oracle-00212..)", "pytorch/cpu", "add",
			args(ints(tensor.U64, 1), ints(tensor.U64, 2)), 0, fail(tensor.UnsupportedDType)},
		{"torch promotion error", "u16 with i8 (oracle-00250)", "pytorch/cpu", "mul",
			args(ints(tensor.I8, 1), ints(tensor.U16, 2)), 0, fail(tensor.UnsupportedDType)},
		{"x86 maximum of zeros: the second", "maxps (oracle-00178)", "pytorch/cpu", "maximum",
			args(floats(tensor.F32, 0, math.Copysign(0, -1)), floats(tensor.F32, math.Copysign(0, -1), 0)), 0,
			value(floats(tensor.F32, math.Copysign(0, -1), 0))},
		{"jax maximum of zeros: IEEE", "-0 < +0 (oracle-00178)", "jax/cpu-x64", "maximum",
			args(floats(tensor.F32, 0, math.Copysign(0, -1)), floats(tensor.F32, math.Copysign(0, -1), 0)), 0,
			value(floats(tensor.F32, 0, 0))},
		{"int div is f32 in torch", "true division of integers (oracle-00132)", "pytorch/cpu", "div",
			args(ints(tensor.I64, minI64), ints(tensor.I64, 16777217)), 0, value(floats(tensor.F32, -549755813888))},
		{"jax div by a scalar multiplies by the reciprocal", "oracle-00842", "jax/cpu-x64", "div",
			[]tensor.Arg{{Tensor: floats(tensor.F32, 65504)}, scalar(tensor.ScalarFloat, "3.0")}, 0,
			value(floats(tensor.F32, 21834.66796875))},
		{"pow rounds once into f32's subnormals", "65520^-8 = 2.944482602057915e-39 (exact rational, rounded by hand)",
			"numpy", "pow", args(floats(tensor.F32, 65520), floats(tensor.F32, -8)), 0,
			value(floats(tensor.F32, 2.944482602057915e-39))},
		{"pow ties to even", "(2^18-1)^2 = 2^36 - 2^19 + 1 needs 36 bits: exact in f64", "jax/cpu-x64", "pow",
			args(floats(tensor.F64, 262143), floats(tensor.F64, 2)), 0, value(floats(tensor.F64, 68718952449))},
		{"torch neg of bool", "ATen neg check", "pytorch/cpu", "neg", args(ints(tensor.Bool, 1)), 0, fail(tensor.UnsupportedDType)},
		{"numpy sign of bool", "no loop (oracle2-00063)", "numpy", "sign", args(ints(tensor.Bool, 1)), 0, fail(tensor.UnsupportedDType)},
		{"numpy exp of i8 is f16", "the first safe float loop (oracle-01044)", "numpy", "exp", args(ints(tensor.I8, 0)), 0,
			value(f16(1))},
		{"sqrt of -0 is -0", "IEEE", "jax/cpu-x64", "sqrt", args(floats(tensor.F64, math.Copysign(0, -1), 4)), 0,
			value(floats(tensor.F64, math.Copysign(0, -1), 2))},
		{"torch sign of NaN is 0", "(0 < x) - (x < 0) (oracle-01098)", "pytorch/cpu", "sign",
			args(floats(tensor.F32, math.NaN(), math.Copysign(0, -1))), 0, value(floats(tensor.F32, 0, 0))},
	}
	e := New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &tensor.Case{Op: tc.op, Args: tc.args}
			c.Attrs.To = tc.to
			if tc.name == "cast mode convert" {
				c.Attrs.Mode = "convert"
			}
			if !e.Supports(tc.profile, c) {
				t.Fatalf("%s: the engine declines %s (%s)", tc.profile, c.Describe(), tc.reason)
			}
			got := e.Eval(tc.profile, c)
			if cmp := tensor.Compare(tc.want, got, 0); !cmp.Match() {
				t.Errorf("%s: %s: got %s, want %s (%s): %s", tc.profile, c.Describe(), got, tc.want, tc.reason, cmp.Detail)
			}
		})
	}
}

// TestStridedViews evaluates a transposed view against a broadcast row.
func TestStridedViews(t *testing.T) {
	// a is the 2x3 view [[1, 2, 3], [4, 5, 6]] of storage [1, 4, 2, 5, 3, 6] (column-major)
	a := &tensor.Tensor{DType: tensor.I32, Shape: []int{2, 3}, Strides: []int{1, 2}, Data: []uint64{1, 4, 2, 5, 3, 6}}
	// b is the row [10, 20, 30] at offset 1 with stride 2 in its storage
	b := &tensor.Tensor{DType: tensor.I32, Shape: []int{3}, Strides: []int{2}, Offset: 1, Data: []uint64{0, 10, 0, 20, 0, 30}}
	want := tensor.New(tensor.I32, 2, 3)
	for i, v := range []int64{11, 22, 33, 14, 25, 36} {
		want.SetInt(i, v)
	}
	for _, e := range []*Engine{New(), New(WithWorkers(2), WithParallelThreshold(1))} {
		got := e.Eval("numpy", &tensor.Case{Op: "add", Args: args(a, b)})
		if cmp := tensor.Compare(value(want), got, 0); !cmp.Match() {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

// TestSupportsIsHonest checks what the engine declines.
func TestSupportsIsHonest(t *testing.T) {
	e := New()
	c64 := tensor.New(tensor.C64, 1)
	for _, tc := range []struct {
		name    string
		profile string
		c       *tensor.Case
	}{
		{"complex operands", "numpy", &tensor.Case{Op: "add", Args: args(c64, c64)}},
		{"a profile the engine does not implement", "pytorch/cuda", &tensor.Case{Op: "add", Args: args(ints(tensor.I8, 1), ints(tensor.I8, 1))}},
		{"an unknown op", "numpy", &tensor.Case{Op: "frobnicate"}},
		{"a Python int beyond int64 in NumPy", "numpy", &tensor.Case{Op: "add",
			Args: []tensor.Arg{{Tensor: ints(tensor.I8, 1)}, scalar(tensor.ScalarInt, "18446744073709551616")}}},
		{"a view reaching past its data", "numpy", &tensor.Case{Op: "neg",
			Args: args(&tensor.Tensor{DType: tensor.I8, Shape: []int{3}, Strides: []int{2}, Data: []uint64{1, 2, 3}})}},
	} {
		if e.Supports(tc.profile, tc.c) {
			t.Errorf("%s: Supports says yes", tc.name)
		}
	}
	claimed := map[string]bool{}
	for _, p := range e.Profiles() {
		claimed[p] = true
		if strings.Contains(p, "cuda") || strings.Contains(p, "gpu") || strings.Contains(p, "mps") || strings.Contains(p, "metal") {
			t.Errorf("Profiles() claims the device profile %s", p)
		}
	}
	for _, p := range []string{"pytorch/cpu", "pytorch/cpu-arm64", "numpy", "jax/cpu-x32", "jax/cpu-x64"} {
		if !claimed[p] {
			t.Errorf("Profiles() = %v lacks %s", e.Profiles(), p)
		}
	}
}

func TestRoundBF16From64KeepsTheSignOfZero(t *testing.T) {
	for _, x := range []float64{-1e-300, -0x1p-140, 1e-300} {
		got := roundBF16From64(x)
		if got != 0 || math.Signbit(float64(got)) != math.Signbit(x) {
			t.Errorf("roundBF16From64(%g) = %g, want a zero with the sign of x", x, got)
		}
	}
}
