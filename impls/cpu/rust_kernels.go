package cpu

import (
	"math"
	"math/bits"
)

// Elementwise kernels of the Rust frameworks. Integer + - * come in two
// instantiations chosen once per op: the wrapping ones of kernels_arith.go
// (a release build) and the checked ones here (a debug build), which compute
// the same wrapped values and report faultOverflow. Every kernel takes
// equal-length slices and documents the loop it computes; floats are
// written so that Go cannot fuse a multiply and an add (an explicit
// conversion rounds), since Rust does not either.

// addOv returns x + y wrapped, and whether the exact sum overflows T.
func addOv[T integer](x, y T) (T, bool) {
	r := x + y
	if isSigned[T]() {
		return r, (x^r)&(y^r) < 0
	}
	return r, r < x
}

// subOv returns x - y wrapped, and whether the exact difference overflows T.
func subOv[T integer](x, y T) (T, bool) {
	r := x - y
	if isSigned[T]() {
		return r, (x^y)&(x^r) < 0
	}
	return r, x < y
}

// mulOv returns x * y wrapped, and whether the exact product overflows T.
func mulOv[T integer](x, y T) (T, bool) {
	r := x * y
	switch {
	case bitsOf[T]() < 64 && isSigned[T]():
		w := int64(x) * int64(y) // exact: |w| <= 2^62
		return r, int64(r) != w
	case bitsOf[T]() < 64:
		w := uint64(x) * uint64(y) // exact: w < 2^64
		return r, uint64(r) != w
	case isSigned[T]():
		ux, uy := uint64(x), uint64(y)
		if x < 0 {
			ux = -ux
		}
		if y < 0 {
			uy = -uy
		}
		hi, lo := bits.Mul64(ux, uy)
		limit := uint64(math.MaxInt64)
		if (x < 0) != (y < 0) {
			limit++ // -2^63 is representable
		}
		return r, hi != 0 || lo > limit
	}
	hi, _ := bits.Mul64(uint64(x), uint64(y))
	return r, hi != 0
}

// kAddChecked computes dst[i] = a[i] + b[i] (wrapping) and reports
// faultOverflow when some exact sum does not fit T.
//
// Reference: s = a[i] + b[i] in exact arithmetic; overflow if s is outside T.
func kAddChecked[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var ov uint8
	for i := range dst {
		r, o := addOv(a[i], b[i])
		dst[i] = r
		ov |= b2u(o)
	}
	return fault(ov) * faultOverflow
}

// kSubChecked computes dst[i] = a[i] - b[i] (wrapping), faultOverflow as
// kAddChecked.
func kSubChecked[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var ov uint8
	for i := range dst {
		r, o := subOv(a[i], b[i])
		dst[i] = r
		ov |= b2u(o)
	}
	return fault(ov) * faultOverflow
}

// kMulChecked computes dst[i] = a[i] * b[i] (wrapping), faultOverflow as
// kAddChecked.
func kMulChecked[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var ov uint8
	for i := range dst {
		r, o := mulOv(a[i], b[i])
		dst[i] = r
		ov |= b2u(o)
	}
	return fault(ov) * faultOverflow
}

// rustArith returns the kernel of a Rust integer + - * (op add, sub or mul):
// checked in a debug build, wrapping in release.
func rustArith[T integer](op opID, debug bool) binaryKernel[T, T] {
	switch {
	case op == opSub && debug:
		return kSubChecked[T]
	case op == opSub:
		return kSub[T]
	case op == opMul && debug:
		return kMulChecked[T]
	case op == opMul:
		return kMul[T]
	case debug:
		return kAddChecked[T]
	}
	return kAdd[T]
}

// kAffineInt returns candle's CPU affine kernel for integers: dst[i] =
// a[i] * mul + add in T (policy candle.cpu.affine-coefficients-as: mul and
// add are already the element type), checked in a debug build. The debug
// kernel tests the multiply against the range of factors mulBounds
// precomputes, instead of a wide multiplication per element.
func kAffineInt[T integer](mul, add T, debug bool) unaryKernel[T, T] {
	if debug {
		lo, hi := mulBounds(mul)
		return func(dst, a []T) fault {
			a = a[:len(dst)]
			var ov uint8
			for i := range dst {
				x := a[i]
				r, o := addOv(x*mul, add)
				dst[i] = r
				ov |= b2u(o || x < lo || x > hi)
			}
			return fault(ov) * faultOverflow
		}
	}
	return func(dst, a []T) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = a[i]*mul + add
		}
		return 0
	}
}

// mulBounds returns the range [lo, hi] of the x whose product x * m fits T.
//
// Reference: lo = ceil(MIN / m), hi = floor(MAX / m) for m > 0, the other
// way round for m < 0; every x for m = 0. Go's / truncates toward zero,
// which is the ceiling of a negative quotient and the floor of a positive
// one.
func mulBounds[T integer](m T) (lo, hi T) {
	mn, mx := minOf[T](), maxOf[T]()
	switch {
	case m == 0 || m == 1:
		return mn, mx
	case m > 0:
		return mn / m, mx / m
	case m == ^T(0): // -1: only MIN overflows
		return -mx, mx
	}
	return mx / m, mn / m
}

// kAffineFloat returns the affine kernel of f32 or f64: dst[i] =
// round(round(a[i] * mul) + add), two roundings as Rust computes v * mul + add.
func kAffineFloat[T floating](mul, add T) unaryKernel[T, T] {
	return func(dst, a []T) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = T(a[i]*mul) + add
		}
		return 0
	}
}

// kAffineF16 and kAffineBF16 return the affine kernels of f16 and bf16 held
// in float32: the half crate multiplies and adds in f32 and rounds each
// result back (the product of two f16/bf16 values is exact in f32).
func kAffineF16(mul, add float32) unaryKernel[float32, float32] {
	return func(dst, a []float32) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = roundF16(roundF16(a[i]*mul) + add)
		}
		return 0
	}
}

func kAffineBF16(mul, add float32) unaryKernel[float32, float32] {
	return func(dst, a []float32) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = roundBF16(roundBF16(a[i]*mul) + add)
		}
		return 0
	}
}

// kMaxLhs computes candle's CPU maximum: a[i] < b[i] ? b[i] : a[i] (NaN or a
// tie gives the lhs).
func kMaxLhs[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		if x, y := a[i], b[i]; x < y {
			dst[i] = y
		} else {
			dst[i] = x
		}
	}
	return 0
}

// kMinLhs computes candle's CPU minimum: b[i] < a[i] ? b[i] : a[i].
func kMinLhs[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		if x, y := a[i], b[i]; y < x {
			dst[i] = y
		} else {
			dst[i] = x
		}
	}
	return 0
}

// kAbsChecked computes |a[i]| for a signed T, wrapping (|MIN| = MIN), and
// reports faultOverflow for MIN (a debug build's abs; kAbsInt is release's).
func kAbsChecked[T integer](dst, a []T) fault {
	a = a[:len(dst)]
	mn := minOf[T]()
	var ov uint8
	for i := range dst {
		x := a[i]
		if x < 0 {
			x = -x
		}
		dst[i] = x
		ov |= b2u(a[i] == mn)
	}
	return fault(ov) * faultOverflow
}

// powWrap returns x^n in T by square-and-multiply, wrapping (Rust's
// wrapping_pow; the result is x^n mod 2^bits whatever the order).
func powWrap[T integer](x T, n uint64) T {
	r := T(1)
	for n != 0 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
		n >>= 1
	}
	return r
}

// kPowU32 computes burn Flex's int powi: a[i].wrapping_pow(b[i] as u32).
func kPowU32[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = powWrap(a[i], uint64(uint32(b[i])))
	}
	return 0
}

// kPowNonNeg computes a[i]^b[i] wrapping, reporting faultNegExp for a
// negative exponent (tenferro's NegativeIntegerExponent; the value is 0).
func kPowNonNeg[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var f fault
	for i := range dst {
		if b[i] < 0 {
			dst[i] = 0
			f |= faultNegExp
			continue
		}
		dst[i] = powWrap(a[i], uint64(b[i]))
	}
	return f
}

// kRoundAway computes Rust's f32/f64 round: half away from zero.
func kRoundAway[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Round(float64(a[i])))
	}
	return 0
}

// kRecipFloat computes dst[i] = 1 / a[i].
func kRecipFloat[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = 1 / a[i]
	}
	return 0
}

// kPowExpLog computes candle's Tensor::pow: exp(b[i] * ln(a[i])), each step
// rounded to T (values the model leaves unspecified).
func kPowExpLog[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		l := T(math.Log(float64(a[i])))
		dst[i] = T(math.Exp(float64(T(b[i] * l))))
	}
	return 0
}

// kPowf computes a[i].powf(b[i]) (values the model leaves unspecified).
func kPowf[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Pow(float64(a[i]), float64(b[i])))
	}
	return 0
}

// kRemBurnFloat computes burn Flex's float remainder ((a % b) + b) % b, the
// sum rounded to T.
func kRemBurnFloat[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, y := float64(a[i]), float64(b[i])
		s := T(T(math.Mod(x, y)) + b[i])
		dst[i] = T(math.Mod(float64(s), y))
	}
	return 0
}

// kRemNdarrayFloat computes burn ndarray's remainder of two Float tensors
// (policy burn.ndarray.float-remainder) in f64, rounded back:
//
//	for i: x, y := float64(a[i]), float64(b[i]); dst[i] = T(x - y*floor(x/y))
func kRemNdarrayFloat[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, y := float64(a[i]), float64(b[i])
		p := float64(y * math.Floor(x/y)) // rounded on its own: no fused multiply-add
		dst[i] = T(x - p)
	}
	return 0
}

// kMaxNaN and kMinNaN compute NaN-propagating maximum and minimum (the
// model leaves the sign of a zero result of +0 and -0 open).
func kMaxNaN[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = max(a[i], b[i])
	}
	return 0
}

func kMinNaN[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = min(a[i], b[i])
	}
	return 0
}

// kRemNdarray computes burn ndarray's integer remainder a - b * floor(a / b) in
// f64, converted back with a range check: faultOverflow marks a result that
// is NaN (b == 0) or outside i64 ("Float cannot be represented", a panic).
func kRemNdarray[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var ov uint8
	for i := range dst {
		x, y := float64(a[i]), float64(b[i])
		r := x - float64(y*math.Floor(x/y))
		bad := r != r || r <= -0x1p63 || r >= 0x1p63
		ov |= b2u(bad)
		if !bad {
			dst[i] = T(int64(r))
		}
	}
	return fault(ov) * faultOverflow
}
