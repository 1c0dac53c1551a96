package model

import (
	"math"
	"math/big"
	"sync"

	"github.com/tfuzz/tfuzz/tensor"
)

// Correctly rounded exp and sqrt, the reference the unary rules compare
// every library against. Both are exact. sqrt: IEEE sqrt in float64 is
// correctly rounded, and rounding it again to a format of p <= 24 bits is
// innocuous (53 >= 2p + 2, Figueroa's condition for sqrt), so the float64
// root rounded to d is the correctly rounded root. exp: Ziv's strategy
// (evaluate with an error bound, and retry with more precision until both
// ends of the error interval round to the same value of the target dtype):
// first float64 math.Exp, trusted to approxRelErr (thousands of times its
// documented error of about an ulp), then big.Float at 128, 256, ... bits
// with a proven bound. exp(x) of a nonzero float x is transcendental, so it
// never lies on a rounding boundary and the loop ends.

// approxRelErr bounds the relative error of Go's float64 math.Exp,
// math.Sqrt and math.Pow results that the fast paths start from: far above
// their actual error (an ulp or two for Exp and Sqrt; Pow's grows with
// |y log x| but stays below 2^-43 for finite normal results), so that a
// value it cannot decide goes to the exact path instead of being guessed.
const approxRelErr = 0x1p-36

// roundsSurely reports the value of d that every real within approxRelErr
// of the normal float64 z rounds to, when they all round alike (false for
// zero, subnormal, huge or non-finite z, and near a rounding boundary of d).
func roundsSurely(z float64, d tensor.DType) (float64, bool) {
	if a := math.Abs(z); !(a > 0x1p-1000 && a < 0x1p1000) {
		return 0, false
	}
	margin := math.Abs(z) * (approxRelErr + 0x1p-50) // the products below round too
	r := roundTo(z-margin, d)
	if r != roundTo(z+margin, d) {
		return 0, false
	}
	return r, true
}

// floatFormat is an IEEE binary format: significand bits (hidden bit
// included) and the exponent of its smallest normal number.
type floatFormat struct{ prec, minExp int }

// formatOf returns the format of the real float dtype d.
func formatOf(d tensor.DType) floatFormat {
	switch d {
	case tensor.F16:
		return floatFormat{11, -14}
	case tensor.BF16:
		return floatFormat{8, -126}
	case tensor.F32:
		return floatFormat{24, -126}
	case tensor.F64:
		return floatFormat{53, -1022}
	}
	panic("model: formatOf a non-float dtype " + d.String())
}

// roundBigTo rounds the finite value x to the float dtype d once: to nearest,
// ties to even, with subnormals, and to ±inf beyond the largest finite value.
func roundBigTo(x *big.Float, d tensor.DType) float64 {
	if x.Sign() == 0 {
		if x.Signbit() {
			return math.Copysign(0, -1)
		}
		return 0
	}
	f := formatOf(d)
	binade := x.MantExp(nil) - 1 // |x| in [2^binade, 2^(binade+1))
	if binade > 1100 {
		return math.Copysign(math.Inf(1), float64(x.Sign()))
	}
	quantum := max(binade, f.minExp) - f.prec + 1 // exponent of one unit in the last place
	// m = |x| / 2^quantum; its integer part has at most prec bits.
	m := new(big.Float).SetPrec(x.Prec() + 64).Abs(x)
	m.SetMantExp(m, -quantum)
	n, _ := m.Int(nil) // truncates toward zero
	frac := new(big.Float).SetPrec(m.Prec()).Sub(m, new(big.Float).SetInt(n))
	switch frac.Cmp(big.NewFloat(0.5)) {
	case 1:
		n.Add(n, big.NewInt(1))
	case 0:
		if n.Bit(0) == 1 {
			n.Add(n, big.NewInt(1))
		}
	}
	r := math.Ldexp(float64(n.Uint64()), quantum) // exact; +Inf past float64's range
	if r > tensor.MaxFloat(d) {
		r = math.Inf(1)
	}
	if x.Signbit() {
		r = -r
	}
	return r
}

// crSqrt returns sqrt(x) correctly rounded to d (IEEE: sqrt(-0) = -0,
// sqrt(x < 0) = NaN). x is any float64; callers pass values of the input's
// dtype.
func crSqrt(x float64, d tensor.DType) float64 {
	switch {
	case math.IsNaN(x) || x < 0:
		return math.NaN()
	case x == 0 || math.IsInf(x, 1):
		return x
	}
	return roundTo(math.Sqrt(x), d)
}

// crExp returns exp(x) correctly rounded to d.
func crExp(x float64, d tensor.DType) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x == 0:
		return 1
	case x > 1200: // beyond every format's overflow threshold
		return math.Inf(1)
	case x < -1200: // below half the smallest f64 subnormal
		return 0
	}
	if d != tensor.F64 {
		if r, ok := roundsSurely(math.Exp(x), d); ok {
			return r
		}
	}
	for prec := uint(128); ; prec *= 2 {
		y := expApprox(x, prec)
		errBound := new(big.Float).SetMantExp(y, -int(prec)) // |y| * 2^-prec
		lo := new(big.Float).SetPrec(prec+8).SetMode(big.ToNegativeInf).Sub(y, errBound)
		hi := new(big.Float).SetPrec(prec+8).SetMode(big.ToPositiveInf).Add(y, errBound)
		if r := roundBigTo(lo, d); r == roundBigTo(hi, d) {
			return r
		}
		if prec > 1<<16 {
			panic("model: crExp does not converge") // impossible for a nonzero float
		}
	}
}

// expApprox returns exp(x), for finite |x| <= 1200, with a relative error
// below 2^-prec. Reduction: x = k ln2 + r with |r| <= ln2/2, then
// exp(r) = exp(r / 2^12)^(2^12) with a Taylor series for the small argument.
// The working precision carries 64 guard bits; the error budget is: ln2 and
// k*ln2 (k below 2^11) to 2^-(w+13) absolute, the series to 2^-(w+24)
// relative, and twelve squarings multiply the relative error by 2^12, so the
// total stays below 2^-(w+10) < 2^-prec.
func expApprox(x float64, prec uint) *big.Float {
	const squarings = 12
	w := prec + 64
	k := math.Round(x / math.Ln2)
	kln2 := new(big.Float).SetPrec(w+30).Mul(ln2(w+40), new(big.Float).SetFloat64(k))
	r := new(big.Float).SetPrec(w+30).Sub(new(big.Float).SetFloat64(x), kln2)
	t := new(big.Float).SetPrec(w+30).SetMantExp(r, -squarings)
	// Taylor series of exp(t), |t| < 2^-12.
	sum := new(big.Float).SetPrec(w + 30).SetInt64(1)
	term := new(big.Float).SetPrec(w + 30).SetInt64(1)
	limit := new(big.Float).SetMantExp(big.NewFloat(1), -int(w+40))
	for n := int64(1); term.Sign() != 0; n++ {
		term.Mul(term, t)
		term.Quo(term, new(big.Float).SetInt64(n))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(limit) < 0 {
			break
		}
	}
	for i := 0; i < squarings; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

var ln2Cache struct {
	sync.Mutex
	v *big.Float
}

// ln2 returns ln 2 with a relative error below 2^-(prec-8), from the series
// ln 2 = 2 atanh(1/3) = sum 2 / ((2j+1) 3^(2j+1)); each term is below a ninth
// of the one before.
func ln2(prec uint) *big.Float {
	ln2Cache.Lock()
	defer ln2Cache.Unlock()
	if v := ln2Cache.v; v != nil && v.Prec() >= prec {
		return v
	}
	sum := new(big.Float).SetPrec(prec + 16)
	pow := new(big.Float).SetPrec(prec + 16).SetInt64(3) // 3^(2j+1)
	limit := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec+8))
	for j := int64(0); ; j++ {
		term := new(big.Float).SetPrec(prec + 16).SetInt64(2)
		term.Quo(term, new(big.Float).SetPrec(prec+16).Mul(pow, new(big.Float).SetInt64(2*j+1)))
		sum.Add(sum, term)
		if term.Cmp(limit) < 0 {
			break
		}
		pow.Mul(pow, big.NewFloat(9))
	}
	ln2Cache.v = sum
	return sum
}

// nearRoundingBoundary reports whether exp or sqrt of x, computed exactly,
// lies within slack units in the last place of f32 of a point where rounding
// to d changes: a midpoint between two values of d, the overflow threshold or
// half the smallest subnormal. An f16 or bf16 result computed through an f32
// intermediate that is itself off by up to slack f32 units can then round
// either way.
func nearRoundingBoundary(y *big.Float, d tensor.DType, slack int) bool {
	if z, _ := y.Float64(); !nearRoundingBoundaryApprox(z, d, slack) {
		return false
	}
	binade := max(y.MantExp(nil)-1, formatOf(tensor.F32).minExp)
	ulp32 := new(big.Float).SetMantExp(big.NewFloat(float64(slack)), binade-23)
	lo := new(big.Float).SetPrec(y.Prec()+64).Sub(y, ulp32)
	hi := new(big.Float).SetPrec(y.Prec()+64).Add(y, ulp32)
	return roundBigTo(lo, d) != roundBigTo(hi, d)
}

// nearRoundingBoundaryApprox is nearRoundingBoundary's test for a value
// known only to approxRelErr: false means no value within that error is
// near a boundary (the exact one included); true means it may be.
func nearRoundingBoundaryApprox(z float64, d tensor.DType, slack int) bool {
	if a := math.Abs(z); !(a > 0x1p-1000 && a < 0x1p1000) {
		return true
	}
	_, exp := math.Frexp(z)
	binade := max(exp-1, formatOf(tensor.F32).minExp)
	margin := math.Ldexp(float64(slack+1), binade-23) + math.Abs(z)*(approxRelErr+0x1p-50)
	return roundTo(z-margin, d) != roundTo(z+margin, d)
}

// exactExpBig returns exp(x) to 256 bits, for the boundary test of an exp
// result (x finite, |x| <= 1200).
func exactExpBig(x float64) *big.Float { return expApprox(x, 192) }

// exactSqrtBig returns sqrt(x) to 256 bits (x finite and positive).
func exactSqrtBig(x float64) *big.Float {
	return new(big.Float).SetPrec(256).Sqrt(new(big.Float).SetFloat64(x))
}
