package cpu

import (
	"math"
	"math/big"
	"sync"
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
	powPrec      = 256
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
	return sign * roundPrec(bigPow(x, y), prec)
}

// bigPow approximates x**y for finite x > 0 and finite y != 0: exactly for
// integer exponents up to 64 in magnitude, else as exp(y ln x) at powPrec
// bits.
func bigPow(x, y float64) *big.Float {
	if y == math.Trunc(y) && math.Abs(y) <= 64 {
		n := int(math.Abs(y))
		p := new(big.Float).SetPrec(uint(53*n + 64)).SetFloat64(1)
		bx := new(big.Float).SetFloat64(x)
		for range n {
			p.Mul(p, bx)
		}
		if y < 0 {
			return new(big.Float).SetPrec(p.Prec()+powPrec).Quo(big.NewFloat(1), p)
		}
		return p
	}
	t := bigLog(x)
	t.Mul(t, new(big.Float).SetPrec(powPrec).SetFloat64(y))
	return bigExp(t)
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

var (
	ln2Once sync.Once
	ln2Big  *big.Float
)

// bigLn2 is ln 2 = 2 atanh(1/3).
func bigLn2() *big.Float {
	ln2Once.Do(func() {
		third := new(big.Float).SetPrec(powPrec+32).Quo(big.NewFloat(1), big.NewFloat(3))
		ln2Big = bigAtanh2(third)
	})
	return ln2Big
}

// bigAtanh2 is 2 atanh(z) = 2 (z + z^3/3 + z^5/5 + ...) for |z| <= 1/3.
func bigAtanh2(z *big.Float) *big.Float {
	prec := uint(powPrec + 32)
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	term := new(big.Float).SetPrec(prec).Set(z)
	sum := new(big.Float).SetPrec(prec).Set(z)
	q := new(big.Float).SetPrec(prec)
	for k := int64(3); ; k += 2 {
		term.Mul(term, z2)
		q.Quo(term, new(big.Float).SetInt64(k))
		if q.Sign() == 0 || q.MantExp(nil) < sum.MantExp(nil)-int(prec) {
			break
		}
		sum.Add(sum, q)
	}
	return sum.Mul(sum, big.NewFloat(2))
}

// bigLog is ln x for finite x > 0: x = m 2^e with m in [1/sqrt2, sqrt2),
// ln x = e ln 2 + 2 atanh((m-1)/(m+1)).
func bigLog(x float64) *big.Float {
	m, e := math.Frexp(x) // m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m, e = m*2, e-1
	}
	prec := uint(powPrec + 32)
	bm := new(big.Float).SetPrec(prec).SetFloat64(m)
	num := new(big.Float).SetPrec(prec).Sub(bm, big.NewFloat(1))
	den := new(big.Float).SetPrec(prec).Add(bm, big.NewFloat(1))
	r := bigAtanh2(num.Quo(num, den))
	l := new(big.Float).SetPrec(prec).Mul(bigLn2(), new(big.Float).SetInt64(int64(e)))
	return r.Add(r, l)
}

// bigExp is e^t: t = k ln 2 + r with |r| <= ln2/2, e^r by its Taylor series
// on r / 2^16, squared 16 times.
func bigExp(t *big.Float) *big.Float {
	prec := uint(powPrec + 64)
	tf, _ := t.Float64()
	k := math.Round(tf / math.Ln2)
	r := new(big.Float).SetPrec(prec).Mul(bigLn2(), new(big.Float).SetFloat64(k))
	r.Sub(t, r)
	const halvings = 16
	r.SetMantExp(r, -halvings)
	sum := new(big.Float).SetPrec(prec).SetFloat64(1)
	term := new(big.Float).SetPrec(prec).SetFloat64(1)
	for n := int64(1); ; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < -int(prec) {
			break
		}
		sum.Add(sum, term)
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}
