package cpu

// Integer division family: trunc_div (C's /), fmod (C's %), floor_div
// (Python's //) and rem (Python's %). A zero divisor writes 0 and reports
// faultZeroDiv; a signed MIN / -1 writes the wrapped quotient MIN (remainder
// 0) and reports faultMinNeg1. What a fault means is the profile's business
// (pybinary_kernels.go, candle.go, burn.go, tenferro.go): an error, a crash, or a defined value fixed up afterwards.
//
// Go's / and % never trap on MIN / -1 (the compiler guards idiv), but they
// panic on a zero divisor, which every kernel tests first.

// isSigned reports whether the integer type T is signed.
func isSigned[T integer]() bool { return minOf[T]() != 0 }

// kTruncDiv computes dst[i] = a[i] / b[i] rounded toward zero.
func kTruncDiv[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var f fault
	signed, mn, neg1 := isSigned[T](), minOf[T](), ^T(0)
	for i := range dst {
		x, y := a[i], b[i]
		if y == 0 {
			dst[i] = 0
			f |= faultZeroDiv
			continue
		}
		if signed && y == neg1 && x == mn {
			f |= faultMinNeg1
		}
		dst[i] = x / y
	}
	return f
}

// kFmod computes dst[i] = a[i] % b[i] with the dividend's sign (C's %).
func kFmod[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var f fault
	for i := range dst {
		x, y := a[i], b[i]
		if y == 0 {
			dst[i] = 0
			f |= faultZeroDiv
			continue
		}
		dst[i] = x % y
		if zooBuild && zoo("fmod-sign") && dst[i] != 0 && (dst[i] < 0) != (y < 0) {
			dst[i] += y // zoo: the divisor's sign
		}
	}
	return f
}

// kFloorDiv computes dst[i] = floor(a[i] / b[i]).
//
// Reference: q = a / b (truncating); if a % b != 0 and the signs of a and b
// differ, q - 1.
func kFloorDiv[T integer](dst, a, b []T) fault {
	if !isSigned[T]() {
		return kTruncDiv(dst, a, b) // unsigned: truncation is the floor
	}
	b = b[:len(dst)]
	a = a[:len(dst)]
	var f fault
	for i := range dst {
		x, y := a[i], b[i]
		z := y
		if zooBuild && zoo("zero-div-wrong-operand") {
			z = x // zoo: the zero check reads the wrong operand
		}
		if z == 0 {
			dst[i] = 0
			f |= faultZeroDiv
			continue
		}
		q := x / y
		dst[i] = q + floorAdjust(x-q*y, y)
	}
	return f
}

// floorAdjust returns -1 when the remainder r of a truncating division by y
// is nonzero and of the other sign than y, else 0, without a branch (the
// condition is a coin flip on mixed-sign data). T is signed.
func floorAdjust[T integer](r, y T) T {
	sh := bitsOf[T]() - 1
	return (r ^ y) >> sh & ((r | -r) >> sh)
}

// kRem computes dst[i] = a[i] mod b[i] with the divisor's sign (Python's %).
//
// Reference: r = a % b; if r != 0 and the signs of r and b differ, r + b.
func kRem[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	signed := isSigned[T]()
	var f fault
	for i := range dst {
		x, y := a[i], b[i]
		if y == 0 {
			dst[i] = 0
			f |= faultZeroDiv
			continue
		}
		r := x % y
		if signed {
			r += y & floorAdjust(r, y)
		}
		dst[i] = r
	}
	return f
}

// kXLAFloorDivByZero rewrites the elements with a zero divisor as
// jnp.floor_divide computes them from XLA's x / 0 = -1 (all ones) and
// x % 0 = x: signed a == 0 gives -1, any other a gives -2; unsigned gives MAX.
func kXLAFloorDivByZero[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	signed := isSigned[T]()
	for i := range dst {
		if b[i] != 0 {
			continue
		}
		switch {
		case !signed:
			dst[i] = ^T(0)
		case a[i] == 0:
			dst[i] = ^T(0)
		default:
			dst[i] = ^T(0) - 1
		}
	}
	return 0
}
