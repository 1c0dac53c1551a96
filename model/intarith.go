package model

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/tfuzz/tfuzz/tensor"
)

// intFault is what an integer op ran into; each profile's rules decide what
// the fault means (an error, a panic, a trap, or nothing: the wrapped value).
type intFault uint8

const (
	noFault          intFault = iota
	faultZeroDivisor          // x / 0, x % 0
	faultMinByNegOne          // MIN / -1: the quotient does not fit
	faultOverflow             // the exact result does not fit the dtype
	faultNegativePow          // an integer raised to a negative integer power
)

// wrapInt keeps the low bits of v that dtype d holds, extended back to 64 bits.
func wrapInt(v uint64, d tensor.DType) uint64 {
	if d == tensor.Bool {
		if v != 0 {
			return 1
		}
		return 0
	}
	w := d.Bits()
	if w == 64 {
		return v
	}
	if d.IsSigned() {
		shift := 64 - w
		return uint64(int64(v<<shift) >> shift)
	}
	return v & (1<<w - 1)
}

// fitsInt reports whether the exact (unbounded) integer hi:lo (a 128-bit two's
// complement value) is representable in d.
func fitsInt128(hi, lo uint64, d tensor.DType) bool {
	if d.IsSigned() {
		// representable iff hi is the sign extension of lo and lo fits
		if int64(hi) != int64(lo)>>63 {
			return false
		}
		v := int64(lo)
		return v >= d.MinInt() && v <= d.MaxInt()
	}
	return hi == 0 && lo <= d.MaxUint()
}

// less compares two integer elements of dtype d.
func intLess(a, b uint64, d tensor.DType) bool {
	if d.IsSigned() {
		return int64(a) < int64(b)
	}
	return a < b
}

// intArith computes add, sub or mul exactly and returns the wrapped result
// and whether the exact value overflowed d.
func intArith(op string, a, b uint64, d tensor.DType) (uint64, intFault) {
	var hi, lo uint64
	sa, sb := d.IsSigned() && int64(a) < 0, d.IsSigned() && int64(b) < 0
	ext := func(neg bool) uint64 {
		if neg {
			return math.MaxUint64
		}
		return 0
	}
	switch op {
	case "add":
		var c uint64
		lo, c = bits.Add64(a, b, 0)
		hi, _ = bits.Add64(ext(sa), ext(sb), c)
	case "sub":
		var c uint64
		lo, c = bits.Sub64(a, b, 0)
		hi, _ = bits.Sub64(ext(sa), ext(sb), c)
	case "mul":
		hi, lo = bits.Mul64(a, b)
		// signed correction of the unsigned 128-bit product
		if sa {
			hi -= b
		}
		if sb {
			hi -= a
		}
	default:
		panic("model: intArith of " + op)
	}
	r := wrapInt(lo, d)
	if !fitsInt128(hi, lo, d) {
		return r, faultOverflow
	}
	return r, noFault
}

// intTruncDiv divides toward zero. On a zero divisor it returns 0 and the
// fault; on MIN / -1 the wrapped quotient (MIN) and the fault.
func intTruncDiv(a, b uint64, d tensor.DType) (uint64, intFault) {
	if b == 0 {
		return 0, faultZeroDivisor
	}
	if !d.IsSigned() {
		return a / b, noFault
	}
	x, y := int64(a), int64(b)
	if x == d.MinInt() && y == -1 {
		return wrapInt(uint64(-x), d), faultMinByNegOne
	}
	return uint64(x / y), noFault
}

// intFmod is C's %: the remainder of truncating division, with the dividend's sign.
func intFmod(a, b uint64, d tensor.DType) (uint64, intFault) {
	if b == 0 {
		return 0, faultZeroDivisor
	}
	if !d.IsSigned() {
		return a % b, noFault
	}
	x, y := int64(a), int64(b)
	if y == -1 {
		return 0, noFault // MIN % -1 is 0 mathematically (Go also says so)
	}
	return uint64(x % y), noFault
}

// intFloorDiv divides rounding toward negative infinity (Python's //).
func intFloorDiv(a, b uint64, d tensor.DType) (uint64, intFault) {
	q, f := intTruncDiv(a, b, d)
	if f != noFault || !d.IsSigned() {
		return q, f
	}
	x, y := int64(a), int64(b)
	if x%y != 0 && (x < 0) != (y < 0) {
		q--
	}
	return q, noFault
}

// intRem is Python's %: the remainder of flooring division, with the divisor's sign.
func intRem(a, b uint64, d tensor.DType) (uint64, intFault) {
	r, f := intFmod(a, b, d)
	if f != noFault || !d.IsSigned() {
		return r, f
	}
	x, y := int64(r), int64(b)
	if x != 0 && (x < 0) != (y < 0) {
		x += y
	}
	return uint64(x), noFault
}

// intPow raises a to the power b by repeated squaring in d's wrapping
// arithmetic. A negative exponent is a fault; its value is what C++'s
// integer pow in PyTorch returns (1 for base 1, ±1 for base -1, else 0).
func intPow(a, b uint64, d tensor.DType) (uint64, intFault) {
	if d.IsSigned() && int64(b) < 0 {
		switch int64(a) {
		case 1:
			return 1, faultNegativePow
		case -1:
			if b&1 == 1 {
				return wrapInt(math.MaxUint64, d), faultNegativePow
			}
			return 1, faultNegativePow
		}
		return 0, faultNegativePow
	}
	result, base, exp := uint64(1), a, b
	overflow := false
	for exp > 0 {
		if exp&1 == 1 {
			var f intFault
			result, f = intArith("mul", result, base, d)
			overflow = overflow || f != noFault
		}
		exp >>= 1
		if exp > 0 {
			var f intFault
			base, f = intArith("mul", base, base, d)
			// squaring overflow only matters if the base is still used
			if f != noFault && exp > 0 {
				overflow = true
			}
		}
	}
	if overflow {
		return result, faultOverflow
	}
	return result, noFault
}

// intFits reports whether v is a value of the integer dtype d.
func intFits(v *big.Int, d tensor.DType) bool {
	if d.IsSigned() {
		return v.IsInt64() && v.Int64() >= d.MinInt() && v.Int64() <= d.MaxInt()
	}
	return v.Sign() >= 0 && v.IsUint64() && v.Uint64() <= d.MaxUint()
}

// allOnes is the value of dtype d with every bit set (-1 signed, MAX unsigned).
func allOnes(d tensor.DType) uint64 { return wrapInt(math.MaxUint64, d) }

// signsDiffer is c10::signs_differ: one operand is negative, the other not.
func signsDiffer(a, b uint64, d tensor.DType) bool {
	return d.IsSigned() && (int64(a) < 0) != (int64(b) < 0)
}

// floorFromTrunc is c10::div_floor_integer given the truncating quotient q
// and remainder r of a / b: one less than q when the signs differ and r != 0.
func floorFromTrunc(a, b, q, r uint64, d tensor.DType) uint64 {
	if signsDiffer(a, b, d) && r != 0 {
		return wrapInt(q-1, d)
	}
	return q
}

// remFromFmod is PyTorch's integer remainder given C's a % b: the divisor is
// added when the remainder is nonzero and of the other sign.
func remFromFmod(r, b uint64, d tensor.DType) uint64 {
	if r != 0 && signsDiffer(r, b, d) {
		return wrapInt(r+b, d)
	}
	return r
}

// cudaDivByZero is the quotient and the remainder an NVIDIA GPU computes for
// x / 0 and x % 0 (the same bit pattern for both): all ones in the 32-bit
// register that 8-, 16- and 32-bit types are computed in, and for 64-bit
// types all ones from nvcc's 64-bit routine, except that when the dividend
// viewed as unsigned fits in 32 bits its 32-bit fast path runs and yields
// 0x00000000FFFFFFFF.
func cudaDivByZero(a uint64, d tensor.DType) uint64 {
	if d.Bits() == 64 && a < 1<<32 {
		return 0xFFFFFFFF
	}
	return allOnes(d)
}

// xlaDiv is XLA's integer division: truncating, x / 0 = -1 (all ones, MAX
// for unsigned types) and MIN / -1 = MIN.
func xlaDiv(a, b uint64, d tensor.DType) uint64 {
	if b == 0 {
		return allOnes(d)
	}
	q, _ := intTruncDiv(a, b, d)
	return q
}

// xlaRem is XLA's integer remainder: C's %, x % 0 = x and MIN % -1 = 0.
func xlaRem(a, b uint64, d tensor.DType) uint64 {
	if b == 0 {
		return a
	}
	r, _ := intFmod(a, b, d)
	return r
}

// intSign is -1, 0 or 1.
func intSign(a uint64, d tensor.DType) int {
	switch {
	case a == 0:
		return 0
	case d.IsSigned() && int64(a) < 0:
		return -1
	}
	return 1
}

// jaxFloorDiv is jnp.floor_divide on integers: XLA's division, one less when
// the signs of the operands differ and the remainder is nonzero (signed types).
func jaxFloorDiv(a, b uint64, d tensor.DType) uint64 {
	q := xlaDiv(a, b, d)
	if d.IsSigned() && intSign(a, d) != intSign(b, d) && xlaRem(a, b, d) != 0 {
		return wrapInt(q-1, d)
	}
	return q
}

// jaxRemainder is jnp.remainder on integers: a zero divisor is replaced by 1,
// then the remainder takes the divisor's sign.
func jaxRemainder(a, b uint64, d tensor.DType) uint64 {
	if b == 0 {
		b = 1
	}
	r := xlaRem(a, b, d)
	if r != 0 && d.IsSigned() && (int64(r) < 0) != (int64(b) < 0) {
		r = wrapInt(r+b, d)
	}
	return r
}

// jaxIntPow is jnp.power on integer arrays (_pow_int_int): six rounds of
// square-and-multiply, so only the low 6 bits of the exponent count, and 0
// when the base is 0 and the exponent is not.
func jaxIntPow(a, b uint64, d tensor.DType) uint64 {
	acc := uint64(1)
	if a == 0 && b != 0 {
		acc = 0
	}
	for range 6 {
		if b&1 == 1 {
			acc, _ = intArith("mul", acc, a, d)
		}
		a, _ = intArith("mul", a, a, d)
		b >>= 1
	}
	return acc
}

// divFamily picks floor_div, trunc_div, rem or fmod of a / b from the
// truncating quotient q and remainder r the hardware produced.
func divFamily(op string, a, b, q, r uint64, d tensor.DType) uint64 {
	switch op {
	case "trunc_div":
		return q
	case "fmod":
		return r
	case "rem":
		return remFromFmod(r, b, d)
	}
	return floorFromTrunc(a, b, q, r, d)
}

// intPowBig raises a to the non-negative power n by square-and-multiply over
// n's bits, wrapping in d (lax.integer_pow on integers).
func intPowBig(a uint64, n *big.Int, d tensor.DType) uint64 {
	acc := uint64(1)
	for i := range n.BitLen() {
		if n.Bit(i) == 1 {
			acc, _ = intArith("mul", acc, a, d)
		}
		a, _ = intArith("mul", a, a, d)
	}
	return acc
}

// intCmp compares two integers of d: -1, 0 or 1.
func intCmp(x, y uint64, d tensor.DType) int {
	switch {
	case x == y:
		return 0
	case intLess(x, y, d):
		return -1
	}
	return 1
}

// intCmpBig compares x and y of d exactly when the operand at position pos
// is the Python int s (which may lie outside d): -1, 0 or 1.
func intCmpBig(x, y uint64, d tensor.DType, s *big.Int, pos int) int {
	v := new(big.Int)
	t := x
	if pos == 0 {
		t = y
	}
	if d.IsSigned() {
		v.SetInt64(int64(t))
	} else {
		v.SetUint64(t)
	}
	if pos == 0 {
		return s.Cmp(v)
	}
	return v.Cmp(s)
}

// exactIntValue returns integer element i of t as its mathematical value.
func exactIntValue(t *tensor.Tensor, i int) *big.Int {
	if t.DType.IsSigned() {
		return big.NewInt(t.Int(i))
	}
	return new(big.Int).SetUint64(t.Uint(i))
}

// cmpHolds evaluates comparison op from a three-way result c (2: unordered).
func cmpHolds(op string, c int) bool {
	switch op {
	case "eq":
		return c == 0
	case "ne":
		return c != 0
	case "lt":
		return c == -1
	case "le":
		return c == -1 || c == 0
	case "gt":
		return c == 1
	}
	return c == 1 || c == 0
}

// numpyIntDiv is NumPy's integer floor_divide, remainder and fmod: x op 0 is
// 0 and MIN // -1 is MIN (both reported as faults, which NumPy warns about).
func numpyIntDiv(op string, x, y uint64, d tensor.DType) (uint64, intFault) {
	if y == 0 {
		return 0, faultZeroDivisor
	}
	switch op {
	case "floor_div":
		return intFloorDiv(x, y, d)
	case "rem":
		return intRem(x, y, d)
	}
	return intFmod(x, y, d)
}

// jaxIntDiv is jnp.floor_divide, jnp.remainder and jnp.fmod on integers;
// keepZero is fmod of bools, whose zero divisor is not replaced.
func jaxIntDiv(op string, x, y uint64, d tensor.DType, keepZero bool) uint64 {
	switch op {
	case "floor_div":
		return jaxFloorDiv(x, y, d)
	case "rem":
		return jaxRemainder(x, y, d)
	}
	if y == 0 && !keepZero {
		y = 1
	}
	return xlaRem(x, y, d)
}

// ---------------------------------------------------------------- Python frameworks

// The integer kernels of PyTorch, NumPy and JAX (called by pybinary.go).

var (
	torchIntZeroDiv = newRule("pytorch.cpu.int-zero-divisor",
		"PyTorch's CPU integer floor_div, trunc_div, rem and fmod check every divisor: RuntimeError: ZeroDivisionError (the first offending element in output order decides against a MIN / -1 trap)",
		"oracle-00016, oracle-00018, oracle-00020, oracle-00065, oracle-00040, oracle2-00335, oracle2-00071; oracle2-01578 (empty output: no error)")
	torchTruncTrap = newRule("pytorch.cpu.x86.trunc-div-min-by-minus-one",
		"x86-64 idiv traps on MIN / -1: PyTorch CPU trunc_div of i32 or i64 kills the process with SIGFPE (i8/i16 are divided as int and give MIN)",
		"oracle-00105 (i32), oracle-00148 (i64); DESIGN.md (x86-64 idiv)")
	minByMinusOne = newRule("python.int.min-by-minus-one",
		"MIN / -1 wraps to MIN in floor and truncating division, and MIN % -1 is 0 (XLA defines it, GPUs and Arm64 sdiv do not trap, NumPy warns)",
		"oracle-00017, oracle-00103, oracle-00105 (cuda), oracle-00146, oracle-00150, oracle-00152; seed 000 §除以 0 和 MIN / -1 (MPS)")
	cudaZeroDiv = newRule("pytorch.cuda.int-zero-divisor",
		"CUDA integer division never traps: x / 0 and x % 0 are both all ones in the 32-bit register (8/16/32-bit types) or from nvcc's 64-bit routine (0x00000000FFFFFFFF when the dividend fits in 32 unsigned bits); floor_div and rem then apply c10's sign corrections",
		"oracle-00016, oracle-00018, oracle-00040, oracle-00145, oracle2-00335; arith.md R3.2")
	mpsZeroDiv = newOpenRule("pytorch.mps.int-zero-divisor",
		"PyTorch on MPS does not check zero divisors: signed x / 0 = 0 and x % 0 = x (so -7 // 0 = -1); unsigned results are unspecified (no evidence)",
		"seed 000 §除以 0 和 MIN / -1 (MPS rows: [7,-7] // 0 = [0,-1], trunc = [0,0])")
	numpyIntZeroDiv = newRule("numpy.int.zero-divisor",
		"NumPy integer x // 0, x % 0 and fmod(x, 0) are 0 with a RuntimeWarning",
		"oracle-00016, oracle-00020, oracle-00065, oracle-00082, oracle-00170")
	jaxIntDivRule = newRule("jax.int.division",
		"XLA integer division: x / 0 = -1 (MAX unsigned), x % 0 = x, MIN / -1 = MIN; jnp.floor_divide corrects the quotient toward -inf for signed types, jnp.remainder and jnp.fmod replace a zero integer divisor by 1",
		"oracle-00016, oracle-00020, oracle-00065, oracle-00082, oracle-00125, oracle2-00918; jax/_src/numpy/ufuncs.py")
	torchIntPow = newRule("pytorch.int.pow",
		"integer pow by square-and-multiply with wrapping; a negative exponent gives 1 for base 1, ±1 for base -1, else 0",
		"oracle2-00170, oracle2-00986, oracle2-00413, oracle2-01207")
	jaxIntPowRule = newRule("jax.int.pow",
		"jnp.power on integer arrays runs six rounds of square-and-multiply: x ** (y mod 64), wrapped, 0 when x is 0 and y is not",
		"oracle2-00170, oracle2-00986, oracle2-01418, oracle2-01207; jax _pow_int_int")
)

// pyIntWrap names what integer overflow does in PyTorch, NumPy and JAX.
var pyIntWrap = newRule("python.int.wrap",
	"integer add, sub and mul wrap silently modulo 2^bits of the result dtype (two's complement), with no error or warning",
	"arith.md (grid group: every int dtype, every profile); oracle-00000 (i8 add), seed 000 §溢出 (u8 200 + 100 = 44, i64 MAX + 1 = MIN), seed 004 (i32 lengths + lengths)")

// intResult is an integer result, possibly unspecified.
type intResult struct {
	v           uint64
	unspecified bool
}

// intElem evaluates an integer op on two elements of the compute dtype.
func (b *pyBin) intElem(x, y uint64) (intResult, *tensor.Outcome) {
	d := b.compute
	switch b.op {
	case "add", "sub", "mul":
		v, f := intArith(b.op, x, y, d)
		if f == faultOverflow {
			b.e.use(pyIntWrap)
		}
		return intResult{v: v}, nil
	case "bitwise_and":
		return intResult{v: x & y}, nil
	case "bitwise_or":
		return intResult{v: x | y}, nil
	case "bitwise_xor":
		return intResult{v: x ^ y}, nil
	case "maximum", "minimum":
		if intLess(x, y, d) == (b.op == "maximum") {
			return intResult{v: y}, nil
		}
		return intResult{v: x}, nil
	case "pow":
		return intResult{v: b.intPow(x, y)}, nil
	}
	switch b.e.p.Framework {
	case PyTorch:
		return b.torchIntDiv(x, y)
	case NumPy:
		v, f := numpyIntDiv(b.op, x, y, d)
		switch f {
		case faultZeroDivisor:
			b.e.use(numpyIntZeroDiv)
			b.e.warn("RuntimeWarning: divide by zero encountered in %s", map[string]string{"floor_div": "floor_divide", "rem": "remainder", "fmod": "fmod"}[b.op])
		case faultMinByNegOne:
			b.e.use(minByMinusOne)
			b.e.warn("RuntimeWarning: overflow encountered in floor_divide")
		}
		return intResult{v: v}, nil
	}
	b.e.use(jaxIntDivRule)
	return intResult{v: jaxIntDiv(b.op, x, y, d, b.jaxFmodRaw)}, nil
}

func (b *pyBin) intPow(x, y uint64) uint64 {
	d := b.compute
	switch b.e.p.Framework {
	case PyTorch:
		b.e.use(torchIntPow)
	case NumPy:
		b.e.use(numpyIntPow)
	default:
		b.e.use(jaxIntPowRule)
		return jaxIntPow(x, y, d)
	}
	v, _ := intPow(x, y, d)
	return v
}

// torchIntDiv is PyTorch's integer floor_div, trunc_div, rem and fmod.
func (b *pyBin) torchIntDiv(x, y uint64) (intResult, *tensor.Outcome) {
	e, d := b.e, b.compute
	var q, r uint64
	switch {
	case y == 0 && e.p.Device == CPU:
		return intResult{}, outcomePtr(e.fail(torchIntZeroDiv, tensor.ZeroDivision, "RuntimeError: ZeroDivisionError"))
	case y == 0 && e.p.Device == MPS:
		e.use(mpsZeroDiv)
		if !d.IsSigned() {
			return intResult{unspecified: true}, nil
		}
		q, r = 0, x
	case y == 0:
		e.use(cudaZeroDiv)
		q = cudaDivByZero(x, d)
		r = q
	default:
		var f intFault
		q, f = intTruncDiv(x, y, d)
		r, _ = intFmod(x, y, d)
		if f == faultMinByNegOne {
			if b.op == "trunc_div" && e.p.Device == CPU && e.p.Arch == X86 && d.Bits() >= 32 {
				e.use(torchTruncTrap)
				return intResult{}, outcomePtr(tensor.CrashOutcome("SIGFPE"))
			}
			e.use(minByMinusOne)
		}
	}
	return intResult{v: divFamily(b.op, x, y, q, r, d)}, nil
}

var jaxIntegerPow = newRule("jax.pow.integer-pow",
	"x ** n with n a Python int (or bool, or a concrete 0-dim int array) is lax.integer_pow on the base alone: the result has the base's numeric dtype, computed by square-and-multiply (one rounding per multiplication), 1 / x**-n for negative n, TypeError for an integer base and negative n",
	"jax/_src/numpy/ufuncs.py power; lax.py _integer_pow; oracle2-01308 (f32 x**3 = (x*x)*x)")

// jaxIntegerPow takes jnp.power's lax.integer_pow path when the exponent is a
// Python int or bool, or a concrete 0-dim integer array: the result has the
// numeric dtype of the base alone.
func (b *pyBin) jaxIntegerPow() *tensor.Outcome {
	y := b.args[1]
	switch {
	case y.isScalar() && y.kind() == tensor.ScalarInt:
		b.intPowExp = y.s.Int()
	case y.isScalar() && y.kind() == tensor.ScalarBool:
		b.intPowExp = big.NewInt(int64(y.s.Float()))
	case !y.isScalar() && y.t.Rank() == 0 && y.t.DType.IsInt():
		if y.t.DType.IsSigned() {
			b.intPowExp = big.NewInt(y.t.Int(0))
		} else {
			b.intPowExp = new(big.Int).SetUint64(y.t.Uint(0))
		}
	default:
		return nil
	}
	e := b.e
	e.use(jaxIntegerPow)
	base := b.args[0]
	d := jaxResultType([]pyArg{base}, e.p.X64)
	b.common, b.compute, b.result = d, jaxNumeric(d), jaxNumeric(d)
	if b.compute != d {
		e.use(jaxBoolAsInt32)
	}
	if b.compute.IsInt() && b.intPowExp.Sign() < 0 {
		return outcomePtr(e.fail(jaxIntegerPow, tensor.Other,
			"TypeError: Integers cannot be raised to negative powers, got integer_pow(%s, %s)", pyName(b.compute), b.intPowExp))
	}
	b.shape = []int{}
	if !base.isScalar() {
		b.shape = append(b.shape, base.t.Shape...)
	}
	return nil
}

// runIntegerPow evaluates JAX's lax.integer_pow(base, n).
func (b *pyBin) runIntegerPow() tensor.Outcome {
	d := b.compute
	base := b.e.convertArg(b.args[0], d)
	out := tensor.New(b.result, b.shape...)
	for i := range out.Len() {
		j := broadcastIndex(b.shape, i, base.Shape)
		if d.IsInt() {
			out.SetUint(i, intPowBig(base.Uint(j), b.intPowExp, d))
			continue
		}
		v, unspec := integerPowFloat(base.Float(j), b.intPowExp, d, b.e.p.Device == GPU)
		if unspec {
			b.e.use(xlaGPUDiv)
		}
		out.SetFloat(i, v)
		if unspec {
			out.SetUnspecified(i)
		}
	}
	return tensor.ValueOutcome(out)
}
