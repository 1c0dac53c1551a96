package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// roundTo rounds x to the float dtype d once (to nearest, ties to even).
func roundTo(x float64, d tensor.DType) float64 { return tensor.RoundFloat(x, d) }

// add32, sub32, mul32 and div32 are one f32 kernel operation on operands
// that are f32 values (f16/bf16 kernels compute in f32, "opmath").
//
// Go's float32 arithmetic is correctly rounded IEEE single precision, and an
// explicit conversion prevents fused multiply-add, so a Go expression in
// float32 computes exactly what an f32 kernel computes.
func add32(a, b float64) float64 { return float64(float32(a) + float32(b)) }
func sub32(a, b float64) float64 { return float64(float32(a) - float32(b)) }
func mul32(a, b float64) float64 { return float64(float32(a) * float32(b)) }
func div32(a, b float64) float64 { return float64(float32(a) / float32(b)) }

// floatArith computes add, sub, mul or div rounded to the compute precision
// prec (f32 or f64).
func floatArith(op string, a, b float64, prec tensor.DType) float64 {
	if prec == tensor.F32 {
		switch op {
		case "add":
			return add32(a, b)
		case "sub":
			return sub32(a, b)
		case "mul":
			return mul32(a, b)
		case "div":
			return div32(a, b)
		}
	}
	switch op {
	case "add":
		return a + b
	case "sub":
		return a - b
	case "mul":
		return a * b
	case "div":
		return a / b
	}
	panic("model: floatArith of " + op)
}

// fmodFloat is C's fmod, exact in any precision (the result is a value of
// the operands' format).
func fmodFloat(a, b float64) float64 { return math.Mod(a, b) }

// isNeg reports whether x has its sign bit set (-0 included).
func isNeg(x float64) bool { return math.Signbit(x) }

// intToFloat rounds the integer v (of dtype from: signed or not) to the float
// dtype d exactly once, to nearest with ties to even, as a correctly rounded
// int-to-float conversion does (cvtsi2ss, Go's float32(int64)).
func intToFloat(v uint64, from, d tensor.DType) float64 {
	if x := int64(v); from.IsSigned() && x > -1<<53 && x < 1<<53 || !from.IsSigned() && v < 1<<53 {
		// exact in float64, so one rounding to d
		if from.IsSigned() {
			return roundTo(float64(x), d)
		}
		return roundTo(float64(v), d)
	}
	var b big.Float
	if from.IsSigned() {
		b.SetInt64(int64(v))
	} else {
		b.SetUint64(v)
	}
	b.SetMode(big.ToNearestEven).SetPrec(uint(formatOf(d).prec))
	x, _ := b.Float64()  // exact: a value of at most 53 bits of precision
	return roundTo(x, d) // only f16 can overflow here
}

// fpu evaluates a float kernel's operations the way it executes them: each
// operation in the arithmetic precision prec (f32 or f64; f16/bf16 kernels
// compute in f32), its result then stored in step, the dtype the kernel keeps
// intermediates in (prec itself, or f16/bf16 when each operation is rounded
// back, as XLA does for f16 graphs).
type fpu struct{ prec, step tensor.DType }

// opmathFPU computes in f32 for f16/bf16 and keeps f32 intermediates.
func opmathFPU(d tensor.DType) fpu {
	p := opmath(d)
	return fpu{p, p}
}

// stepFPU computes each operation in opmath precision and rounds it to d.
func stepFPU(d tensor.DType) fpu { return fpu{opmath(d), d} }

// opmath is the precision a kernel computes a float dtype in.
func opmath(d tensor.DType) tensor.DType {
	if d == tensor.F64 {
		return tensor.F64
	}
	return tensor.F32
}

func (f fpu) op(op string, a, b float64) float64 {
	return roundTo(floatArith(op, a, b, f.prec), f.step)
}
func (f fpu) add(a, b float64) float64 { return f.op("add", a, b) }
func (f fpu) sub(a, b float64) float64 { return f.op("sub", a, b) }
func (f fpu) mul(a, b float64) float64 { return f.op("mul", a, b) }
func (f fpu) div(a, b float64) float64 { return f.op("div", a, b) }

// floorDivFloat is c10::div_floor_floating, which is also NumPy's
// npy_floor_divide: the quotient of a - fmod(a, b), corrected toward -inf and
// snapped to the nearest integer; a zero divisor gives IEEE a / b.
func floorDivFloat(f fpu, a, b float64) float64 {
	if b == 0 {
		return f.div(a, b)
	}
	mod := fmodFloat(a, b)
	div := f.div(f.sub(a, mod), b)
	if mod != 0 && (b < 0) != (mod < 0) {
		div = f.sub(div, 1)
	}
	if div == 0 {
		return math.Copysign(0, f.div(a, b))
	}
	fd := math.Floor(div)
	if f.sub(div, fd) > 0.5 {
		fd = f.add(fd, 1)
	}
	return fd
}

// floorDivRecipFloat is PyTorch CUDA's floor division by a CPU scalar b != 0:
// the same algorithm with the quotient taken as (a - mod) * (1 / b).
func floorDivRecipFloat(f fpu, a, b float64) float64 {
	inv := f.div(1, b)
	mod := fmodFloat(a, b)
	div := f.mul(f.sub(a, mod), inv)
	if mod != 0 && (b < 0) != (mod < 0) {
		div = f.sub(div, 1)
	}
	if div == 0 {
		return math.Copysign(0, f.mul(a, inv))
	}
	fd := math.Floor(div)
	if f.sub(div, fd) > 0.5 {
		fd = f.add(fd, 1)
	}
	return fd
}

// floatSign is lax.sign: -1, 1, or x itself for ±0 and NaN.
func floatSign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

// jaxFloorDivFloat is jnp.floor_divide on floats (_float_divmod): the
// quotient of (b == 0 ? a : a - mod), minus one when mod is nonzero and of
// the other sign than b (NaN counts as both), rounded half away from zero.
func jaxFloorDivFloat(f fpu, a, b float64) float64 {
	mod := fmodFloat(a, b)
	x := a
	if b != 0 {
		x = f.sub(a, mod)
	}
	div := f.div(x, b)
	if mod != 0 && floatSign(b) != floatSign(mod) {
		div = f.sub(div, 1)
	}
	return roundHalfAway(div)
}

// roundHalfAway rounds to the nearest integer, ties away from zero, keeping
// the sign of zero (lax.round's default).
func roundHalfAway(x float64) float64 { return math.Round(x) }

// remFloat is the remainder with the divisor's sign as PyTorch and JAX
// compute it: fmod, plus b when nonzero and of the other sign; a zero result
// keeps fmod's sign (the dividend's).
func remFloat(f fpu, a, b float64) float64 {
	mod := fmodFloat(a, b)
	if mod != 0 && !math.IsNaN(mod) && (b < 0) != (mod < 0) {
		return f.add(mod, b)
	}
	return mod
}

// numpyRemFloat is npy_remainder: like remFloat, but a zero result takes the
// divisor's sign, and a zero divisor gives fmod (NaN).
func numpyRemFloat(f fpu, a, b float64) float64 {
	mod := fmodFloat(a, b)
	switch {
	case b == 0 || math.IsNaN(mod):
		return mod
	case mod == 0:
		return math.Copysign(0, b)
	case (b < 0) != (mod < 0):
		return f.add(mod, b)
	}
	return mod
}

// truncFloat is trunc(q) for a rounded quotient q.
func truncFloat(q float64) float64 { return math.Trunc(q) }

// ---------------------------------------------------------------- pow

// binaryFormats gives precision and normal exponent range of the float dtypes.
var binaryFormats = map[tensor.DType]struct{ p, emin, emax int }{
	tensor.F16: {11, -14, 15}, tensor.BF16: {8, -126, 127},
	tensor.F32: {24, -126, 127}, tensor.F64: {53, -1022, 1023},
}

// roundBig rounds b > 0 to the float dtype d (to nearest, ties to even,
// subnormals and overflow included). An approximation within 2^-100
// half-ulps of a value or a midpoint of d is taken to be exactly it; exact
// reports that the result is b itself, above that b is larger than it.
func roundBig(b *big.Float, d tensor.DType) (r float64, exact, above bool) {
	f := binaryFormats[d]
	ex := b.MantExp(nil) - 1 // b in [2^ex, 2^(ex+1))
	if ex < f.emin {
		ex = f.emin
	}
	q := ex - f.p + 1                                          // exponent of the ulp
	s := new(big.Float).SetPrec(powPrec+64).SetMantExp(b, 1-q) // b in half-ulps
	n, _ := s.Int(nil)
	frac := new(big.Float).Sub(s, new(big.Float).SetInt(n))
	tiny := new(big.Float).SetMantExp(big.NewFloat(1), -100)
	onGrid := false
	switch {
	case frac.Cmp(tiny) < 0:
		onGrid = true
	case new(big.Float).Sub(big.NewFloat(1), frac).Cmp(tiny) < 0:
		n.Add(n, big.NewInt(1))
		onGrid = true
	}
	odd := n.Bit(0) == 1
	half := new(big.Int).Rsh(n, 1) // whole ulps below the value
	above = true
	switch {
	case odd && onGrid: // a midpoint: ties to even
		if half.Bit(0) == 1 {
			half.Add(half, big.NewInt(1))
			above = false
		}
	case odd: // above the midpoint between half and half+1
		half.Add(half, big.NewInt(1))
		above = false
	case onGrid:
		above = false
	}
	r, _ = new(big.Float).SetMantExp(new(big.Float).SetInt(half), q).Float64()
	if r >= math.Ldexp(1, f.emax+1) {
		return math.Inf(1), false, false
	}
	return r, onGrid && !odd, above
}

// nextToward is the neighbor of x in the float dtype d (f32 or f64) in the
// direction of +inf when up, else of -inf.
func nextToward(x float64, up bool, d tensor.DType) float64 {
	dir := math.Inf(-1)
	if up {
		dir = math.Inf(1)
	}
	if d == tensor.F32 {
		return float64(math.Nextafter32(float32(x), float32(dir)))
	}
	return math.Nextafter(x, dir)
}

// powCandidates returns x**y rounded to nearest in p (f32 or f64) and the
// other neighbor of the exact power in p (rn itself when the power is exact):
// the two results a faithful pow with at most one ulp of error can return.
func powCandidates(x, y float64, p tensor.DType) (rn, other float64) {
	if x == 0 || y == 0 || x == 1 || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		r := roundTo(math.Pow(x, y), p) // special cases: exact by definition
		return r, r
	}
	sign := 1.0
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN(), math.NaN()
		}
		if math.Mod(y, 2) != 0 {
			sign = -1
		}
		x = -x
		if x == 1 { // (-1)**y is exact; exp(y ln 1) at finite precision is not 0 for a huge y
			return sign, sign
		}
	}
	if x == 1 { // (-1)**(even y) = 1, (-1)**(odd y) = -1: exact
		return sign, sign
	}
	switch est := y * math.Log2(x); {
	case est > 1100:
		return sign * math.Inf(1), sign * math.Inf(1)
	case est < -1200:
		return math.Copysign(0, sign), math.Copysign(0, sign)
	}
	if z := math.Pow(x, y); p != tensor.F64 {
		// the exact power lies within approxRelErr of z: when that interval
		// rounds to r and does not hold r, the power is not r itself and
		// lies on the interval's side of it
		margin := z * (approxRelErr + 0x1p-50)
		if r, ok := roundsSurely(z, p); ok && (z-margin > r || z+margin < r) {
			return sign * r, sign * nextToward(r, z-margin > r, p)
		}
	}
	if r, other, ok := powAtLowPrecision(x, y, p); ok {
		return sign * r, sign * other
	}
	r, exact, above := roundBig(bigPow(x, y), p)
	other = r
	if !exact {
		other = nextToward(r, above, p)
	}
	return sign * r, sign * other
}

// powLowPrec is the first, cheap precision of Ziv's strategy for pow.
const powLowPrec = 160

// powAtLowPrecision decides x**y's rounding to p from bigPowAt at
// powLowPrec bits when the whole error interval rounds to one value r of p
// and lies on one side of it (so the power is not r itself); ok is false
// otherwise, and the caller evaluates at powPrec.
func powAtLowPrecision(x, y float64, p tensor.DType) (rn, other float64, ok bool) {
	v := bigPowAt(x, y, powLowPrec)
	margin := new(big.Float).SetMantExp(new(big.Float).Abs(v), -(powLowPrec - 40))
	lo := new(big.Float).SetPrec(powLowPrec+8).Sub(v, margin)
	hi := new(big.Float).SetPrec(powLowPrec+8).Add(v, margin)
	r := roundBigTo(lo, p)
	if r != roundBigTo(hi, p) || math.IsInf(r, 0) || r == 0 {
		return 0, 0, false
	}
	br := new(big.Float).SetFloat64(r)
	switch {
	case lo.Cmp(br) > 0:
		return r, nextToward(r, true, p), true
	case hi.Cmp(br) < 0:
		return r, nextToward(r, false, p), true
	}
	return 0, 0, false
}

// powFaithful returns x**y correctly rounded to the float dtype d (through
// f32 for f16/bf16, as every framework computes them), and whether a
// faithful pow could give another value of d.
func powFaithful(x, y float64, d tensor.DType) (float64, bool) {
	rn, other := powCandidates(x, y, opmath(d))
	v, w := roundTo(rn, d), roundTo(other, d)
	return v, !binSameFloat(v, w)
}

// binSameFloat reports bit equality, any NaN matching any NaN.
func binSameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// approxDivF32 is an f32 division computed as x * rcp(y) with a faithful
// reciprocal (an NVIDIA GPU's approximate division), rounded to d: the value
// with the correctly rounded reciprocal, and whether the other faithful
// reciprocal gives another result. Specials divide exactly.
func approxDivF32(x, y float64, d tensor.DType) (float64, bool) {
	if x == 0 || y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return roundTo(div32(x, y), d), false
	}
	r := div32(1, y)
	p := r * y // exact: two 24-bit significands
	if p == 1 {
		return roundTo(mul32(x, r), d), false
	}
	other := nextToward(r, (p < 1) == (r > 0), tensor.F32)
	a, b := roundTo(mul32(x, r), d), roundTo(mul32(x, other), d)
	return a, !binSameFloat(a, b)
}

// sqrtIn is a correctly rounded square root in the precision p (f32 or f64).
func sqrtIn(x float64, p tensor.DType) float64 {
	if p == tensor.F32 {
		return float64(float32(math.Sqrt(float64(float32(x))))) // exact: sqrt of an f32 rounded from f64 is correctly rounded
	}
	return math.Sqrt(x)
}

// numpyFastPow is NumPy's fast_scalar_power for float arrays (not ml_dtypes'
// bf16): ** -1 and ** 2 with a Python int, ** 0.5 with a Python float run
// reciprocal, square and sqrt, so that -0.0 ** 0.5 is -0.0; ok is false when
// the exponent takes the ordinary pow.
func numpyFastPow(x float64, s *tensor.Scalar, d tensor.DType) (v float64, ok bool) {
	if d == tensor.BF16 || s.Kind == tensor.ScalarBool {
		return 0, false
	}
	p := opmath(d)
	switch e := s.Float(); {
	case s.Kind == tensor.ScalarInt && e == -1:
		return roundTo(floatArith("div", 1, x, p), d), true
	case s.Kind == tensor.ScalarInt && e == 2:
		return roundTo(floatArith("mul", x, x, p), d), true
	case s.Kind == tensor.ScalarFloat && e == 0.5:
		return roundTo(sqrtIn(x, p), d), true
	}
	return 0, false
}

// torchScalarPow is PyTorch's pow_tensor_scalar kernel for a float tensor x
// and a Python-number exponent: sqrt, 1/sqrt and reciprocal for 0.5, -0.5
// and -1 (CPU: f32/f64/bf16 only); then, with the exponent converted to the
// dtype (CPU f32/f64 keep the double), multiplications for 2, 3 and -2
// (CPU: not f16), each rounded to the dtype; pow otherwise (generic). unspec
// reports CUDA's approximate rsqrt.
func torchScalarPow(x, exp float64, d tensor.DType, cuda bool) (v float64, unspec, generic bool) {
	p, step := opmath(d), stepFPU(d)
	special := cuda || d != tensor.F16
	if special {
		switch exp {
		case 0.5:
			return roundTo(sqrtIn(x, p), d), false, false
		case -0.5:
			v := roundTo(floatArith("div", 1, sqrtIn(x, p), p), d)
			return v, cuda && x > 0 && !math.IsInf(x, 0), false
		case -1:
			return roundTo(floatArith("div", 1, x, p), d), false, false
		}
	}
	if cuda || d == tensor.F16 || d == tensor.BF16 {
		exp = roundTo(exp, d)
	}
	if special {
		switch exp {
		case 2:
			return step.mul(x, x), false, false
		case 3:
			return step.mul(step.mul(x, x), x), false, false
		case -2:
			return step.div(1, step.mul(x, x)), false, false
		}
	}
	v, _ = powFaithful(x, exp, d)
	return v, false, true
}

// integerPowFloat is lax.integer_pow on a float: square-and-multiply over
// the bits of n with one rounding to d per multiplication, and 1 / x**|n|
// for negative n, divided approximately on a GPU (approxDivF32) unless d is
// f64; unspec reports an ambiguous approximate division.
func integerPowFloat(x float64, n *big.Int, d tensor.DType, gpu bool) (v float64, unspec bool) {
	if n.Sign() == 0 {
		return 1, false
	}
	f := stepFPU(d)
	m := new(big.Int).Abs(n)
	acc, have := 0.0, false
	for i := range m.BitLen() {
		if m.Bit(i) == 1 {
			if have {
				acc = f.mul(acc, x)
			} else {
				acc, have = x, true
			}
		}
		if i+1 < m.BitLen() {
			x = f.mul(x, x)
		}
	}
	switch {
	case n.Sign() > 0:
		return acc, false
	case gpu && d != tensor.F64:
		return approxDivF32(1, acc, d)
	}
	return f.div(1, acc), false
}

// floatCmp is a three-way IEEE comparison: -1, 0, 1, or 2 when unordered.
func floatCmp(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	}
	return 2
}

// zeroTie is how maximum and minimum choose between +0 and -0.
type zeroTie uint8

const (
	tieIEEE        zeroTie = iota // IEEE 754-2019: -0 < +0
	tieSecond                     // the second operand (x86 maxps/minps)
	tieFirst                      // the first operand (a >= b ? a : b)
	tieUnspecified                // unknown
)

// maxMinFloat is maximum (or minimum) with NaN propagation; tied reports a
// ±0 tie, decided by tie, and unspec that the tie is unspecified.
func maxMinFloat(x, y float64, isMax bool, tie zeroTie) (v float64, tied, unspec bool) {
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN(), false, false
	case x != y || x != 0:
		if (x < y) == isMax {
			return y, false, false
		}
		return x, false, false
	}
	switch tie {
	case tieSecond:
		return y, true, false
	case tieFirst:
		return x, true, false
	case tieUnspecified:
		return x, true, true
	}
	if isMax == isNeg(x) {
		return y, true, false
	}
	return x, true, false
}

// significandBits is p, the significand width of the float dtype d: every
// integer of magnitude up to 2^p is a value of d.
func significandBits(d tensor.DType) uint {
	switch d {
	case tensor.F16:
		return 11
	case tensor.BF16:
		return 8
	case tensor.F32:
		return 24
	}
	return 53
}
