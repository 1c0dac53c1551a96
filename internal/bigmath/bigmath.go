// Package bigmath computes elementary functions of float64 arguments in
// arbitrary precision (math/big), for callers that must round them
// correctly: the reference model states correctly rounded pow, and the CPU
// engine must give the same bits. It is mathematics, not the semantics of any
// framework, so both may use it; its tests check it against exact values.
package bigmath

import (
	"math"
	"math/big"
	"sync"
)

// Prec is the working precision of Pow: far more bits than any float dtype
// has, so that rounding its approximation is exact except when the true
// power lies on (or within a tiny fraction of an ulp of) the rounding grid,
// which a caller detects and treats as exact.
const Prec = 400

// Pow approximates x**y for finite x > 0 and finite y != 0: exactly for
// small integer exponents, else as exp(y ln x) at Prec bits.
func Pow(x, y float64) *big.Float {
	if y == math.Trunc(y) && math.Abs(y) <= 64 {
		n := int(math.Abs(y))
		p := new(big.Float).SetPrec(uint(54*n + 64)).SetFloat64(1)
		bx := new(big.Float).SetFloat64(x)
		for range n {
			p.Mul(p, bx)
		}
		if y < 0 {
			return new(big.Float).SetPrec(Prec).Quo(big.NewFloat(1).SetPrec(Prec), p)
		}
		return p
	}
	t := Log(x)
	t.Mul(t, new(big.Float).SetFloat64(y))
	return Exp(t)
}

var (
	ln2Once sync.Once
	ln2Big  *big.Float
)

// Ln2 is ln 2 = 2 atanh(1/3) at Prec bits.
func Ln2() *big.Float {
	ln2Once.Do(func() {
		third := new(big.Float).SetPrec(Prec+32).Quo(big.NewFloat(1), big.NewFloat(3))
		ln2Big = atanh2(third)
	})
	return ln2Big
}

// atanh2 is 2 atanh(z) = 2 (z + z^3/3 + z^5/5 + ...) for |z| <= 1/3.
func atanh2(z *big.Float) *big.Float {
	prec := uint(Prec + 32)
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

// Log is ln x for a finite float64 x > 0: e ln 2 + 2 atanh((m-1)/(m+1))
// with x = m 2^e and m in [1/2, 1).
func Log(x float64) *big.Float {
	m, e := math.Frexp(x)
	prec := uint(Prec + 32)
	bm := new(big.Float).SetPrec(prec).SetFloat64(m)
	num := new(big.Float).SetPrec(prec).Sub(bm, big.NewFloat(1))
	den := new(big.Float).SetPrec(prec).Add(bm, big.NewFloat(1))
	r := atanh2(num.Quo(num, den))
	k := new(big.Float).SetPrec(prec).Mul(Ln2(), big.NewFloat(float64(e)))
	return r.Add(r, k)
}

// Exp is e^t for |t| < 1e6: t = k ln 2 + r, e^r by its Taylor series on
// r / 2^16 and 16 squarings, then scaled by 2^k.
func Exp(t *big.Float) *big.Float {
	prec := uint(Prec + 64)
	tf, _ := t.Float64()
	k := math.Round(tf / math.Ln2)
	r := new(big.Float).SetPrec(prec).Mul(Ln2(), big.NewFloat(k))
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
