package cpu

import "math"

// Float division-family kernels and pow. f16 and bf16 are computed in
// float32; where a framework rounds each intermediate step back to the
// half type, the kernel constructor gets that rounding as step (nil for f32
// and f64, whose steps round in T itself).

// fmodT is C's fmod in T: exact, with the dividend's sign; fmod(x, ±0) and
// fmod(±inf, y) are NaN, fmod(x, ±inf) = x.
func fmodT[T floating](a, b T) T { return T(math.Mod(float64(a), float64(b))) }

// stepper rounds an intermediate result of a half-type computation.
type stepper[T floating] func(T) T

func (s stepper[T]) r(x T) T {
	if s == nil {
		return x
	}
	return s(x)
}

// kFmodFloat computes dst[i] = fmod(a[i], b[i]).
func kFmodFloat[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = fmodT(a[i], b[i])
	}
	return 0
}

// kFloorDivFloat returns c10::div_floor_floating, which is also NumPy's
// npy_floor_divide:
//
//	if b == 0: a / b
//	mod = fmod(a, b); div = (a - mod) / b
//	if mod != 0 and (b < 0) != (mod < 0): div -= 1
//	if div == 0: copysign(0, a / b)
//	fd = floor(div); if div - fd > 0.5: fd += 1
func kFloorDivFloat[T floating](step stepper[T]) binaryKernel[T, T] {
	return func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		for i := range dst {
			x, y := a[i], b[i]
			if y == 0 {
				dst[i] = x / y
				continue
			}
			mod := fmodT(x, y)
			div := step.r(step.r(x-mod) / y)
			if mod != 0 && (y < 0) != (mod < 0) {
				div = step.r(div - 1)
			}
			if div == 0 {
				dst[i] = T(math.Copysign(0, float64(x/y)))
				continue
			}
			fd := T(math.Floor(float64(div)))
			if step.r(div-fd) > 0.5 {
				fd = step.r(fd + 1)
			}
			dst[i] = fd
		}
		return 0
	}
}

// signT is lax.sign: -1, 1, or x itself (±0, NaN).
func signT[T floating](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

// kFloorDivXLA returns jnp.floor_divide on floats (_float_divmod):
//
//	mod = fmod(a, b); div = (b == 0 ? a : a - mod) / b
//	if mod != 0 and sign(b) != sign(mod): div -= 1   (NaN differs from all)
//	round div half away from zero
func kFloorDivXLA[T floating](step stepper[T]) binaryKernel[T, T] {
	return func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		for i := range dst {
			x, y := a[i], b[i]
			mod := fmodT(x, y)
			num := x
			if y != 0 {
				num = step.r(x - mod)
			}
			div := step.r(num / y)
			if mod != 0 && signT(y) != signT(mod) {
				div = step.r(div - 1)
			}
			dst[i] = T(math.Round(float64(div)))
		}
		return 0
	}
}

// kRemFloat returns the remainder with the divisor's sign as PyTorch and
// JAX compute it: mod = fmod(a, b); mod + b when mod is nonzero (not NaN)
// and of the other sign than b; a zero result keeps fmod's sign.
func kRemFloat[T floating](step stepper[T]) binaryKernel[T, T] {
	return func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		for i := range dst {
			y := b[i]
			mod := fmodT(a[i], y)
			if mod != 0 && mod == mod && (y < 0) != (mod < 0) {
				mod = step.r(mod + y)
			}
			dst[i] = mod
		}
		return 0
	}
}

// kRemFloatNumPy returns npy_remainder: as kRemFloat, but a zero result
// takes the divisor's sign, and a zero divisor gives fmod's NaN.
func kRemFloatNumPy[T floating](step stepper[T]) binaryKernel[T, T] {
	return func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		for i := range dst {
			y := b[i]
			mod := fmodT(a[i], y)
			switch {
			case y == 0 || mod != mod:
			case mod == 0:
				if zooBuild && zoo("rem-zero-sign") {
					break // zoo: a zero remainder keeps fmod's sign
				}
				mod = T(math.Copysign(0, float64(y)))
			case (y < 0) != (mod < 0):
				mod = step.r(mod + y)
			}
			dst[i] = mod
		}
		return 0
	}
}

// kTruncDivFloat computes dst[i] = trunc(a[i] / b[i]) of the rounded
// quotient (the sign of a zero kept).
func kTruncDivFloat[T floating](step stepper[T]) binaryKernel[T, T] {
	return func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = T(math.Trunc(float64(step.r(a[i] / b[i]))))
		}
		return 0
	}
}

// kPowFloat computes dst[i] = pow(a[i], b[i]) with C99 Annex F special
// cases (Go's math.Pow), in float64 and rounded once to T.
func kPowFloat[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Pow(float64(a[i]), float64(b[i])))
	}
	return 0
}
