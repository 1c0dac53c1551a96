package cpu

import (
	"math"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Table tests of the ops added 2026-12 (where, clamp, full, the shifts,
// cumsum without a dim, candle's clamp), through Engine.Eval. Expected
// outcomes are written by hand from the frameworks' definitions the
// model's rules cite, never computed by the engine or the model.

func null() tensor.Arg { return tensor.Arg{} }

func shaped(t *tensor.Tensor, shape ...int) *tensor.Tensor {
	t.Shape = shape
	return t
}

func complexes(d tensor.DType, vals ...complex128) *tensor.Tensor {
	t := tensor.New(d, len(vals))
	for i, v := range vals {
		t.SetComplex(i, v)
	}
	return t
}

func TestNewOpsTable(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nan := math.NaN()
	f32 := func(v ...float64) *tensor.Tensor { return floats(tensor.F32, v...) }
	full := func(value string, d tensor.DType, shape ...int) tensor.Attrs {
		return tensor.Attrs{Value: &value, DType: d, Shape: shape}
	}
	dim0 := 0
	tests := []struct {
		name, reason, profile, op string
		args                      []tensor.Arg
		attrs                     tensor.Attrs
		want                      tensor.Outcome
	}{
		// where
		{"torch where promotes i8 with a float", "result_type(i8 tensor, 2.5) is the default f32", "pytorch/cpu", "where",
			[]tensor.Arg{{Tensor: ints(tensor.Bool, 1, 0)}, {Tensor: ints(tensor.I8, -3, 4)}, scalar(tensor.ScalarFloat, "2.5")}, tensor.Attrs{},
			value(f32(-3, 2.5))},
		{"torch where needs a bool condition", "where expected condition to be a boolean tensor", "pytorch/cpu", "where",
			args(ints(tensor.U8, 1), f32(1), f32(2)), tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"torch where of u32 has no kernel", "where_cpu lacks u16/u32/u64", "pytorch/cpu", "where",
			args(ints(tensor.Bool, 1), ints(tensor.U32, 1), ints(tensor.U32, 2)), tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"numpy where: NaN is true, -0.0 false", "condition cast to bool", "numpy", "where",
			args(f32(nan, negZero, 2), ints(tensor.I16, 1, 2, 3), ints(tensor.I16, -1, -2, -3)), tensor.Attrs{},
			value(ints(tensor.I16, 1, -2, 3))},
		{"numpy where broadcasts all three", "a [2,1] condition, a [3] x, a scalar y", "numpy", "where",
			[]tensor.Arg{{Tensor: shaped(ints(tensor.Bool, 1, 0), 2, 1)}, {Tensor: ints(tensor.I64, 7, 8, 9)}, scalar(tensor.ScalarInt, "0")},
			tensor.Attrs{}, value(shaped(ints(tensor.I64, 7, 8, 9, 0, 0, 0), 2, 3))},
		{"numpy where shapes that do not broadcast", "ValueError", "numpy", "where",
			args(ints(tensor.Bool, 1, 0), ints(tensor.I8, 1, 2, 3), ints(tensor.I8, 4)), tensor.Attrs{}, fail(tensor.ShapeMismatch)},
		{"jax x32 narrows the condition first", "2^32 as i32 is 0: false", "jax/cpu-x32", "where",
			args(ints(tensor.I64, 1<<32, 1), ints(tensor.Bool, 1, 1), ints(tensor.Bool, 0, 0)), tensor.Attrs{},
			value(ints(tensor.Bool, 0, 1))},
		{"jax where of two Python ints", "weak ints join to the default int", "jax/cpu-x64", "where",
			[]tensor.Arg{{Tensor: ints(tensor.Bool, 0, 1)}, scalar(tensor.ScalarInt, "5"), scalar(tensor.ScalarInt, "-5")},
			tensor.Attrs{}, value(ints(tensor.I64, -5, 5))},
		{"jax x32 Python int beyond int32", "OverflowError parsing a jitted argument", "jax/cpu-x32", "where",
			[]tensor.Arg{{Tensor: ints(tensor.Bool, 0)}, {Tensor: ints(tensor.I8, 1)}, scalar(tensor.ScalarInt, "2147483648")},
			tensor.Attrs{}, fail(tensor.OutOfRange)},

		{"numpy where of c64 and i32 is c128", "np.result_type(complex64, int32)", "numpy", "where",
			args(ints(tensor.Bool, 1, 0), complexes(tensor.C64, 1+2i, 3+4i), ints(tensor.I32, 5, 6)), tensor.Attrs{},
			value(complexes(tensor.C128, 1+2i, 6))},
		{"torch where: a 0-dim f64 leaves a dimensioned c64", "the higher class is complex", "pytorch/cpu", "where",
			args(ints(tensor.Bool, 0, 1), complexes(tensor.C64, 1+2i, 3+4i), shaped(floats(tensor.F64, 0.5))), tensor.Attrs{},
			value(complexes(tensor.C64, 0.5, 3+4i))},
		{"jax x32 where narrows c128 to c64", "each part rounds to f32", "jax/cpu-x32", "where",
			[]tensor.Arg{{Tensor: ints(tensor.Bool, 1, 0)}, {Tensor: complexes(tensor.C128, 0.1+0.2i, 1i)}, scalar(tensor.ScalarInt, "3")},
			tensor.Attrs{}, value(complexes(tensor.C64, complex(float64(float32(0.1)), float64(float32(0.2))), 3))},
		{"numpy where of a complex condition", "nonzero when either part is", "numpy", "where",
			args(complexes(tensor.C64, 0, 1i, complex(math.Copysign(0, -1), 0)), ints(tensor.I8, 1, 1, 1), ints(tensor.I8, 0, 0, 0)),
			tensor.Attrs{}, value(ints(tensor.I8, 0, 1, 0))},

		// clamp
		{"torch clamp needs a bound", "At least one of 'min' or 'max' must not be None", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: f32(1)}, null(), null()}, tensor.Attrs{}, fail(tensor.Other)},
		{"torch clamp keeps NaN and -0.0, min > max gives max", "std::min(std::max(a, min), max)", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: f32(nan, negZero, -7, 7)}, scalar(tensor.ScalarFloat, "0.0"), scalar(tensor.ScalarFloat, "5.0")},
			tensor.Attrs{}, value(f32(nan, negZero, 0, 5))},
		{"torch clamp with min > max", "the max wins", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I16, -9, 0, 9)}, scalar(tensor.ScalarInt, "3"), scalar(tensor.ScalarInt, "-3")},
			tensor.Attrs{}, value(ints(tensor.I16, -3, -3, -3))},
		{"torch clamp with a NaN number bound fills NaN", "clamp_out fills with NaN", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I32, 1, 2)}, scalar(tensor.ScalarFloat, "nan"), scalar(tensor.ScalarInt, "1")},
			tensor.Attrs{}, value(f32(nan, nan))},
		{"torch clamp of i8 by 300", "checked conversion of the bound", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I8, 1)}, null(), scalar(tensor.ScalarInt, "300")}, tensor.Attrs{}, fail(tensor.OutOfRange)},
		{"torch clamp of bool has no kernel", "clamp_scalar_cpu", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.Bool, 1)}, scalar(tensor.ScalarBool, "false"), null()}, tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"torch clamp by tensors propagates NaN bounds", "clamp_kernel_impl", "pytorch/cpu", "clamp",
			args(f32(1, 5, 9), f32(2, nan, 2), f32(6, 6, 6)), tensor.Attrs{}, value(f32(2, nan, 6))},
		{"torch clamp by one tensor is maximum", "clamp_Tensor_out's one-bound path", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I8, -5, 5)}, {Tensor: ints(tensor.I16, 0, 0)}, null()}, tensor.Attrs{},
			value(ints(tensor.I16, 0, 5))},
		{"numpy clip drops an int bound beyond the dtype", "min <= iinfo(u8).min: np.minimum(a, 9)", "numpy", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.U8, 3, 200)}, scalar(tensor.ScalarInt, "-1000"), scalar(tensor.ScalarInt, "9")},
			tensor.Attrs{}, value(ints(tensor.U8, 3, 9))},
		{"numpy clip with constant bounds keeps -0.0", "x < min is false", "numpy", "clamp",
			[]tensor.Arg{{Tensor: floats(tensor.F64, negZero, nan, 3)}, scalar(tensor.ScalarFloat, "0.0"), scalar(tensor.ScalarFloat, "1.0")},
			tensor.Attrs{}, value(floats(tensor.F64, negZero, nan, 1))},
		{"numpy clip with a NaN constant bound", "_npy_clip_const_minmax_ fills NaN", "numpy", "clamp",
			[]tensor.Arg{{Tensor: floats(tensor.F64, 1, 2)}, scalar(tensor.ScalarFloat, "nan"), scalar(tensor.ScalarFloat, "1.0")},
			tensor.Attrs{}, value(floats(tensor.F64, nan, nan))},
		{"numpy clip of an i8 by an i16 array and an int", "the clip ufunc in the common dtype i16; min > max gives max", "numpy", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I8, -100, 100)}, {Tensor: ints(tensor.I16, -50, 300)}, scalar(tensor.ScalarInt, "100")},
			tensor.Attrs{}, value(ints(tensor.I16, -50, 100))},
		{"numpy clip drops a max beyond the input's dtype", "max >= iinfo(i8).max: np.maximum(a, min)", "numpy", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I8, -100, 100)}, {Tensor: ints(tensor.I16, -50, 300)}, scalar(tensor.ScalarInt, "200")},
			tensor.Attrs{}, value(ints(tensor.I16, -50, 300))},
		{"numpy clip without bounds copies", "np.positive", "numpy", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I8, -1)}, null(), null()}, tensor.Attrs{}, value(ints(tensor.I8, -1))},
		{"numpy clip of bool without bounds", "np.positive has no bool loop", "numpy", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.Bool, 1)}, null(), null()}, tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"jax clip is maximum then minimum", "min > max gives max", "jax/cpu-x64", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I32, -9, 0, 9)}, scalar(tensor.ScalarInt, "3"), scalar(tensor.ScalarInt, "-3")},
			tensor.Attrs{}, value(ints(tensor.I32, -3, -3, -3))},
		{"jax x32 clip without bounds narrows", "the input as JAX holds it", "jax/cpu-x32", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I64, -1)}, null(), null()}, tensor.Attrs{}, value(ints(tensor.I32, -1))},
		{"candle clamp is maximum then minimum", "t.maximum(min)?.minimum(max)", "candle/cpu-release", "clamp",
			args(f32(1, 5, 9), f32(2, 2, 2), f32(6, 6, 6)), tensor.Attrs{}, value(f32(2, 5, 6))},
		{"candle clamp dtypes must agree", "dtype mismatch in maximum", "candle/cpu-release", "clamp",
			args(f32(1), floats(tensor.F64, 2), f32(3)), tensor.Attrs{}, fail(tensor.DTypeMismatch)},
		{"candle clamp takes both bounds", "no Option bound", "candle/cpu-debug", "clamp",
			[]tensor.Arg{{Tensor: f32(1)}, null(), {Tensor: f32(3)}}, tensor.Attrs{}, tensor.UnsupportedOutcome("")},

		// full
		{"torch full of an int is int64", "dtype inferred from fill_value", "pytorch/cpu", "full",
			nil, full("7", 0, 2), value(ints(tensor.I64, 7, 7))},
		{"torch full of a float is the default f32", "dtype inferred from fill_value", "pytorch/cpu", "full",
			nil, full("0.1", 0, 1), value(f32(0.1))},
		{"numpy full of a float is f64", "np.array(0.1).dtype", "numpy", "full",
			nil, full("0.1", 0, 1), value(floats(tensor.F64, 0.1))},
		{"jax x32 full narrows an explicit f64", "no 64-bit dtypes without x64", "jax/cpu-x32", "full",
			nil, full("0.1", tensor.F64, 1), value(f32(0.1))},
		{"full of an int as bool", "nonzero is true", "numpy", "full",
			nil, full("2", tensor.Bool, 2), value(ints(tensor.Bool, 1, 1))},
		{"full of True", "a bool", "jax/cpu-x64", "full",
			nil, full("True", 0, 1), value(ints(tensor.Bool, 1))},
		{"full of an int as complex", "the real part, +0 imaginary", "numpy", "full",
			nil, full("7", tensor.C64, 1), value(&tensor.Tensor{DType: tensor.C64, Shape: []int{1}, Data: []uint64{0x40e00000, 0}})},
		{"full of nothing", "a zero-element shape", "pytorch/cpu", "full",
			nil, full("-0.0", tensor.F16, 2, 0), value(tensor.New(tensor.F16, 2, 0))},
		{"torch full of 2^63 is a uint64 Scalar", "PyLong_AsUnsignedLongLong after the overflow", "pytorch/cpu", "full",
			nil, full("9223372036854775808", tensor.F32, 1), value(f32(0x1p63))},
		{"torch full from 2^64 is the parser's error", "OverflowError: int too big to convert", "pytorch/cpu", "full",
			nil, full("18446744073709551616", tensor.F32, 1), fail(tensor.OutOfRange)},
		{"torch full of a uint64 Scalar infers int64", "checked_convert<int64_t, uint64_t> refuses 2^63", "pytorch/cpu-arm64", "full",
			nil, full("9223372036854775808", 0, 1), fail(tensor.OutOfRange)},
		{"torch full checks f16 even when empty", "the kernel converts before its loop", "pytorch/cpu", "full",
			nil, full("70000", tensor.F16, 0), fail(tensor.OutOfRange)},
		{"torch full of a negative int wraps into u8", "-1 fits by magnitude", "pytorch/cpu", "full",
			nil, full("-1", tensor.U8, 2), value(ints(tensor.U8, 255, 255))},
		{"torch full of 0.5 as bool", "static_cast<bool>, unchecked", "pytorch/cpu", "full",
			nil, full("0.5", tensor.Bool, 1), value(ints(tensor.Bool, 1))},
		{"numpy full of 2^63 is uint64", "np.asarray(2**63).dtype", "numpy", "full",
			nil, full("9223372036854775808", 0, 1), value(&tensor.Tensor{DType: tensor.U64, Shape: []int{1}, Data: []uint64{1 << 63}})},
		{"numpy full as bool goes through int64", "the common DType of int and bool is intp", "numpy", "full",
			nil, full("18446744073709551616", tensor.Bool, 1), fail(tensor.OutOfRange)},
		{"numpy bf16 refuses an int beyond int64", "ml_dtypes' setitem: TypeError", "numpy/cpu-arm64", "full",
			nil, full("9223372036854775808", tensor.BF16, 1), fail(tensor.Other)},
		{"numpy rounds a Python int through double", "2^63 + 2^39 + 1: a f32 tie after the double", "numpy", "full",
			nil, full("9223372586610589697", tensor.F32, 1), value(f32(0x1p63))},
		{"numpy's NEP 50 refuses 300 as u8", "safe_pyint_setitem", "numpy", "full",
			nil, full("300", tensor.U8, 1), fail(tensor.OutOfRange)},
		{"jax rounds a uint64 array once", "(npy_float) of the uint64", "jax/cpu-x64", "full",
			nil, full("9223372586610589697", tensor.F32, 1), value(f32(0x1p63 + 0x1p40))},
		{"jax x32 keeps the low bits of 2^40", "astype(int32) of the int64 array", "jax/cpu-x32", "full",
			nil, full("1099511627776", 0, 2), value(ints(tensor.I32, 0, 0))},
		{"jax's object array into bool is True", "BOOL_setitem", "jax/cpu-x64", "full",
			nil, full("18446744073709551616", tensor.Bool, 1), value(ints(tensor.Bool, 1))},

		// shifts
		{"torch shifts at and past the width", "lshift_kernel / rshift_kernel", "pytorch/cpu", "shift_left",
			args(ints(tensor.I8, 1, 1, 1, 1, -1), ints(tensor.I8, 7, 8, 9, -1, 3)), tensor.Attrs{},
			value(ints(tensor.I8, -128, 0, 0, 0, -8))},
		{"torch >> fills the sign", "a >> (width - 1)", "pytorch/cpu", "shift_right",
			args(ints(tensor.I16, -300, 300, -300, 200), ints(tensor.I16, 16, 16, -1, 3)), tensor.Attrs{},
			value(ints(tensor.I16, -1, 0, -1, 25))},
		{"torch u8 >> 8 is 0", "max_shift is the width for unsigned", "pytorch/cpu", "shift_right",
			[]tensor.Arg{{Tensor: ints(tensor.U8, 255, 255)}, scalar(tensor.ScalarInt, "8")}, tensor.Attrs{}, value(ints(tensor.U8, 0, 0))},
		{"torch shifts of floats have no kernel", "lshift_cpu", "pytorch/cpu", "shift_left",
			args(f32(1), ints(tensor.I32, 1)), tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"numpy shifts of bools use the int8 loop", "TD(ints)", "numpy", "shift_left",
			args(ints(tensor.Bool, 1, 1), ints(tensor.Bool, 1, 0)), tensor.Attrs{}, value(ints(tensor.I8, 2, 1))},
		{"numpy shift by a negative count", "npy_lshift: count as size_t", "numpy", "shift_left",
			args(ints(tensor.I64, 5), ints(tensor.I64, -1)), tensor.Attrs{}, value(ints(tensor.I64, 0))},
		{"jax shifts of bools are i32", "promote_args_numeric", "jax/cpu-x32", "shift_right",
			args(ints(tensor.Bool, 1), ints(tensor.Bool, 1)), tensor.Attrs{}, value(ints(tensor.I32, 0))},
		{"jax shift of a float", "TypeError", "jax/cpu-x64", "shift_left",
			args(f32(1), f32(1)), tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"torch shift of a complex tensor", "lshift_cpu has no complex kernel", "pytorch/cpu", "shift_left",
			args(ints(tensor.I8, 1), tensor.New(tensor.C64, 1)), tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"torch bitwise op of a complex tensor whose shapes do not broadcast", "the shapes first", "pytorch/cpu", "bitwise_and",
			args(ints(tensor.I8, 1, 2), tensor.New(tensor.C64, 3)), tensor.Attrs{}, fail(tensor.ShapeMismatch)},
		{"torch maximum of a complex tensor", "maximum not implemented for complex tensors", "pytorch/cpu", "broadcast_maximum",
			args(complexes(tensor.C64, 1), floats(tensor.F32, 2, 3)), tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"jax shift by a complex number", "TypeError: no complex shift", "jax/cpu-x32", "shift_left",
			[]tensor.Arg{{Tensor: ints(tensor.I8, 1)}, scalar(tensor.ScalarComplex, "1+2j")}, tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"candle bitwise op with a complex number", "no Rust complex literal, no bitwise ops", "candle/cpu-debug", "bitwise_or",
			[]tensor.Arg{{Tensor: ints(tensor.U8, 1)}, scalar(tensor.ScalarComplex, "1j")}, tensor.Attrs{}, tensor.UnsupportedOutcome("")},
		{"numpy shift of a complex tensor", "no loop, before the shapes", "numpy", "shift_right",
			args(ints(tensor.I8, 1, 2), tensor.New(tensor.C128, 3)), tensor.Attrs{}, fail(tensor.UnsupportedDType)},
		{"burn flex shifts in i64 by the count mod 64", "wrapping_shl(b as u32), cast back", "burn/flex-debug", "shift_left",
			args(shaped(ints(tensor.I32, 1, 1, 1, 3), 4), shaped(ints(tensor.I32, 31, 33, 64, -63), 4)), tensor.Attrs{},
			value(ints(tensor.I32, math.MinInt32, 0, 1, 6))},
		{"burn flex >> is arithmetic", "wrapping_shr", "burn/flex-release", "shift_right",
			args(ints(tensor.I32, -8, -8), ints(tensor.I32, 1, 40)), tensor.Attrs{}, value(ints(tensor.I32, -4, -1))},
		{"burn ndarray negative count", "b.elem::<u32>() of a negative count: open", "burn/ndarray", "shift_left",
			args(ints(tensor.I64, 1), ints(tensor.I64, -1)), tensor.Attrs{}, tensor.UnsupportedOutcome("")},
		{"burn shifts are Int only", "no bitwise_left_shift on Float", "burn/flex-debug", "shift_left",
			args(f32(1), f32(1)), tensor.Attrs{}, tensor.UnsupportedOutcome("")},
		{"candle has no shifts", "no Shl on Tensor", "candle/cpu-release", "shift_left",
			args(ints(tensor.U8, 1), ints(tensor.U8, 1)), tensor.Attrs{}, tensor.UnsupportedOutcome("")},

		// Python ints outside int64
		{"torch int beyond int64", "THPUtils_unpackLong: Overflow when unpacking long", "pytorch/cpu", "shift_left",
			[]tensor.Arg{{Tensor: ints(tensor.I64, 1)}, scalar(tensor.ScalarInt, "18446744073709551616")}, tensor.Attrs{}, fail(tensor.OutOfRange)},
		{"torch maximum of a number, however big", "no Scalar overload: TypeError first", "pytorch/cpu", "maximum",
			[]tensor.Arg{{Tensor: ints(tensor.I64, 1)}, scalar(tensor.ScalarInt, "18446744073709551616")}, tensor.Attrs{}, fail(tensor.Other)},
		{"torch clamp of an int by an int beyond int64", "checked conversion of the bound", "pytorch/cpu", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.I64, 1)}, scalar(tensor.ScalarInt, "-9223372036854775809"), null()}, tensor.Attrs{}, fail(tensor.OutOfRange)},
		{"jax int beyond int64", "OverflowError parsing a jitted argument", "jax/cpu-x64", "bitwise_and",
			[]tensor.Arg{scalar(tensor.ScalarInt, "-9223372036854775809"), {Tensor: ints(tensor.U64, 1)}}, tensor.Attrs{}, fail(tensor.OutOfRange)},
		{"jax where of an int beyond int64", "OverflowError parsing a jitted argument", "jax/cpu-x64", "where",
			[]tensor.Arg{{Tensor: ints(tensor.Bool, 1)}, scalar(tensor.ScalarInt, "18446744073709551615"), {Tensor: ints(tensor.U64, 1)}},
			tensor.Attrs{}, fail(tensor.OutOfRange)},
		{"jax clip by an int beyond int64", "the minimum step parses it", "jax/cpu-x64", "clamp",
			[]tensor.Arg{{Tensor: ints(tensor.U64, 1)}, null(), scalar(tensor.ScalarInt, "18446744073709551616")}, tensor.Attrs{}, fail(tensor.OutOfRange)},

		// cumsum without a dim
		{"torch cumsum needs dim", "missing required argument 'dim'", "pytorch/cpu", "cumsum",
			args(ints(tensor.I64, 1, 2)), tensor.Attrs{}, fail(tensor.Other)},
		{"numpy cumsum flattens", "axis=None: the flattened array", "numpy", "cumsum",
			args(shaped(ints(tensor.I32, 1, 2, 3, 4), 2, 2)), tensor.Attrs{}, value(ints(tensor.I64, 1, 3, 6, 10))},
		{"jax cumsum flattens a transposed view", "row-major order of the view", "jax/cpu-x64", "cumsum",
			args(&tensor.Tensor{DType: tensor.I32, Shape: []int{2, 2}, Strides: []int{1, 2}, Data: []uint64{1, 2, 3, 4}}),
			tensor.Attrs{}, value(ints(tensor.I32, 1, 4, 6, 10))},
		{"cumsum with a dim still works", "dim 0", "numpy", "cumsum",
			args(ints(tensor.I8, 1, 2)), tensor.Attrs{Dim: &dim0}, value(ints(tensor.I64, 1, 3))},
	}
	e := New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &tensor.Case{Op: tc.op, Args: tc.args, Attrs: tc.attrs}
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

// TestNewOpsDeclined lists what the engine leaves to the model: what the
// model does not state, and what the engine does not parse.
func TestNewOpsDeclined(t *testing.T) {
	e := New()
	value := "1.5"
	for _, tc := range []struct {
		name, profile string
		c             *tensor.Case
	}{
		{"numpy where of two Python ints", "numpy", &tensor.Case{Op: "where",
			Args: []tensor.Arg{{Tensor: ints(tensor.Bool, 1)}, scalar(tensor.ScalarInt, "1"), scalar(tensor.ScalarInt, "2")}}},
		{"torch clamp with a number and a tensor bound", "pytorch/cpu", &tensor.Case{Op: "clamp",
			Args: []tensor.Arg{{Tensor: ints(tensor.I8, 1)}, scalar(tensor.ScalarInt, "0"), {Tensor: ints(tensor.I8, 2)}}}},
		{"numpy clip of a float by a Python int and a float", "numpy", &tensor.Case{Op: "clamp",
			Args: []tensor.Arg{{Tensor: floats(tensor.F32, 1)}, scalar(tensor.ScalarInt, "0"), scalar(tensor.ScalarFloat, "2.0")}}},
		{"full of a float as an int", "numpy", &tensor.Case{Op: "full", Attrs: tensor.Attrs{Value: &value, DType: tensor.I32, Shape: []int{1}}}},
		{"cumsum without a dim in candle", "candle/cpu-release", &tensor.Case{Op: "cumsum", Args: args(ints(tensor.I64, 1))}},
	} {
		if e.Supports(tc.profile, tc.c) {
			t.Errorf("%s: Supports says yes", tc.name)
		}
	}
}
