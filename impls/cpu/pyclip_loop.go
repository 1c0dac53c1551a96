package cpu

import "slices"

// np.clip with array bounds runs one of two loops of NumPy's clip ufunc
// (policy numpy.clip.loop): the constant loop when neither bound moves in
// the inner loop call (the input is kept on a tie of -0.0 with +0.0), the
// stepped loop MIN(MAX(x, lo), hi) otherwise (an f32/f64 tie gives the
// bound, an f16 one the input). Which one NumPy calls follows from how it
// feeds the loop: one call over everything when the operands allow it (the
// "trivial" loop), else the nditer's inner dimension.

// clipInner is the loop NumPy calls.
type clipInner uint8

const (
	clipInnerUnknown clipInner = iota // the iterator's order and buffering decide (not stated)
	clipInnerFixed                    // neither bound moves: the constant loop
	clipInnerStepped                  // a bound moves: MIN(MAX(x, lo), hi)
)

// npInput is one clip input as NumPy's loop selection sees it: shape and
// element strides (a Python scalar is 0-dim) and whether its dtype is not
// the loop's.
type npInput struct {
	shape, strides []int
	recast         bool
}

// numpyClipInner decides the loop for the plan's three inputs.
func (cp *clampPlan) numpyClipInner() clipInner {
	var in [3]npInput
	for k := range in {
		a := &cp.args[k]
		if a.isScalar() {
			continue // converted to a 0-d array of the loop's dtype
		}
		in[k] = npInput{shape: a.t.Shape, strides: a.t.Strides, recast: a.t.DType != cp.common}
		if in[k].strides == nil {
			in[k].strides = rowMajorStrides(a.t.Shape)
		}
	}
	if moves, ok := trivialMoves(in[:]); ok {
		if moves[1] || moves[2] {
			return clipInnerStepped
		}
		return clipInnerFixed
	}
	fixed := 0
	for _, k := range []int{1, 2} {
		switch iterMotion(in[k], cp.shape) {
		case motionEverywhere:
			return clipInnerStepped
		case motionNowhere:
			fixed++
		}
	}
	if fixed == 2 {
		return clipInnerFixed
	}
	return clipInnerUnknown
}

// trivialMoves reports, when NumPy can run the loop in a single call
// (ufunc_object.c check_for_trivial_loop, try_trivial_single_output_loop),
// which inputs have a non-zero step there. Inputs of another dtype are
// first cast into a contiguous copy if they have at most one dim (and at
// most a buffer of elements); otherwise there is no single call. The
// inputs that are not 0-dim must agree in shape, and those of 2 dims or
// more in their contiguity flags; a 0-dim input steps by 0, a 1-dim one by
// its stride, an N-dim one by its item size.
func trivialMoves(in []npInput) (moves [3]bool, ok bool) {
	const bufferElems = 8192
	for k := range in {
		if !in[k].recast {
			continue
		}
		r := len(in[k].shape)
		if r >= 2 || r == 1 && in[k].shape[0] > bufferElems {
			return moves, false
		}
		in[k].strides = rowMajorStrides(in[k].shape)
	}
	ref, flags := -1, uint8(0)
	for k, x := range in {
		r := len(x.shape)
		if r == 0 {
			continue
		}
		if ref < 0 {
			ref = k
		}
		if !slices.Equal(x.shape, in[ref].shape) {
			return moves, false
		}
		if r == 1 {
			moves[k] = x.strides[0] != 0
			continue
		}
		f := contiguityFlags(x.shape, x.strides)
		if f == 0 || k != ref && f != flags {
			return moves, false
		}
		flags, moves[k] = f, true
	}
	return moves, true
}

// contiguityFlags is NumPy's C_CONTIGUOUS (bit 0) and F_CONTIGUOUS (bit 1)
// for a layout: dims of length 1 may have any stride, an empty array is both.
func contiguityFlags(shape, strides []int) uint8 {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n == 0 {
		return 3
	}
	var f uint8
	rev := slices.Clone(shape)
	revStrides := slices.Clone(strides)
	slices.Reverse(rev)
	slices.Reverse(revStrides)
	if slices.Equal(nonUnitStrides(shape, strides), nonUnitStrides(shape, rowMajorStrides(shape))) {
		f |= 1
	}
	if slices.Equal(nonUnitStrides(rev, revStrides), nonUnitStrides(rev, rowMajorStrides(rev))) {
		f |= 2
	}
	return f
}

// nonUnitStrides lists the strides of the dims longer than 1.
func nonUnitStrides(shape, strides []int) []int {
	var out []int
	for i, d := range shape {
		if d > 1 {
			out = append(out, strides[i])
		}
	}
	return out
}

func rowMajorStrides(shape []int) []int {
	st := make([]int, len(shape))
	for i, acc := len(shape)-1, 1; i >= 0; i-- {
		st[i], acc = acc, acc*shape[i]
	}
	return st
}

// motion is how an iterator operand moves along the output's dims longer than 1.
type motion uint8

const (
	motionNowhere    motion = iota // stride 0 along each (the inner step is 0, buffered or not)
	motionEverywhere               // a non-zero stride along each (the inner step is not 0)
	motionSome                     // the axis order and the buffer setup decide
)

// iterMotion classifies an input in NumPy's iterator, where a dim of the
// output of length 1, and a dim the input broadcasts (length 1 or absent),
// have stride 0 (nditer_constr.c npyiter_fill_axisdata).
func iterMotion(x npInput, out []int) motion {
	var still, moving bool
	lead := len(out) - len(x.shape)
	for i := lead; i < len(out); i++ {
		if out[i] > 1 && x.shape[i-lead] > 1 && x.strides[i-lead] != 0 {
			moving = true
		}
	}
	for i := range out {
		if out[i] > 1 && (i < lead || x.shape[i-lead] == 1 || x.strides[i-lead] == 0) {
			still = true
		}
	}
	switch {
	case !moving:
		return motionNowhere
	case !still:
		return motionEverywhere
	}
	return motionSome
}

// uniformBound returns the one element a bound that never moves holds, as T.
func uniformBound[T number](cp *clampPlan, k int) T {
	a := &cp.args[k]
	vals := argAs[T](cp.p, a, cp.common)
	if a.isScalar() {
		return vals[0]
	}
	return vals[a.t.Offset]
}

// kClipStepped is np.clip's stepped loop over floats (clip.cpp _NPY_CLIP):
//
//	for i: m := a[i] if a[i] is NaN or a[i] > lo[i] (f16: >=) else lo[i]
//	       dst[i] = m if m is NaN or m < hi[i] (f16: <=) else hi[i]
//
// so a NaN bound gives NaN, min > max gives max, and a tie of -0.0 with
// +0.0 gives the bound (f16: the first operand).
func kClipStepped[T number](half bool) ternaryKernel[T, T, T] {
	return func(dst, a, lo, hi []T) fault {
		n := len(dst)
		a, lo, hi = a[:n], lo[:n], hi[:n]
		for i := range dst {
			m := lo[i]
			if x := a[i]; x != x || x > lo[i] || half && x == lo[i] {
				m = x
			}
			if m != m || m < hi[i] || half && m == hi[i] {
				dst[i] = m
			} else {
				dst[i] = hi[i]
			}
		}
		return 0
	}
}
