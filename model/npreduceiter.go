package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// NumPy's reduction iterator over a view input (numpy v2.5.2, 48fecee5).
// PyUFunc_ReduceWrapper (reduction.c:215-290) builds a buffered iterator
// (EXTERNAL_LOOP, GROWINNER, DONT_NEGATE_STRIDES) of the result, allocated
// by the iterator, and the input. npyiter_find_best_axis_ordering
// (nditer_constr.c:2661-2730) sorts the axes, fastest first, by a stable
// insertion sort on the operands' strides; the result is still NULL there
// (strides 0, ambiguous), and so are a size-1 or broadcast (stride 0) axis
// of the input, which stay where they are unless an axis is moved past them.
// The result is then allocated contiguous in that order (zero strides along
// the reduced axes), npyiter_coalesce_axes (nditer_api.c:1644-1710) merges
// neighbours whose strides chain for both operands, and
// npyiter_find_buffering_setup (nditer_constr.c:2005-2328) picks the inner
// loop: how many elements each call of the add (multiply) loop gets.

// npIterAxis is one axis of the iterator, fastest first: its size, the
// input's stride (elements; 0 for a size-1 or broadcast axis), the
// result's stride and the logical dim it came from (-1 after coalescing).
type npIterAxis struct {
	size, in, out int
	reduced       bool
	dim           int
}

// npIterAxes returns the iterator's axes over an input of shape and
// strides reducing dim (-1: every dim), sorted as
// npyiter_find_best_axis_ordering sorts them, before coalescing.
func npIterAxes(shape, strides []int, dim int) []npIterAxis {
	r := len(shape)
	axes := make([]npIterAxis, 0, r)
	for d := r - 1; d >= 0; d-- { // the AXISDATA is reversed from C order
		a := npIterAxis{size: shape[d], reduced: dim < 0 || d == dim, dim: d}
		if shape[d] != 1 {
			a.in = strides[d]
		}
		axes = append(axes, a)
	}
	for i0 := 1; i0 < len(axes); i0++ {
		x, pos := axes[i0], i0
		for i1 := i0 - 1; i1 >= 0; i1-- {
			y := axes[i1]
			if x.in == 0 || y.in == 0 {
				continue // ambiguous: look further out
			}
			if npAbs(y.in) <= npAbs(x.in) {
				break
			}
			pos = i1
		}
		copy(axes[pos+1:i0+1], axes[pos:i0])
		axes[pos] = x
	}
	// the result, allocated in iterator order: contiguous over the kept axes
	acc := 1
	for i := range axes {
		if !axes[i].reduced {
			if axes[i].size != 1 {
				axes[i].out = acc
			}
			acc *= axes[i].size
		}
	}
	return axes
}

func npAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// npCoalesce merges neighbouring axes as npyiter_coalesce_axes does.
func npCoalesce(axes []npIterAxis) []npIterAxis {
	if len(axes) == 0 {
		return nil
	}
	out := []npIterAxis{axes[0]}
	chain := func(s0, n0, s1, n1 int) bool { return n0 == 1 && s0 == 0 || n1 == 1 && s1 == 0 || s0*n0 == s1 }
	for _, b := range axes[1:] {
		a := &out[len(out)-1]
		if chain(a.in, a.size, b.in, b.size) && chain(a.out, a.size, b.out, b.size) {
			a.size *= b.size
			if a.in == 0 {
				a.in = b.in
			}
			if a.out == 0 {
				a.out = b.out
			}
			a.reduced = a.reduced && b.reduced
			a.dim = -1
			continue
		}
		out = append(out, b)
	}
	return out
}

// npReducedInnermost reports whether the reduced dim of a reduction along
// one dim is the iterator's innermost axis after coalescing: each output's
// elements then reach the loop in one call (out += pairwise_sum(row)), else
// one at a time, each call adding a run of elements to a run of outputs
// (the elementwise loop).
func npReducedInnermost(shape, strides []int, dim int) bool {
	axes := npCoalesce(npIterAxes(shape, strides, dim))
	return len(axes) > 0 && axes[0].out == 0
}

// npFullReduceOrder returns the iteration order of a reduction over every
// element (the input's logical indices, as visited), the lengths of the
// loop calls along it, and whether the iteration coalesced into one axis
// (then the calls are those of a contiguous array's reduction). The result has stride 0 everywhere, so every call
// is a reduce call (out op= the call's elements). cast says the input is
// cast to the loop's dtype (buffered from the start). The buffering setup
// is npyiter_find_buffering_setup's, with the default buffersize 8192 and
// GROWINNER: the core grows over axes while the cost (1 + buffered
// operands) per element improves; an input that no longer runs in one
// stride is buffered (copied in iteration order), and a buffered call is
// at most coresize * (8192 / coresize) elements, not crossing the end of
// the outer axis (npyiter_copy_to_buffers, nditer_api.c:2101-2136).
func npFullReduceOrder(shape, strides []int, cast bool) (order, calls []int, oneAxis bool) {
	sorted := npIterAxes(shape, strides, -1)
	n := tensor.NumElements(shape)
	order = make([]int, 0, n)
	if n == 0 {
		return order, nil, true
	}
	cs := tensor.ContiguousStrides(shape)
	idx := make([]int, len(sorted))
	for range n {
		flat := 0
		for i, a := range sorted {
			flat += idx[i] * cs[a.dim]
		}
		order = append(order, flat)
		for i := range idx {
			idx[i]++
			if idx[i] < sorted[i].size {
				break
			}
			idx[i] = 0
		}
	}
	axes := npCoalesce(sorted)
	if len(axes) == 0 { // a 0-dim input: its one element
		return order, []int{n}, true
	}
	cost := 1
	if cast {
		cost = 2
	}
	single := 1 // the input's axes that run in one stride
	size := axes[0].size
	bestDim, bestCost, bestSize, bestCore := 0, cost, size, 1
	for d := 1; d < len(axes); d++ {
		if size >= numpyBufferSize && cost > 1 {
			break
		}
		if single == d {
			if axes[d-1].in*axes[d-1].size == axes[d].in {
				single++
			} else if !cast {
				cost++
			}
		}
		core := size
		size *= axes[d].size
		buf := size
		if size > numpyBufferSize && cost > 1 {
			buf = numpyBufferSize
		}
		if cost*bestSize <= bestCost*buf {
			bestDim, bestCost, bestSize, bestCore = d, cost, size, core
		}
	}
	block := bestCore * axes[bestDim].size
	if (cast || single <= bestDim) && bestSize > numpyBufferSize {
		bestSize = bestCore * (numpyBufferSize / bestCore)
	}
	for lo := 0; lo < n; lo += block {
		for c := 0; c < block; c += bestSize {
			calls = append(calls, min(bestSize, block-c))
		}
	}
	return order, calls, len(axes) == 1
}

// NumPyIterOrder reduces the values in the iteration order of a view
// (order: the logical index of each value visited) in loop calls of the
// given lengths: out = identity, then per call out = R_out(out op inner),
// where inner is pairwise_sum of the call's values (pairwise), or the
// values folded in order onto out in the arithmetic's precision (the
// multiply loops; f16 in f32).
func NumPyIterOrder(order, calls []int, out tensor.DType, pairwise bool) Order {
	return permutedOrder(Order{"numpy-iterator", func(ys []float64, a Arith) float64 {
		acc, lo := a.Identity(), 0
		for _, c := range calls {
			run := ys[lo : lo+c]
			if pairwise {
				acc = a.Op(acc, redPairwise(run, a))
			} else {
				acc = redFold(run, acc, a)
			}
			acc = roundTo(acc, out)
			lo += c
		}
		return acc
	}}, order)
}

// permutedOrder is o over the values taken in the given order (order[i]:
// the index into xs of the i-th value the kernel reads).
func permutedOrder(o Order, order []int) Order {
	return Order{o.Name, func(xs []float64, a Arith) float64 {
		ys := make([]float64, len(order))
		for i, j := range order {
			ys[i] = xs[j]
		}
		return o.reduce(ys, a)
	}}
}
