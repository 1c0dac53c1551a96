package cpu

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/internal/bigmath"
)

// Correctly rounded pow. PyTorch's CPU pow, XLA's CPU pow and NumPy's f32
// pow return the correctly rounded result on every observed element (policy
// python.float.pow), which Go's math.Pow does not guarantee. The f32 kernel
// rounds math.Pow's float64 result unless that lies too close to an f32
// rounding boundary; f64, and those rare f32 elements, take an exact path:
// the power in big-float arithmetic far more precise than the result, rounded
// once, with exact ties recognized.

// powExtraBits is how much more precise than the result the big-float power
// is; an approximation this close to a rounding boundary is taken as exact.
const (
	powPrec      = bigmath.Prec
	powTieMargin = 180 // bits: |approx - boundary| < 2^-180 |approx| counts as a tie
)

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
	return sign * roundPrec(bigmath.Pow(x, y), prec)
}

// roundPrec rounds a positive a to prec significant bits (24: a float32
// value; 53: float64), fewer in the format's subnormal range, taking an
// approximation within 2^-powTieMargin of a half-way point as the tie.
func roundPrec(a *big.Float, prec uint) float64 {
	minExp := -125 // a in [2^(exp-1), 2^exp): normal when exp >= minExp
	if prec == 53 {
		minExp = -1021
	}
	exp := a.MantExp(nil)
	p := int(prec)
	if exp < minExp {
		p -= minExp - exp // subnormal: the quantum stays 2^(minExp-prec)
	}
	quantum := exp - p // the ulp at a's magnitude is 2^quantum
	if p < 1 {
		quantum = minExp - int(prec)
	}
	ulp := new(big.Float).SetMantExp(big.NewFloat(1), quantum)
	// down: a truncated to a multiple of the quantum
	q := new(big.Float).SetMantExp(a, -quantum)
	qi, _ := q.Int(nil)
	down := new(big.Float).SetMantExp(new(big.Float).SetInt(qi), quantum)
	mid := new(big.Float).Add(down, new(big.Float).SetMantExp(big.NewFloat(1), quantum-1))
	diff := new(big.Float).SetPrec(powPrec).Sub(a, mid)
	tol := new(big.Float).SetMantExp(big.NewFloat(1), exp-powTieMargin)
	r := down
	switch {
	case new(big.Float).Abs(diff).Cmp(tol) < 0: // a tie: to even
		if qi.Bit(0) == 1 {
			r = new(big.Float).Add(down, ulp)
		}
	case diff.Sign() > 0:
		r = new(big.Float).Add(down, ulp)
	}
	f, _ := r.Float64() // exact: r has at most prec bits (or overflows to inf)
	if prec == 24 && f > math.MaxFloat32 {
		return math.Inf(1)
	}
	return f
}
