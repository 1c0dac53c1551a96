package cpu

import "math"

// Unary kernels. Integer results wrap in T; float results are exact or
// rounded once.

// kNeg computes dst[i] = -a[i] (integers wrap: -MIN = MIN; floats flip the
// sign bit, -(+0) = -0).
func kNeg[T number](dst, a []T) fault {
	a = a[:len(dst)]
	if zooBuild && zoo("neg-zero") {
		for i := range dst {
			dst[i] = 0 - a[i] // zoo: -(+0) is +0
		}
		return 0
	}
	for i := range dst {
		dst[i] = -a[i]
	}
	return 0
}

// kAbsInt computes |a[i]| (wrapping: |MIN| = MIN).
func kAbsInt[T integer](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		x := a[i]
		if x < 0 {
			x = -x
		}
		dst[i] = x
	}
	return 0
}

// kAbsFloat clears the sign bit (|-0| = +0, |NaN| is NaN).
func kAbsFloat[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Abs(float64(a[i])))
	}
	return 0
}

// kSignInt computes -1, 0 or 1.
func kSignInt[T integer](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		x := a[i]
		switch {
		case x < 0:
			dst[i] = ^T(0)
		case x > 0:
			dst[i] = 1
		default:
			dst[i] = 0
		}
	}
	return 0
}

// kSignTorch is PyTorch's (0 < x) - (x < 0): NaN and ±0 give +0.
func kSignTorch[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		x := a[i]
		switch {
		case x > 0:
			dst[i] = 1
		case x < 0:
			dst[i] = -1
		default:
			dst[i] = 0
		}
	}
	return 0
}

// kSignNumPy is np.sign: NaN stays NaN, ±0 gives +0.
func kSignNumPy[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		x := a[i]
		switch {
		case x > 0:
			dst[i] = 1
		case x < 0:
			dst[i] = -1
		case x != x:
			dst[i] = x
		default:
			dst[i] = 0
		}
	}
	return 0
}

// kSignKeep is lax.sign (and ml_dtypes' bf16 np.sign): ±0 and NaN unchanged.
func kSignKeep[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = signT(a[i])
	}
	return 0
}

// kSquare computes dst[i] = a[i] * a[i] (integers wrap; floats round once,
// and f16/bf16 products are exact in float32).
func kSquare[T number](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * a[i]
	}
	return 0
}

// kBitNot computes ^a[i].
func kBitNot[T integer](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = ^a[i]
	}
	return 0
}

// kNotBool computes the logical not of bool elements (0 or 1).
func kNotBool(dst, a []uint8) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = a[i] ^ 1
	}
	return 0
}

// kCopy computes dst[i] = a[i] (integer floor, ceil, round, trunc; bool abs).
func kCopy[T any](dst, a []T) fault {
	copy(dst, a)
	return 0
}

// kFloor, kCeil, kTrunc and kRound (half to even) keep the sign of a zero
// result (trunc(-0.5) = -0, round(-0.5) = -0) and pass ±inf and NaN.

func kFloor[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Floor(float64(a[i])))
	}
	return 0
}

func kCeil[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Ceil(float64(a[i])))
	}
	return 0
}

func kTrunc[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Trunc(float64(a[i])))
	}
	return 0
}

func kRound[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.RoundToEven(float64(a[i])))
	}
	return 0
}

// kSqrt computes the correctly rounded square root in T (float32(sqrt of
// a float64) is correctly rounded: 53 >= 2*24 + 2).
func kSqrt[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Sqrt(float64(a[i])))
	}
	return 0
}

// kExp computes exp in float64 and rounds it once to T.
func kExp[T floating](dst, a []T) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Exp(float64(a[i])))
	}
	return 0
}

// kHalfFn applies the float64 function fn and rounds its result once to a
// half type by round (exact f16/bf16 values kept in float32): sqrt and exp
// of f16/bf16 are then the correctly rounded results (the float64 error is
// far below the half type's rounding).
func kHalfFn(fn func(float64) float64, round func(float64) float32) unaryKernel[float32, float32] {
	return func(dst, a []float32) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = round(fn(float64(a[i])))
		}
		return 0
	}
}
