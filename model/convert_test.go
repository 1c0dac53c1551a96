package model

import (
	"math"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Expected values below come from /work/notes/casts.md and the oracle cases
// it cites (and model/evidence/sim/f2i_table.md), never from the code under test.

var (
	cvNaN     = math.NaN()
	cvInf     = math.Inf(1)
	cvNegZero = math.Copysign(0, -1)
	cvP31     = math.Ldexp(1, 31)
	cvP32     = math.Ldexp(1, 32)
	cvP63     = math.Ldexp(1, 63)
	cvP64     = math.Ldexp(1, 64)
	cvF32e18  = float64(float32(9.3e18)) // 9300000300729368576, an f32 value
)

// cvSigned is the sign-extended bit pattern of a signed result.
func cvSigned(v int64) uint64 { return uint64(v) }

type cvIntRow struct {
	name  string
	x     float64
	want  uint64
	flags convFlags
}

func cvCheckInt(t *testing.T, rows []cvIntRow, conv func(float64) (uint64, convFlags)) {
	t.Helper()
	for _, r := range rows {
		got, f := conv(r.x)
		if f.has(convUnspecified) != r.flags.has(convUnspecified) || f.has(convInvalid) != r.flags.has(convInvalid) {
			t.Errorf("%s: %v gives flags %b, want %b", r.name, r.x, f, r.flags)
		}
		if !r.flags.has(convUnspecified) && got != r.want {
			t.Errorf("%s: %v gives %#x (%d), want %#x (%d)", r.name, r.x, got, int64(got), r.want, int64(r.want))
		}
	}
}

func TestX86Cvtt32(t *testing.T) {
	indef := cvSigned(-1 << 31)
	cvCheckInt(t, []cvIntRow{
		{"truncates toward zero", -2.7, cvSigned(-2), 0},
		{"255.5", 255.5, 255, 0},
		{"-0", cvNegZero, 0, 0},
		{"NaN is indefinite", cvNaN, indef, convInvalid},
		{"+inf is indefinite", cvInf, indef, convInvalid},
		{"-inf is indefinite", -cvInf, indef, convInvalid},
		{"2^31-1 fits", cvP31 - 1, 1<<31 - 1, 0},
		{"2^31 is out of range", cvP31, indef, convInvalid},
		{"-2^31 fits exactly", -cvP31, indef, 0},
		{"-2^31-1 is out of range", -cvP31 - 1, indef, convInvalid},
		{"1e20 (oracle-00854)", 1e20, indef, convInvalid},
	}, func(x float64) (uint64, convFlags) { return x86Cvtt(x, 32) })
}

func TestX86Cvtt64(t *testing.T) {
	indef := cvSigned(math.MinInt64)
	cvCheckInt(t, []cvIntRow{
		{"-2.7", -2.7, cvSigned(-2), 0},
		{"-2147483649 fits", -cvP31 - 1, cvSigned(-2147483649), 0},
		{"NaN (oracle-00869)", cvNaN, indef, convInvalid},
		{"+inf", cvInf, indef, convInvalid},
		{"2^63 is out of range", cvP63, indef, convInvalid},
		{"-2^63 fits exactly", -cvP63, indef, 0},
		{"largest f64 below 2^63", cvP63 - 1024, 1<<63 - 1024, 0},
		{"f32 9.3e18 is above 2^63-1", cvF32e18, indef, convInvalid},
		{"1e20 (oracle-00856)", 1e20, indef, convInvalid},
	}, func(x float64) (uint64, convFlags) { return x86Cvtt(x, 64) })
}

// TestX86Split32 is the vector-body float -> u32 column of oracle-00868 (f64)
// and oracle-00894 (bf16).
func TestX86Split32(t *testing.T) {
	rows := []cvIntRow{
		{"-2.7 wraps", -2.7, 4294967294, 0},
		{"NaN", cvNaN, 1 << 31, convInvalid},
		{"-inf", -cvInf, 1 << 31, convInvalid},
		{"-1e20", -1e20, 1 << 31, convInvalid},
		{"-2147483649", -cvP31 - 1, 1 << 31, convInvalid},
		{"-2^31 wraps", -cvP31, 1 << 31, 0},
		{"2^31", cvP31, 1 << 31, 0},
		{"2^32-1", cvP32 - 1, 1<<32 - 1, 0},
		{"2^32 gives 0", cvP32, 0, convInvalid},
		{"9.3e18 gives 0", 9.3e18, 0, convInvalid},
		{"1e20 gives 0", 1e20, 0, convInvalid},
		{"+inf gives 0", cvInf, 0, convInvalid},
	}
	cvCheckInt(t, rows, func(x float64) (uint64, convFlags) { return x86SplitUnsigned(x, 32, tensor.F64) })
	var f32Rows []cvIntRow // the same rows in f32 precision, where f32 holds them
	for _, r := range rows {
		if float64(float32(r.x)) == r.x || math.IsNaN(r.x) {
			f32Rows = append(f32Rows, r)
		}
	}
	cvCheckInt(t, f32Rows, func(x float64) (uint64, convFlags) { return x86SplitUnsigned(x, 32, tensor.F32) })
}

// TestX86Split64 is the float -> u64 column of oracle-00870/00883/00896.
func TestX86Split64(t *testing.T) {
	cvCheckInt(t, []cvIntRow{
		{"-2.7 wraps", -2.7, math.MaxUint64 - 1, 0},
		{"-2147483649 wraps", -cvP31 - 1, 1<<64 - 2147483649, 0},
		{"NaN", cvNaN, 1 << 63, convInvalid},
		{"-inf", -cvInf, 1 << 63, convInvalid},
		{"-1e20", -1e20, 1 << 63, convInvalid},
		{"9.3e18 exact", 9.3e18, 9300000000000000000, 0},
		{"2^63", cvP63, 1 << 63, 0},
		{"largest f64 below 2^64", cvP64 - 2048, math.MaxUint64 - 2047, 0},
		{"2^64 gives 0", cvP64, 0, convInvalid},
		{"1e20 gives 0", 1e20, 0, convInvalid},
		{"+inf gives 0", cvInf, 0, convInvalid},
	}, func(x float64) (uint64, convFlags) { return x86SplitUnsigned(x, 64, tensor.F64) })
}

// TestX86Low32 is the scalar float -> u32 code: oracle-00881 (f16 sources).
func TestX86Low32(t *testing.T) {
	cvCheckInt(t, []cvIntRow{
		{"NaN gives 0", cvNaN, 0, convInvalid},
		{"+inf gives 0", cvInf, 0, convInvalid},
		{"-inf gives 0", -cvInf, 0, convInvalid},
		{"-2.7 wraps", -2.7, 4294967294, 0},
		{"65504", 65504, 65504, 0},
		{"2^32+5 keeps the low bits", cvP32 + 5, 5, 0},
		{"-2147483649 keeps the low bits", -cvP31 - 1, 2147483647, 0},
		{"1e20 gives 0", 1e20, 0, convInvalid},
	}, x86Low32)
}

func TestX86U32Lane(t *testing.T) {
	tests := []struct {
		name string
		src  tensor.DType
		i, n int
		want loopLane
	}{
		{"f32 body", tensor.F32, 19, 21, laneVector},
		{"f32 tail", tensor.F32, 20, 21, laneUnknown},
		{"f64 whole blocks", tensor.F64, 7, 8, laneVector},
		{"f64 short loop is all tail", tensor.F64, 0, 3, laneUnknown},
		{"bf16 body (oracle-00894 index 14)", tensor.BF16, 15, 21, laneVector},
		{"bf16 tail", tensor.BF16, 16, 21, laneUnknown},
		{"f16 is never vectorised", tensor.F16, 0, 64, laneScalar},
		{"complex loops are not known", tensor.C64, 0, 64, laneUnknown},
		{"unknown split", tensor.F32, -1, 64, laneUnknown},
	}
	for _, tt := range tests {
		if got := x86U32Lane(tt.src, tt.i, tt.n); got != tt.want {
			t.Errorf("%s: lane %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestX86FloatToU32Lanes(t *testing.T) {
	tests := []struct {
		name  string
		x     float64
		lane  loopLane
		want  uint64
		unspc bool
	}{
		{"vector NaN", cvNaN, laneVector, 1 << 31, false},
		{"scalar NaN", cvNaN, laneScalar, 0, false},
		{"unknown NaN", cvNaN, laneUnknown, 0, true},
		{"unknown 3.0 agrees", 3, laneUnknown, 3, false},
		{"unknown -2.7 agrees", -2.7, laneUnknown, 4294967294, false},
		{"unknown 2^32 agrees on 0", cvP32, laneUnknown, 0, false},
		{"unknown 2^32+8 differs", cvP32 + 8, laneUnknown, 0, true},
		{"unknown -inf differs", -cvInf, laneUnknown, 0, true},
	}
	for _, tt := range tests {
		got, f := x86FloatToU32(tt.x, tensor.F64, tt.lane)
		if f.has(convUnspecified) != tt.unspc || (!tt.unspc && got != tt.want) {
			t.Errorf("%s: %d (flags %b), want %d unspecified=%v", tt.name, got, f, tt.want, tt.unspc)
		}
	}
}

func TestX86FloatToInt(t *testing.T) {
	tests := []struct {
		name     string
		x        float64
		src, dst tensor.DType
		want     uint64
	}{
		{"f32 300 -> i8 44 (oracle-00850)", 300, tensor.F32, tensor.I8, 44},
		{"f32 255.5 -> i8 -1", 255.5, tensor.F32, tensor.I8, cvSigned(-1)},
		{"f32 1e20 -> i8 0", float64(float32(1e20)), tensor.F32, tensor.I8, 0},
		{"f32 NaN -> i8 0", cvNaN, tensor.F32, tensor.I8, 0},
		{"f32 -1745.117 -> i8 47 (oracle2-00046)", float64(float32(-1745.117)), tensor.F32, tensor.I8, 47},
		{"f32 414.9 -> u8 158 (oracle2-00051)", float64(float32(414.9)), tensor.F32, tensor.U8, 158},
		{"f32 -1295034.75 -> u8 70 (oracle2-00051)", -1295034.75, tensor.F32, tensor.U8, 70},
		{"f64 -2147483649 -> u8 0 via 32 bits (oracle-00864)", -cvP31 - 1, tensor.F64, tensor.U8, 0},
		{"f32 100278.97 -> u16 34742 (oracle2-00099)", float64(float32(100278.97)), tensor.F32, tensor.U16, 34742},
		{"f32 -344.49 -> u16 65192 (oracle2-00099)", float64(float32(-344.49)), tensor.F32, tensor.U16, 65192},
		{"f64 -2147483649 -> i16 0 (oracle-00865)", -cvP31 - 1, tensor.F64, tensor.I16, 0},
		{"f16 65520 -> i16 -16 (oracle2-00592)", 65520, tensor.F32, tensor.I16, cvSigned(-16)},
		{"f64 65504 -> i8 -32 (oracle2-00667)", 65504, tensor.F64, tensor.I8, cvSigned(-32)},
		{"f64 2^31 -> i32 -2^31 (oracle-00867)", cvP31, tensor.F64, tensor.I32, cvSigned(-1 << 31)},
		{"f64 1e20 -> i64 -2^63 (oracle-00869)", 1e20, tensor.F64, tensor.I64, cvSigned(math.MinInt64)},
		{"f64 -2147483649 -> u64 (oracle-00870)", -cvP31 - 1, tensor.F64, tensor.U64, 1<<64 - 2147483649},
	}
	for _, tt := range tests {
		got, f := x86FloatToInt(tt.x, tt.src, tt.dst, laneVector)
		if f.has(convUnspecified) || got != tt.want {
			t.Errorf("%s: %d (flags %b), want %d", tt.name, int64(got), f, int64(tt.want))
		}
	}
}

func TestSaturateNaN0(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		dst  tensor.DType
		want uint64
	}{
		{"255.5 -> i8 127 (oracle-00850)", 255.5, tensor.I8, 127},
		{"1e20 -> i8 127", 1e20, tensor.I8, 127},
		{"NaN -> i8 0", cvNaN, tensor.I8, 0},
		{"-2.7 -> u8 0 (oracle-00851)", -2.7, tensor.U8, 0},
		{"-1745.117 -> i8 -128 (oracle2-00046)", -1745.117, tensor.I8, cvSigned(-128)},
		{"65520 -> i16 32767 (oracle2-00592)", 65520, tensor.I16, 32767},
		{"-inf -> i32 min", -cvInf, tensor.I32, cvSigned(math.MinInt32)},
		{"2^31 -> i32 max", cvP31, tensor.I32, math.MaxInt32},
		{"-2^31 -> i32 min exactly", -cvP31, tensor.I32, cvSigned(math.MinInt32)},
		{"NaN -> i64 0 (oracle-00869)", cvNaN, tensor.I64, 0},
		{"1e20 -> i64 max (oracle-00869)", 1e20, tensor.I64, math.MaxInt64},
		{"2^63 -> i64 max", cvP63, tensor.I64, math.MaxInt64},
		{"-2^63 -> i64 min", -cvP63, tensor.I64, cvSigned(math.MinInt64)},
		{"2^64 -> u64 max", cvP64, tensor.U64, math.MaxUint64},
		{"largest f64 below 2^64 -> u64 exact", cvP64 - 2048, tensor.U64, math.MaxUint64 - 2047},
		{"2^32 -> u32 max", cvP32, tensor.U32, math.MaxUint32},
		{"-0 -> u32 0", cvNegZero, tensor.U32, 0},
	}
	for _, tt := range tests {
		if got, _ := saturateNaN0(tt.x, tt.dst); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, int64(got), int64(tt.want))
		}
	}
}

// TestCudaFloatToInt is the pytorch/cuda column of casts.md §5.
func TestCudaFloatToInt(t *testing.T) {
	tests := []struct {
		name     string
		x        float64
		src, dst tensor.DType
		want     uint64
	}{
		{"f32 NaN -> i32 0 (oracle-00854)", cvNaN, tensor.F32, tensor.I32, 0},
		{"f32 1e20 -> i32 max", 1e20, tensor.F32, tensor.I32, math.MaxInt32},
		{"f64 NaN -> i32 -2^31 (oracle-00867)", cvNaN, tensor.F64, tensor.I32, cvSigned(math.MinInt32)},
		{"f64 NaN -> u32 2^31 (oracle-00868)", cvNaN, tensor.F64, tensor.U32, 1 << 31},
		{"f64 -2.7 -> u32 0", -2.7, tensor.F64, tensor.U32, 0},
		{"f64 1e20 -> u32 max", 1e20, tensor.F64, tensor.U32, math.MaxUint32},
		{"f16 NaN -> u32 0 (oracle-00881)", cvNaN, tensor.F16, tensor.U32, 0},
		{"f32 NaN -> i64 -2^63 (oracle-00856)", cvNaN, tensor.F32, tensor.I64, cvSigned(math.MinInt64)},
		{"bf16 NaN -> u64 2^63 (oracle-00896)", cvNaN, tensor.BF16, tensor.U64, 1 << 63},
		{"f32 1e20 -> i8 -1 (oracle-00850)", 1e20, tensor.F32, tensor.I8, cvSigned(-1)},
		{"f32 -1e20 -> i8 0", -1e20, tensor.F32, tensor.I8, 0},
		{"f32 255.5 -> i8 -1", 255.5, tensor.F32, tensor.I8, cvSigned(-1)},
		{"f32 300 -> i8 44", 300, tensor.F32, tensor.I8, 44},
		{"f32 -344.49 -> u16 0 (oracle2-00099)", -344.49, tensor.F32, tensor.U16, 0},
		{"f32 100278.97 -> u16 34742", 100278.97, tensor.F32, tensor.U16, 34742},
		{"f64 2^31 -> u16 0 (oracle-00866)", cvP31, tensor.F64, tensor.U16, 0},
		{"f64 1e20 -> u16 65535", 1e20, tensor.F64, tensor.U16, 65535},
		{"f32 inf -> i16 -1 (oracle2-00943)", cvInf, tensor.F32, tensor.I16, cvSigned(-1)},
	}
	for _, tt := range tests {
		got, f := cudaFloatToInt(tt.x, tt.src, tt.dst)
		if f.has(convUnspecified) || got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, int64(got), int64(tt.want))
		}
	}
}

func TestArm64FloatToInt(t *testing.T) {
	tests := []struct {
		name     string
		x        float64
		src, dst tensor.DType
		want     uint64
		unspc    bool
	}{
		{"seed 003: -1.7 -> i64 -1", -1.7, tensor.F32, tensor.I64, cvSigned(-1), false},
		{"seed 003: NaN -> i64 0", cvNaN, tensor.F32, tensor.I64, 0, false},
		{"seed 003: inf -> i64 max", cvInf, tensor.F32, tensor.I64, math.MaxInt64, false},
		{"seed 003: -1.7 -> u32 0", -1.7, tensor.F32, tensor.U32, 0, false},
		{"seed 003: inf -> u32 max", cvInf, tensor.F32, tensor.U32, math.MaxUint32, false},
		{"seed 003: 300 -> u32 300", 300, tensor.F32, tensor.U32, 300, false},
		{"f32 1e10 -> i32 saturates", 1e10, tensor.F32, tensor.I32, math.MaxInt32, false},
		{"f32 1e10 -> i8 low bits of the 32-bit saturation", 1e10, tensor.F32, tensor.I8, cvSigned(-1), false},
		{"f32 300 -> i8 44", 300, tensor.F32, tensor.I8, 44, false},
		{"f32 NaN -> i16 0", cvNaN, tensor.F32, tensor.I16, 0, false},
		{"f32 70000 -> u16 4464 either way", 70000, tensor.F32, tensor.U16, 4464, false},
		{"f32 -1.7 -> u16: fcvtzs or fcvtzu", -1.7, tensor.F32, tensor.U16, 0, true},
		{"f64 1e10 -> i32: 32-bit or vector 64-bit", 1e10, tensor.F64, tensor.I32, 0, true},
		{"f64 1e3 -> i32 agrees", 1e3, tensor.F64, tensor.I32, 1000, false},
		{"f64 -2^63 -> i64 exact", -cvP63, tensor.F64, tensor.I64, cvSigned(math.MinInt64), false},
		{"f64 2^64 -> u64 max", cvP64, tensor.F64, tensor.U64, math.MaxUint64, false},
	}
	for _, tt := range tests {
		got, f := arm64FloatToInt(tt.x, tt.src, tt.dst)
		if f.has(convUnspecified) != tt.unspc || (!tt.unspc && got != tt.want) {
			t.Errorf("%s: %d (flags %b), want %d unspecified=%v", tt.name, int64(got), f, int64(tt.want), tt.unspc)
		}
	}
}

type cvFloatRow struct {
	name  string
	x     float64
	d     tensor.DType
	want  float64
	flags convFlags
}

func cvCheckFloat(t *testing.T, rows []cvFloatRow, conv func(float64, tensor.DType) (float64, convFlags)) {
	t.Helper()
	for _, r := range rows {
		got, f := conv(r.x, r.d)
		if f != r.flags {
			t.Errorf("%s: flags %b, want %b", r.name, f, r.flags)
		}
		if !r.flags.has(convUnspecified) && !sameFloat(got, r.want) {
			t.Errorf("%s: %v -> %s gives %v, want %v", r.name, r.x, r.d, got, r.want)
		}
	}
}

// TestFloatToFloat is oracle-00938..00941 (f32/f64 -> f16/bf16 grid).
func TestFloatToFloat(t *testing.T) {
	cvCheckFloat(t, []cvFloatRow{
		{"65519.99 -> f16 65504", 65519.99, tensor.F16, 65504, 0},
		{"65520 -> f16 inf (tie at the top)", 65520, tensor.F16, cvInf, convOverflow},
		{"inf stays inf without a flag", cvInf, tensor.F16, cvInf, 0},
		{"1.00048828125 -> f16 1.0 (tie to even)", 1.00048828125, tensor.F16, 1, 0},
		{"1.00146484375 -> f16 1.001953125", 1.00146484375, tensor.F16, 1.001953125, 0},
		{"2^-25 -> f16 0 (tie to even)", math.Ldexp(1, -25), tensor.F16, 0, convUnderflow},
		{"1e-8 -> f16 0", 1e-8, tensor.F16, 0, convUnderflow},
		{"2^-24 -> f16 kept (subnormal, exact)", math.Ldexp(1, -24), tensor.F16, math.Ldexp(1, -24), 0},
		{"largest f16 subnormal kept", 6.097555160522461e-05, tensor.F16, 6.097555160522461e-05, 0},
		{"-0 kept", cvNegZero, tensor.F16, cvNegZero, 0},
		{"NaN kept", cvNaN, tensor.BF16, cvNaN, 0},
		{"65504 -> bf16 65536", 65504, tensor.BF16, 65536, 0},
		{"1.00390625 -> bf16 1.0 (tie)", 1.00390625, tensor.BF16, 1, 0},
		{"1.01171875 -> bf16 1.015625 (tie)", 1.01171875, tensor.BF16, 1.015625, 0},
		{"f32 max -> bf16 inf", 3.4028234663852886e+38, tensor.BF16, cvInf, convOverflow},
		{"f64 -2147483649 -> f32 -2^31", -cvP31 - 1, tensor.F32, -cvP31, 0},
		{"1e300 -> f32 inf", 1e300, tensor.F32, cvInf, convOverflow},
	}, floatToFloat)
}

// TestHalfRoundingPaths is casts.md §6: single vs double rounding through f32.
func TestHalfRoundingPaths(t *testing.T) {
	x := 1 + math.Ldexp(1, -11) + math.Ldexp(1, -40)
	cvCheckFloat(t, []cvFloatRow{
		{"1+2^-11+2^-40 -> f16 once (NumPy)", x, tensor.F16, 1.0009765625, 0},
	}, floatToFloat)
	via := func(x float64, d tensor.DType) (float64, convFlags) { return floatToFloatVia(x, tensor.F32, d) }
	cvCheckFloat(t, []cvFloatRow{
		{"1+2^-11+2^-40 -> f16 through f32 (PyTorch)", x, tensor.F16, 1, 0},
		{"f32-exact values round once", 65519.99, tensor.F16, 65504, 0},
		{"1e300 overflows in the f32 step", 1e300, tensor.BF16, cvInf, convOverflow},
	}, via)
	cvCheckFloat(t, []cvFloatRow{
		{"1+2^-11+2^-40 -> f16 unpinned (JAX)", x, tensor.F16, 0, convUnspecified},
		{"agreeing paths are specified", 0.1, tensor.BF16, 0.10009765625, 0},
	}, floatToFloatEither)
}

func TestIntToFloat(t *testing.T) {
	tests := []struct {
		name  string
		conv  func(uint64, tensor.DType, tensor.DType) (float64, convFlags)
		v     uint64
		from  tensor.DType
		d     tensor.DType
		want  float64
		flags convFlags
	}{
		{"2^53+1 -> f64 ties to even (oracle-00936)", intToFloatRNE, 9007199254740993, tensor.I64, tensor.F64, 9007199254740992, 0},
		{"u64 max -> f64", intToFloatRNE, math.MaxUint64, tensor.U64, tensor.F64, 1.8446744073709552e19, 0},
		{"u64 2^63 -> f16 inf (oracle-00930)", intToFloatRNE, 1 << 63, tensor.U64, tensor.F16, cvInf, convOverflow},
		{"65519 -> f16 65504", intToFloatRNE, 65519, tensor.I32, tensor.F16, 65504, 0},
		{"65520 -> f16 inf", intToFloatRNE, 65520, tensor.I32, tensor.F16, cvInf, convOverflow},
		{"i64 min -> f32", intToFloatRNE, cvSigned(math.MinInt64), tensor.I64, tensor.F32, -cvP63, 0},
		{"2^24+2^16+1 -> bf16 once", intToFloatRNE, 1<<24 + 1<<16 + 1, tensor.I64, tensor.BF16, 16908288, 0},
		{"2^24+2^16+1 -> bf16 through f32", cvVia32, 1<<24 + 1<<16 + 1, tensor.I64, tensor.BF16, 16777216, 0},
		{"2^24+2^16+1 -> bf16 unpinned", intToFloatEither, 1<<24 + 1<<16 + 1, tensor.I64, tensor.BF16, 0, convUnspecified},
		{"16777217 -> bf16 agrees", intToFloatEither, 16777217, tensor.I64, tensor.BF16, 16777216, 0},
	}
	for _, tt := range tests {
		got, f := tt.conv(tt.v, tt.from, tt.d)
		if f != tt.flags || (!f.has(convUnspecified) && !sameFloat(got, tt.want)) {
			t.Errorf("%s: %v (flags %b), want %v (flags %b)", tt.name, got, f, tt.want, tt.flags)
		}
	}
}

func cvVia32(v uint64, from, d tensor.DType) (float64, convFlags) {
	return intToFloatVia(v, from, tensor.F32, d)
}
