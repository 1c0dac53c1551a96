package model

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// TensorIterator's iteration of a PyTorch CPU reduction over a strided
// input (rule pytorch.cpu.reduce.view-iterator): the strides PyTorch gives
// a view, the layout of a converted copy of it, and the dims the
// iterator loops over after reorder_dimensions and coalesce_dimensions,
// each position of which maps back to the case's logical (row-major) index
// of the element. The kernels' loops over those dims are torchviewreduce.go.

// torchViewLayout returns the shape and strides (elements) that
// t.permute(..), t[start:stop:step] and t.expand(..) give a view of the
// contiguous storage v.Base: a slice multiplies the stride by its step
// (a dim sliced to one element keeps it), expand gives a broadcast dim
// stride 0 and a new leading dim of size 1 the stride of the dim after it
// times that dim's size (inferExpandGeometry), the last new dim of a 0-dim
// storage stride 0.
func torchViewLayout(v *tensor.View) (shape, strides []int) {
	base := tensor.ContiguousStrides(v.Base)
	shape = v.Sliced()
	strides = make([]int, len(v.Base))
	for i := range strides {
		p := i
		if v.Permute != nil {
			p = v.Permute[i]
		}
		strides[i] = base[p]
		if v.Slice != nil {
			strides[i] *= v.Slice[i][2]
		}
	}
	if v.Expand == nil {
		return shape, strides
	}
	n := len(v.Expand)
	lead := n - len(shape)
	es, est := make([]int, n), make([]int, n)
	for i := n - 1; i >= 0; i-- {
		size, stride := 1, 0
		switch k := i - lead; {
		case k >= 0:
			size, stride = shape[k], strides[k]
		case i+1 < n:
			stride = es[i+1] * est[i+1]
		}
		if size != v.Expand[i] {
			size, stride = v.Expand[i], 0
		}
		es[i], est[i] = size, stride
	}
	return es, est
}

// torchDense is c10's is_non_overlapping_and_dense: the dims of size 2 or
// more, sorted by stride, have strides 1, n0, n0*n1, ...
func torchDense(shape, strides []int) bool {
	if len(shape) == 1 {
		return shape[0] < 2 || strides[0] == 1
	}
	var dims []int
	for d, n := range shape {
		if n >= 2 {
			dims = append(dims, d)
		}
	}
	slices.SortStableFunc(dims, func(a, b int) int { return strides[a] - strides[b] })
	want := 1
	for _, d := range dims {
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}

// torchCopyStrides is the layout of self.to(dtype) (_to_copy with
// MemoryFormat::Preserve): self's strides when it is non-overlapping and
// dense, else infer_dense_strides: the dims insertion-sorted by stride
// (fastest first; a zero stride compares ambiguous and stays, equal
// strides put the smaller dim first) and given dense strides in that order.
func torchCopyStrides(shape, strides []int) []int {
	if torchDense(shape, strides) {
		return strides
	}
	r := len(shape)
	out := make([]int, r)
	if r == 1 {
		out[0] = 1
		return out
	}
	perm := make([]int, r)
	for i := range perm {
		perm[i] = r - 1 - i
	}
	cmp := func(d0, d1 int) int {
		s0, s1 := strides[d0], strides[d1]
		switch {
		case s0 == 0 || s1 == 0:
			return 0
		case s0 != s1:
			return s0 - s1
		case shape[d0] > shape[d1]:
			return 1
		}
		return 0
	}
	torchInsertionSort(perm, cmp)
	acc := 1
	for _, d := range perm {
		out[d] = acc
		if shape[d] > 1 {
			acc *= shape[d]
		}
	}
	return out
}

// torchInsertionSort is the insertion sort of reorder_dimensions and
// infer_dense_strides: each dim moves towards the front while cmp says the
// dim before it comes after it (> 0), stops at one that comes before it
// (< 0) and passes over ambiguous ones (0), swapping with the next one that
// comes after it (so an ambiguous dim in between keeps its place).
func torchInsertionSort(perm []int, cmp func(d0, d1 int) int) {
	for i := 1; i < len(perm); i++ {
		d1 := i
		for d0 := i - 1; d0 >= 0; d0-- {
			c := cmp(perm[d0], perm[d1])
			if c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
}

// torchIterDim is one dim of the iteration, fastest first: its size, the
// input's and the output's strides (elements), and the logical index
// offset of each of its positions.
type torchIterDim struct {
	n, in, out int
	at         []int
}

// torchOutStrides are the strides of the reduction's output as the
// iterator sees it: the result is allocated contiguous, and a reduced dim
// has stride 0 (review_reduce_result inserts it; with keepdim the size-1
// dim is broadcast by compute_strides, unless the input's dim is 1 too).
func torchOutStrides(shape []int, dim int, keep bool) []int {
	out := make([]int, len(shape))
	if dim < 0 {
		return out
	}
	if keep {
		res := slices.Clone(shape)
		res[dim] = 1
		copy(out, tensor.ContiguousStrides(res))
		if shape[dim] != 1 {
			out[dim] = 0
		}
		return out
	}
	kept := tensor.ContiguousStrides(slices.Delete(slices.Clone(shape), dim, dim+1))
	copy(out, kept[:dim])
	copy(out[dim+1:], kept[dim:])
	return out
}

// torchReduceIter returns the iteration of reducing an input of the given
// shape and strides along dim (-1: every dim) into an output laid out by
// torchOutStrides: reorder_dimensions sorts the dims fastest first, the
// output's strides deciding before the input's (a reduced dim, stride 0,
// goes before a kept one; equal nonzero strides put the larger dim later,
// else leave the comparison to the next operand; a zero stride is
// ambiguous), then coalesce_dimensions merges neighbours whose strides
// chain in both operands (a size-1 dim merges with anything).
func torchReduceIter(shape, in []int, dim int, keep bool) []torchIterDim {
	r := len(shape)
	out := torchOutStrides(shape, dim, keep)
	perm := make([]int, r)
	for i := range perm {
		perm[i] = r - 1 - i
	}
	cmp := func(d0, d1 int) int {
		o0, o1 := out[d0], out[d1]
		if (o0 == 0) != (o1 == 0) {
			if o1 == 0 {
				return 1
			}
			return -1
		}
		for _, s := range [2][2]int{{o0, o1}, {in[d0], in[d1]}} {
			switch {
			case s[0] == 0 || s[1] == 0:
			case s[0] < s[1]:
				return -1
			case s[0] > s[1]:
				return 1
			case shape[d0] > shape[d1]:
				return 1
			}
		}
		return 0
	}
	if r > 1 {
		torchInsertionSort(perm, cmp)
	}
	logical := tensor.ContiguousStrides(shape)
	type group struct {
		n, in, out int
		parts      []int // the case's dims merged, fastest first
	}
	var gs []group
	for _, d := range perm {
		g := group{n: shape[d], in: in[d], out: out[d], parts: []int{d}}
		if len(gs) == 0 {
			gs = append(gs, g)
			continue
		}
		last := &gs[len(gs)-1]
		if last.n == 1 || g.n == 1 || last.n*last.in == g.in && last.n*last.out == g.out {
			if last.n == 1 {
				last.in, last.out = g.in, g.out
			}
			last.n *= g.n
			last.parts = append(last.parts, d)
			continue
		}
		gs = append(gs, g)
	}
	dims := make([]torchIterDim, len(gs))
	for i, g := range gs {
		at := make([]int, g.n)
		for p := range at {
			rem := p
			for _, d := range g.parts {
				at[p] += rem % shape[d] * logical[d]
				rem /= shape[d]
			}
		}
		dims[i] = torchIterDim{n: g.n, in: g.in, out: g.out, at: at}
	}
	return dims
}
