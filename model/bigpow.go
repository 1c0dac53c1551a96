package model

import (
	"math"
	"math/big"
)

// The model's arbitrary-precision power (math/big), for the correctly
// rounded pow of floatarith.go: exact for small integer exponents, else
// exp(y ln x) far more precise than any float dtype, so that rounding it is
// exact except when the true power lies on (or within a tiny fraction of an
// ulp of) the rounding grid, which roundBig detects and treats as exact. The
// CPU engine computes its pow with its own code: one that called this could
// not disagree with the model.

// powPrec is the working precision of bigPow.
const powPrec = 400

// bigPow approximates x**y for finite x > 0 and finite y != 0: exactly for
// small integer exponents, else as exp(y ln x) at powPrec bits.
func bigPow(x, y float64) *big.Float { return bigPowAt(x, y, powPrec) }

// bigPowAt is bigPow at prec bits: for a general exponent its relative
// error stays below 2^-(prec-40) (the series are summed to 2^-prec, and
// y ln x, below 2^11 in magnitude for any result a float can hold, scales
// the logarithm's error into the exponential's by at most that much).
func bigPowAt(x, y float64, prec uint) *big.Float {
	if y == math.Trunc(y) && math.Abs(y) <= 64 {
		n := int(math.Abs(y))
		p := new(big.Float).SetPrec(uint(54*n + 64)).SetFloat64(1)
		bx := new(big.Float).SetFloat64(x)
		for range n {
			p.Mul(p, bx)
		}
		if y < 0 {
			return new(big.Float).SetPrec(prec).Quo(big.NewFloat(1).SetPrec(prec), p)
		}
		return p
	}
	t := bigLog(x, prec)
	t.Mul(t, new(big.Float).SetFloat64(y))
	return bigExp(t, prec)
}

// twiceAtanh is 2 atanh(z) = 2 (z + z^3/3 + z^5/5 + ...) for |z| <= 1/3.
func twiceAtanh(z *big.Float, prec uint) *big.Float {
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	term := new(big.Float).SetPrec(prec).Set(z)
	sum := new(big.Float).SetPrec(prec).Set(z)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec))
	for k := 3; ; k += 2 {
		term.Mul(term, z2)
		t := new(big.Float).SetPrec(prec).Quo(term, big.NewFloat(float64(k)))
		sum.Add(sum, t)
		if new(big.Float).Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	return sum.Mul(sum, big.NewFloat(2))
}

// bigLog is ln x for a finite float64 x > 0: e ln 2 + 2 atanh((m-1)/(m+1))
// with x = m 2^e and m in [1/2, 1).
func bigLog(x float64, working uint) *big.Float {
	m, e := math.Frexp(x)
	prec := working + 32
	if m == 0.5 { // a power of two: (e-1) ln 2, with no series residue to blow up
		return new(big.Float).SetPrec(prec).Mul(ln2(prec+8), big.NewFloat(float64(e-1)))
	}
	bm := new(big.Float).SetPrec(prec).SetFloat64(m)
	num := new(big.Float).SetPrec(prec).Sub(bm, big.NewFloat(1))
	den := new(big.Float).SetPrec(prec).Add(bm, big.NewFloat(1))
	r := twiceAtanh(num.Quo(num, den), prec)
	k := new(big.Float).SetPrec(prec).Mul(ln2(prec+8), big.NewFloat(float64(e)))
	return r.Add(r, k)
}

// bigExp is e^t for |t| < 1e6: t = k ln 2 + r, e^r by its Taylor series on
// r / 2^16 and 16 squarings, then scaled by 2^k.
func bigExp(t *big.Float, working uint) *big.Float {
	prec := working + 64
	tf, _ := t.Float64()
	k := math.Round(tf / math.Ln2)
	r := new(big.Float).SetPrec(prec).Mul(ln2(prec+8), big.NewFloat(k))
	r.Sub(t, r)
	r.SetMantExp(r, -16)
	sum := new(big.Float).SetPrec(prec).SetFloat64(1)
	term := new(big.Float).SetPrec(prec).SetFloat64(1)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec))
	for n := 1; ; n++ {
		term.Mul(term, r)
		term.Quo(term, big.NewFloat(float64(n)))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for range 16 {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}
