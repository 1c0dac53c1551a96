package cpu

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// Float reductions of views that a framework does not visit in row-major
// order (policy numpy.reduce.view-order; PyTorch's are torchview.go). The
// runners read their input in row-major order, so a NumPy view is handed
// to them relaid: a strided tensor over the same storage whose row-major
// order is the order the framework's kernels read.
//
// NumPy's reduction iterator orders the axes by the input's strides, the
// smallest innermost (a stable insertion that skips stride-0 axes), merges
// axes whose strides chain, and cuts the iteration into calls of its inner
// loop by its buffering setup (buffer of 8192 elements). Along a dim, a
// reduced dim that ends up innermost gets one call per output (the
// contiguous plan); otherwise the outputs are accumulated element by
// element (the strided plan). Over every element the calls are replayed.

// viewRead is how a reduction reads its input.
type viewRead struct {
	x     *tensor.Tensor // read in row-major order
	g     redGeom        // its geometry (the result's shape is the case's)
	calls []int          // NumPy over every element: the inner loop's calls (nil: one group)
	torch *torchStrided  // PyTorch: read through the strides by TensorIterator's loops (nil: row-major)
}

// npAxis is an axis of NumPy's iterator: size, input stride (0 for size
// 1), the result's stride, and the case dim it stands for.
type npAxis struct {
	n, in, res, dim int
}

// readForView returns how to read x for the reduction g (of mean's sum
// when mean is set) of profile p.
func readForView(p *profile, x *tensor.Tensor, g *redGeom, mean bool) viewRead {
	plain := viewRead{x: x, g: *g}
	if p.fw == fwPyTorch {
		// policy pytorch.cpu.reduce.converted-view: mean sums f16/bf16 as f32
		plain.torch = torchStridedRead(x, g, mean && isHalf(x.DType))
		return plain
	}
	cast := p.fw == fwNumPy && mean && (x.DType == tensor.F16 || !x.DType.IsFloat()) // np.mean sums these as f4 / f8
	if x.View == nil || x.Rank() == 0 || x.Len() < 2 || !x.DType.IsFloat() && !cast {
		return plain
	}
	if _, dense := denseOffset(x); dense {
		return plain
	}
	if p.fw == fwNumPy {
		return npViewRead(x, g, cast)
	}
	return plain
}

// npViewRead relays x as NumPy's reduction iterator visits it.
func npViewRead(x *tensor.Tensor, g *redGeom, cast bool) viewRead {
	r := viewRead{x: x, g: *g}
	if g.hasDim && !g.zeroDim {
		axes := npMerge(npSortAxes(x, g.dim))
		if axes[0].res != 0 { // the reduced dim is not innermost
			r.g.elementwise = true
			return r
		}
		if g.inner > 1 { // move the reduced dim last: one row per output
			r.x = relaid(x, moveLast(x.Rank(), g.dim))
			r.g.outer, r.g.inner = g.outer*g.inner, 1
		}
		return r
	}
	sorted := npSortAxes(x, -1)
	order := make([]int, len(sorted)) // slowest first
	for i, a := range sorted {
		order[len(sorted)-1-i] = a.dim
	}
	r.x = relaid(x, order)
	if axes := npMerge(sorted); len(axes) > 1 {
		r.calls = npCalls(axes, g.numel, cast)
	}
	return r
}

// npSortAxes returns the iterator's axes fastest first: the case's dims
// from the last, each moved inwards past every axis with a larger input
// stride, and past a stride-0 axis only on the way to such a move.
func npSortAxes(x *tensor.Tensor, dim int) []npAxis {
	var axes []npAxis
	for d := x.Rank() - 1; d >= 0; d-- {
		a := npAxis{n: x.Shape[d], dim: d}
		if a.n != 1 {
			a.in = x.Strides[d]
			if a.in < 0 {
				a.in = -a.in
			}
		}
		at := len(axes)
		for j := len(axes) - 1; j >= 0 && a.in != 0; j-- {
			if axes[j].in == 0 {
				continue
			}
			if axes[j].in <= a.in {
				break
			}
			at = j
		}
		axes = slices.Insert(axes, at, a)
	}
	// the result is allocated in this order, zero strides where reduced
	step := 1
	for i := range axes {
		if dim >= 0 && axes[i].dim != dim {
			if axes[i].n > 1 {
				axes[i].res = step
			}
			step *= axes[i].n
		}
	}
	return axes
}

// npMerge merges neighbouring axes whose strides chain for the input and
// the result.
func npMerge(axes []npAxis) []npAxis {
	links := func(s0, n0, s1, n1 int) bool {
		switch {
		case n0 == 1 && s0 == 0, n1 == 1 && s1 == 0:
			return true
		}
		return s0*n0 == s1
	}
	merged := []npAxis{axes[0]}
	for _, b := range axes[1:] {
		last := &merged[len(merged)-1]
		if !links(last.in, last.n, b.in, b.n) || !links(last.res, last.n, b.res, b.n) {
			merged = append(merged, b)
			continue
		}
		if last.in == 0 {
			last.in = b.in
		}
		if last.res == 0 {
			last.res = b.res
		}
		last.n *= b.n
	}
	return merged
}

// npCalls returns the lengths of the inner loop's calls over the merged
// axes of a reduction over every element: the core grows over the axes
// while (1 + buffered operands) per element of min(size, 8192) improves,
// the input counting as buffered once its strides stop chaining; a
// buffered call holds at most core*(8192/core) elements, and none crosses
// the end of the outermost core axis.
func npCalls(axes []npAxis, numel int, cast bool) []int {
	const buf = 8192
	price := 1
	if cast {
		price++
	}
	broke, span := len(axes), axes[0].n // broke: the axis where the input's strides stop chaining
	best := struct{ dim, price, size, core int }{0, price, span, 1}
	for d := 1; d < len(axes); d++ {
		if span >= buf && price > 1 {
			break
		}
		if broke == len(axes) && axes[d-1].in*axes[d-1].n != axes[d].in {
			broke = d
			if !cast {
				price++
			}
		}
		core := span
		span *= axes[d].n
		capped := span
		if price > 1 && capped > buf {
			capped = buf
		}
		if price*best.size <= best.price*capped {
			best.dim, best.price, best.size, best.core = d, price, span, core
		}
	}
	buffered := cast || broke <= best.dim
	block := best.size
	size := block
	if buffered && size > buf {
		size = best.core * (buf / best.core)
	}
	var calls []int
	for lo := 0; lo < numel; lo += block {
		for c := 0; c < block; c += size {
			calls = append(calls, min(size, block-c))
		}
	}
	return calls
}

// relaid returns x with its dims in the given order (order[i]: the dim of
// x that becomes dim i), sharing its storage.
func relaid(x *tensor.Tensor, order []int) *tensor.Tensor {
	t := &tensor.Tensor{DType: x.DType, Offset: x.Offset, Data: x.Data}
	for _, d := range order {
		t.Shape = append(t.Shape, x.Shape[d])
		t.Strides = append(t.Strides, x.Strides[d])
	}
	return t
}

// moveLast is the dim order that moves dim d of a rank-r tensor last.
func moveLast(r, d int) []int {
	order := make([]int, 0, r)
	for i := range r {
		if i != d {
			order = append(order, i)
		}
	}
	return append(order, d)
}

// callsReduce reduces xs, in the iterator's order, call by call as NumPy's
// loops do: out starts at +0 (1); a sum call adds pairwise_sum of its
// values to out, a product call multiplies them onto out in order; out is
// stored in the result's dtype after each call (round).
//
// Reference: out := id; for each call c: out = round(out op reduce(c)).
func callsReduce[F floating](xs []F, calls []int, pl *floatRedPlan, round stepRound) F {
	var out F
	if pl.prod {
		out = 1
	}
	for _, c := range calls {
		part := xs[:c]
		xs = xs[c:]
		switch {
		case pl.prod:
			out = seqProd(part, out, pl.step)
		case pl.order == ordPairwise:
			out += pairwiseSum(part)
		default:
			out = seqSum(part, out, pl.step)
		}
		out = roundStep(out, round)
	}
	return out
}
