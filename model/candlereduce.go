package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's reductions, cumsum and index_select.

var (
	candleSumKeepsDType = newRule("candle.reduce.sum-keeps-dtype",
		"sum/sum_all keep the element dtype and accumulate in it, starting from 0, in row-major order on the CPU (*res += x: a debug build panics on overflow, release wraps) and without checks on Metal (wraps); float sums are exact only when every order gives the same bits (the f32 CPU sum uses SIMD partial sums, Metal a threadgroup tree), otherwise unspecified",
		"seed 000 §溢出 (u8 [200,100] sum_all: debug panic at kernels.rs:44, release and Metal U8 [44]; u32 2^31+2^31 -> 0); source-facts #7, extra 9")
	candleMean = newRule("candle.reduce.mean-affine",
		"mean is sum * (1/n) through affine: on the CPU the factor is converted to the element type first, so an integer mean is 0 for n >= 2 (the sum itself may still panic in debug); on Metal the sum goes through fma in f32 and is truncated",
		"source-facts extra 1 (mean on ints is 0 for n >= 2), #4; tensor.rs mean")
	candleMaxMin = newRule("candle.reduce.max-min",
		"max/min over one dim keep the dtype and fold from element 0 with a strict comparison: on the CPU a NaN survives only if it is first, ties keep the first; argmax/argmin return U32 indices of that element (Metal: lowest index of a tie; NaN unspecified); all elements: max_all flattens (rank 0 is returned as is); zero elements are an Err (EmptyTensor)",
		"seed 000 §下标的 dtype (argmax_keepdim U32 [2]); source-facts #7, extra 4, extra 5")
	candleCumsumMatmul = newRule("candle.cumsum.matmul",
		"cumsum is a matmul with an upper-triangular ones matrix: the CPU matmul (here accelerate, the seeds' build) takes f32/f64 only (f16: \"the accelerate backend does not support f16 matmul\"; integers and bf16: UnsupportedDTypeForOp), Metal's f32/f16/bf16; values are exact only where every summation order agrees, a NaN or inf in a row makes that row unspecified (0 * inf terms)",
		"source-facts extra 8; seed 003 header (candle CPU with accelerate); cpu_backend/mod.rs MatMul")
	candleIndexIDs = newRule("candle.index-select.ids",
		"index_select takes rank-1 ids of dtype U8, U32 or I64 (a U8 index is an index, not a mask); other id dtypes are an Err naming the SOURCE dtype (\"unsupported dtype F32 for op index-select\"); Metal needs one of 18 (ids, source) kernel pairs",
		"seed 000 §下标的 dtype; source-facts #5c, #6")
	candleIndexRange = newRule("candle.index-select.range",
		"an id equal to its dtype's maximum (255, u32::MAX, i64::MAX) writes a row of zeros; on the CPU any other id >= the dim size, a negative i64 included, is an Err (InvalidIndex); Metal clamps it to the last row and reads out of bounds for a negative i64 (unspecified)",
		"source-facts #5c, extra 6")
)

// candleReduce evaluates sum, mean, max, min, argmax, argmin (prod is missing).
func (e *evaluation) candleReduce() tensor.Outcome {
	t, op, a := e.c.Args[0].Tensor, e.c.Op, e.c.Attrs
	if op == "prod" {
		return e.unsupported(candleNoOp, "candle 0.11 has no prod on Tensor")
	}
	reduce := make([]bool, t.Rank())
	keep := a.KeepDim()
	switch {
	case a.Dim != nil:
		d, bad := e.candleDim(*a.Dim, t.Rank(), op, t.Shape)
		if bad != nil {
			return *bad
		}
		reduce[d] = true
	case op == "argmax" || op == "argmin":
		return e.unsupported(candleNoOp, "candle has no %s over all elements (no %s_all)", op, op)
	case (op == "max" || op == "min") && keep:
		return e.unsupported(candleNoOp, "candle has no keepdim form of %s_all", op)
	default:
		for k := range reduce {
			reduce[k] = true
		}
	}
	if e.candleOnMetal() && !candleMetalCore(t.DType) && !(t.Rank() == 0 && a.Dim == nil && op != "mean") {
		return e.fail(candleMetalKernels, tensor.UnsupportedDType, "Metal contiguous reduce op %s %s not implemented", op, rustName(t.DType))
	}
	switch op {
	case "sum":
		return e.candleSum(t, reduce, keep)
	case "mean":
		return e.candleMean(t, reduce, keep)
	}
	if t.Rank() == 0 && a.Dim == nil {
		e.use(candleMaxMin)
		return tensor.ValueOutcome(t.Clone())
	}
	if t.Len() == 0 {
		return e.fail(candleMaxMin, tensor.EmptyTensor, "the tensor is empty (op: reduce)")
	}
	return e.candleExtremum(op, t, reduce, keep)
}

// candleSum is sum_keepdim / sum over the reduced dims.
func (e *evaluation) candleSum(t *tensor.Tensor, reduce []bool, keep bool) tensor.Outcome {
	e.use(candleSumKeepsDType)
	outShape, groups := rustReducedGroups(t.Shape, reduce)
	out := tensor.New(t.DType, outShape...)
	for o, g := range groups {
		if t.DType.IsInt() {
			acc := uint64(0)
			for _, i := range g {
				r := rustIntBinary("add", acc, t.Uint(i), t.DType)
				if r.panicMsg != "" {
					if !e.candleOnMetal() {
						e.use(rustOverflow)
					}
					if !e.candleOnMetal() && e.p.Debug {
						return tensor.PanicOutcome("%s", r.panicMsg)
					}
				}
				acc = r.v
			}
			out.SetUint(o, acc)
			continue
		}
		xs := make([]float64, len(g))
		for k, i := range g {
			xs[k] = t.Float(i)
		}
		v, ok := rustExactSum(xs, t.DType)
		out.SetFloat(o, v)
		if !ok {
			out.SetUnspecified(o)
		}
	}
	return tensor.ValueOutcome(rustWithShape(out, rustSqueeze(outShape, reduce, keep)))
}

// candleMean is sum(...) * (1/n) through affine.
func (e *evaluation) candleMean(t *tensor.Tensor, reduce []bool, keep bool) tensor.Outcome {
	e.use(candleMean)
	n := 1
	for k, r := range reduce {
		if r {
			n *= t.Shape[k]
		}
	}
	s := e.candleSum(t, reduce, keep)
	if s.Form != tensor.FormValue {
		return s
	}
	return e.candleAffine(s.Value, 1/float64(n), 0)
}

// candleExtremum is max/min/argmax/argmin over the reduced dims.
func (e *evaluation) candleExtremum(op string, t *tensor.Tensor, reduce []bool, keep bool) tensor.Outcome {
	e.use(candleMaxMin)
	outShape, groups := rustReducedGroups(t.Shape, reduce)
	isArg := op == "argmax" || op == "argmin"
	outD := t.DType
	if isArg {
		outD = tensor.U32
	}
	out := tensor.New(outD, outShape...)
	wantMax := op == "max" || op == "argmax"
	for o, g := range groups {
		best := 0
		unspecified := false
		for k := 1; k < len(g); k++ {
			if candleBetter(t, g[best], g[k], wantMax) {
				best = k
			}
		}
		if e.candleOnMetal() && t.DType.IsFloat() {
			unspecified = candleMetalExtremumUnpinned(t, g, g[best])
		}
		if isArg {
			out.SetUint(o, uint64(best))
		} else {
			out.SetBits(o, t.Bits(g[best]))
		}
		if unspecified {
			out.SetUnspecified(o)
		}
	}
	return tensor.ValueOutcome(rustWithShape(out, rustSqueeze(outShape, reduce, keep)))
}

// candleBetter is the fold's replacement test: candidate j beats current i.
func candleBetter(t *tensor.Tensor, i, j int, wantMax bool) bool {
	if t.DType.IsFloat() {
		if wantMax {
			return t.Float(i) < t.Float(j)
		}
		return t.Float(i) > t.Float(j)
	}
	if wantMax {
		return intLess(t.Uint(i), t.Uint(j), t.DType)
	}
	return intLess(t.Uint(j), t.Uint(i), t.DType)
}

// candleMetalExtremumUnpinned reports a Metal float reduction whose result
// the kernel does not pin: a NaN in the group, or a ±0 extremum with zeros
// of both signs present.
func candleMetalExtremumUnpinned(t *tensor.Tensor, g []int, best int) bool {
	pos, neg := false, false
	for _, i := range g {
		x := t.Float(i)
		if math.IsNaN(x) {
			return true
		}
		if x == 0 {
			pos, neg = pos || !math.Signbit(x), neg || math.Signbit(x)
		}
	}
	return t.Float(best) == 0 && pos && neg
}

// candleCumsum is t.cumsum(dim).
func (e *evaluation) candleCumsum() tensor.Outcome {
	t := e.c.Args[0].Tensor
	if e.c.Attrs.Dim == nil {
		return e.unsupported(candleNoOp, "candle's cumsum needs a dim")
	}
	dim, bad := e.candleDim(*e.c.Attrs.Dim, t.Rank(), "cumsum", t.Shape)
	if bad != nil {
		return *bad
	}
	e.use(candleCumsumMatmul)
	d := t.DType
	switch {
	case e.candleOnMetal() && d != tensor.F32 && d != tensor.F16 && d != tensor.BF16:
		return e.fail(candleCumsumMatmul, tensor.UnsupportedDType, "mlx matmul doesn't support %s", rustName(d))
	case !e.candleOnMetal() && d == tensor.F16:
		return e.fail(candleCumsumMatmul, tensor.UnsupportedDType, "the accelerate backend does not support f16 matmul")
	case !e.candleOnMetal() && d != tensor.F32 && d != tensor.F64:
		return e.fail(candleCumsumMatmul, tensor.UnsupportedDType, "unsupported dtype %s for op matmul", rustName(d))
	}
	out := tensor.New(d, t.Shape...)
	reduce := make([]bool, t.Rank())
	reduce[dim] = true
	_, rows := rustReducedGroups(t.Shape, reduce)
	for _, row := range rows {
		xs := make([]float64, len(row))
		finite := true
		for k, i := range row {
			xs[k] = t.Float(i)
			finite = finite && !math.IsNaN(xs[k]) && !math.IsInf(xs[k], 0)
		}
		for k, i := range row {
			v, ok := rustExactSum(xs[:k+1], d)
			out.SetFloat(i, v)
			if !ok || !finite {
				out.SetUnspecified(i)
			}
		}
	}
	return tensor.ValueOutcome(out)
}

// candleIndexSelect is src.index_select(&ids, dim).
func (e *evaluation) candleIndexSelect() tensor.Outcome {
	src, ids := e.c.Args[0].Tensor, e.c.Args[1].Tensor
	dim := 0
	if e.c.Attrs.Dim != nil {
		dim = *e.c.Attrs.Dim
	}
	d, bad := e.candleDim(dim, src.Rank(), "index-select", src.Shape)
	if bad != nil {
		return *bad
	}
	if ids.Rank() != 1 {
		return e.fail(candleIndexIDs, tensor.ShapeMismatch, "shape mismatch in index-select, lhs: %s, rhs: %s", candleShape(src.Shape), candleShape(ids.Shape))
	}
	goodIDs := ids.DType == tensor.U8 || ids.DType == tensor.U32 || ids.DType == tensor.I64
	if e.candleOnMetal() {
		srcOK := candleMetalCore(src.DType)
		if !goodIDs || !srcOK {
			class := tensor.UnsupportedDType
			if !goodIDs {
				class = tensor.IndexDType
			}
			return e.fail(candleIndexIDs, class, "Metal contiguous index_select %s %s not implemented", rustName(ids.DType), rustName(src.DType))
		}
	} else if !goodIDs {
		return e.fail(candleIndexIDs, tensor.IndexDType, "unsupported dtype %s for op index-select", rustName(src.DType))
	}
	e.use(candleIndexIDs)
	return e.candleGather(src, ids, d)
}

// candleGather copies the selected rows (see candle.index-select.range).
func (e *evaluation) candleGather(src, ids *tensor.Tensor, d int) tensor.Outcome {
	n := src.Shape[d]
	left := tensor.NumElements(src.Shape[:d])
	right := tensor.NumElements(src.Shape[d+1:])
	outShape := append([]int{}, src.Shape...)
	outShape[d] = ids.Len()
	out := tensor.New(src.DType, outShape...)
	sentinel := ids.DType.MaxUint()
	for l := 0; l < left; l++ {
		for k := 0; k < ids.Len(); k++ {
			id := ids.Uint(k)
			row, unspecified := int(0), false
			switch {
			case id == sentinel:
				e.use(candleIndexRange)
				continue // a row of zeros
			case e.candleOnMetal() && ids.DType.IsSigned() && int64(id) < 0, e.candleOnMetal() && n == 0:
				e.use(candleIndexRange)
				unspecified = true
			case e.candleOnMetal():
				row = int(min(id, uint64(n-1)))
				if id >= uint64(n) {
					e.use(candleIndexRange)
				}
			case id >= uint64(n):
				return e.fail(candleIndexRange, tensor.IndexOutOfRange, "index-select invalid index %d with dim size %d", id, n)
			default:
				row = int(id)
			}
			for r := 0; r < right; r++ {
				o := (l*ids.Len()+k)*right + r
				if unspecified {
					out.SetUnspecified(o)
					continue
				}
				out.SetBits(o, src.Bits((l*n+row)*right+r))
			}
		}
	}
	return tensor.ValueOutcome(out)
}
