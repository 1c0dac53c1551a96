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

// ival is an integer element: its value sign- or zero-extended to 64 bits
// according to its dtype. Unsigned values above MaxInt64 only occur in u64.
type ival struct {
	v uint64
	d tensor.DType
}

func (x ival) signed() int64 { return int64(x.v) }

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
