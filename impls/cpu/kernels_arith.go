package cpu

// Elementwise binary kernels that need no policy: wrapping integer and IEEE
// float add, sub, mul, bitwise ops, comparisons, and bool logic. Every kernel
// takes equal-length slices (the driver guarantees it) and documents the
// reference loop it computes. Go does not vectorize, so the hot ones are
// unrolled by 4 with full-slice expressions that let the compiler drop the
// bounds checks.

// kAdd computes dst[i] = a[i] + b[i] (integers wrap; floats round once).
func kAdd[T number](dst, a, b []T) fault {
	n := len(dst)
	a, b = a[:n], b[:n]
	i := 0
	for ; i <= n-4; i += 4 {
		d, x, y := dst[i:i+4:i+4], a[i:i+4:i+4], b[i:i+4:i+4]
		d[0] = x[0] + y[0]
		d[1] = x[1] + y[1]
		d[2] = x[2] + y[2]
		d[3] = x[3] + y[3]
	}
	if zooBuild && zoo("tail-off-by-one") {
		n-- // zoo: the tail loop stops one element short
	}
	for ; i < n; i++ {
		dst[i] = a[i] + b[i]
	}
	return 0
}

// kSub computes dst[i] = a[i] - b[i].
func kSub[T number](dst, a, b []T) fault {
	n := len(dst)
	a, b = a[:n], b[:n]
	i := 0
	for ; i <= n-4; i += 4 {
		d, x, y := dst[i:i+4:i+4], a[i:i+4:i+4], b[i:i+4:i+4]
		d[0] = x[0] - y[0]
		d[1] = x[1] - y[1]
		d[2] = x[2] - y[2]
		d[3] = x[3] - y[3]
	}
	for ; i < n; i++ {
		dst[i] = a[i] - b[i]
	}
	return 0
}

// kMul computes dst[i] = a[i] * b[i].
func kMul[T number](dst, a, b []T) fault {
	n := len(dst)
	a, b = a[:n], b[:n]
	i := 0
	for ; i <= n-4; i += 4 {
		d, x, y := dst[i:i+4:i+4], a[i:i+4:i+4], b[i:i+4:i+4]
		d[0] = x[0] * y[0]
		d[1] = x[1] * y[1]
		d[2] = x[2] * y[2]
		d[3] = x[3] * y[3]
	}
	for ; i < n; i++ {
		dst[i] = a[i] * b[i]
	}
	return 0
}

// kDiv computes dst[i] = a[i] / b[i] for floats (IEEE: x/0 is ±inf or NaN).
func kDiv[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] / b[i]
	}
	return 0
}

// kMulRecip computes dst[i] = a[i] * T(1/b[i]): the division XLA's CPU
// backend emits for a broadcast scalar divisor (the reciprocal rounded once
// in T, then one rounded product).
func kMulRecip[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		r := 1 / b[i]
		dst[i] = a[i] * r
	}
	return 0
}

// kSelectMul is a multiply by a bool converted to 0 or 1 as XLA rewrites it,
// select(pred, other, +0), with the bool on the left (predLeft) or right:
//
//	for i: p, v := a[i], b[i] (swapped unless predLeft); dst[i] = v if p != 0 else +0
func kSelectMul[T floating](predLeft bool) binaryKernel[T, T] {
	return func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		if !predLeft {
			a, b = b, a
		}
		for i := range dst {
			var v T
			if a[i] != 0 {
				v = b[i]
			}
			dst[i] = v
		}
		return 0
	}
}

// kSelectRecip is a converted bool divided by a broadcast scalar as XLA
// rewrites it, select(pred, 1/b, +0):
//
//	for i: dst[i] = 1/b[i] if a[i] != 0 else +0
func kSelectRecip[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		var v T
		if a[i] != 0 {
			v = 1 / b[i]
		}
		dst[i] = v
	}
	return 0
}

// kRecipMul computes dst[i] = T(1/b[i]) * a[i] with the reciprocal rounded
// by round first (PyTorch's s / t is t.reciprocal() * s: the reciprocal is a
// tensor of t's dtype). round may be nil (no extra rounding).
func kRecipMul[T floating](round func(T) T) binaryKernel[T, T] {
	return func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		for i := range dst {
			r := 1 / b[i]
			if round != nil {
				r = round(r)
			}
			dst[i] = r * a[i]
		}
		return 0
	}
}

// kAnd computes dst[i] = a[i] & b[i] (bool: logical and; bool mul and
// minimum are the same).
func kAnd[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] & b[i]
	}
	return 0
}

// kOr computes dst[i] = a[i] | b[i] (bool: logical or; bool add and maximum).
func kOr[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] | b[i]
	}
	return 0
}

// kXor computes dst[i] = a[i] ^ b[i].
func kXor[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] ^ b[i]
	}
	return 0
}

// kMaxInt computes dst[i] = max(a[i], b[i]) for integers.
func kMaxInt[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = max(a[i], b[i])
	}
	return 0
}

// kMinInt computes dst[i] = min(a[i], b[i]) for integers.
func kMinInt[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = min(a[i], b[i])
	}
	return 0
}

// Float maximum and minimum propagate NaN everywhere; they differ in which
// zero they return when the operands are +0 and -0:
//
//	second: the second operand (x86 maxps/minps: PyTorch CPU, NumPy f32/f64/bf16)
//	first:  the first operand (NumPy's f16 scalar loop)
//	ieee:   IEEE 754-2019 maximum/minimum, -0 < +0 (JAX)

// kMaxSecond computes a[i] > b[i] ? a[i] : b[i], NaN if either is NaN.
func kMaxSecond[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, y := a[i], b[i]
		switch {
		case x != x:
			dst[i] = x
		case x > y:
			dst[i] = x
		default:
			dst[i] = y
		}
	}
	return 0
}

// kMinSecond computes a[i] < b[i] ? a[i] : b[i], NaN if either is NaN.
func kMinSecond[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, y := a[i], b[i]
		switch {
		case x != x:
			dst[i] = x
		case x < y:
			dst[i] = x
		default:
			dst[i] = y
		}
	}
	return 0
}

// kMaxFirst computes a[i] >= b[i] || isnan(a[i]) ? a[i] : b[i].
func kMaxFirst[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, y := a[i], b[i]
		if x >= y || x != x {
			dst[i] = x
		} else {
			dst[i] = y
		}
	}
	return 0
}

// kMinFirst computes a[i] <= b[i] || isnan(a[i]) ? a[i] : b[i].
func kMinFirst[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		x, y := a[i], b[i]
		if x <= y || x != x {
			dst[i] = x
		} else {
			dst[i] = y
		}
	}
	return 0
}

// kMaxIEEE computes IEEE maximum: NaN if either is NaN, max(+0, -0) = +0.
// Go's built-in max has exactly these semantics.
func kMaxIEEE[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = max(a[i], b[i])
	}
	return 0
}

// kMinIEEE computes IEEE minimum: NaN if either is NaN, min(+0, -0) = -0.
func kMinIEEE[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = min(a[i], b[i])
	}
	return 0
}

// b2u is a truth value as a bool element.
func b2u(c bool) uint8 {
	if c {
		return 1
	}
	return 0
}

// Comparisons write bool elements (0 or 1). NaN compares unequal to
// everything, itself included.

func kEq[T number](dst []uint8, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	if zooBuild && zoo("eq-nan") {
		for i := range dst {
			dst[i] = b2u(!(a[i] < b[i] || a[i] > b[i])) // zoo: NaN == NaN
		}
		return 0
	}
	for i := range dst {
		dst[i] = b2u(a[i] == b[i])
	}
	return 0
}

func kNe[T number](dst []uint8, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = b2u(a[i] != b[i])
	}
	return 0
}

func kLt[T number](dst []uint8, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = b2u(a[i] < b[i])
	}
	return 0
}

func kLe[T number](dst []uint8, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = b2u(a[i] <= b[i])
	}
	return 0
}

func kGt[T number](dst []uint8, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = b2u(a[i] > b[i])
	}
	return 0
}

func kGe[T number](dst []uint8, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = b2u(a[i] >= b[i])
	}
	return 0
}

// compareKernel returns the comparison kernel of op for element type T.
func compareKernel[T number](op opID) binaryKernel[T, uint8] {
	switch op {
	case opEq:
		return kEq[T]
	case opNe:
		return kNe[T]
	case opLt:
		return kLt[T]
	case opLe:
		return kLe[T]
	case opGt:
		return kGt[T]
	}
	return kGe[T]
}

// signedUnsignedCompareKernel compares 64-bit words of which one side holds
// signed values (sign-extended) and the other unsigned ones, exactly:
//
//	for i: s, u := the signed and the unsigned word
//	       c := -1 if int64(s) < 0 || s < u; 0 if s == u; else 1 (signed against unsigned)
//	       dst[i] = op holds for c, mirrored when the unsigned word is on the left
func signedUnsignedCompareKernel(op opID, leftSigned bool) binaryKernel[uint64, uint8] {
	return func(dst []uint8, a, b []uint64) fault {
		a, b = a[:len(dst)], b[:len(dst)]
		for i := range dst {
			s, u := a[i], b[i]
			if !leftSigned {
				s, u = b[i], a[i]
			}
			c := 1
			switch {
			case int64(s) < 0 || s < u:
				c = -1
			case s == u:
				c = 0
			}
			if !leftSigned {
				c = -c
			}
			dst[i] = b2u(threeWayHolds(op, c))
		}
		return 0
	}
}

// threeWayHolds reports whether comparison op holds for a three-way result
// c of left against right (-1, 0 or 1).
func threeWayHolds(op opID, c int) bool {
	switch op {
	case opEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	}
	return c >= 0
}
