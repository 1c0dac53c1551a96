package cpu

import "math"

// Conversions between float32/float64 and the 16-bit float formats. f16 is
// IEEE binary16 (11-bit significand, exponents -14..15); bf16 is the top half
// of an f32 (8-bit significand, f32's exponent range). Every narrowing here
// rounds to nearest, ties to even, with gradual underflow and overflow to
// ±inf; NaN stays NaN (payloads are not preserved: the case format does not
// encode them).

// f16ToF32 widens the f16 bit pattern h exactly.
//
// Reference: the value (-1)^s * 2^(e-15) * 1.m, or 2^-14 * 0.m for e == 0.
func f16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	em := uint32(h & 0x7fff)
	if em >= 0x7c00 { // inf, NaN
		return math.Float32frombits(sign | 0x7f800000 | (em&0x3ff)<<13)
	}
	// em<<13 puts the f16 exponent into the f32 field with a bias 112 too
	// small (subnormals land on f32 subnormals); scaling by 2^112 is exact.
	f := math.Float32frombits(em<<13) * 0x1p112
	return math.Float32frombits(math.Float32bits(f) | sign)
}

// f32ToF16 narrows f to the nearest f16, ties to even.
//
// Reference: the f16 whose value is closest to f (tensor.RoundFloat).
//
// The rounding is done by the FPU (after M. Dukhan's FP16 library): scaling
// |f| by 2^112 then 2^-110 overflows exactly the values that round to inf;
// adding a power of two whose ulp is f16's quantum at f's exponent (2^-24 at
// least, for subnormals) rounds the significand to 10 bits, to nearest even.
// Branch-free apart from the NaN select, and small enough to inline.
func f32ToF16(f float32) uint16 {
	w := math.Float32bits(f)
	w2 := w + w
	base := math.Float32frombits(w2>>1) * 0x1p112 * 0x1p-110
	bits := math.Float32bits(math.Float32frombits(max(w2&0xff000000, 0x71000000)>>1+0x07800000) + base)
	h := bits>>13&0x7c00 + bits&0x0fff
	if w2 > 0xff000000 { // NaN
		h = 0x7e00
	}
	return uint16(w>>16&0x8000 | h)
}

// f64ToF16 narrows x to the nearest f16 in one rounding (NumPy's
// npy_doublebits_to_halfbits), not through f32.
func f64ToF16(x float64) uint16 {
	u := math.Float64bits(x)
	sign := uint16(u>>48) & 0x8000
	u &^= 1 << 63
	a := math.Float64frombits(u)
	switch {
	case u > 0x7ff0000000000000:
		return sign | 0x7e00
	case a >= 65520: // MAX + ulp/2 rounds to inf
		return sign | 0x7c00
	case a < 0x1p-14: // subnormal quantum 2^-24; the sum is exact below 2^52
		q := a*0x1p24 + 0x1p52
		return sign | uint16(math.Float64bits(q)&0x7ff)
	}
	exp := int(u>>52) - 1023
	mant := u & (1<<52 - 1)
	h := uint64(exp+15)<<10 | mant>>42
	rest := mant & (1<<42 - 1)
	if rest > 1<<41 || rest == 1<<41 && h&1 == 1 {
		h++
	}
	return sign | uint16(h)
}

// bf16ToF32 widens the bf16 bit pattern b exactly.
func bf16ToF32(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// f32ToBF16 narrows f to the nearest bf16, ties to even (c10, Eigen and
// XLA round the bit pattern the same way).
func f32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return uint16(u>>16) | 0x40
	}
	if zooBuild && zoo("bf16-tie") {
		return uint16((u + 0x8000) >> 16) // zoo: ties away from zero
	}
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

// roundF16 rounds f to the nearest f16 value, kept as float32.
func roundF16(f float32) float32 { return f16ToF32(f32ToF16(f)) }

// roundBF16 rounds f to the nearest bf16 value, kept as float32.
func roundBF16(f float32) float32 { return bf16ToF32(f32ToBF16(f)) }

// roundF16From64 rounds x to the nearest f16 value in one rounding.
func roundF16From64(x float64) float32 { return f16ToF32(f64ToF16(x)) }

// roundBF16From64 rounds x to the nearest bf16 value in one rounding.
func roundBF16From64(x float64) float32 {
	u := math.Float64bits(x)
	a := math.Abs(x)
	switch {
	case a != a || a == 0 || a > math.MaxFloat64:
		return float32(x)
	case a >= 0x1p128:
		return float32(math.Copysign(math.Inf(1), x))
	}
	// Round the significand to 8 bits at the exponent of x, clamped below
	// to bf16's smallest quantum 2^-133, by adding and subtracting a
	// constant whose ulp is that quantum.
	e := int(u>>52&0x7ff) - 1023
	q := max(e-7, -133)
	c := math.Float64frombits(uint64(q+52+1023)<<52 | 1<<51) // 1.5 * 2^(q+52)
	r := (x + c) - c
	if math.Abs(r) >= 0x1p128*(1-0x1p-9) { // MAX + ulp/2 and above
		return float32(math.Copysign(math.Inf(1), x))
	}
	return float32(math.Copysign(r, x)) // a tiny negative x rounds to -0, not +0
}
