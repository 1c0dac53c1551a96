package cpu

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// PyTorch CPU's float sum, prod and mean of a strided input (policies
// pytorch.cpu.reduce.view-iterator, pytorch.cpu.reduce.converted-view,
// pytorch.cpu.sum.acc-buffer), run as ATen runs them: the input's and the
// output's strides are sorted into TensorIterator's axis order and merged
// where they chain, then the kernel's 2-d loop runs over the two fastest
// axes once per position of the others, reading the storage through the
// strides and adding (multiplying) each row's or column's result into its
// output element.
//
// Reference loop, for the blocks b in order and each row (column) j of b:
//
//	out[k(b, j)] = out[k(b, j)] op kernel(row j of b)
//
// where the kernel is the one cascade_sum (binary_kernel_reduce_vec)
// chooses from the block's strides.

// tiAxis is an axis of the iteration: its size and the input's and the
// output's strides, in elements.
type tiAxis struct {
	size, src, dst int
}

// torchStrided is how a PyTorch reduction reads a strided input: the
// strides it iterates the input by (the view's, or a converted copy's),
// and whether the values are read from such a copy.
type torchStrided struct {
	strides []int
	copied  bool
}

// torchStridesOf returns the strides PyTorch gives x: x's own, except that
// a new leading dim of size 1 from expand takes the next dim's size times
// its stride (the last dim of an expanded 0-dim storage takes 0).
func torchStridesOf(x *tensor.Tensor) []int {
	st := slices.Clone(x.Strides)
	if x.View == nil || x.View.Expand == nil {
		return st
	}
	for i := len(x.View.Expand) - len(x.View.Base) - 1; i >= 0; i-- {
		if x.Shape[i] == 1 {
			st[i] = 0
			if i+1 < len(st) {
				st[i] = x.Shape[i+1] * st[i+1]
			}
		}
	}
	return st
}

// denseStrides returns the strides of PyTorch's converted copy of a tensor
// of this shape and these strides: the same strides when they are
// non-overlapping and dense (the dims of size 2 or more, from the smallest
// stride, step exactly over each other), else dense strides in the order
// TensorIterator would visit the dims (a zero stride keeps its place).
func denseStrides(shape, strides []int) []int {
	var big []int
	for d, n := range shape {
		if n > 1 {
			big = append(big, d)
		}
	}
	slices.SortFunc(big, func(a, b int) int { return strides[a] - strides[b] })
	dense, want := true, 1
	for _, d := range big {
		dense = dense && strides[d] == want
		want *= shape[d]
	}
	if dense && (len(shape) != 1 || shape[0] < 2 || strides[0] == 1) {
		return strides
	}
	if len(shape) == 1 {
		return []int{1}
	}
	// fastest first; each dim walks left past later-visited ones
	order := make([]int, 0, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		order = append(order, d)
		slot := len(order) - 1
		for p := slot - 1; p >= 0; p-- {
			a, b := order[p], order[slot]
			sa, sb := strides[a], strides[b]
			after := sa != 0 && sb != 0 && (sa > sb || sa == sb && shape[a] > shape[b])
			before := sa != 0 && sb != 0 && sa < sb
			if before {
				break
			}
			if after {
				order[p], order[slot] = b, a
				slot = p
			}
		}
	}
	out := make([]int, len(shape))
	step := 1
	for _, d := range order {
		out[d] = step
		step *= max(shape[d], 1)
	}
	return out
}

// tiAxes returns the iteration's axes, fastest first, for an input of the
// given shape and strides whose output has strides dst: reduced axes
// (dst 0) come first, then by the output's strides, then the input's (a
// zero stride says nothing; equal strides order by size), axes whose
// strides chain in both are merged, and size-1 axes disappear.
func tiAxes(shape, src, dst []int) []tiAxis {
	// later reports whether axis a is visited after axis b (+1), before
	// it (-1), or neither is decided (0)
	later := func(a, b int) int {
		if (dst[a] == 0) != (dst[b] == 0) {
			if dst[a] == 0 {
				return -1
			}
			return 1
		}
		for _, s := range [][]int{dst, src} {
			if s[a] == 0 || s[b] == 0 {
				continue
			}
			if s[a] != s[b] {
				if s[a] > s[b] {
					return 1
				}
				return -1
			}
			if shape[a] > shape[b] {
				return 1
			}
		}
		return 0
	}
	seq := make([]int, 0, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		seq = append(seq, d)
		at := len(seq) - 1
		for p := at - 1; p >= 0; p-- {
			c := later(seq[p], seq[at])
			if c < 0 {
				break
			}
			if c > 0 {
				seq[p], seq[at] = seq[at], seq[p]
				at = p
			}
		}
	}
	var axes []tiAxis
	for _, d := range seq {
		a := tiAxis{shape[d], src[d], dst[d]}
		if k := len(axes) - 1; k >= 0 {
			prev := &axes[k]
			switch {
			case prev.size == 1:
				*prev = tiAxis{a.size, a.src, a.dst}
				continue
			case a.size == 1:
				continue
			case prev.size*prev.src == a.src && prev.size*prev.dst == a.dst:
				prev.size *= a.size
				continue
			}
		}
		axes = append(axes, a)
	}
	return axes
}

// resultStrides returns the strides, over the case's dims, of a
// reduction's contiguous result along dim (-1: every dim): 0 along the
// reduced dim, unless keepdim keeps it and it has size 1 already.
func resultStrides(shape []int, dim int, keep bool) []int {
	out := make([]int, len(shape))
	if dim < 0 {
		return out
	}
	acc := 1
	for d := len(shape) - 1; d >= 0; d-- {
		switch {
		case d != dim:
			out[d] = acc
			acc *= shape[d]
		case keep && shape[d] == 1:
			out[d] = acc
		}
	}
	return out
}

// torchStridedRead returns how PyTorch CPU reads x for the float
// reduction g (mean: of mean's sum, converted set when the input is
// converted first), or nil when the row-major runners give the same.
func torchStridedRead(x *tensor.Tensor, g *redGeom, converted bool) *torchStrided {
	if x.Strides == nil || g.numel == 0 || g.numel >= torchGrain || !x.DType.IsFloat() {
		return nil
	}
	if _, rowMajor := denseOffset(x); rowMajor {
		return nil
	}
	st := torchStridesOf(x)
	if converted {
		return &torchStrided{denseStrides(x.Shape, st), true}
	}
	return &torchStrided{st, false}
}

// torchStridedReduce returns every output's sum (product) of x read as ts
// says, by plan pl (its vector shape and accumulator), in the accumulator
// precision F.
func torchStridedReduce[F floating](e *Engine, x *tensor.Tensor, ts *torchStrided, g *redGeom, pl *floatRedPlan) []F {
	dim := g.dim
	if !g.hasDim || g.zeroDim {
		dim = -1
	}
	keep := g.hasDim && len(g.shape) == x.Rank()
	dst := resultStrides(x.Shape, dim, keep)
	axes := tiAxes(x.Shape, ts.strides, dst)
	vec, lanes := pl.vec, pl.lanes
	strides, copied := ts.strides, ts.copied
	if !pl.prod && isHalf(x.DType) && !copied && len(axes) >= 2 && axes[0].dst == 0 && axes[1].dst == 0 {
		// should_use_acc_buffer: the f32 copy, summed into f32
		strides, copied = denseStrides(x.Shape, ts.strides), true
		axes = tiAxes(x.Shape, strides, dst)
		vec = torchVecBytes / 4
	}
	var vals []F
	base := 0
	if copied {
		row := rowMajor[F](e, x, x.DType)
		vals = make([]F, len(row))
		scatterStrided(vals, row, x.Shape, strides)
	} else {
		vals = make([]F, len(x.Data))
		decodeWords(vals, x.Data, x.DType, x.DType)
		base = x.Offset
	}
	out := make([]F, g.groups())
	if pl.prod {
		for k := range out {
			out[k] = 1
		}
	}
	k := tiKernel[F]{vals: vals, out: out, pl: pl, vec: vec, lanes: lanes}
	for len(axes) < 2 {
		axes = append(axes, tiAxis{size: 1})
	}
	outer := axes[2:]
	pos := make([]int, len(outer))
	for {
		in, o := base, 0
		for i, a := range outer {
			in += pos[i] * a.src
			o += pos[i] * a.dst
		}
		k.block(in, o, axes[0], axes[1])
		i := 0
		for i < len(outer) {
			pos[i]++
			if pos[i] < outer[i].size {
				break
			}
			pos[i] = 0
			i++
		}
		if i == len(outer) {
			return out
		}
	}
}

// scatterStrided stores the row-major elements src of a tensor of the given
// shape into dst at the offsets the strides give them (a dense layout).
func scatterStrided[T any](dst, src []T, shape, strides []int) {
	idx := make([]int, len(shape))
	for _, v := range src {
		at := 0
		for d, i := range idx {
			at += i * strides[d]
		}
		dst[at] = v
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

// tiKernel runs the reduction kernel's 2-d loop on the blocks of one
// iteration.
type tiKernel[F floating] struct {
	vals, out  []F
	pl         *floatRedPlan
	vec, lanes int
	row        []F
}

// block runs the 2-d loop on the block of axes a0 (fastest) and a1 at
// input offset in and output offset o.
func (k *tiKernel[F]) block(in, o int, a0, a1 tiAxis) {
	pl := k.pl
	if !pl.prod && a0.dst != 0 && a1.dst == 0 {
		a0, a1 = a1, a0 // cascade_sum reduces along its first axis
	}
	if a0.dst != 0 { // nothing reduced in the block
		for j := 0; j < a1.size; j++ {
			for i := 0; i < a0.size; i++ {
				at := o + i*a0.dst + j*a1.dst
				v := k.vals[in+i*a0.src+j*a1.src]
				if pl.prod {
					k.out[at] = roundStep(k.out[at]*v, pl.step)
				} else {
					k.out[at] += v
				}
			}
		}
		return
	}
	if cap(k.row) < a0.size {
		k.row = make([]F, a0.size)
	}
	row := k.row[:a0.size]
	cut := 0 // cascade_sum: columns below cut take multi_row_sum's cascade
	vecInner := a0.src == 1 && a0.size >= k.vec
	vecOuter := !vecInner && a1.src == 1 && a1.size >= k.vec
	switch {
	case vecOuter:
		cut = a1.size / (4 * k.lanes) * 4 * k.lanes
	case !vecInner && a0.src >= a1.src:
		cut = a1.size / 4 * 4
	}
	for j := 0; j < a1.size; j++ {
		p := in + j*a1.src
		for i := range row {
			row[i] = k.vals[p+i*a0.src]
		}
		at := o + j*a1.dst
		switch {
		case pl.prod && a0.src == 1:
			k.out[at] = torchProdInner(row, k.vec, pl.step, k.out[at])
		case pl.prod:
			k.out[at] = seqProd(row, k.out[at], pl.step)
		case vecInner:
			k.out[at] += torchInnerSum(row, k.vec, k.lanes)
		case j < cut:
			k.out[at] += torchCascadeSeq(row)
		default:
			k.out[at] += torchRowSum(row)
		}
	}
}
