package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// index_select: PyTorch a.index_select(dim, idx), NumPy and JAX
// take(a, idx, axis=dim). The result holds the source's slices along dim at
// the indexed positions; the profiles differ in the index dtypes they take,
// in what a negative or out-of-range index means (error, wrap-around, fill,
// device-side assert) and in the result shape of a 0-dim or 2-D index.

var (
	pyIndexGather = newRule("python.index-select.gather",
		"index_select/take copies the source's slices along dim at the indexed positions; the result keeps the source dtype (after JAX x32 narrowing); PyTorch sets shape[dim] = idx.numel(), NumPy/JAX put idx.shape in place of dim (a 0-dim index drops the axis)",
		"oracle2-00175 ([2,3] dim 0 idx[4] -> [4,3]), oracle2-00432 ([2,3] dim 1 -> [2,4]), oracle2-00416; take's documented shape rule")
	pyIndexDim = newRule("python.index-select.dim",
		"dim is wrapped like every dim (-ndim <= dim < ndim, a 0-dim source counts as 1-D in PyTorch and NumPy, which ravels it); otherwise IndexError/AxisError",
		"ATen maybe_wrap_dim; NumPy PyArray_CheckAxis; jax canonicalize_axis (source; the oracle has dims 0 and 1 only)")
)

// pyIndexSelect evaluates index_select.
func (e *evaluation) pyIndexSelect() tensor.Outcome {
	src := e.input(e.c.Args[0].Tensor)
	idx := e.input(e.c.Args[1].Tensor)
	dim := 0
	if e.c.Attrs.Dim != nil {
		dim = *e.c.Attrs.Dim
	}
	rank := src.Rank()
	if rank == 0 && e.p.Framework != JAX {
		rank = 1
	}
	d, ok := normalizeDim(dim, rank)
	if !ok {
		return e.indexDimError(dim, rank)
	}
	if e.p.Framework == PyTorch {
		return e.torchIndexSelect(src, idx, d)
	}
	return e.takeIndexSelect(src, idx, d)
}

// indexDimError is the error of a dim outside the source's rank.
func (e *evaluation) indexDimError(dim, rank int) tensor.Outcome {
	if e.p.Framework == PyTorch {
		return e.fail(pyIndexDim, tensor.IndexOutOfRange,
			"IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -max(rank, 1), max(rank, 1)-1, dim)
	}
	return e.fail(pyIndexDim, tensor.IndexOutOfRange,
		"AxisError: axis %d is out of bounds for array of dimension %d", dim, rank)
}

// sourceShape is the source's shape with a 0-dim source seen as one element.
func sourceShape(src *tensor.Tensor) []int {
	if src.Rank() == 0 {
		return []int{1}
	}
	return src.Shape
}

// gatherAlong returns the tensor of the given shape whose slices along dim
// are src's slices at positions pos (in the index's row-major order); a
// negative position is a hole that fill sets.
func gatherAlong(src *tensor.Tensor, dim int, pos []int, shape []int, fill func(out *tensor.Tensor, i int)) *tensor.Tensor {
	s := sourceShape(src)
	outer, n, inner := tensor.NumElements(s[:dim]), s[dim], tensor.NumElements(s[dim+1:])
	out := tensor.New(src.DType, shape...)
	k := len(pos)
	for o := 0; o < outer; o++ {
		for j, p := range pos {
			for t := 0; t < inner; t++ {
				i := (o*k+j)*inner + t
				switch {
				case p < 0:
					fill(out, i)
				case src.DType.IsComplex():
					out.SetComplex(i, src.Complex((o*n+p)*inner+t))
				default:
					out.SetBits(i, src.Bits((o*n+p)*inner+t))
				}
			}
		}
	}
	return out
}

// indexValues returns the index elements as int64 (u64 above MaxInt64
// reinterpreted as negative, as a same-kind cast to intp does) and whether
// the index dtype is an integer or bool at all.
func indexValues(idx *tensor.Tensor) ([]int64, bool) {
	if idx.DType.IsFloat() || idx.DType.IsComplex() {
		return nil, false
	}
	v := make([]int64, idx.Len())
	for i := range v {
		v[i] = idx.Int(i)
	}
	return v, true
}

// --- PyTorch ------------------------------------------------------------------------------

var (
	torchIndexShape = newRule("pytorch.index-select.index-shape",
		"PyTorch index_select takes a 0-dim or 1-D index (IndexError \"Index is supposed to be a vector\"), and exactly one index for a 0-dim source (RuntimeError \"Index to scalar can have only 1 value\")",
		"ATen TensorAdvancedIndexing.cpp index_select_out_cpu_, cuda/Indexing.cu index_select_out_cuda_impl, mps/operations/Indexing.mm (source; no oracle case)")
	torchIndexDType = newRule("pytorch.index-select.index-dtype",
		"PyTorch CPU (and MPS) index_select checks the index dtype before the values: RuntimeError \"index_select(): Expected dtype int32 or int64 for index\"",
		"oracle-01129, oracle-01136, oracle2-00152, oracle2-00744, oracle2-01290, oracle2-01468 (i16 index with a bad value still IndexDType)")
	torchIndexDTypeCUDA = newRule("pytorch.cuda.index-select.index-dtype",
		"PyTorch CUDA dispatches index_select on the index dtype (AT_DISPATCH_INDEX_TYPES): NotImplementedError \"index_select_out_cuda_impl\" not implemented for '<index dtype>'; an empty result returns before the dispatch",
		"oracle-01129 ('Char'), oracle2-00152 ('UInt32'), oracle2-00599 ('Short'), oracle2-01199 ('Byte'): 26/26 name the index dtype; ATen cuda/Indexing.cu (empty output)")
	torchIndexBounds = newRule("pytorch.index-select.bounds",
		"PyTorch CPU index_select rejects idx < 0 and idx >= n (no wrap-around): for a source of 2+ dims along dim 1 all indices are checked first (RuntimeError \"INDICES element is out of DATA bounds, id=<idx> axis_dim=<n>\"), otherwise IndexError \"index out of range in self\"; for 2+ dims an empty index returns at once and an empty source only has its indices checked (\"self indexing axis dim should be positive\" when n = 0)",
		"oracle-01137, oracle-01139, oracle2-00654 (IndexError), oracle2-00688 (id=-1), oracle2-01256 (id=3); ATen index_select_out_cpu_ (empty cases)")
	torchIndexCUDAAssert = newRule("pytorch.cuda.index-select.device-assert",
		"PyTorch CUDA index_select does not check indices on the host: an index < 0 or >= n trips CUDA_KERNEL_ASSERT in the kernel, a device-side assert that poisons the CUDA context; assumed to end as a crash with SIGABRT (the oracle runner skipped these cases, so there is no recorded form)",
		"corpus/oracle/README.md (out-of-range index_select not run on CUDA); ATen cuda/Indexing.cu indexSelectSmallIndex/LargeIndex CUDA_KERNEL_ASSERT(srcIndex < srcSelectDimSize)")
	torchIndexMPS = newOpenRule("pytorch.mps.index-select.unchecked",
		"PyTorch MPS index_select runs MPSGraph gatherWithUpdatesTensor without a bounds check: slices at an index < 0 or >= n are unspecified",
		"ATen mps/operations/Indexing.mm index_select_out_mps (source; no MPS run)")
)

// torchIndexSelect evaluates a.index_select(d, idx); d is already wrapped.
func (e *evaluation) torchIndexSelect(src, idx *tensor.Tensor, d int) tensor.Outcome {
	if idx.Rank() > 1 {
		return e.fail(torchIndexShape, tensor.IndexOutOfRange, "IndexError: index_select(): Index is supposed to be a vector")
	}
	if src.Rank() == 0 && idx.Len() != 1 {
		return e.fail(torchIndexShape, tensor.ShapeMismatch,
			"RuntimeError: index_select(): Index to scalar can have only 1 value, got %d value(s)", idx.Len())
	}
	shape := append([]int{}, src.Shape...)
	if src.Rank() > 0 {
		shape[d] = idx.Len()
	}
	if idx.DType != tensor.I32 && idx.DType != tensor.I64 {
		if e.p.Device != CUDA {
			return e.fail(torchIndexDType, tensor.IndexDType, "RuntimeError: index_select(): Expected dtype int32 or int64 for index")
		}
		if tensor.NumElements(shape) > 0 {
			return e.fail(torchIndexDTypeCUDA, tensor.UnsupportedDType,
				"NotImplementedError: \"index_select_out_cuda_impl\" not implemented for '%s'", torchName(idx.DType))
		}
	}
	e.use(pyIndexGather)
	n := sourceShape(src)[d]
	vals, _ := indexValues(idx)
	pos, firstBad := make([]int, len(vals)), -1
	for j, v := range vals {
		pos[j] = int(v)
		if v < 0 || v >= int64(n) {
			pos[j] = -1
			if firstBad < 0 {
				firstBad = j
			}
		}
	}
	emptyOnGPU := e.p.Device != CPU && tensor.NumElements(shape) == 0 // no kernel runs
	if firstBad >= 0 && !emptyOnGPU {
		if out, failed := e.torchIndexOutOfRange(src, d, vals[firstBad], n); failed {
			return out
		}
	}
	return tensor.ValueOutcome(gatherAlong(src, d, pos, shape, func(out *tensor.Tensor, i int) { out.SetUnspecified(i) }))
}

// torchIndexOutOfRange is what each device does with an index outside [0, n)
// (bad is the first one); MPS goes on with unspecified slices.
func (e *evaluation) torchIndexOutOfRange(src *tensor.Tensor, d int, bad int64, n int) (tensor.Outcome, bool) {
	switch {
	case e.p.Device == CUDA:
		e.use(torchIndexCUDAAssert)
		return tensor.CrashOutcome("SIGABRT"), true
	case e.p.Device == MPS:
		e.use(torchIndexMPS)
		return tensor.Outcome{}, false
	case src.Rank() > 1 && n == 0:
		return e.fail(torchIndexBounds, tensor.IndexOutOfRange, "RuntimeError: index_select(): self indexing axis dim should be positive"), true
	case src.Rank() > 1 && (d == 1 || src.Len() == 0):
		return e.fail(torchIndexBounds, tensor.IndexOutOfRange,
			"RuntimeError: INDICES element is out of DATA bounds, id=%d axis_dim=%d", bad, n), true
	}
	return e.fail(torchIndexBounds, tensor.IndexOutOfRange, "IndexError: index out of range in self"), true
}

// --- NumPy and JAX take ----------------------------------------------------------------

var (
	numpyTakeIndex = newRule("numpy.take.index",
		"np.take casts the index to intp with same-kind casting (bool and every integer dtype pass, a u64 above 2^63-1 turns negative; a float raises TypeError \"Cannot cast array data from dtype('float32') to dtype('int64') according to the rule 'same_kind'\"); -n <= idx < 0 wraps around, anything else outside [0, n) raises IndexError \"index 3 is out of bounds for axis 0 with size 3\"",
		"oracle-01135 (float index), oracle-01136 (bool index = 0/1), oracle-01137, oracle-01139, oracle2-00688 (-1 -> last); NumPy PyArray_TakeFrom (u64 cast)")
	jaxTakeIndex = newRule("jax.take.index",
		"jnp.take takes bool and integer indices (a float raises ValueError \"indices must have an integer type\"); a signed -n <= idx < 0 wraps around",
		"oracle-01135, oracle-01136, oracle2-00568 (u8 index)")
	jaxTakeFill = newRule("jax.take.fill",
		"jnp.take's default mode is \"fill\": a slice at an index outside [-n, n) is filled with NaN (floats, complex), the dtype's minimum (signed) or maximum (unsigned), or True (bool); taking a non-empty index from an empty axis raises IndexError",
		"oracle-01137, oracle-01139, oracle2-01256, oracle2-01290 (NaN), oracle2-00654 (i64 -> MIN, i32 MIN on x32), oracle2-00744, oracle2-01468 (u8 -> 255); jnp.take documentation (bool fill, empty axis)")
)

// takeIndexSelect evaluates take(a, idx, axis=d) in NumPy and JAX.
func (e *evaluation) takeIndexSelect(src, idx *tensor.Tensor, d int) tensor.Outcome {
	rule := map[Framework]*Rule{NumPy: numpyTakeIndex, JAX: jaxTakeIndex}[e.p.Framework]
	vals, ok := indexValues(idx)
	if !ok {
		if e.p.Framework == NumPy {
			return e.fail(rule, tensor.IndexDType,
				"TypeError: Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'same_kind'", pyName(idx.DType))
		}
		return e.fail(rule, tensor.IndexDType, "ValueError: indices must have an integer type")
	}
	e.use(pyIndexGather)
	s := sourceShape(src)
	n := s[d]
	shape := append(append(append([]int{}, s[:d]...), idx.Shape...), s[d+1:]...)
	pos := make([]int, len(vals))
	for j, v := range vals {
		if idx.DType.IsUnsigned() && e.p.Framework == JAX && v < 0 {
			v = math.MaxInt64 // a large unsigned index never wraps in JAX
		}
		switch {
		case v >= 0 && v < int64(n):
			pos[j] = int(v)
		case v < 0 && v >= -int64(n):
			pos[j] = int(v) + n
		case e.p.Framework == NumPy:
			return e.fail(rule, tensor.IndexOutOfRange, "IndexError: index %d is out of bounds for axis %d with size %d", v, d, n)
		case n == 0:
			return e.fail(jaxTakeFill, tensor.IndexOutOfRange, "IndexError: Cannot do a non-empty jnp.take() from an empty axis.")
		default:
			e.use(jaxTakeFill)
			pos[j] = -1
		}
	}
	e.use(rule)
	return tensor.ValueOutcome(gatherAlong(src, d, pos, shape, takeFill))
}

// takeFill sets element i to JAX's fill value for its dtype.
func takeFill(out *tensor.Tensor, i int) {
	d := out.DType
	switch {
	case d.IsComplex():
		out.SetComplex(i, complex(math.NaN(), math.NaN()))
	case d.IsFloat():
		out.SetFloat(i, math.NaN())
	case d == tensor.Bool:
		out.SetBool(i, true)
	case d.IsSigned():
		out.SetInt(i, d.MinInt())
	default:
		out.SetUint(i, d.MaxUint())
	}
}
