package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// cat (case format, added 2026-12): torch.cat, np.concatenate,
// jnp.concatenate, candle Tensor::cat, burn Tensor::cat, each with its
// checks in its order and its dtype rule: PyTorch, NumPy and JAX promote the
// whole list, candle requires one dtype (Err), burn one Rust type (a
// different kind or rank does not compile). The elements are copied,
// converted to the result dtype by the framework's conversion.

var (
	torchCat = newRule("pytorch.cat",
		"torch.cat rejects a 0-dim tensor (RuntimeError), wraps dim against the first tensor that is not a legacy 1-D empty one (IndexError: Dimension out of range), promotes every tensor with result_type (uint16/32/64 with another integer: RuntimeError), skips 1-D tensors of size 0 in the shape checks (\"Tensors must have same number of dimensions\", \"Sizes of tensors must match except in dimension\"); the result has the first kept tensor's shape with the dims along dim summed ([0] when none is kept); every dtype has a copy kernel on the CPU and on CUDA",
		"pytorch aten/src/ATen/native/TensorShape.cpp@f2fb53a5 TORCH_PRECOMPUTE_META_FUNC(cat) (check_cat_no_zero_dim, legacy_cat_wrap_dim, result_type, cat_should_skip_tensor, check_cat_shape_except_dim), cat_out_cpu (copy_stub with promote_inputs_to_common_dtype); aten/src/ATen/native/cuda/Shape.cu (cat_out_cuda: AT_DISPATCH_V2 over AT_ALL_TYPES_AND_COMPLEX, kComplexHalf, kHalf, kBool, kBFloat16, AT_BAREBONES_UNSIGNED_TYPES)")
	torchCatMPS = newRule("pytorch.mps.cat.not-stated",
		"which dtypes the MPS cat (an MPSGraph concatenation) takes beyond the real floats, bool and the signed and 8-bit integers is not stated: complex and uint16/32/64 are left open",
		"pytorch aten/src/ATen/native/mps/operations/Shape.mm cat_out_mps; not modeled").silent()
	numpyCat = newRule("numpy.concatenate",
		"np.concatenate rejects a 0-d first array (ValueError: zero-dimensional arrays cannot be concatenated), checks axis against the first array's ndim (AxisError), then every array's ndim and every dim but axis against the first (ValueError), and casts every array to the result_type of all of them: PyArray_PromoteDTypeSequence, which puts the most generic DType first and lets it promote each other one (int8, uint8, float16 gives float16, where a pairwise left fold would give float32)",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/multiarraymodule.c:387-530 (PyArray_ConcatenateArrays: the checks in this order, PyArray_FindConcatenationDescriptor, PyArray_AssignArray per input), numpy/_core/src/multiarray/convert_datatype.c:1018-1022 (PyArray_ResultType), numpy/_core/src/multiarray/common_dtype.c:113-150 (reduce_dtypes_to_most_knowledgeable), :205-300 (PyArray_PromoteDTypeSequence), numpy/_core/src/multiarray/dtypemeta.c:1051-1115 (default_builtin_common_dtype: NotImplemented toward a larger type number)")
	jaxCat = newRule("jax.concatenate",
		"jnp.concatenate rejects a 0-d first array (ValueError), canonicalizes axis against it (ValueError: axis is out of bounds), promotes every array with promote_dtypes and calls lax.concatenate, which returns a single array as it is and otherwise rejects other ranks or shapes (TypeError)",
		"jax jax-v0.11.0 jax/_src/numpy/lax_numpy.py:4565-4579 (concatenate), jax/_src/lax/lax.py:2053-2060 (concatenate: one operand returned), :7167-7193 (_concatenate_shape_rule), jax/_src/util.py:494-501 (canonicalize_axis)")
	candleCat = newRule("candle.cat",
		"Tensor::cat(&[..], dim) returns a single tensor as it is (no check); otherwise dim must be below the first tensor's rank and every tensor's (Err DimOutOfRange), every rank must be the first's (UnexpectedNumberOfDims) and every dim but dim equal (ShapeMismatchCat), and only then every dtype the first's (Err \"dtype mismatch in cat\"); on Metal a copy of an f64 tensor that is not one contiguous block is an Err (no f64 copy2d kernel)",
		"candle 2a13b0f3 candle-core/src/tensor_cat.rs:21-77 (cat: the checks in this order), :154-235 (cat_contiguous: same_dtype per tensor, copy2d), candle-core/src/metal_backend/mod.rs:1778-1830 (copy2d: a blit when src_s == d2 and dst_s == d2, else a kernel for f32 f16 bf16 i64 i32 i16 u32 u8 only)")
	candleCatMetalOpen = newRule("candle.metal.cat.not-stated",
		"a Metal cat with an empty result, or of a tensor that is not contiguous, is not stated (zero-length blits and the strided copy kernels were not read)",
		"candle 2a13b0f3 candle-core/src/metal_backend/mod.rs copy_strided_src; not modeled").silent()
	burnCat = newRule("burn.cat",
		"Tensor::cat(vec![..], dim) takes tensors of one Rust type (one kind and rank: anything else does not compile); dim may be negative, out of range it panics, a shape that differs outside dim panics (\"Can't concatenate tensors with different shapes\"); tensors of size 0 along dim are dropped, and when all are, the result is an empty tensor of the first one's shape with 0 along dim",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/base.rs:2484-2510 (cat: unwrap_dim_index, TensorCheck::cat, the empty filter), crates/burn-tensor/src/tensor/api/check.rs:594-628 (TensorCheck::cat)")
	burnCatMixed = newRule("burn.cat.mixed-dtypes",
		"a burn cat of tensors of one kind but different element types (a program's casts) is not stated",
		"burn 2c06be35 crates/burn-flex/src/ops/cat.rs; not modeled").silent()
)

// catTensors returns the cat's tensors as the framework holds them.
func (e *evaluation) catTensors() []*tensor.Tensor {
	ts := make([]*tensor.Tensor, len(e.c.Args))
	for i, a := range e.c.Args {
		ts[i] = a.Tensor
		if e.p.Framework == PyTorch || e.p.Framework == NumPy || e.p.Framework == JAX {
			ts[i] = e.input(a.Tensor)
		}
	}
	return ts
}

// pyCat is torch.cat, np.concatenate or jnp.concatenate.
func (e *evaluation) pyCat() tensor.Outcome {
	ts := e.catTensors()
	var args []pyArg
	for _, t := range ts {
		args = append(args, pyArg{t: t})
	}
	if o := e.torchMPSF64(args); o != nil {
		return *o
	}
	dim := *e.c.Attrs.Dim
	if e.p.Framework == PyTorch {
		return e.torchCatOp(ts, args, dim)
	}
	r := catRule(e.p.Framework)
	e.use(r)
	first := ts[0]
	if first.Rank() == 0 {
		return e.fail(r, tensor.ShapeMismatch, "ValueError: zero-dimensional arrays cannot be concatenated")
	}
	d, ok := normalizeDim(dim, first.Rank())
	if !ok {
		return e.fail(r, tensor.IndexOutOfRange, "AxisError: axis %d is out of bounds for array of dimension %d", dim, first.Rank())
	}
	if len(ts) > 1 {
		if bad := catShapeMismatch(ts, d, nil); bad >= 0 {
			return e.fail(r, tensor.ShapeMismatch, "ValueError: all the input array dimensions except for the concatenation axis must match exactly (the array at index %d has shape %v, the first %v)", bad, ts[bad].Shape, first.Shape)
		}
	}
	common, _ := e.pyPromote(args)
	if e.p.Framework == NumPy && len(ts) > 2 {
		var ok bool
		if common, ok = numpyPromoteSequence(ts); !ok {
			return e.unsupported(numpyCatBF16, "tfuzz: not modeled: np.concatenate of bfloat16 with two or more other dtypes")
		}
	}
	return tensor.ValueOutcome(e.catValues(ts, d, common, nil))
}

var numpyCatBF16 = newRule("numpy.concatenate.bf16-sequence",
	"how ml_dtypes' bfloat16 DType takes part in NumPy's promotion of three or more dtypes (its __common_dtype__ against the legacy ones, in PyArray_PromoteDTypeSequence) is not stated",
	"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/common_dtype.c:205-300; ml_dtypes not read").silent()

// numpyTypeNum is NumPy's type number of a builtin dtype on Linux x86-64
// (int64 is NPY_LONG, half comes after every other type); -1 for bf16.
func numpyTypeNum(d tensor.DType) int {
	n, ok := map[tensor.DType]int{tensor.Bool: 0, tensor.I8: 1, tensor.U8: 2, tensor.I16: 3, tensor.U16: 4, tensor.I32: 5, tensor.U32: 6,
		tensor.I64: 7, tensor.U64: 8, tensor.F32: 11, tensor.F64: 12, tensor.C64: 14, tensor.C128: 15, tensor.F16: 23}[d]
	if !ok {
		return -1
	}
	return n
}

// numpyCommonDType is a builtin DType's __common_dtype__: NotImplemented
// (ok false) when the other has a larger type number, else the table's.
func numpyCommonDType(a, b tensor.DType) (tensor.DType, bool) {
	if numpyTypeNum(b) > numpyTypeNum(a) {
		return tensor.Invalid, false
	}
	return numpyPromoteTypes(a, b), true
}

// numpyPromoteSequence is PyArray_PromoteDTypeSequence over the arrays'
// dtypes: reduce_dtypes_to_most_knowledgeable moves the most generic DType
// to the front (pairing the i-th with the i-th from the end, recursively),
// then that main DType promotes each other one and the results are
// combined. It differs from a left fold: int8, uint8, float16 gives
// float16, not float32. ok is false with bf16 among three or more dtypes.
func numpyPromoteSequence(ts []*tensor.Tensor) (tensor.DType, bool) {
	dts := make([]tensor.DType, len(ts))
	distinct := map[tensor.DType]bool{}
	for i, t := range ts {
		dts[i] = t.DType
		distinct[t.DType] = true
	}
	if distinct[tensor.BF16] && len(distinct) > 2 {
		return tensor.Invalid, false
	}
	if distinct[tensor.BF16] {
		var r tensor.DType
		for d := range distinct {
			r = d
		}
		for d := range distinct {
			r = numpyPromoteTypes(r, d)
		}
		return r, true
	}
	const cleared = tensor.Invalid
	var reduce func(n int) (tensor.DType, bool) // (result, implemented)
	reduce = func(n int) (tensor.DType, bool) {
		half := n / 2
		var res tensor.DType
		impl := true
		for low := 0; low < half; low++ {
			high := n - 1 - low
			switch {
			case dts[high] == dts[low]:
				res, impl = dts[low], true
			default:
				res, impl = numpyCommonDType(dts[low], dts[high])
			}
			if !impl {
				dts[low], dts[high] = dts[high], dts[low]
			} else if res == dts[low] {
				dts[high] = cleared
			}
		}
		if n == 2 {
			return res, impl
		}
		return reduce(n - half)
	}
	result, impl := reduce(len(dts))
	main := dts[0]
	start := 2
	if !impl {
		result, start = cleared, 1
	}
	for i := start; i < len(dts); i++ {
		if dts[i] == cleared {
			continue
		}
		promotion, _ := numpyCommonDType(main, dts[i])
		if result == cleared {
			result = promotion
		} else {
			result = numpyPromoteTypes(result, promotion)
		}
	}
	return result, true
}

func catRule(f Framework) *Rule {
	if f == NumPy {
		return numpyCat
	}
	return jaxCat
}

// catShapeMismatch returns the index of the first tensor (skip excluded)
// whose rank or dims other than dim differ from the first kept one's, or -1.
func catShapeMismatch(ts []*tensor.Tensor, dim int, skip func(*tensor.Tensor) bool) int {
	ref := -1
	for i, t := range ts {
		if skip != nil && skip(t) {
			continue
		}
		if ref < 0 {
			ref = i
			continue
		}
		r := ts[ref]
		if t.Rank() != r.Rank() {
			return i
		}
		for k := range t.Shape {
			if k != dim && t.Shape[k] != r.Shape[k] {
				return i
			}
		}
	}
	return -1
}

// torchSkipped is cat_should_skip_tensor: a legacy 1-D tensor of size 0.
func torchSkipped(t *tensor.Tensor) bool { return t.Rank() == 1 && t.Shape[0] == 0 }

// torchCatOp is torch.cat(tensors, dim).
func (e *evaluation) torchCatOp(ts []*tensor.Tensor, args []pyArg, dim int) tensor.Outcome {
	e.use(torchCat)
	for i, t := range ts {
		if t.Rank() == 0 {
			return e.fail(torchCat, tensor.ShapeMismatch, "RuntimeError: zero-dimensional tensor (at position %d) cannot be concatenated", i)
		}
	}
	valid := -1
	for i, t := range ts {
		if !torchSkipped(t) {
			valid = i
			break
		}
	}
	d := dim
	if valid >= 0 {
		r := ts[valid].Rank()
		var ok bool
		if d, ok = normalizeDim(dim, r); !ok {
			return e.fail(torchCat, tensor.IndexOutOfRange, "IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, dim)
		}
	}
	common, o := e.pyPromote(args)
	if o != nil {
		return *o
	}
	if e.p.Device == MPS && (common.IsComplex() || isBarebonesUnsigned(common)) {
		return e.unsupported(torchCatMPS, "tfuzz: not modeled: torch.cat of %s on MPS", common)
	}
	if valid < 0 {
		return tensor.ValueOutcome(tensor.New(common, 0))
	}
	if bad := catShapeMismatch(ts, d, torchSkipped); bad >= 0 {
		if ts[bad].Rank() != ts[valid].Rank() {
			return e.fail(torchCat, tensor.ShapeMismatch, "RuntimeError: Tensors must have same number of dimensions: got %d and %d", ts[valid].Rank(), ts[bad].Rank())
		}
		return e.fail(torchCat, tensor.ShapeMismatch, "RuntimeError: Sizes of tensors must match except in dimension %d (tensor number %d in the list has shape %v, the first %v)", d, bad, ts[bad].Shape, ts[valid].Shape)
	}
	return tensor.ValueOutcome(e.catValues(ts, d, common, torchSkipped))
}

// catValues concatenates ts (those skip drops excluded) along dim,
// converting each element to d; the shape is the first kept tensor's.
func (e *evaluation) catValues(ts []*tensor.Tensor, dim int, d tensor.DType, skip func(*tensor.Tensor) bool) *tensor.Tensor {
	var kept []*tensor.Tensor
	for _, t := range ts {
		if skip == nil || !skip(t) {
			kept = append(kept, e.convertCatInput(t, d))
		}
	}
	shape := append([]int{}, kept[0].Shape...)
	shape[dim] = 0
	for _, t := range kept {
		shape[dim] += t.Shape[dim]
	}
	out := tensor.New(d, shape...)
	outer := tensor.NumElements(shape[:dim])
	inner := tensor.NumElements(shape[dim+1:])
	cell := 0
	for o := 0; o < outer; o++ {
		for _, t := range kept {
			n := t.Shape[dim] * inner
			for j := 0; j < n; j++ {
				copyElem(out, cell, t, o*n+j)
				cell++
			}
		}
	}
	return out
}

// convertCatInput is t converted to d (as the framework's copy converts), or t.
func (e *evaluation) convertCatInput(t *tensor.Tensor, d tensor.DType) *tensor.Tensor {
	if t.DType == d {
		return t
	}
	return e.convertArg(pyArg{t: t}, d)
}

// candleCatOp is Tensor::cat(&[..], dim).
func (e *evaluation) candleCatOp() tensor.Outcome {
	e.use(candleCat)
	ts := e.catTensors()
	if len(ts) == 1 {
		return tensor.ValueOutcome(ts[0].Contiguous())
	}
	first := ts[0]
	d, o := e.candleDim(*e.c.Attrs.Dim, first.Rank(), "cat", first.Shape)
	if o != nil {
		return *o
	}
	for _, t := range ts {
		if d >= t.Rank() {
			return e.fail(candleDimRange, tensor.IndexOutOfRange, "cat: dimension index %d out of range for shape %v", d, t.Shape)
		}
	}
	if bad := catShapeMismatch(ts, d, nil); bad >= 0 {
		if ts[bad].Rank() != first.Rank() {
			return e.fail(candleCat, tensor.ShapeMismatch, "unexpected rank, expected: %d, got: %d (%s)", first.Rank(), ts[bad].Rank(), candleShape(ts[bad].Shape))
		}
		return e.fail(candleCat, tensor.ShapeMismatch, "shape mismatch in cat for dim %d, shape for arg 1: %s shape for arg %d: %s", d, candleShape(first.Shape), bad+1, candleShape(ts[bad].Shape))
	}
	for _, t := range ts {
		if t.DType != first.DType {
			return e.fail(candleCat, tensor.DTypeMismatch, "dtype mismatch in cat, lhs: %s, rhs: %s", rustName(first.DType), rustName(t.DType))
		}
	}
	if e.candleOnMetal() {
		out := e.catValues(ts, d, first.DType, nil)
		if out.Len() == 0 || !allCandleContiguous(ts) {
			return e.unsupported(candleCatMetalOpen, "tfuzz: not modeled: a Metal cat with an empty result or a strided input")
		}
		if first.DType == tensor.F64 && candleCatCopies(ts, d) {
			return e.fail(candleCat, tensor.UnsupportedDType, "Metal copy2d F64 not implemented")
		}
		return tensor.ValueOutcome(out)
	}
	return tensor.ValueOutcome(e.catValues(ts, d, first.DType, nil))
}

func allCandleContiguous(ts []*tensor.Tensor) bool {
	for _, t := range ts {
		if !candleLayoutContiguous(t) {
			return false
		}
	}
	return true
}

// candleCatCopies reports whether a Metal cat of contiguous tensors runs
// the copy2d kernel for some tensor: one with elements whose block is not
// the whole output (src_s == d2 always; dst_s == d2 only when it alone
// fills dim).
func candleCatCopies(ts []*tensor.Tensor, dim int) bool {
	total := 0
	for _, t := range ts {
		total += t.Shape[dim]
	}
	for _, t := range ts {
		if t.Len() > 0 && t.Shape[dim] != total {
			return true
		}
	}
	return false
}

// burnCatOp is Tensor::cat(vec![..], dim) of converted burn tensors.
func (e *evaluation) burnCatOp(ts []*tensor.Tensor) tensor.Outcome {
	e.use(burnCat)
	first := ts[0]
	for _, t := range ts {
		if burnKind(t.DType) != burnKind(first.DType) || t.Rank() != first.Rank() {
			return e.unsupported(burnCat, "mismatched types: a Vec<Tensor<B, %d, _>> of %s holds a rank-%d %s tensor (E0308)", first.Rank(), rustName(first.DType), t.Rank(), rustName(t.DType))
		}
	}
	d, ok := normalizeDim(*e.c.Attrs.Dim, first.Rank())
	if !ok {
		return tensor.PanicOutcome("Cat: dimension %d is out of bounds for rank %d", *e.c.Attrs.Dim, first.Rank())
	}
	if bad := catShapeMismatch(ts, d, nil); bad >= 0 {
		return tensor.PanicOutcome("=== Tensor Operation Error ===\n  Operation: 'Cat'\n  Reason:\n    1. Can't concatenate tensors with different shapes, except for the provided dimension")
	}
	for _, t := range ts {
		if t.DType != first.DType {
			return e.unsupported(burnCatMixed, "tfuzz: not modeled: a burn cat of %s and %s", rustName(first.DType), rustName(t.DType))
		}
	}
	return tensor.ValueOutcome(e.catValues(ts, d, first.DType, nil))
}
