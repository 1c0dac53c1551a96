package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's reductions, cumsum and index_select.

var (
	candleSumKeepsDType = newOpenRule("candle.reduce.sum-keeps-dtype",
		"sum/sum_all keep the element dtype and accumulate in it, starting from 0, in row-major order on the CPU (*res += x: a debug build panics on overflow, release wraps) and without checks on Metal (wraps); CPU float sums are exact only when every order gives the same bits (the f32 CPU sum uses SIMD partial sums), otherwise unspecified; Metal's order: candle.metal.reduce.sum-order",
		"seed 000 §溢出 (u8 [200,100] sum_all: debug panic at kernels.rs:44, release and Metal U8 [44]; u32 2^31+2^31 -> 0); source-facts #7, extra 9")
	candleMean = newRule("candle.reduce.mean-affine",
		"mean is sum * (1/n) through affine: on the CPU the factor is converted to the element type first, so an integer mean is 0 for n >= 2 (the sum itself may still panic in debug); on Metal the sum goes through fma in f32 and is truncated",
		"source-facts extra 1 (mean on ints is 0 for n >= 2), #4; tensor.rs mean")
	candleMaxMin = newOpenRule("candle.reduce.max-min",
		"max/min over one dim keep the dtype and fold from element 0 with a strict comparison: on the CPU a NaN survives only if it is first, ties keep the first; argmax/argmin return U32 indices of that element (Metal: lowest index of a tie, NaN unspecified, and see candle.metal.reduce.*); all elements: max_all flattens (rank 0 is returned as is); zero elements are an Err (EmptyTensor)",
		"seed 000 §下标的 dtype (argmax_keepdim U32 [2]); source-facts #7, extra 4, extra 5")
	candleMetalReduceNoKernel = newRule("candle.metal.reduce.rank0-needs-kernel",
		"on Metal only max_all/min_all return a rank-0 tensor as is; sum_all (and so mean_all) of a rank-0 tensor still calls reduce_op with no dims, whose kernel match bails for i16/i32/f64 (\"Metal contiguous reduce op Sum I32 not implemented\")",
		"candle 2a13b0f3: tensor.rs:2123-2128 (max_all: rank 0 -> self.clone()), :2159-2162 (sum_all: self.sum((0..rank)) with no early return); candle-core/src/metal_backend/mod.rs:323-357 (the (op, dtype) match, then bail!)")
	candleMetalSumEmptyOut = newRule("candle.metal.reduce.zero-outputs-panics",
		"sum/mean on Metal with zero output elements (a kept dim of size 0) panics (\"attempt to divide by zero\"): call_reduce_* computes work_per_threadgroup = length / out_length with out_length = dst_el = 0; max/min/arg* report EmptyTensor first, and a zero-size reduced dim with kept dims > 0 gives zeros",
		"candle 2a13b0f3: candle-metal-kernels/src/kernels/reduce.rs:22 and :80 (length / out_length); candle-core/src/metal_backend/mod.rs:359-361 and :418-420 (check_empty only for min/max/argmin/argmax)")
	candleMetalExtremumInit = newRule("candle.metal.reduce.extremum-init",
		"Metal's max/min/argmax/argmin kernels fold every thread from the op's init value, numeric_limits<T>::lowest() for max and max() for min (the finite extremes: -FLT_MAX, -65504 for f16, the type's MIN/0 for integers), and arg reductions from {index 0, that value}, ties going to the lower index: a float max over only -inf values is -MAX (a min over +inf is +MAX), and an argmax whose best value is not above lowest() (argmin: not below max()) reports index 0",
		"candle 2a13b0f3: candle-metal-kernels/src/metal_src/reduce.metal:198-206 (indexed<T> lowest() = {0, lowest}, max() = {0, max}), :262-265 (Min::init = numeric_limits<T>::max()), :288-291 (Max::init = lowest()), :188-196 (indexed < and >: ties to the lower index), :596 and :693-694 (load(OP::init(), ...) / load(ReductionOp::init(), ...))")
	candleMetalArgIndex = newRule("candle.metal.reduce.arg-index-modulo-last-dim",
		"Metal argmax/argmin report each element's index as i % last_dim: when the (kept dims, reduced dim) view is contiguous (the reduced dim is last, has size 1, or only size-1 dims follow it) reduce_op takes the contiguous kernel with the input's own dims, so i is the element's flat index and last_dim the input's last dim; otherwise the strided kernel gets the reordered dims and i % last_dim is the position in the reduced dim. So argmax over a size-1 dim gives o % last_dim for output o, and over a dim followed only by size-1 dims gives 0",
		"candle 2a13b0f3: candle-core/src/metal_backend/mod.rs:304-323 (dims reordered, contiguous test), :370-379 (call_reduce_contiguous(.., src_dims, ..)), :429-437 (strided: &dims); candle-metal-kernels/src/metal_src/reduce.metal:467 (operate(value, src[indexer(i)], i % indexer.last_dim)), :738-740 and :757-759 (last_dim = dims[num_dims - 1])")
	candleCumsumMatmul = newOpenRule("candle.cumsum.matmul",
		"cumsum is a matmul with an upper-triangular ones matrix: the CPU matmul (here accelerate, the seeds' build) takes f32/f64 only (f16: \"the accelerate backend does not support f16 matmul\"; integers and bf16: UnsupportedDTypeForOp), Metal's f32/f16/bf16; values are exact only where every summation order agrees, a NaN or inf in a row makes that row unspecified (0 * inf terms)",
		"source-facts extra 8; seed 003 header (candle CPU with accelerate); cpu_backend/mod.rs MatMul")
	candleIndexIDs = newRule("candle.index-select.ids",
		"index_select takes rank-1 ids of dtype U8, U32 or I64 (a U8 index is an index, not a mask); other id dtypes are an Err naming the SOURCE dtype (\"unsupported dtype F32 for op index-select\"); Metal's host names 18 (ids, source) kernels over U8 U32 I64 F32 F16 BF16 sources, of which 16 exist (see candle.metal.index-select.no-i64-u8-u32)",
		"seed 000 §下标的 dtype; source-facts #5c, #6")
	candleIndexRange = newOpenRule("candle.index-select.range",
		"an id equal to its dtype's maximum (255, u32::MAX, i64::MAX) writes a row of zeros; on the CPU any other id >= the dim size, a negative i64 included, is an Err (InvalidIndex); Metal clamps (see candle.metal.index-select.clamp)",
		"source-facts #5c, extra 6")
	candleMetalIndexClamp = newOpenRule("candle.metal.index-select.clamp",
		"Metal's index_select reads row min(id, (I)(dim_size - 1)) with the bound converted to the id type I: for u8 ids and a dim above 256 the bound wraps ((uint8_t)299 = 43, so id 100 of a 300-row source reads row 43); a negative i64 id is kept by the min, and the source index left * dim_size * right + id * right + r is computed in size_t, so it wraps: the element it lands on when that lies in the source's storage from its start offset (id -1 of row l reads the last row of l - 1), unspecified before or past it; any id of an empty dim reads out of bounds (unspecified)",
		"candle 2a13b0f3: candle-metal-kernels/src/metal_src/indexing.metal:56-59 (sentinel, then min(input_ids[id_i], (INDEX_TYPENAME)(src_dim_size - 1))), :66-69 (src_i as size_t, the read)")
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
	if e.candleOnMetal() && !candleMetalCore(t.DType) && !(t.Rank() == 0 && a.Dim == nil && (op == "max" || op == "min")) {
		r := candleMetalKernels
		if t.Rank() == 0 {
			r = candleMetalReduceNoKernel
		}
		layout := "strided"
		if candleMetalReduceContiguous(t, reduce) {
			layout = "contiguous"
		}
		return e.fail(r, tensor.UnsupportedDType, "Metal %s reduce op %s %s not implemented", layout, candleReduceOpName[op], rustName(t.DType))
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

// candleReduceOpName is candle's ReduceOp as its Debug prints it (mean is a
// Sum, then an affine).
var candleReduceOpName = map[string]string{"sum": "Sum", "mean": "Sum", "max": "Max", "min": "Min",
	"argmax": "ArgMax", "argmin": "ArgMin"}

// candleSum is sum_keepdim / sum over the reduced dims.
func (e *evaluation) candleSum(t *tensor.Tensor, reduce []bool, keep bool) tensor.Outcome {
	e.use(candleSumKeepsDType)
	outShape, groups := rustReducedGroups(t.Shape, reduce)
	if e.candleOnMetal() && len(groups) == 0 {
		e.use(candleMetalSumEmptyOut)
		return tensor.PanicOutcome("attempt to divide by zero (reduce length / out_length with out_length = 0)")
	}
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
		var v float64
		var ok bool
		if e.candleOnMetal() {
			v, ok = e.candleMetalSum(xs, t.DType)
		} else {
			v, ok = rustExactSum(xs, t.DType)
		}
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
	src, modulus := t, 0
	if e.candleOnMetal() {
		src, modulus = candleMetalWithInit(t, wantMax), candleMetalArgModulus(t, reduce)
		if isArg && modulus > 0 && !reduce[len(reduce)-1] {
			e.use(candleMetalArgIndex)
		}
	}
	for o, g := range groups {
		var best int // the winner's element in src
		var index uint64
		if e.candleOnMetal() {
			best, index = candleMetalExtremum(src, g, modulus, wantMax)
			if best == t.Len() {
				e.use(candleMetalExtremumInit)
			}
		} else {
			k := 0
			for j := 1; j < len(g); j++ {
				if candleBetter(t, g[k], g[j], wantMax) {
					k = j
				}
			}
			best, index = g[k], uint64(k)
		}
		if isArg {
			out.SetUint(o, index)
		} else {
			out.SetBits(o, src.Bits(best))
		}
		if e.candleOnMetal() && t.DType.IsFloat() && candleMetalExtremumUnpinned(src, g, best, isArg) {
			out.SetUnspecified(o)
		}
	}
	return tensor.ValueOutcome(rustWithShape(out, rustSqueeze(outShape, reduce, keep)))
}

// candleMetalWithInit is t with one more element, at index t.Len(): the
// init value of Metal's fold (candle.metal.reduce.extremum-init),
// numeric_limits<T>::lowest() for max/argmax and max() for min/argmin.
func candleMetalWithInit(t *tensor.Tensor, wantMax bool) *tensor.Tensor {
	d, n := t.DType, t.Len()
	ext := tensor.New(d, n+1)
	for i := 0; i < n; i++ {
		ext.SetBits(i, t.Bits(i))
	}
	switch {
	case d.IsFloat() && wantMax:
		ext.SetFloat(n, -tensor.MaxFloat(d))
	case d.IsFloat():
		ext.SetFloat(n, tensor.MaxFloat(d))
	case wantMax && d.IsSigned():
		ext.SetInt(n, d.MinInt())
	case wantMax:
		ext.SetUint(n, 0)
	case d.IsSigned():
		ext.SetInt(n, d.MaxInt())
	default:
		ext.SetUint(n, d.MaxUint())
	}
	return ext
}

// candleMetalArgModulus is the last_dim Metal's arg kernels take each
// element's index modulo when reduce_op picks the contiguous kernel (the
// input's last dim; the index is then the flat index modulo it), or 0 for
// the strided kernel, whose index is the position in the reduced dims
// (candle.metal.reduce.arg-index-modulo-last-dim). The choice depends on
// t's layout: a view that is not contiguous takes the strided kernel.
func candleMetalArgModulus(t *tensor.Tensor, reduce []bool) int {
	if t.Rank() == 0 || !candleMetalReduceContiguous(t, reduce) {
		return 0
	}
	return t.Shape[t.Rank()-1]
}

// candleMetalReduceContiguous is reduce_op's choice of the contiguous
// kernels: t's layout is contiguous, and so are its dims reordered as
// (kept dims, reduced dims) with their strides (metal_backend/mod.rs:304-323
// at 2a13b0f3).
func candleMetalReduceContiguous(t *tensor.Tensor, reduce []bool) bool {
	if !candleLayoutContiguous(t) {
		return false
	}
	shape, strides := t.Shape, t.Strides
	if strides == nil {
		strides = tensor.ContiguousStrides(shape)
	}
	var dims, st []int
	for _, red := range []bool{false, true} { // kept dims, then reduced dims
		for k := range shape {
			if reduce[k] == red {
				dims, st = append(dims, shape[k]), append(st, strides[k])
			}
		}
	}
	return candleStridesContiguous(dims, st)
}

// candleStridesContiguous is candle's Shape::is_contiguous(stride): row
// major, where a dim of size 1 may have any stride (shape.rs:153-165).
func candleStridesContiguous(dims, strides []int) bool {
	acc := 1
	for k := len(dims) - 1; k >= 0; k-- {
		if dims[k] > 1 && strides[k] != acc {
			return false
		}
		acc *= dims[k]
	}
	return true
}

// candleMetalExtremum folds one group as Metal's kernels do: from the init
// element (index 0, at src.Len()-1), each element g[k] with its reported
// index (g[k] % modulus, or k when modulus is 0) replaces the current one
// when its value is better, or equal with a lower index. It returns the
// winner's element in src and the index the kernel reports.
func candleMetalExtremum(src *tensor.Tensor, g []int, modulus int, wantMax bool) (int, uint64) {
	best, index := src.Len()-1, uint64(0)
	for k, i := range g {
		idx := uint64(k)
		if modulus > 0 {
			idx = uint64(i % modulus)
		}
		tie := !candleBetter(src, best, i, wantMax) && !candleBetter(src, i, best, wantMax)
		if candleBetter(src, best, i, wantMax) || (tie && idx < index) {
			best, index = i, idx
		}
	}
	return best, index
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
// the kernel does not pin: a NaN in the group (fast math), or, for max and
// min, a ±0 extremum with zeros of both signs present (fast::max, simd_max:
// either zero). An arg reduction compares with > and == (reduce.metal:188-196
// at 2a13b0f3), under which -0 and +0 tie and the lower index wins: its index
// is pinned.
func candleMetalExtremumUnpinned(t *tensor.Tensor, g []int, best int, isArg bool) bool {
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
	return !isArg && t.Float(best) == 0 && pos && neg
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
		var acc exactSum
		for k, i := range row {
			acc.add(xs[k])
			v, ok := acc.value(d)
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
		if !candleLayoutContiguous(ids) {
			return e.fail(candleMetalIndexIDsContiguous, tensor.Other, "Metal index_select requires contiguous ids")
		}
		srcOK := candleMetalCore(src.DType)
		if !goodIDs || !srcOK {
			class := tensor.UnsupportedDType
			if !goodIDs {
				class = tensor.IndexDType
			}
			return e.fail(candleIndexIDs, class, "Metal contiguous index_select %s %s not implemented", rustName(ids.DType), rustName(src.DType))
		}
		if ids.DType == tensor.I64 && (src.DType == tensor.U8 || src.DType == tensor.U32) {
			return e.fail(candleMetalIndexNarrow, tensor.UnsupportedDType, "Metal error Error while loading function: is_i64_%s", src.DType)
		}
		if ids.Len()*tensor.NumElements(src.Shape[:d])*tensor.NumElements(src.Shape[d+1:]) == 0 {
			return e.candleMetalEmptyLaunch("index_select") // dst_el = ids * left * right
		}
	} else if !goodIDs {
		return e.fail(candleIndexIDs, tensor.IndexDType, "unsupported dtype %s for op index-select", rustName(src.DType))
	} else if !candleLayoutContiguous(src) {
		return e.fail(candleCPUIndexContiguous, tensor.Other, "index-select only supports contiguous tensors")
	}
	e.use(candleIndexIDs)
	return e.candleGather(src, ids, d)
}

// candleMetalClampBound is min(id, (I)(n - 1)) in the id type I (u8, u32
// or a non-negative i64 id), for n >= 1: the bound wraps in a narrow I.
func candleMetalClampBound(id uint64, n int, ids tensor.DType) uint64 {
	bound := uint64(n-1) & ids.MaxUint() // (I)(src_dim_size - 1)
	if ids.IsSigned() {
		bound = uint64(n - 1) // i64 holds every dim size
	}
	return min(id, bound)
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
			case e.candleOnMetal() && n == 0:
				e.use(candleIndexRange)
				unspecified = true
			case e.candleOnMetal() && ids.DType.IsSigned() && int64(id) < 0:
				e.use(candleMetalIndexClamp)
				row = int(int64(id)) // min(id, n - 1) keeps it; the offset wraps below
			case e.candleOnMetal():
				e.use(candleMetalIndexClamp)
				row = int(candleMetalClampBound(id, n, ids.DType))
			case id >= uint64(n):
				return e.fail(candleIndexRange, tensor.IndexOutOfRange, "index-select invalid index %d with dim size %d", id, n)
			default:
				row = int(id)
			}
			for r := 0; r < right; r++ {
				o := (l*ids.Len()+k)*right + r
				switch {
				case unspecified:
					out.SetUnspecified(o)
				case e.candleOnMetal():
					// src_i in size_t arithmetic: a negative row wraps
					at := uint64(l*n)*uint64(right) + uint64(int64(row))*uint64(right) + uint64(r)
					if !candleLayoutContiguous(src) {
						e.use(candleMetalIndexStrided)
					}
					pos, ok := candleMetalSourceElement(src, at, n)
					if ok {
						out.SetBits(o, src.Data[pos])
					} else {
						out.SetUnspecified(o)
					}
				default:
					out.SetBits(o, src.Bits((l*n+row)*right+r))
				}
			}
		}
	}
	return tensor.ValueOutcome(out)
}
