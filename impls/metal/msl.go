package metal

import (
	"math"
	"math/bits"

	"github.com/tfuzz/tfuzz/tensor"
)

// The scalar semantics of the Metal Shading Language, as the kernels in
// kernels/*.metal use them: the twins compute with these functions (and
// the fast-math functions of fastmath.go) and nothing else. Where C++, MSL
// or fast math leave a result open, the choice made here is one of the
// assumptions listed in assumptions.go, each named where it is made.

// mslType is a scalar type of the kernels' element buffers.
type mslType uint8

const (
	tBool   mslType = iota // bool: one byte, 0 or 1 (comparison outputs)
	tUchar                 // uint8_t (u8)
	tUint                  // uint32_t (u32)
	tLong                  // int64_t (i64)
	tHalf                  // half (f16)
	tBfloat                // bfloat (bf16)
	tFloat                 // float (f32)
	// Types of buffers candle can allocate on Metal that only copy2d reads.
	tShort  // int16_t (i16)
	tInt    // int32_t (i32)
	tDouble // f64: Metal has no double; its buffers are bytes only (blits)
)

var mslInfo = [...]struct {
	name  string // the dtype suffix of kernel names
	size  int    // bytes per element
	dtype tensor.DType
}{
	tBool:   {"bool", 1, tensor.Bool},
	tUchar:  {"u8", 1, tensor.U8},
	tUint:   {"u32", 4, tensor.U32},
	tLong:   {"i64", 8, tensor.I64},
	tHalf:   {"f16", 2, tensor.F16},
	tBfloat: {"bf16", 2, tensor.BF16},
	tFloat:  {"f32", 4, tensor.F32},
	tShort:  {"i16", 2, tensor.I16},
	tInt:    {"i32", 4, tensor.I32},
	tDouble: {"f64", 8, tensor.F64},
}

func (t mslType) String() string { return mslInfo[t].name }

// size returns the bytes of one element.
func (t mslType) size() int { return mslInfo[t].size }

// dtype returns the case-format dtype stored in buffers of t.
func (t mslType) dtype() tensor.DType { return mslInfo[t].dtype }

func (t mslType) isFloat() bool { return t == tHalf || t == tBfloat || t == tFloat || t == tDouble }

func (t mslType) isSigned() bool { return t == tLong || t == tShort || t == tInt }

// bitWidth returns the width of an integer type in bits.
func (t mslType) bitWidth() int { return 8 * t.size() }

// mslTypeOf returns the buffer type of a candle dtype, and false for a
// dtype that candle cannot hold in a buffer (i8, u16, u64, bool, complex).
func mslTypeOf(d tensor.DType) (mslType, bool) {
	for t := range mslInfo {
		if mslInfo[t].dtype == d && mslType(t) != tBool {
			return mslType(t), true
		}
	}
	return 0, false
}

// val is one scalar in a kernel: the bits of an integer (zero-extended from
// its width) or the exact value of a float. undef marks a value read from
// memory that holds nothing defined (outside a buffer, never written);
// loose marks a value the hardware computes without a rule that fixes its
// bits (see fastmath.go), held as the simulator's reference for it. Both
// propagate through every operation into the element it is stored to.
type val struct {
	u     uint64
	f     float64
	undef bool
	loose bool
}

var undefVal = val{undef: true}

func intVal(u uint64) val    { return val{u: u} }
func floatVal(f float64) val { return val{f: f} }

// from returns v computed from the operands xs: undefined if any is, loose
// if any is.
func (v val) from(xs ...val) val {
	for _, x := range xs {
		if x.undef {
			return undefVal
		}
		v.loose = v.loose || x.loose
	}
	return v
}

// anyUndef reports whether an operand is undefined.
func anyUndef(xs ...val) bool {
	for _, x := range xs {
		if x.undef {
			return true
		}
	}
	return false
}

// mask keeps the low bits of an integer type.
func (t mslType) mask(u uint64) uint64 {
	if t.bitWidth() == 64 {
		return u
	}
	return u & (1<<uint(t.bitWidth()) - 1)
}

// signed returns the value of integer bits of type t.
func (t mslType) signed(u uint64) int64 {
	if !t.isSigned() {
		return int64(u)
	}
	shift := uint(64 - t.bitWidth())
	return int64(u<<shift) >> shift
}

// decode reads one element of type t from little-endian bytes.
func (t mslType) decode(b []byte) val {
	var u uint64
	for i := t.size() - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if t.isFloat() {
		return floatVal(tensor.FloatFromBits(u, t.dtype()))
	}
	return intVal(u)
}

// encode writes one element of type t as little-endian bytes.
func (t mslType) encode(v val, b []byte) {
	u := v.u
	if t.isFloat() {
		u = tensor.FloatBits(v.f, t.dtype())
	}
	if t == tBool && u != 0 {
		u = 1
	}
	for i := 0; i < t.size(); i++ {
		b[i] = byte(u >> (8 * i))
	}
}

// round rounds the exact value x to the float type t, to nearest even.
func (t mslType) round(x float64) float64 {
	if t == tDouble {
		return x
	}
	return tensor.RoundFloat(x, t.dtype())
}

// convert is static_cast<to>(v) for a value of type from.
func convert(from, to mslType, v val) val {
	if v.undef {
		return v
	}
	return convertDefined(from, to, v).from(v)
}

func convertDefined(from, to mslType, v val) val {
	switch {
	case from == to:
		return v
	case to == tBool:
		if from.isFloat() {
			return intVal(b2u(v.f != 0))
		}
		return intVal(b2u(v.u != 0))
	case from.isFloat() && to.isFloat():
		return floatVal(to.round(v.f))
	case from.isFloat():
		return intVal(floatToInt(v.f, to))
	case to.isFloat():
		neg := from.isSigned() && from.signed(v.u) < 0
		mag := v.u
		if neg {
			mag = uint64(-from.signed(v.u))
		}
		return floatVal(intToFloat(mag, neg, to))
	}
	// integer -> integer: two's complement, sign- or zero-extended
	return intVal(to.mask(uint64(from.signed(v.u))))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// floatToInt truncates x toward zero into the integer type t, saturating
// at its range, NaN -> 0 (assumption float-to-int).
func floatToInt(x float64, t mslType) uint64 {
	if math.IsNaN(x) {
		return 0
	}
	x = math.Trunc(x)
	w := t.bitWidth()
	if t.isSigned() {
		lo, hi := -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
		switch {
		case x < lo:
			x = lo
		case x >= hi:
			return t.mask(uint64(1)<<uint(w-1) - 1)
		}
		return t.mask(uint64(int64(x)))
	}
	switch {
	case x <= 0:
		return 0
	case x >= math.Ldexp(1, w):
		return t.mask(math.MaxUint64)
	}
	return uint64(x)
}

// intToFloat rounds the integer ±mag to the float type t once, to nearest
// even (overflowing to ±inf), without an intermediate rounding (assumption
// int-to-half-once for f16 and bf16).
func intToFloat(mag uint64, neg bool, t mslType) float64 {
	sign := 1.0
	if neg {
		sign = -1
	}
	if mag == 0 {
		return 0
	}
	prec := t.precision()
	n := bits.Len64(mag)
	if n > prec {
		shift := uint(n - prec)
		q := mag >> shift
		rest := mag & (1<<shift - 1)
		half := uint64(1) << (shift - 1)
		if rest > half || (rest == half && q&1 == 1) {
			q++
		}
		return t.round(sign * math.Ldexp(float64(q), int(shift)))
	}
	return t.round(sign * float64(mag))
}

// toFloat is static_cast<float>(v) (exact for every type but i64 and u32
// values above 2^24).
func toFloat(t mslType, v val) val { return convert(t, tFloat, v) }

// arith computes x op y in type t as the kernels' C++ does: integers wrap
// (u8 is promoted to int and cast back), division truncates and never traps;
// float + - * round once to t (assumption half-arith-rounds-once for f16
// and bf16), float / is fast-math division (fastDiv).
func arith(op byte, t mslType, x, y val) val {
	if anyUndef(x, y) {
		return undefVal
	}
	var r val
	switch {
	case t.isFloat() && op == '/':
		r = fastDiv(t, x.f, y.f)
	case t.isFloat():
		f := map[byte]func(a, b float64) float64{
			'+': func(a, b float64) float64 { return a + b },
			'-': func(a, b float64) float64 { return a - b },
			'*': func(a, b float64) float64 { return a * b },
		}[op]
		r = floatVal(t.round(f(x.f, y.f)))
	case op == '+':
		r = intVal(t.mask(x.u + y.u))
	case op == '-':
		r = intVal(t.mask(x.u - y.u))
	case op == '*':
		r = intVal(t.mask(x.u * y.u))
	default:
		r = intVal(intDiv(t, x.u, y.u))
	}
	return r.from(x, y)
}

// intDiv is x / y of the integer type t on an Apple GPU (see the top of the
// file for the results C++ leaves undefined).
func intDiv(t mslType, a, b uint64) uint64 {
	switch t {
	case tLong:
		x, y := int64(a), int64(b)
		switch {
		case y == 0:
			return 0
		case x == math.MinInt64 && y == -1:
			return a
		}
		return uint64(x / y)
	case tUchar: // promoted to int: both operands are in 0..255
		if b == 0 {
			return t.mask(math.MaxUint64) // int -1, stored as 255 (assumption u8-div-by-zero)
		}
		return a / b
	}
	if b == 0 {
		return t.mask(math.MaxUint64)
	}
	return t.mask(a / b)
}

// less is x < y in type t (false when a float is NaN).
func less(t mslType, x, y val) bool {
	if t.isFloat() {
		return x.f < y.f
	}
	if t.isSigned() {
		return t.signed(x.u) < t.signed(y.u)
	}
	return x.u < y.u
}

// equal is x == y in type t (false when a float is NaN).
func equal(t mslType, x, y val) bool {
	if t.isFloat() {
		return x.f == y.f
	}
	return x.u == y.u
}

// compare is one of the comparison operators of binary.metal, with IEEE
// semantics for NaN (assumption nan-inf-ieee).
func compare(op string, t mslType, x, y val) val {
	if anyUndef(x, y) {
		return undefVal
	}
	var r bool
	switch op {
	case "eq":
		r = equal(t, x, y)
	case "ne":
		r = !equal(t, x, y)
	case "lt":
		r = less(t, x, y)
	case "le":
		r = less(t, x, y) || equal(t, x, y)
	case "gt":
		r = less(t, y, x)
	case "ge":
		r = less(t, y, x) || equal(t, x, y)
	}
	return intVal(b2u(r)).from(x, y)
}

// fmaF32 is fma(x, m, a) of three floats: the exact x*m + a rounded once to
// float (assumption fma-rounds-once). x*m is exact in float64 (24 + 24 bits); the sum's rounding error
// is recovered exactly (TwoSum) and decides the one case where rounding the
// float64 sum to float would round twice: a sum that lands exactly halfway
// between two floats.
func fmaF32(x, m, a float64) float64 {
	p := x * m
	s := p + a
	if math.IsNaN(s) || math.IsInf(s, 0) || math.IsInf(p, 0) || math.IsInf(a, 0) {
		return float64(float32(s))
	}
	bv := s - p
	err := (p - (s - bv)) + (a - bv)
	r := float64(float32(s))
	if err == 0 || r == s {
		return r
	}
	// s lies between two floats lo < s < hi; it decides unless it is the midpoint.
	lo, hi := r, r
	if r < s {
		hi = float64(math.Nextafter32(float32(r), float32(math.Inf(1))))
	} else {
		lo = float64(math.Nextafter32(float32(r), float32(math.Inf(-1))))
	}
	if s-lo != hi-s {
		return r
	}
	if err > 0 {
		return hi
	}
	return lo
}
