package cpu

import "unsafe"

// Kernels of where and clamp. where is a select of bit patterns, so it runs
// on the unsigned type of the element's width (a float's words are
// selected as they are: NaN payloads and the sign of zero survive); clamp
// runs on the element type, with Go's min and max (branch-free on amd64)
// where they agree with the framework.

// kWhere computes the select of where / where_cond over a condition of 0s
// and 1s (the decoded truth of the condition, never another value):
//
//	for i: dst[i] = a[i] if c[i] != 0 else b[i]
//
// as a mask, without branches: -c[i] is all ones or zero.
func kWhere[U unsignedInt](dst []U, c []uint8, a, b []U) fault {
	n := len(dst)
	c, a, b = c[:n], a[:n], b[:n]
	i := 0
	for ; i <= n-4; i += 4 {
		d, m, x, y := dst[i:i+4:i+4], c[i:i+4:i+4], a[i:i+4:i+4], b[i:i+4:i+4]
		d[0] = y[0] ^ (x[0]^y[0])&-U(m[0])
		d[1] = y[1] ^ (x[1]^y[1])&-U(m[1])
		d[2] = y[2] ^ (x[2]^y[2])&-U(m[2])
		d[3] = y[3] ^ (x[3]^y[3])&-U(m[3])
	}
	for ; i < n; i++ {
		dst[i] = b[i] ^ (a[i]^b[i])&-U(c[i])
	}
	return 0
}

// asWords reinterprets a slice of floats as the unsigned words of their
// bits (U must have F's size: uint32 for float32, uint64 for float64).
func asWords[U unsignedInt, F floating](x []F) []U {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*U)(unsafe.Pointer(&x[0])), len(x))
}

// kClampConst clamps by bounds that are the same for every element: the
// scalar bounds of torch.clamp (policy pytorch.clamp.values) and np.clip's
// constant loop (numpy.clip), an absent bound being -inf / +inf (MIN / MAX
// for integers), a NaN bound dropped by the caller:
//
//	for i: r := a[i]; if r < lo { r = lo }; if hi < r { r = hi }; dst[i] = r
//
// A NaN input stays (both tests are false), min > max gives max, and a tie
// of -0.0 with +0.0 keeps the input. Go's max and min (branch-free) give
// the same values except on those ties, which only a zero bound meets: with
// one the kernel puts the input back on a tie (a branch that almost never
// goes the other way), without it runs the plain min(max(a, lo), hi).
func kClampConst[T number](lo, hi T) unaryKernel[T, T] {
	if lo == 0 || hi == 0 {
		return kClampConstTies(lo, hi)
	}
	return func(dst, a []T) fault {
		n := len(dst)
		a = a[:n]
		i := 0
		for ; i <= n-4; i += 4 {
			d, x := dst[i:i+4:i+4], a[i:i+4:i+4]
			d[0] = min(max(x[0], lo), hi)
			d[1] = min(max(x[1], lo), hi)
			d[2] = min(max(x[2], lo), hi)
			d[3] = min(max(x[3], lo), hi)
		}
		for ; i < n; i++ {
			dst[i] = min(max(a[i], lo), hi)
		}
		return 0
	}
}

// kClampConstTies is kClampConst with a zero bound: a tie keeps the input.
func kClampConstTies[T number](lo, hi T) unaryKernel[T, T] {
	return func(dst, a []T) fault {
		a = a[:len(dst)]
		for i := range dst {
			x := a[i]
			r := max(x, lo)
			if x == lo {
				r = x
			}
			s := min(r, hi)
			if r == hi {
				s = r
			}
			dst[i] = s
		}
		return 0
	}
}

// kClampTensor clamps by bounds that vary per element (tensor bounds of
// torch.clamp, np.clip where the loop NumPy calls is not stated; the
// stated loops are kClipStepped and kClampConst), propagating a NaN of any
// operand:
//
//	for i: dst[i] = NaN if a[i], lo[i] or hi[i] is NaN,
//	       else min(max(a[i], lo[i]), hi[i])   (min > max gives max)
//
// which Go's max and min compute; ties of -0.0 and +0.0 are left open by
// both frameworks (policies pytorch.clamp.open, numpy.clip.zero-tie).
func kClampTensor[T number](dst, a, lo, hi []T) fault {
	n := len(dst)
	a, lo, hi = a[:n], lo[:n], hi[:n]
	for i := range dst {
		dst[i] = min(max(a[i], lo[i]), hi[i])
	}
	return 0
}
