package cpu

// Integer pow kernels. All compute by square-and-multiply in T's wrapping
// arithmetic; they differ in what a negative exponent means.

// powSquare returns x**e for e >= 0 (as an unsigned count) in T's wrapping
// arithmetic.
func powSquare[T integer](x T, e uint64) T {
	r := T(1)
	for e != 0 {
		if e&1 == 1 {
			r *= x
		}
		e >>= 1
		x *= x
	}
	return r
}

// kPowIntTorch is PyTorch's powi: for a negative exponent, 1 for base 1,
// ±1 for base -1 (by the exponent's parity) and 0 otherwise.
func kPowIntTorch[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, e := a[i], b[i]
		if e >= 0 {
			dst[i] = powSquare(x, uint64(e))
			continue
		}
		switch {
		case x == 1:
			dst[i] = 1
		case x == ^T(0): // -1 (e < 0 only happens for signed T)
			if e&1 == 1 {
				dst[i] = x
			} else {
				dst[i] = 1
			}
		default:
			dst[i] = 0
		}
	}
	return 0
}

// kPowIntNumPy is NumPy's integer power: a negative exponent anywhere is a
// ValueError (reported as faultNegExp; the element gets 0).
func kPowIntNumPy[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var f fault
	for i := range dst {
		e := b[i]
		if e < 0 {
			f |= faultNegExp
			dst[i] = 0
			continue
		}
		dst[i] = powSquare(a[i], uint64(e))
	}
	return f
}

// kPowIntXLA is jnp.power on integer arrays: six rounds of square and
// multiply, so only the low 6 bits of the exponent count; 0 when the base is
// 0 and the exponent is not.
//
// Reference: acc = (a == 0 && b != 0) ? 0 : 1; repeat 6: if b&1: acc *= a;
// a *= a; b >>= 1.
func kPowIntXLA[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, e := a[i], b[i]
		if x == 0 && e != 0 {
			dst[i] = 0
			continue
		}
		dst[i] = powSquare(x, uint64(e)&63)
	}
	return 0
}
