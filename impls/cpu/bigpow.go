package cpu

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
)

// The engine's arbitrary-precision power, for the correctly rounded pow of
// pow.go. It works in binary fixed point on big.Int (a real v is held as the
// integer v·2^fixBits) and computes logarithms and exponentials by
// shift-and-add, as hardware log units do: with the table
// w_i = ln(1 + 2^-i), i = 1..shiftSteps,
//
//	ln m  = Σ w_i + ln(m/p)      p = Π (1 + 2^-i) over a greedy choice of i
//	                             that keeps p <= m; then m/p - 1 < 2^-shiftSteps
//	e^r   = p e^(r - Σ w_i)      the same greedy choice with Σ w_i <= r
//
// where each factor 1 + 2^-i costs a shift and an add, and the remainder's
// logarithm or exponential is a short series (Mercator's, Taylor's) in a
// value below 2^-shiftSteps. The greedy choice converges because
// w_i <= Σ_{k>i} w_k + w_last. Then
//
//	ln x  = e ln 2 + ln m        x = m 2^e, m in [1, 2)
//	x**y  = 2^j e^r              y ln x = j ln 2 + r, r in [0, ln 2)
//	ln 2  = Σ_{n>=1} 1/(n 2^n)   (the series of -ln(1 - 1/2))
//
// A positive integer exponent up to maxExactPowExp is computed exactly.

const (
	// powApproxBits: the approximation's relative error is below
	// 2^-powApproxBits, far inside pow.go's tie margin.
	powApproxBits = 400
	// fixBits is the fixed point's fraction: powApproxBits plus what the
	// steps scale errors by: |y| < 2^64 (pow.go's range filter keeps
	// |y log2 x| <= 1200, and |log2 x| >= 2^-54 for x != 1) multiplies ln x's
	// error, |e| and |j| <= 1200 multiply ln 2's; 32 guard bits on top.
	fixBits = powApproxBits + 64 + 11 + 32
	// shiftSteps is the length of the shift-and-add table; the remainders'
	// series then need about fixBits/shiftSteps terms.
	shiftSteps = 64
	// maxExactPowExp bounds the exponents computed exactly: m^64 has at most
	// 64·53 bits.
	maxExactPowExp = 64
)

var fixOne = new(big.Int).Lsh(big.NewInt(1), fixBits)

// fixMul returns a·b in fixed point (truncated).
func fixMul(a, b *big.Int) *big.Int {
	p := new(big.Int).Mul(a, b)
	return p.Rsh(p, fixBits)
}

// mercator returns ln(1+u) = u - u²/2 + u³/3 - ... for 0 <= u <= 1/2 in
// fixed point, summed until the powers vanish at fixBits.
func mercator(u *big.Int) *big.Int {
	sum, pow, term := new(big.Int).Set(u), new(big.Int).Set(u), new(big.Int)
	for n := int64(2); ; n++ {
		if pow = fixMul(pow, u); pow.Sign() == 0 {
			return sum
		}
		term.Quo(pow, big.NewInt(n))
		if n%2 == 0 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
}

var (
	logTableOnce sync.Once
	logTable     [shiftSteps + 1]*big.Int // logTable[i] = ln(1 + 2^-i), i >= 1
	ln2Value     *big.Int
)

// loadLogTable computes the shift-and-add table and ln 2 once.
func loadLogTable() {
	logTableOnce.Do(func() {
		for i := 1; i <= shiftSteps; i++ {
			logTable[i] = mercator(new(big.Int).Rsh(fixOne, uint(i)))
		}
		// ln 2 = Σ 2^-n / n, each term truncated at fixBits+guard
		const guard = 16
		sum, term := new(big.Int), new(big.Int)
		for n := int64(1); n <= fixBits+guard; n++ {
			term.Lsh(big.NewInt(1), uint(fixBits+guard-n))
			sum.Add(sum, term.Quo(term, big.NewInt(n)))
		}
		ln2Value = sum.Rsh(sum, guard)
	})
}

// lnFix returns ln x in fixed point for a finite x > 0.
func lnFix(x float64) *big.Int {
	loadLogTable()
	frac, exp := math.Frexp(x) // x = frac 2^exp, frac in [1/2, 1)
	// m = 2 frac in [1, 2): its 53 significand bits, placed at fixBits
	m := new(big.Int).Lsh(new(big.Int).SetUint64(uint64(math.Ldexp(frac, 53))), fixBits-52)
	p := new(big.Int).Set(fixOne)
	sum, next := new(big.Int), new(big.Int)
	for i := 1; i <= shiftSteps; i++ {
		next.Rsh(p, uint(i))
		if next.Add(next, p); next.Cmp(m) <= 0 {
			p, next = next, p
			sum.Add(sum, logTable[i])
		}
	}
	// m/p = 1 + u with u < 2^-shiftSteps
	u := new(big.Int).Lsh(m, fixBits)
	u.Quo(u, p)
	sum.Add(sum, mercator(u.Sub(u, fixOne)))
	return sum.Add(sum, new(big.Int).Mul(ln2Value, big.NewInt(int64(exp-1))))
}

// expFix returns e^t as mant·2^exp (mant a big.Int of about fixBits bits)
// for t in fixed point with |t| < 1200.
func expFix(t *big.Int) (mant *big.Int, exp int) {
	loadLogTable()
	j := new(big.Int).Div(t, ln2Value) // Euclidean: r = t - j ln 2 in [0, ln 2)
	r := new(big.Int).Mul(j, ln2Value)
	r.Sub(t, r)
	p := new(big.Int).Set(fixOne)
	step := new(big.Int)
	for i := 1; i <= shiftSteps; i++ {
		if r.Cmp(logTable[i]) >= 0 {
			r.Sub(r, logTable[i])
			p.Add(p, step.Rsh(p, uint(i)))
		}
	}
	// e^r = 1 + r + r²/2 + ... for the remainder r < 2^-shiftSteps
	sum, term := new(big.Int).Set(fixOne), new(big.Int).Set(fixOne)
	for n := int64(1); term.Sign() != 0; n++ {
		term = fixMul(term, r)
		term.Quo(term, big.NewInt(n))
		sum.Add(sum, term)
	}
	return fixMul(p, sum), int(j.Int64()) - fixBits
}

// bigPow returns x**y as mant·2^exp for finite x > 0, x != 1 and finite
// y != 0, with |y log2 x| < 1200; exact reports that it is the power itself,
// otherwise it is within a relative 2^-powApproxBits of it.
func bigPow(x, y float64) (mant *big.Int, exp int, exact bool) {
	if n := int(y); float64(n) == y && n >= 1 && n <= maxExactPowExp {
		frac, e := math.Frexp(x)
		m := uint64(math.Ldexp(frac, 53))
		shift := bits.TrailingZeros64(m)
		base := new(big.Int).SetUint64(m >> shift)
		return base.Exp(base, big.NewInt(int64(n)), nil), (e - 53 + shift) * n, true
	}
	t := lnFix(x)
	// t = y ln x: y = ym 2^ye exactly, so the product is exact before the
	// shift back to fixBits
	yf, ye := math.Frexp(y)
	t.Mul(t, big.NewInt(int64(math.Ldexp(yf, 53))))
	if ye -= 53; ye < 0 {
		t.Quo(t, new(big.Int).Lsh(big.NewInt(1), uint(-ye)))
	} else {
		t.Lsh(t, uint(ye))
	}
	mant, exp = expFix(t)
	return mant, exp, false
}
