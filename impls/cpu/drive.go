package cpu

// Drivers: run a kernel over a layout, split across workers, gathering
// strided or broadcast operands into tiles. The kernel is chosen once per op;
// drivers are generic in the element types, so each instantiation calls its
// kernel directly.

// binaryKernel computes dst[i] = f(a[i], b[i]) over equal-length slices and
// returns the faults it met.
type binaryKernel[T, R any] func(dst []R, a, b []T) fault

// unaryKernel computes dst[i] = f(a[i]) over equal-length slices.
type unaryKernel[T, R any] func(dst []R, a []T) fault

// runBinary computes dst (row-major over l, len l.n) from the storages a and
// b of the layout's two inputs.
func runBinary[T, R any](e *Engine, l *layout, dst []R, a, b []T, k binaryKernel[T, R]) fault {
	if l.n == 0 {
		return 0
	}
	if l.contiguous() {
		oa, ob := l.offsets[0], l.offsets[1]
		return e.parallel(l.n, func(lo, hi int) fault {
			return k(dst[lo:hi], a[oa+lo:oa+hi], b[ob+lo:ob+hi])
		})
	}
	return e.parallel(l.n, func(lo, hi int) fault { return binaryRange(l, dst, a, b, k, lo, hi) })
}

// runUnary computes dst (row-major over l, len l.n) from the storage a of
// the layout's one input.
func runUnary[T, R any](e *Engine, l *layout, dst []R, a []T, k unaryKernel[T, R]) fault {
	if l.n == 0 {
		return 0
	}
	return e.parallel(l.n, func(lo, hi int) fault { return unaryRange(l, dst, a, k, lo, hi) })
}

// unaryRange computes the output elements [lo, hi) of a unary op in the
// calling goroutine.
func unaryRange[T, R any](l *layout, dst []R, a []T, k unaryKernel[T, R], lo, hi int) fault {
	if l.contiguous() {
		oa := l.offsets[0]
		return k(dst[lo:hi], a[oa+lo:oa+hi])
	}
	sa := l.strides[0][l.rank-1]
	var ta tile[T]
	var f fault
	l.walk(lo, hi, func(o int, pos *[maxIn]int, n int) {
		pa := pos[0]
		for n > 0 {
			m := n
			if sa != 1 {
				m = min(n, tileLen)
			}
			f |= k(dst[o:o+m], ta.get(a, pa, sa, m))
			o, pa, n = o+m, pa+m*sa, n-m
		}
	})
	return f
}

// binaryRange computes the output elements [lo, hi) of a binary op in the
// calling goroutine, in output order.
func binaryRange[T, R any](l *layout, dst []R, a, b []T, k binaryKernel[T, R], lo, hi int) fault {
	sa, sb := l.strides[0][l.rank-1], l.strides[1][l.rank-1]
	var ta, tb tile[T]
	var f fault
	l.walk(lo, hi, func(o int, pos *[maxIn]int, n int) {
		pa, pb := pos[0], pos[1]
		for n > 0 {
			m := n
			if sa != 1 || sb != 1 {
				m = min(n, tileLen)
			}
			var d []R
			if dst != nil {
				d = dst[o : o+m]
			}
			f |= k(d, ta.get(a, pa, sa, m), tb.get(b, pb, sb, m))
			o, pa, pb, n = o+m, pa+m*sa, pb+m*sb, n-m
		}
	})
	return f
}

// ternaryKernel computes dst[i] = f(a[i], b[i], c[i]) over equal-length
// slices: where's select (a the condition) and clamp (a the input, b and c
// the bounds).
type ternaryKernel[A, T, R any] func(dst []R, a []A, b, c []T) fault

// runTernary computes dst (row-major over l, len l.n) from the storages a, b
// and c of the layout's three inputs.
func runTernary[A, T, R any](e *Engine, l *layout, dst []R, a []A, b, c []T, k ternaryKernel[A, T, R]) fault {
	if l.n == 0 {
		return 0
	}
	if l.contiguous() {
		oa, ob, oc := l.offsets[0], l.offsets[1], l.offsets[2]
		return e.parallel(l.n, func(lo, hi int) fault {
			return k(dst[lo:hi], a[oa+lo:oa+hi], b[ob+lo:ob+hi], c[oc+lo:oc+hi])
		})
	}
	return e.parallel(l.n, func(lo, hi int) fault { return ternaryRange(l, dst, a, b, c, k, lo, hi) })
}

// ternaryRange computes the output elements [lo, hi) of a ternary op in
// the calling goroutine, gathering each operand whose row is not
// contiguous into a tile.
func ternaryRange[A, T, R any](l *layout, dst []R, a []A, b, c []T, k ternaryKernel[A, T, R], lo, hi int) fault {
	r := l.rank - 1
	sa, sb, sc := l.strides[0][r], l.strides[1][r], l.strides[2][r]
	var ta tile[A]
	var tb, tc tile[T]
	var f fault
	l.walk(lo, hi, func(o int, pos *[maxIn]int, n int) {
		pa, pb, pc := pos[0], pos[1], pos[2]
		for n > 0 {
			m := n
			if sa != 1 || sb != 1 || sc != 1 {
				m = min(n, tileLen)
			}
			f |= k(dst[o:o+m], ta.get(a, pa, sa, m), tb.get(b, pb, sb, m), tc.get(c, pc, sc, m))
			o, pa, pb, pc, n = o+m, pa+m*sa, pb+m*sb, pc+m*sc, n-m
		}
	})
	return f
}
