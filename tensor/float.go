package tensor

import (
	"math"

	"github.com/x448/float16"
)

// binaryFormat describes an IEEE-style binary floating-point format.
type binaryFormat struct {
	precision int // significand bits, the implicit bit included
	minExp    int // exponent of the smallest normal number
	maxExp    int // exponent of the largest finite number
}

var (
	formatF16  = binaryFormat{precision: 11, minExp: -14, maxExp: 15}
	formatBF16 = binaryFormat{precision: 8, minExp: -126, maxExp: 127}
)

// round rounds x to the format, to nearest with ties to even, overflowing to ±inf
// and keeping the sign of zero. Scaling by a power of two is exact in float64, and
// so is math.RoundToEven, so the result is the exactly rounded value.
func (f binaryFormat) round(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, exp := math.Frexp(x) // |x| = frac * 2^exp, frac in [0.5, 1)
	e := exp - 1            // |x| in [2^e, 2^(e+1))
	if e < f.minExp {
		e = f.minExp // subnormal range: the quantum stops shrinking
	}
	quantumExp := e - f.precision + 1
	r := math.Ldexp(math.RoundToEven(math.Ldexp(x, -quantumExp)), quantumExp)
	if math.Abs(r) >= math.Ldexp(1, f.maxExp+1) {
		return math.Inf(int(math.Copysign(1, x)))
	}
	if r == 0 {
		return math.Copysign(0, x)
	}
	return r
}

// RoundFloat rounds x to the nearest value of the real float dtype d (ties to
// even), as the case format's reader does. d must be f16, bf16, f32 or f64.
func RoundFloat(x float64, d DType) float64 {
	switch d {
	case F16:
		return formatF16.round(x)
	case BF16:
		return formatBF16.round(x)
	case F32:
		return float64(float32(x))
	case F64:
		return x
	}
	panic("tensor: RoundFloat of a non-float dtype")
}

// floatToBits returns the bit pattern of x in dtype d; x must already be a value
// of d (see RoundFloat), which makes every conversion here exact.
func floatToBits(x float64, d DType) uint64 {
	switch d {
	case F16:
		return uint64(float16.Fromfloat32(float32(x)))
	case BF16:
		return uint64(math.Float32bits(float32(x)) >> 16)
	case F32:
		return uint64(math.Float32bits(float32(x)))
	case F64:
		return math.Float64bits(x)
	}
	panic("tensor: floatToBits of a non-float dtype")
}

// bitsToFloat decodes a bit pattern of the real float dtype d.
func bitsToFloat(b uint64, d DType) float64 {
	switch d {
	case F16:
		return float64(float16.Frombits(uint16(b)).Float32())
	case BF16:
		return float64(math.Float32frombits(uint32(b) << 16))
	case F32:
		return float64(math.Float32frombits(uint32(b)))
	case F64:
		return math.Float64frombits(b)
	}
	panic("tensor: bitsToFloat of a non-float dtype")
}

// FloatBits returns the bit pattern of x rounded to the float dtype d.
func FloatBits(x float64, d DType) uint64 { return floatToBits(RoundFloat(x, d), d) }

// FloatFromBits decodes the bit pattern b of the float dtype d.
func FloatFromBits(b uint64, d DType) float64 { return bitsToFloat(b, d) }

// MaxFloat returns the largest finite value of the float dtype d.
func MaxFloat(d DType) float64 {
	switch d {
	case F16:
		return 65504
	case BF16:
		return math.Ldexp(255, 120) // (2 - 2^-7) * 2^127
	case F32:
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// ULPDistance returns how many representable values of the float dtype d lie
// between a and b (0 when equal, and for -0 and +0). NaN is at no finite distance.
func ULPDistance(a, b float64, d DType) uint64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		if math.IsNaN(a) && math.IsNaN(b) {
			return 0
		}
		return math.MaxUint64
	}
	oa, ob := orderedBits(floatToBits(a, d), d), orderedBits(floatToBits(b, d), d)
	if oa > ob {
		return uint64(oa - ob)
	}
	return uint64(ob - oa)
}

// orderedBits maps a float's sign-magnitude bits to an integer whose order is
// the order of the values, with -0 and +0 both at 0.
func orderedBits(b uint64, d DType) int64 {
	w := d.Bits()
	sign := b >> (w - 1) & 1
	mag := int64(b &^ (1 << (w - 1)))
	if sign == 1 {
		return -mag
	}
	return mag
}
