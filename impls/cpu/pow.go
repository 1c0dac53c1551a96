package cpu

import (
	"math"
	"math/big"
)

// Correctly rounded pow. PyTorch's CPU pow, XLA's CPU pow and NumPy's f32
// pow return the correctly rounded result on every observed element (policy
// python.float.pow), which Go's math.Pow does not guarantee. The f32 kernel
// rounds math.Pow's float64 result unless that lies too close to an f32
// rounding boundary; f64, and those rare f32 elements, take an exact path:
// the power in arbitrary precision (bigpow.go), far more precise than the
// result, rounded once, with exact ties recognized.

// powTieMargin: an approximation within 2^-powTieMargin of itself from a
// half-way point is taken to be the tie: the approximation is accurate to
// 2^-powApproxBits, so a true tie always lands within the margin, and a
// power that is not one would have to lie within a relative 2^-180 of it.
const powTieMargin = 180

// powF32 returns x**y correctly rounded to float32.
func powF32(x, y float32) float32 { return powTo32(float64(x), float64(y)) }

// powTo32 returns x**y correctly rounded to float32 (x, y any float64).
func powTo32(x, y float64) float32 {
	r := math.Pow(x, y)
	a := math.Abs(r)
	if a >= 0x1p-125 && a < 0x1p127 {
		// 29 float64 bits are dropped; far from their half-way point, the
		// error of math.Pow (a few float64 ulps) cannot change the rounding
		low := math.Float64bits(r) & (1<<29 - 1)
		if d := int64(low) - 1<<28; d > 1<<12 || d < -1<<12 {
			return float32(r)
		}
	} else if r == 0 || math.IsInf(r, 0) || r != r || !isFinite(x) || !isFinite(y) {
		return float32(r)
	}
	return float32(powRounded(x, y, 24))
}

// powF64 returns x**y correctly rounded to float64.
func powF64(x, y float64) float64 { return powRounded(x, y, 53) }

func isFinite(x float64) bool { return !math.IsInf(x, 0) && x == x }

// powRounded returns x**y rounded once to prec bits (24: a float32 value; 53:
// float64), with C99 Annex F special cases (math.Pow's).
func powRounded(x, y float64, prec uint) float64 {
	if y == 0 || x == 1 || x == 0 || !isFinite(x) || !isFinite(y) {
		return math.Pow(x, y)
	}
	sign := 1.0
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN()
		}
		if math.Abs(y) < 0x1p53 && math.Mod(y, 2) != 0 {
			sign = -1
		}
		x = -x
	}
	switch est := y * math.Log2(x); {
	case est > 1100:
		return sign * math.Inf(1)
	case est < -1200:
		return math.Copysign(0, sign)
	}
	mant, exp, exact := bigPow(x, y)
	return sign * roundScaled(mant, exp, exact, prec)
}

// roundScaled rounds the positive mant·2^exp to prec significant bits (24: a
// float32 value; 53: float64), fewer in the format's subnormal range, to
// nearest with ties to even. An inexact mant within 2^-powTieMargin of itself
// from a half-way point is a tie.
func roundScaled(mant *big.Int, exp int, exact bool, prec uint) float64 {
	minExp, maxExp := -126, 127 // of the format's normal numbers
	if prec == 53 {
		minExp, maxExp = -1022, 1023
	}
	top := mant.BitLen() - 1 + exp // the value lies in [2^top, 2^(top+1))
	if top > maxExp {
		return math.Inf(1)
	}
	// the result is a multiple of 2^quantum: prec bits below the leading one,
	// or the subnormal spacing
	quantum := max(top, minExp) - int(prec) + 1
	drop := quantum - exp // low bits of mant below the quantum
	if drop <= 0 {
		return math.Ldexp(float64(mant.Uint64()), exp) // fits: at most prec bits
	}
	q := new(big.Int).Rsh(mant, uint(drop))
	rest := new(big.Int).Sub(mant, new(big.Int).Lsh(q, uint(drop)))
	half := new(big.Int).Lsh(big.NewInt(1), uint(drop-1))
	cmp := rest.Cmp(half)
	if !exact && cmp != 0 {
		off := rest.Sub(rest, half)
		if off.Abs(off).BitLen() <= mant.BitLen()-powTieMargin {
			cmp = 0
		}
	}
	up := cmp > 0 || cmp == 0 && q.Bit(0) == 1
	r := math.Ldexp(float64(q.Uint64()), quantum) // q has at most prec bits
	if up {
		r = math.Ldexp(float64(q.Uint64()+1), quantum)
	}
	if r >= math.Ldexp(1, maxExp+1) {
		return math.Inf(1)
	}
	return r
}
