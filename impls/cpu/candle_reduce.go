package cpu

import "github.com/tfuzz/tfuzz/tensor"

// candle's reductions, cumsum and index_select on the CPU.

func init() {
	all := func(*profile, *tensor.Case) bool { return true }
	candleAttach(tensor.ClassReduce, all, candleReduce)
	candleAttach(tensor.ClassCumsum, all, candleCumsum)
	candleAttach(tensor.ClassIndexSelect, func(_ *profile, c *tensor.Case) bool { return rustTensorArgs(c, 2) }, candleIndexSelect)
}

// candleDimError is the Err of a dim outside the rank (policy
// candle.dim-out-of-range).
func candleDimError(op string, dim int, shape []int) tensor.Outcome {
	return tensor.ErrorOutcome(tensor.IndexOutOfRange, "%s: dimension index %d out of range for shape %s", op, dim, rustShape(shape))
}

// candleReduce evaluates sum, mean, max, min, argmax and argmin (candle has
// no prod) over one dim or, where candle has an _all form, all of them.
func candleReduce(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	t, op, a := c.Args[0].Tensor, parseOp(c.Op), c.Attrs
	if op == opProd {
		return tensor.UnsupportedOutcome("candle 0.11 has no prod on Tensor")
	}
	keep := a.KeepDim()
	dim := -1
	switch {
	case a.Dim != nil:
		d, ok := rustDim(*a.Dim, t.Rank())
		if !ok {
			return candleDimError(c.Op, *a.Dim, t.Shape)
		}
		dim = d
	case op == opArgmax || op == opArgmin:
		return tensor.UnsupportedOutcome("candle has no %s over all elements (no %s_all)", c.Op, c.Op)
	case (op == opMax || op == opMin) && keep:
		return tensor.UnsupportedOutcome("candle has no keepdim form of %s_all", c.Op)
	}
	g := rustGeomOf(t.Shape, dim)
	shape := g.squeezed(t.Shape, dim, keep)
	switch op {
	case opSum, opMean:
		return candleSum(e, p, t, g, shape, op == opMean)
	}
	// policy candle.reduce.max-min
	if t.Rank() == 0 && dim < 0 {
		return tensor.ValueOutcome(t.Clone())
	}
	if t.Len() == 0 {
		return tensor.ErrorOutcome(tensor.EmptyTensor, "the tensor is empty (op: reduce)")
	}
	return candleExtremum(e, op, t, g, shape)
}

// candleSum is sum (policy candle.reduce.sum-keeps-dtype: the element type,
// row-major order, Rust's overflow rules) and mean = sum * (1/n) through
// affine (candle.reduce.mean-affine: 0 for integers when n >= 2).
func candleSum(e *Engine, p *profile, t *tensor.Tensor, g rustGeom, shape []int, mean bool) tensor.Outcome {
	var s tensor.Outcome
	switch kindOf(t.DType) {
	case kU8:
		s = candleSumInt[uint8](e, p, t, g, shape)
	case kU32:
		s = candleSumInt[uint32](e, p, t, g, shape)
	case kI16:
		s = candleSumInt[int16](e, p, t, g, shape)
	case kI32:
		s = candleSumInt[int32](e, p, t, g, shape)
	case kI64:
		s = candleSumInt[int64](e, p, t, g, shape)
	case kF64:
		s = candleSumFloat[float64](e, t, g, shape)
	default:
		s = candleSumFloat[float32](e, t, g, shape)
	}
	if !mean || s.Form != tensor.FormValue {
		return s
	}
	return candleAffine(e, p, s.Value, 1/float64(g.n), 0)
}

func candleSumInt[T integer](e *Engine, p *profile, t *tensor.Tensor, g rustGeom, shape []int) tensor.Outcome {
	src := rustDense[T](e, t, t.DType)
	dst := make([]T, g.groups())
	if p.debug {
		if rustSumChecked(dst, src, g) != 0 {
			return tensor.PanicOutcome("%s", msgAddOverflow)
		}
	} else {
		rustSum(dst, src, g)
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, shape))
}

// candleSumFloat adds in the element type one element at a time; the model
// fixes the bits only where every summation order agrees (candle's f32
// kernels use SIMD partial sums).
func candleSumFloat[T floating](e *Engine, t *tensor.Tensor, g rustGeom, shape []int) tensor.Outcome {
	src := rustDense[T](e, t, t.DType)
	dst := make([]T, g.groups())
	if f32, ok := any(src).([]float32); ok && (t.DType == tensor.F16 || t.DType == tensor.BF16) {
		rustSumHalf(any(dst).([]float32), f32, g, t.DType)
	} else {
		rustSum(dst, src, g)
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, shape))
}

// candleExtremum is max, min (values) and argmax, argmin (U32 positions) of
// the fold that keeps the first of equals and lets a NaN win only in front.
func candleExtremum(e *Engine, op opID, t *tensor.Tensor, g rustGeom, shape []int) tensor.Outcome {
	switch kindOf(t.DType) {
	case kU8:
		return rustExtremum[uint8](e, op, t, g, shape, tensor.U32)
	case kU32:
		return rustExtremum[uint32](e, op, t, g, shape, tensor.U32)
	case kI16:
		return rustExtremum[int16](e, op, t, g, shape, tensor.U32)
	case kI32:
		return rustExtremum[int32](e, op, t, g, shape, tensor.U32)
	case kI64:
		return rustExtremum[int64](e, op, t, g, shape, tensor.U32)
	case kF64:
		return rustExtremum[float64](e, op, t, g, shape, tensor.U32)
	}
	return rustExtremum[float32](e, op, t, g, shape, tensor.U32)
}

// rustExtremum runs the fold of rustArgFold over every group (n >= 1) and
// returns the values (max, min) or their positions as dtype idx.
func rustExtremum[T number](e *Engine, op opID, t *tensor.Tensor, g rustGeom, shape []int, idx tensor.DType) tensor.Outcome {
	src := rustDense[T](e, t, t.DType)
	best := make([]int, g.groups())
	rustArgFold(best, src, g, op == opMax || op == opArgmax)
	if op == opArgmax || op == opArgmin {
		out := tensor.New(idx, shape...)
		for i, b := range best {
			out.Data[i] = uint64(b)
		}
		return tensor.ValueOutcome(out)
	}
	return tensor.ValueOutcome(encode(e, rustPick(src, best, g), t.DType, shape))
}

// candleCumsum is t.cumsum(dim), a matmul with an upper-triangular matrix
// of ones (policy candle.cumsum.matmul): the accelerate build has f32 and f64
// matmul only. The values are running sums (the model fixes them where
// every order of summation agrees).
func candleCumsum(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	t := c.Args[0].Tensor
	if c.Attrs.Dim == nil {
		return tensor.UnsupportedOutcome("candle's cumsum needs a dim")
	}
	dim, ok := rustDim(*c.Attrs.Dim, t.Rank())
	if !ok {
		return candleDimError("cumsum", *c.Attrs.Dim, t.Shape)
	}
	switch t.DType {
	case tensor.F16:
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "the accelerate backend does not support f16 matmul")
	case tensor.F32:
		return rustCumsumFloat[float32](e, t, dim)
	case tensor.F64:
		return rustCumsumFloat[float64](e, t, dim)
	}
	return tensor.ErrorOutcome(tensor.UnsupportedDType, "unsupported dtype %s for op matmul", rustName(t.DType))
}

// rustCumsumFloat returns the running sums of t over dim in its own dtype.
func rustCumsumFloat[T floating](e *Engine, t *tensor.Tensor, dim int) tensor.Outcome {
	src := rustDense[T](e, t, t.DType)
	dst := make([]T, len(src))
	rustCumsum(dst, src, rustGeomOf(t.Shape, dim))
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// candleIndexSelect is src.index_select(&ids, dim) (policies
// candle.index-select.ids, candle.index-select.range): rank-1 ids of U8,
// U32 or I64; an id equal to its dtype's maximum writes zeros, any other id
// outside the dim (a negative i64 included) is an Err.
func candleIndexSelect(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	src, ids := c.Args[0].Tensor, c.Args[1].Tensor
	dim := 0
	if c.Attrs.Dim != nil {
		dim = *c.Attrs.Dim
	}
	d, ok := rustDim(dim, src.Rank())
	if !ok {
		return candleDimError("index-select", dim, src.Shape)
	}
	if ids.Rank() != 1 {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "shape mismatch in index-select, lhs: %s, rhs: %s", rustShape(src.Shape), rustShape(ids.Shape))
	}
	if ids.DType != tensor.U8 && ids.DType != tensor.U32 && ids.DType != tensor.I64 {
		// the CPU backend names the source dtype, not the ids'
		return tensor.ErrorOutcome(tensor.IndexDType, "unsupported dtype %s for op index-select", rustName(src.DType))
	}
	if !rowMajorStorage(src) { // policy candle.cpu.index-select.requires-contiguous
		return tensor.ErrorOutcome(tensor.Other, "index-select only supports contiguous tensors")
	}
	g := rustGeomOf(src.Shape, d)
	idx := rustWords(ids) // an i64 id is read as usize: a negative one is out of range
	sentinel := ids.DType.MaxUint()
	if g.outer > 0 {
		for _, id := range idx {
			if id != sentinel && id >= uint64(g.n) {
				return tensor.ErrorOutcome(tensor.IndexOutOfRange, "index-select invalid index %d with dim size %d", int64(id), g.n)
			}
		}
	}
	shape := append([]int{}, src.Shape...)
	shape[d] = len(idx)
	out := tensor.New(src.DType, shape...)
	rustGatherRows(out.Data, rustWords(src), idx, g, sentinel)
	return tensor.ValueOutcome(out)
}

// rustGatherRows copies, for every outer group, the rows idx select from
// src (geometry g) into dst; an index equal to skip leaves its row zero.
// Every other index is below g.n.
func rustGatherRows(dst, src, idx []uint64, g rustGeom, skip uint64) {
	w := g.inner
	for o := 0; o < g.outer; o++ {
		for k, id := range idx {
			if id == skip {
				continue
			}
			from := (o*g.n + int(id)) * w
			to := (o*len(idx) + k) * w
			copy(dst[to:to+w], src[from:from+w])
		}
	}
}
