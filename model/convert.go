package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// Element conversions: the reference semantics of the machine instructions
// and library routines that frameworks compile their casts to. They take and
// return plain values, so that every profile (PyTorch, NumPy, JAX here;
// candle's Rust `as`, burn and tenferro later) and every op that converts
// internally can share them:
//
//   - a float source x is a float64 holding the exact value of the element
//     (f16, bf16 and f32 widen exactly);
//   - an integer source is its two's-complement bits in a uint64, signed
//     dtypes sign-extended (tensor.Tensor.Uint);
//   - an integer result is returned the same way; tensor.SetUint keeps the
//     destination's low bits;
//   - convFlags say whether the value is unspecified ("?") and which IEEE
//     exception flags the hardware raised (NumPy turns those into warnings).
//
// Evidence for every rule: /work/notes/casts.md (verified against all 162
// cast cases of the oracle by model/evidence/sim/casts_sim.py, and against gcc 12's
// machine code by model/evidence/sim/cc_check.py).

// convFlags reports what a conversion ran into besides its value.
type convFlags uint8

const (
	// convUnspecified: the reference leaves the value undefined; emit "?".
	convUnspecified convFlags = 1 << iota
	// convInvalid: NaN, ±inf or a value outside the range of the integer
	// conversion actually executed (IEEE invalid operation, FE_INVALID).
	convInvalid
	// convOverflow: a finite value rounded to ±inf.
	convOverflow
	// convUnderflow: a nonzero result below the smallest normal number (or a
	// zero from a nonzero value) that is not exact.
	convUnderflow
)

func (f convFlags) has(g convFlags) bool { return f&g != 0 }

// unspecifiedUnlessEqual returns a when all candidate results agree, and a
// flagged unspecified otherwise. It is how the model says "the platform may
// compute either of these and we cannot tell which".
func unspecifiedUnlessEqual(a uint64, others ...uint64) (uint64, convFlags) {
	for _, b := range others {
		if b != a {
			return a, convUnspecified
		}
	}
	return a, 0
}

// signedMin returns -2^(width-1) as sign-extended bits.
func signedMin(width int) uint64 { return uint64(int64(-1) << (width - 1)) }

// lowMask keeps the low width bits.
func lowMask(width int) uint64 { return ^uint64(0) >> (64 - width) }

// ---------------------------------------------------------------- saturating conversions

// saturateToInt truncates x toward zero and clamps it to the integer range of
// width bits (signed or not); ±inf clamp to the ends, NaN gives nanBits.
//
// This is, with nanBits = 0: Rust's `as` from float to integer (defined by the
// language), XLA's convert (JAX on CPU and GPU: `x <= MIN ? MIN`, `x >= MAX ?
// MAX`, `isnan ? 0`), and Arm64 fcvtzs/fcvtzu. With the sign-bit pattern as
// nanBits it is CUDA's cvt.rzi (see cudaCvtRzi). The flag is convInvalid for
// NaN and for every clamped value.
func saturateToInt(x float64, width int, signed bool, nanBits uint64) (uint64, convFlags) {
	if math.IsNaN(x) {
		return nanBits, convInvalid
	}
	t := math.Trunc(x)
	if signed {
		limit := math.Ldexp(1, width-1)
		switch {
		case t < -limit:
			return signedMin(width), convInvalid
		case t >= limit:
			return lowMask(width - 1), convInvalid
		}
		return uint64(int64(t)), 0
	}
	switch {
	case t < 0:
		return 0, convInvalid
	case t >= math.Ldexp(1, width):
		return lowMask(width), convInvalid
	}
	return uint64(t), 0
}

// saturateNaN0 is saturateToInt into the integer dtype dst with NaN -> 0:
// Rust `as`, XLA's convert (JAX), Arm64 fcvtz* at dst's own width.
func saturateNaN0(x float64, dst tensor.DType) (uint64, convFlags) {
	return saturateToInt(x, dst.Bits(), dst.IsSigned(), 0)
}

// ---------------------------------------------------------------- x86-64 (gcc)

// x86Cvtt is cvttss2si / cvttsd2si with a 32- or 64-bit destination register:
// truncation toward zero, and for NaN, ±inf and results outside the signed
// range of width bits the "integer indefinite" value -2^(width-1) (with
// FE_INVALID). A source of f32 precision gives the same result as its exact
// float64 value, so one function serves both instructions.
func x86Cvtt(x float64, width int) (uint64, convFlags) {
	limit := math.Ldexp(1, width-1)
	t := math.Trunc(x)
	if math.IsNaN(x) || t < -limit || t >= limit {
		return signedMin(width), convInvalid
	}
	return uint64(int64(t)), 0
}

// x86SplitUnsigned is gcc's float -> unsigned sequence for a width the
// hardware has no unsigned conversion for (u64 scalar: comisd 2^63; cvttsd2si;
// btc 63; u32 in vectorised loops):
//
//	x >= 2^(w-1) ? cvtt_w(x - 2^(w-1)) XOR 2^(w-1) : cvtt_w(x)      (mod 2^w)
//
// with the subtraction in the source precision prec (f64, or f32 for every
// narrower source). NaN compares false and takes the second branch. Closed
// form: trunc(x) mod 2^w for -2^(w-1) <= trunc(x) < 2^w; 0 for x >= 2^w
// (+inf included); 2^(w-1) for NaN, -inf and trunc(x) < -2^(w-1).
func x86SplitUnsigned(x float64, width int, prec tensor.DType) (uint64, convFlags) {
	half := math.Ldexp(1, width-1)
	if x >= half {
		d := x - half
		if prec != tensor.F64 {
			d = float64(float32(x) - float32(half))
		}
		v, f := x86Cvtt(d, width)
		return (v ^ uint64(1)<<(width-1)) & lowMask(width), f
	}
	v, f := x86Cvtt(x, width)
	return v & lowMask(width), f
}

// x86Low32 is the scalar float -> u32 code gcc emits without AVX-512:
// cvttss2si/cvttsd2si into a 64-bit register, keeping the low 32 bits.
// Closed form: trunc(x) mod 2^32 when |trunc(x)| < 2^63, else 0.
func x86Low32(x float64) (uint64, convFlags) {
	v, f := x86Cvtt(x, 64)
	return v & lowMask(32), f
}

// loopLane says which code of an auto-vectorised loop converts an element.
type loopLane uint8

const (
	laneVector  loopLane = iota // the vector body
	laneScalar                  // scalar code (a loop that is never vectorised)
	laneUnknown                 // either: the boundary is not pinned by evidence
)

// x86U32Lane locates element i of an n-element contiguous float -> u32 loop
// compiled by gcc -O3 (AVX2 or SSE4.2): f32 and f64 sources are vectorised in
// blocks of 4, bf16 (converted through f32) in blocks of 8, and the last
// n mod B elements run in a scalar tail; f16 sources are never vectorised
// (_cvtsh_ss per element). The tail boundary rests on gcc 12's code
// generation (model/evidence/sim/cc_tail.c), not on the oracle, so tail elements are
// laneUnknown; so is every element of a loop whose split is not known
// (parallel chunks: pass i = -1) and of other sources.
func x86U32Lane(src tensor.DType, i, n int) loopLane {
	block := map[tensor.DType]int{tensor.F32: 4, tensor.F64: 4, tensor.BF16: 8}[src]
	switch {
	case src == tensor.F16:
		return laneScalar
	case block == 0 || i < 0 || i >= n-n%block:
		return laneUnknown
	}
	return laneVector
}

// x86FloatToU32 converts to u32 as the lane's code does: the vector body
// uses the 32-bit range split (x86SplitUnsigned), scalar code x86Low32. An
// unknown lane is unspecified where the two differ (NaN, x <= -2^31-1 and
// 2^32 <= x < 2^63).
func x86FloatToU32(x float64, prec tensor.DType, lane loopLane) (uint64, convFlags) {
	vec, fv := x86SplitUnsigned(x, 32, prec)
	sc, fs := x86Low32(x)
	switch lane {
	case laneVector:
		return vec, fv
	case laneScalar:
		return sc, fs
	}
	v, f := unspecifiedUnlessEqual(vec, sc)
	return v, f | fv | fs
}

// x86FloatToInt is the C cast (dst)x compiled by gcc for x86-64 without
// AVX-512, as NumPy's cast loops run it (x a value of the float dtype src;
// complex sources pass their real part and component dtype):
//
//	i8, u8, i16, u16: cvtt32, keep the low bits (so 300 -> i8 44, NaN -> 0)
//	i32: cvtt32;  i64: cvtt64;  u64: 64-bit range split
//	u32: see x86FloatToU32 (lane from x86U32Lane)
//
// PyTorch routes u8 through i64 before this (see pytorch.cast.f2i.u8-via-i64).
func x86FloatToInt(x float64, src, dst tensor.DType, lane loopLane) (uint64, convFlags) {
	prec := tensor.F32
	if src == tensor.F64 {
		prec = tensor.F64
	}
	switch dst {
	case tensor.I64:
		return x86Cvtt(x, 64)
	case tensor.U64:
		return x86SplitUnsigned(x, 64, prec)
	case tensor.U32:
		return x86FloatToU32(x, prec, lane)
	}
	v, f := x86Cvtt(x, 32)
	return wrapInt(v, dst), f
}

// ---------------------------------------------------------------- CUDA (nvcc)

// cudaCvtRzi is PTX cvt.rzi.{s,u}{32,64}.{f32,f64}: truncation that
// saturates to the range of width bits. NaN gives 0 for an f32 source (f16
// and bf16 are converted as f32) into 32 bits, and the sign-bit pattern
// 0x80..0 otherwise: f64 into 32 bits (i32 -2^31, u32 2^31) and any source
// into 64 bits (i64 -2^63, u64 2^63). Evidence: oracle-00854, 00867, 00868,
// 00881, 00856, 00869, 00870.
func cudaCvtRzi(x float64, width int, signed bool, src tensor.DType) (uint64, convFlags) {
	nan := uint64(1) << (width - 1)
	if signed {
		nan = signedMin(width)
	}
	if width == 32 && src != tensor.F64 {
		nan = 0
	}
	return saturateToInt(x, width, signed, nan)
}

// cudaFloatToInt is the C++ static_cast<dst>(x) compiled by nvcc: narrow
// destinations convert at 32 bits and keep the low bits, signed ones through
// s32 and unsigned ones through u32 (-2.7 -> u16 0, 100278.97 -> u16 34742:
// oracle-00866, oracle2-00099). A plain u8 cast is taken to go through u32
// like u16 (inferred; PyTorch routes u8 through i64 instead).
func cudaFloatToInt(x float64, src, dst tensor.DType) (uint64, convFlags) {
	width := 32
	if dst.Bits() == 64 {
		width = 64
	}
	v, f := cudaCvtRzi(x, width, dst.IsSigned(), src)
	return wrapInt(v, dst), f
}

// ---------------------------------------------------------------- Arm64 (clang)

// arm64FloatToInt is the C++ cast compiled by clang for AArch64. Scalar code
// uses fcvtzs/fcvtzu, which saturate at the register width and turn NaN into
// 0 (DESIGN.md; the seed 003 M2 Max rows: f32 300 -> i64 300, inf -> u32
// 4294967295, NaN -> 0):
//
//	i8, i16, i32: fcvtzs w (32 bits), keep the low bits
//	u32: fcvtzu w;  i64: fcvtzs x;  u64: fcvtzu x
//	u8, u16: LLVM may promote the unsigned conversion to fcvtzs w (both are
//	  "Custom" on AArch64) or vectorise it as fcvtzu; unspecified where the
//	  two differ (negative values)
//
// and vectorised loops convert f64 lanes at 64 bits (fcvtz* .2d) and narrow
// with xtn, so for an f64 source into a 32-bit intermediate the 64-bit
// saturation, narrowed, is a second candidate. Unspecified where candidates
// differ; nothing here has an oracle run.
func arm64FloatToInt(x float64, src, dst tensor.DType) (uint64, convFlags) {
	if dst.Bits() == 64 {
		return saturateNaN0(x, dst)
	}
	signs := []bool{dst.IsSigned()}
	if dst == tensor.U8 || dst == tensor.U16 {
		signs = []bool{true, false}
	}
	widths := []int{32}
	if src == tensor.F64 {
		widths = append(widths, 64)
	}
	var cands []uint64
	var flags convFlags
	for _, width := range widths {
		for _, signed := range signs {
			v, f := saturateToInt(x, width, signed, 0)
			cands = append(cands, wrapInt(v, dst))
			flags |= f
		}
	}
	v, f := unspecifiedUnlessEqual(cands[0], cands[1:]...)
	return v, f | flags
}

// ---------------------------------------------------------------- float -> float

// minNormal returns the smallest positive normal value of a float dtype.
func minNormal(d tensor.DType) float64 {
	switch d {
	case tensor.F16:
		return math.Ldexp(1, -14)
	case tensor.F64:
		return math.Ldexp(1, -1022)
	}
	return math.Ldexp(1, -126) // f32, bf16
}

// floatToFloat rounds x to the float dtype d once: to nearest, ties to even,
// gradual underflow (no flush to zero), overflow to ±inf at MAX + ulp/2 (a tie
// at the top goes to inf), NaN stays NaN, ±0 and ±inf are kept. This is every
// framework's f64 -> f32, f32 -> f16 and f32 -> bf16 (c10's and Eigen's bf16
// rounding on the bit pattern is the same function). Evidence: oracle-00938..
// 00941 (65520 -> f16 inf, 1.00048828125 -> f16 1.0, 2^-25 -> 0, 65504 -> bf16
// 65536). Flags: convOverflow, convUnderflow.
func floatToFloat(x float64, d tensor.DType) (float64, convFlags) {
	r := tensor.RoundFloat(x, d)
	var f convFlags
	if math.IsInf(r, 0) && !math.IsInf(x, 0) {
		f |= convOverflow
	}
	if x != 0 && r != x && math.Abs(r) < minNormal(d) {
		f |= convUnderflow
	}
	return r, f
}

// floatToFloatVia rounds x to via, then to d: a double rounding, as
// c10::Half(float) and c10::BFloat16(float) do for every double or integer
// source (they have no constructor from double), and ml_dtypes' bf16 casts
// (static_cast<bfloat16>(static_cast<float>(x))). It differs from a single
// rounding only within one f32 ulp of a tie of d: f64 1+2^-11+2^-40 -> f16
// is 1.0 here and 1.0009765625 rounded once (casts.md §6). Flags of both steps.
func floatToFloatVia(x float64, via, d tensor.DType) (float64, convFlags) {
	y, f1 := floatToFloat(x, via)
	r, f2 := floatToFloat(y, d)
	return r, f1 | f2
}

// floatToFloatEither is a conversion whose path is not pinned by evidence: a
// single rounding to d or a double rounding through f32 (XLA's FPCast vs the
// older "cast to F32 first"). The single rounding's value, unspecified where
// the two differ.
func floatToFloatEither(x float64, d tensor.DType) (float64, convFlags) {
	single, f := floatToFloat(x, d)
	double, _ := floatToFloatVia(x, tensor.F32, d)
	if !sameFloat(single, double) {
		f |= convUnspecified
	}
	return single, f
}

// sameFloat reports bit-level equality of two values, with every NaN equal.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

// ---------------------------------------------------------------- int -> float

// intToFloatRNE rounds the integer v (bits of the integer dtype from) to the
// float dtype d once, correctly (cvtsi2sd, gcc's u64 sequences, CUDA's
// cvt.rn, XLA's sitofp/uitofp): 9007199254740993 -> f64 9007199254740992,
// 2^64-1 -> 1.8446744073709552e19, |v| >= 65520 -> f16 inf (oracle-00930,
// oracle-00936). Flag: convOverflow.
func intToFloatRNE(v uint64, from, d tensor.DType) (float64, convFlags) {
	r := intToFloat(v, from, d)
	if math.IsInf(r, 0) {
		return r, convOverflow
	}
	return r, 0
}

// intToFloatVia rounds v to via first, then to d: c10::Half/BFloat16 built
// from float(v), NumPy's npy_float_to_half((float)v) and ml_dtypes' bf16
// from float. For f16 it never differs from intToFloatRNE (an integer that is
// inexact in f32 is beyond f16's range); for bf16 it can (2^24+2^16+1 gives
// 16777216 here and 16908288 rounded once).
func intToFloatVia(v uint64, from, via, d tensor.DType) (float64, convFlags) {
	y, f1 := intToFloatRNE(v, from, via)
	r, f2 := floatToFloat(y, d)
	return r, f1 | f2
}

// intToFloatEither is an integer -> float conversion whose path is not pinned
// (XLA: older versions go through F32 for bf16, newer ones convert directly):
// the single rounding's value, unspecified where the two differ.
func intToFloatEither(v uint64, from, d tensor.DType) (float64, convFlags) {
	single, f := intToFloatRNE(v, from, d)
	double, _ := intToFloatVia(v, from, tensor.F32, d)
	if !sameFloat(single, double) {
		f |= convUnspecified
	}
	return single, f
}
