package metal

import "math"

// The fast-math functions: candle compiles its kernels with fast math
// (MTLMathModeFast and the fast FP32 functions, candle-metal-kernels
// src/kernel.rs:192-213), and calls the overloads of the element type:
// sqrt, exp and log of a half are the half-precision functions, of a float
// the fast float ones. Neither is specified to the bit (the Metal Shading
// Language gives their accuracy as a bound in ulps, and the half functions
// are implemented by the GPU's own library). So each function here returns
// its correctly rounded result in the kernel's type as a reference, marked
// loose (left unspecified, see SimDevice), except where the result is fixed
// whatever the accuracy: IEEE's special values, and exact results
// (assumption fast-math-specials).

// fixedOr returns v, marked loose unless fixed.
func fixedOr(fixed bool, v float64) val {
	return val{f: v, loose: !fixed}
}

// special reports NaN, an infinity or a zero.
func special(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) || x == 0 }

// fastDiv is x / y of two values of the float type t: fixed when an
// operand is special (x / 0 = ±inf, 0 / 0 = NaN, ...) or the quotient is
// exact in t.
func fastDiv(t mslType, x, y float64) val {
	q := t.round(x / y)
	exact := !math.IsInf(q, 0) && q != 0 && q*y == x // q*y is exact in float64
	return fixedOr(special(x) || special(y) || exact, q)
}

// fastSqrt is sqrt in the float type t: fixed for special values and
// negative inputs (NaN), and when the root squares back to x exactly.
func fastSqrt(t mslType, x float64) val {
	r := t.round(math.Sqrt(x)) // one rounding: float64 keeps twice t's bits and more
	return fixedOr(special(x) || x < 0 || r*r == x, r)
}

// fastExp is exp in the float type t: fixed at NaN, ±inf and ±0 (exp(0) = 1).
func fastExp(t mslType, x float64) val {
	return fixedOr(special(x), t.round(math.Exp(x)))
}

// fastLog is log in the float type t: fixed at NaN, ±inf, ±0, negative
// inputs (NaN) and 1 (log(1) = 0).
func fastLog(t mslType, x float64) val {
	return fixedOr(special(x) || x < 0 || x == 1, t.round(math.Log(x)))
}

// fastPow is pow(x, e) of floats under fast math. Fixed only where every
// implementation agrees: a NaN operand (NaN), x = 1 with a finite e (1),
// and a finite x > 0 with e = 0 (1). Everything else, a negative base
// included, is loose: a fast pow computed as exp2(e * log2(x)) gives NaN
// for x < 0 where IEEE's pow gives (-2)^2 = 4, and pow(0, 0) may be NaN
// (left open: assumptions.go).
func fastPow(x, e float64) val {
	r := tFloat.round(math.Pow(x, e))
	switch {
	case math.IsNaN(x) || math.IsNaN(e):
		return fixedOr(true, math.NaN())
	case x == 1 && !math.IsInf(e, 0):
		return fixedOr(true, 1)
	case e == 0 && x > 0 && !math.IsInf(x, 0):
		return fixedOr(true, 1)
	}
	return fixedOr(false, r)
}

// sumAnyOrder returns the sum of xs in the float type t and true when
// every order of the additions gives the same bits, which then is the sum
// any SIMD-group reduction returns (elsewhere the order is left open:
// assumptions.go).
func sumAnyOrder(t mslType, xs []float64) (float64, bool) {
	var posInf, negInf bool
	q := math.Inf(1) // the smallest quantum (lowest set bit) of the nonzero values
	abs, sum, nonzero, negZeros := 0.0, 0.0, 0, 0
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
			return x, true
		case math.IsInf(x, 1):
			posInf = true
		case math.IsInf(x, -1):
			negInf = true
		case x == 0:
			if math.Signbit(x) {
				negZeros++
			}
		default:
			nonzero++
			q = math.Min(q, lowestBit(x))
			abs += math.Abs(x)
			sum += x
		}
	}
	switch {
	case posInf && negInf:
		return math.NaN(), true
	case posInf || negInf:
		// No partial sum of the finite values can reach the other infinity.
		inf := math.Inf(1)
		if negInf {
			inf = -inf
		}
		return inf, abs <= maxFinite(t)/2
	case nonzero == 0:
		if negZeros == len(xs) && len(xs) > 0 {
			return math.Copysign(0, -1), true
		}
		return 0, true
	case nonzero <= 2:
		return t.round(sum), true // one rounding in every order
	}
	// Every partial sum is a multiple of q below 2^prec q in magnitude, so
	// exact in t, and abs and sum were exact in float64.
	if abs >= math.Ldexp(q, t.precision()) || abs > maxFinite(t) {
		return 0, false
	}
	return sum + 0, true
}

// lowestBit returns the value of the lowest set bit of the nonzero finite x.
func lowestBit(x float64) float64 {
	frac, exp := math.Frexp(math.Abs(x))
	m := uint64(math.Ldexp(frac, 53))
	low := m & -m
	return math.Ldexp(float64(low), exp-53)
}

// precision returns the significand bits of a float type.
func (t mslType) precision() int {
	switch t {
	case tHalf:
		return 11
	case tBfloat:
		return 8
	case tFloat:
		return 24
	case tDouble:
		return 53
	}
	return 0
}
