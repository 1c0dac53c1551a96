package cpu

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// sort and argsort (case format, added 2026-12) for PyTorch, NumPy, JAX,
// candle and burn on the CPU. Each framework's order becomes a key per
// element (sortKeyOf), unsigned, so that the row kernel (sortkernel.go)
// only ever sorts integers; equal keys keep their input order. Where a
// framework leaves equal elements unspecified the engine gives that order
// too, which is one of the orders the framework may give. JAX is computed
// as its source spells it: a descending sort is the reverse of the
// ascending one, a stable descending argsort reverses the row before and
// after.

func init() {
	attach(pythonProfiles(), tensor.ClassSort, &family{supports: oneTensorArg, eval: pySortEval})
	candleAttach(tensor.ClassSort, oneTensorArg, candleSortEval)
	burnAttach(tensor.ClassSort, oneTensorArg, burnSortEval)
}

// oneTensorArg accepts a case of one valid tensor argument.
func oneTensorArg(_ *profile, c *tensor.Case) bool {
	return len(c.Args) == 1 && validArg(c.Args[0], false)
}

// keyOrder is how a framework orders floats (integers and bool always by
// value).
type keyOrder uint8

const (
	orderIEEE  keyOrder = iota // -0.0 equal to +0.0, NaN after +inf (PyTorch, NumPy, JAX, candle)
	orderTotal                 // Rust's total_cmp: the sign-magnitude bits, -NaN first, -0.0 before +0.0 (burn)
)

// sortPlan is one case's sort: the row dim, the key order, the direction.
type sortPlan struct {
	dim     int
	order   keyOrder
	desc    bool
	nanLast bool // NumPy: NaN stays last when descending
	jaxRev  bool // JAX: the descending sort is computed as lax.rev of the ascending one
	argRev  bool // JAX: a stable descending argsort also reverses the row first
}

func pySortEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	x := wordsFit(pyArg(p, c.Args[0].Tensor))
	dim := c.Attrs.SortDim()
	desc, stable := c.Attrs.IsDescending(), c.Attrs.IsStable()
	arg := c.Op == "argsort"
	pl := sortPlan{order: orderIEEE, desc: desc}
	idx := tensor.I64
	switch p.fw {
	case fwPyTorch:
		r := max(x.Rank(), 1)
		d, ok := rustDim(dim, r)
		if !ok {
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, dim)
		}
		if x.Rank() > 0 && x.DType.IsComplex() { // policy pytorch.sort: no complex kernel
			return tensor.ErrorOutcome(tensor.UnsupportedDType, "NotImplementedError: \"sorting_kernel_method_name\" not implemented for '%s'", torchName(x.DType))
		}
		pl.dim = min(d, max(x.Rank()-1, 0))
	case fwNumPy:
		if x.Rank() == 0 {
			if !arg {
				return tensor.ErrorOutcome(tensor.IndexOutOfRange, "AxisError: axis %d is out of bounds for array of dimension 0", dim)
			}
			x = x.Contiguous().Reshape(1) // argsort ravels a 0-d array
		}
		d, ok := rustDim(dim, x.Rank())
		if !ok {
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "AxisError: axis %d is out of bounds for array of dimension %d", dim, x.Rank())
		}
		pl.dim, pl.nanLast = d, true
	default:
		d, ok := rustDim(dim, x.Rank())
		if !ok {
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "ValueError: axis %d is out of bounds for array of dimension %d", dim, x.Rank())
		}
		pl.dim = d
		if desc {
			pl.desc, pl.jaxRev, pl.argRev = false, true, arg && stable
		}
		if !p.x64 {
			idx = tensor.I32
		}
	}
	vals, perm := e.sortAlong(x, pl)
	if arg {
		return tensor.ValueOutcome(encodeIndices(perm, idx, x.Shape))
	}
	return tensor.ValueOutcome(vals)
}

func candleSortEval(e *Engine, _ *profile, c *tensor.Case) tensor.Outcome {
	x := c.Args[0].Tensor
	dim := c.Attrs.SortDim()
	if dim != -1 && dim != max(x.Rank()-1, 0) {
		return tensor.UnsupportedOutcome("candle sorts along the last dim only: sort_last_dim, not dim %d", dim)
	}
	switch {
	case !rowMajorStorage(x):
		return tensor.ErrorOutcome(tensor.Other, "sort_last_dim: the tensor is not contiguous (RequiresContiguous)")
	case x.Rank() == 0:
		return tensor.ErrorOutcome(tensor.Other, "empty last-dim in arg-sort")
	case x.Shape[x.Rank()-1] == 0:
		return tensor.PanicOutcome("chunk_size must not be zero") // rayon's par_chunks_exact_mut(0)
	case x.DType.IsFloat() && anyNaN(x):
		return tensor.UnsupportedOutcome("candle's partial_cmp comparator is not a total order with NaN: not stated")
	}
	vals, perm := e.sortAlong(x, sortPlan{dim: x.Rank() - 1, order: orderIEEE, desc: c.Attrs.IsDescending()})
	if c.Op == "argsort" {
		return tensor.ValueOutcome(encodeIndices(perm, tensor.U32, x.Shape))
	}
	return tensor.ValueOutcome(vals)
}

func burnSortEval(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	x := args[0]
	if x.DType == tensor.Bool {
		return tensor.UnsupportedOutcome("burn's Bool tensors are not Ordered: no %s", c.Op)
	}
	d, ok := rustDim(c.Attrs.SortDim(), x.Rank())
	if !ok {
		return tensor.PanicOutcome("Sort: dimension %d out of bounds for rank %d", c.Attrs.SortDim(), x.Rank())
	}
	vals, perm := e.sortAlong(x, sortPlan{dim: d, order: orderTotal, desc: c.Attrs.IsDescending()})
	if c.Op == "sort" {
		return tensor.ValueOutcome(vals)
	}
	idx := x.DType // ndarray's Int argsort: the input's dtype
	switch {
	case x.DType.IsFloat():
		idx = burnIntDType(p)
	case burnFlex(p):
		idx = tensor.I64 // Flex's isize indices, uncast
	}
	return tensor.ValueOutcome(encodeIndices(perm, idx, x.Shape))
}

func anyNaN(x *tensor.Tensor) bool {
	for _, w := range rowMajorWords(x) {
		if floatWordIsNaN(w, x.DType) {
			return true
		}
	}
	return false
}

// sortAlong sorts x's rows along pl.dim: the sorted values (row-major,
// x's dtype) and, for each output element, its position in its row.
func (e *Engine) sortAlong(x *tensor.Tensor, pl sortPlan) (*tensor.Tensor, []int32) {
	words := rowMajorWords(x)
	n := x.Len()
	w := 1
	if x.DType.IsComplex() {
		w = 2
	}
	vals := &tensor.Tensor{DType: x.DType, Shape: slices.Clone(x.Shape), Data: make([]uint64, n*w)}
	perm := make([]int32, n)
	if n == 0 {
		return vals, perm
	}
	rowLen, inner := 1, 1
	if x.Rank() > 0 {
		rowLen = x.Shape[pl.dim]
		inner = tensor.NumElements(x.Shape[pl.dim+1:])
	}
	rows := n / rowLen
	e.splitItems(n, rows, func(lo, hi int) {
		s := newSortScratch(rowLen)
		rp := make([]int32, rowLen)
		var cx []complexKey
		if w == 2 {
			cx = make([]complexKey, rowLen)
		}
		for r := lo; r < hi; r++ {
			base := (r/inner)*rowLen*inner + r%inner
			at := func(k int) int { return base + k*inner }
			keyAt := at // JAX's stable descending argsort sorts the reversed row
			if pl.argRev {
				keyAt = func(k int) int { return base + (rowLen-1-k)*inner }
			}
			if w == 2 {
				sortComplexRow(words, x.DType, keyAt, pl, cx, rp)
			} else {
				keys := s.keys[:rowLen]
				for k := range keys {
					keys[k] = sortKeyOf(words[keyAt(k)], x.DType, pl)
				}
				sortRow(keys, rp, s)
			}
			if pl.argRev {
				for k := range rp {
					rp[k] = int32(rowLen-1) - rp[k]
				}
			}
			if pl.jaxRev {
				slices.Reverse(rp)
			}
			for k, src := range rp {
				o := at(k)
				perm[o] = src
				copy(vals.Data[o*w:o*w+w], words[at(int(src))*w:at(int(src))*w+w])
			}
		}
	})
	return vals, perm
}

// sortKeyOf is the unsigned key whose order is pl's order of the element
// with storage word v of dtype d.
func sortKeyOf(v uint64, d tensor.DType, pl sortPlan) uint64 {
	var k uint64
	switch {
	case d.IsFloat():
		width := uint(d.Bits())
		sign := uint64(1) << (width - 1)
		mask := sign<<1 - 1
		if pl.order == orderTotal && floatWordIsNaN(v, d) {
			v = v&sign | mask>>1 // a NaN's payload is not in the case format: one NaN per sign
		}
		if pl.order == orderIEEE {
			if floatWordIsNaN(v, d) {
				if pl.desc && !pl.nanLast {
					return 0
				}
				return ^uint64(0)
			}
			if v&^sign == 0 {
				v = 0 // -0.0 is +0.0
			}
		}
		if v&sign != 0 {
			k = ^v & mask
		} else {
			k = v | sign
		}
	case d.IsSigned():
		k = v ^ uint64(1)<<(d.Bits()-1)
	default:
		k = v
	}
	if pl.desc {
		k = ^k
	}
	return k
}

// floatWordIsNaN reports a NaN bit pattern of the float dtype d.
func floatWordIsNaN(v uint64, d tensor.DType) bool {
	switch d {
	case tensor.F16:
		return v&0x7c00 == 0x7c00 && v&0x3ff != 0
	case tensor.BF16:
		return v&0x7f80 == 0x7f80 && v&0x7f != 0
	case tensor.F32, tensor.C64:
		return v&0x7f800000 == 0x7f800000 && v&0x7fffff != 0
	}
	return v&0x7ff0000000000000 == 0x7ff0000000000000 && v&0xfffffffffffff != 0
}

// encodeIndices writes row positions as a tensor of the index dtype d.
func encodeIndices(perm []int32, d tensor.DType, shape []int) *tensor.Tensor {
	out := &tensor.Tensor{DType: d, Shape: slices.Clone(shape), Data: make([]uint64, len(perm))}
	for i, v := range perm {
		out.Data[i] = uint64(v) // row positions are small and non-negative in every index dtype
	}
	return out
}

// complexKey orders a complex element: a class first (NumPy: which parts
// are NaN), then two part keys.
type complexKey struct {
	class  uint8
	k1, k2 uint64
	pos    int32
}

// sortComplexRow sets rp to the stable order of a complex row (the element
// at row position k has its two words at at(k)*2). NumPy (pl.nanLast)
// orders [R + Rj, R + nanj, nan + Rj, nan + nanj], each class by its
// non-NaN parts; JAX orders by (real, imag), NaN after +inf in each part.
func sortComplexRow(words []uint64, d tensor.DType, at func(int) int, pl sortPlan, cx []complexKey, rp []int32) {
	part := tensor.F32
	if d == tensor.C128 {
		part = tensor.F64
	}
	for k := range cx {
		re, im := words[2*at(k)], words[2*at(k)+1]
		kr, ki := sortKeyOf(re, part, pl), sortKeyOf(im, part, pl)
		c := complexKey{k1: kr, k2: ki, pos: int32(k)}
		if pl.nanLast {
			reNaN, imNaN := floatWordIsNaN(re, part), floatWordIsNaN(im, part)
			switch {
			case reNaN && imNaN:
				c = complexKey{class: 3, pos: int32(k)}
			case reNaN:
				c = complexKey{class: 2, k1: ki, pos: int32(k)}
			case imNaN:
				c = complexKey{class: 1, k1: kr, pos: int32(k)}
			}
		}
		cx[k] = c
	}
	slices.SortFunc(cx, func(a, b complexKey) int {
		switch {
		case a.class != b.class:
			return int(a.class) - int(b.class)
		case a.k1 != b.k1:
			return cmpU64(a.k1, b.k1)
		case a.k2 != b.k2:
			return cmpU64(a.k2, b.k2)
		}
		return int(a.pos - b.pos)
	})
	for k := range cx {
		rp[k] = cx[k].pos
	}
}

func cmpU64(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// wordsFit returns t with every integer word cut to its dtype's width: JAX
// without x64 hands 64-bit host data over as the 32-bit dtype with the
// original words (pyInput), which the kernels here read raw.
func wordsFit(t *tensor.Tensor) *tensor.Tensor {
	if !t.DType.IsInt() || t.DType.Bits() == 64 {
		return t
	}
	mask := uint64(1)<<t.DType.Bits() - 1
	for _, w := range t.Data {
		if w&^mask != 0 {
			n := *t
			n.Data = make([]uint64, len(t.Data))
			for i, w := range t.Data {
				n.Data[i] = w & mask
			}
			return &n
		}
	}
	return t
}
