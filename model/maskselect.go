package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// mask_select: t[mask] in PyTorch, NumPy and JAX, t.mask_select(mask) in
// burn (spec "Ops and attrs added 2026-12"). A bool mask selects the
// slices of t's leading dims where it is true, in row-major order, and its
// shape must be theirs; what another dtype means is the framework's
// indexing rule: PyTorch reads a uint8 tensor as a mask too (with a
// warning) and int32/int64 as integer indices, NumPy and JAX read every
// integer dtype, uint8 included, as integer indices along dim 0. candle has
// no mask selection.

var (
	torchMaskSelect = newRule("pytorch.mask-select",
		"t[mask]: a bool or uint8 tensor is a mask (uint8 warns \"indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.\", nonzero is true) over t's leading mask.dim() dims, each size equal to t's (IndexError \"The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [4] at index 0\"); the result is the selected slices in row-major order, shape [count] + the rest; int32 and int64 tensors are integer indices along dim 0 (negative wrap once, IndexError \"index 5 is out of bounds for dimension 0 with size 3\"), shape index.shape + t.shape[1:]; other dtypes are IndexError \"tensors used as indices must be long, int, byte or bool tensors\"; the index's dims (a mask's rank, 1 for integers, counted before the dtype is looked at) beyond t's rank are IndexError \"too many indices\"; a 0-dim bool or uint8 index adds a dim of size 1 (true) or 0 (false), a 0-dim integer one selects t[i]",
		"seed 000 §下标的 dtype (row[uint8 [1, 0, 1]] -> float32 [10.0, 30.0] with the UserWarning, CPU and MPS); pytorch 049210a3 aten/src/ATen/native/IndexingUtils.h expandTensors (uint8 warning, invalid_mask, nonzero), checkIndexTensorTypes; torch/csrc/autograd/python_variable_indexing.cpp count_specified_dimensions (a byte/bool tensor counts its dims, any other 1) and applySlicing (too many indices, before any dtype check), aten/src/ATen/TensorIndexing.h handleDimInMultiDimIndexing (0-dim bool/byte: unsqueeze, 0-dim integer: applySelect)")
	torchMaskSelectDevice = newRule("pytorch.mask-select.device-index",
		"an integer index out of range on CUDA or MPS is checked in the device kernel (an assert, or no check), not on the host: not stated",
		"aten/src/ATen/native/cuda/IndexKernel.cu (CUDA_KERNEL_ASSERT in the index kernel); not modeled").silent()
	numpyMaskSelect = newRule("numpy.mask-select",
		"a[mask]: a bool array is a mask over a's leading mask.ndim axes (IndexError \"boolean index did not match indexed array along axis 0; size of axis is 4 but size of corresponding boolean axis is 3\"; a boolean axis of size 0 is not checked and selects nothing), every integer array (uint8 included) is an integer index along axis 0 (negative wrap once, IndexError \"index 5 is out of bounds for axis 0 with size 3\"), anything else is IndexError \"arrays used as indices must be of integer (or boolean) type\"; more index dims than a has is IndexError \"too many indices for array\"; a 0-d bool adds an axis of size 1 or 0, a 0-d integer array is the integer a[i]",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/mapping.c:500-540 (0-d bool: HAS_0D_BOOL), :541-573 (_nonzero_indices), :576-611 (integer arrays, 0-d integer as HAS_INTEGER), :616-630 (other dtypes), :683-693 (too many indices, after each index's dtype), :714-752 (the boolean shape check skips a size-0 boolean axis)")
	jaxMaskSelect = newRule("jax.mask-select",
		"x[mask] on a concrete array: a bool mask over x's leading mask.ndim axes (IndexError \"boolean index did not match shape of indexed array in index 0: got (3,), expected (4,)\"; a boolean axis of size 0 matches any) is replaced by np.where(mask), and the gather selects those slices in row-major order; every integer array (uint8 included) is an integer index along axis 0, gathered in mode fill: an index outside [-n, n) gives NaN, the dtype's minimum (signed), maximum (unsigned) or True; a float index is TypeError \"Indexer must have integer or boolean type\"; a 0-dim bool adds an axis of size 1 or 0",
		"jax jax-v0.11.0 jax/_src/numpy/indexing.py:70-108 (index types, the TypeError), :118-165 (_parse_indices: types, then \"Too many indices\"), :253-279 (expand_bool_indices: the shape check, np.where), :281-300 (expand_scalar_bool_indices), :1200-1235 (_gather: gather with mode None), jax/_src/lax/slicing.py:307-319 (mode None is FILL_OR_DROP)")
	pyMaskNotModeled = newRule("python.mask-select.not-modeled",
		"a 0-dim integer index in JAX (a dynamic integer index, clamped), and an integer index into an empty dim 0 in JAX, are not stated",
		"tfuzz").silent()
	candleNoMaskSelect = newRule("candle.no-mask-select",
		"candle has no mask selection: a Tensor is indexed with ranges (IndexOp, narrow), index_select, gather and where_cond, none of which takes a boolean mask and returns the selected elements",
		"candle 2a13b0f3 candle-core/src/tensor.rs (no masked_select), candle-core/src/indexer.rs (IndexOp over usize and ranges only); seed 000 §下标的 dtype (a candle U8 index is an index, not a mask)")
	burnMaskSelect = newRule("burn.mask-select",
		"t.mask_select(mask) takes a Bool tensor of t's rank (a mask of another kind or rank does not compile) and the same shape (else a panic \"The mask must have the same shape as the tensor.\"), and returns a 1-D tensor of t's dtype with the elements where the mask is true, in row-major order (bool_argwhere, then select)",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/base.rs:1785-1804 (mask_select, mask_select_async: Tensor<D, Bool>, check!), crates/burn-tensor/src/tensor/api/check.rs:928-941 (TensorCheck::mask_select), crates/burn-backend/src/backend/ops/tensor.rs:646-663 (float_mask_select: bool_argwhere, select)")
)

// pyMaskSelect is t[mask] in PyTorch, NumPy or JAX.
func (e *evaluation) pyMaskSelect() tensor.Outcome {
	x, m := e.input(e.c.Args[0].Tensor), e.input(e.c.Args[1].Tensor)
	rule := map[Framework]*Rule{PyTorch: torchMaskSelect, NumPy: numpyMaskSelect, JAX: jaxMaskSelect}[e.p.Framework]
	e.use(rule)
	if o := e.torchMPSF64([]pyArg{{t: x}, {t: m}}); o != nil {
		return *o
	}
	isMask := m.DType == tensor.Bool || e.p.Framework == PyTorch && m.DType == tensor.U8
	isInt := m.DType.IsInt() && !isMask
	if e.p.Framework == PyTorch && isInt && m.Rank() > 0 && m.DType != tensor.I32 && m.DType != tensor.I64 {
		isInt = false // int8, int16 and the unsigned types beyond uint8 are not index dtypes
	}
	used := 1 // the dims the index consumes
	if isMask {
		used = m.Rank()
	}
	// PyTorch counts the indexed dims before it looks at an index's dtype
	// (count_specified_dimensions); NumPy and JAX classify each index first
	if e.p.Framework == PyTorch && used > x.Rank() {
		return e.fail(rule, tensor.IndexOutOfRange, "IndexError: too many indices for tensor of dimension %d", x.Rank())
	}
	if !isMask && !isInt {
		return e.maskDTypeError(rule, m.DType)
	}
	if used > x.Rank() {
		if e.p.Framework == NumPy {
			return e.fail(rule, tensor.IndexOutOfRange, "IndexError: too many indices for array: array is %d-dimensional, but %d were indexed", x.Rank(), used)
		}
		return e.fail(rule, tensor.IndexOutOfRange, "IndexError: Too many indices: array is %d-dimensional, but %d were indexed", x.Rank(), used)
	}
	if m.Rank() == 0 {
		switch {
		case isMask:
			return tensor.ValueOutcome(scalarMaskSelect(x, isNonzero(m, 0)))
		case e.p.Framework == JAX:
			return e.unsupported(pyMaskNotModeled, "tfuzz: a 0-dim integer index in JAX is not modeled")
		}
		return e.maskIntegerIndex(x, rule, m.Int(0))
	}
	if isMask {
		if e.p.Framework == PyTorch && m.DType == tensor.U8 {
			e.warn("UserWarning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.")
		}
		for j, n := range m.Shape {
			if n == x.Shape[j] || n == 0 && e.p.Framework != PyTorch {
				continue
			}
			switch e.p.Framework {
			case PyTorch:
				return e.fail(rule, tensor.ShapeMismatch, "IndexError: The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d",
					candleShape(m.Shape), j, candleShape(x.Shape), j)
			case NumPy:
				return e.fail(rule, tensor.ShapeMismatch, "IndexError: boolean index did not match indexed array along axis %d; size of axis is %d but size of corresponding boolean axis is %d", j, x.Shape[j], n)
			}
			return e.fail(rule, tensor.ShapeMismatch, "IndexError: boolean index did not match shape of indexed array in index 0: got %s, expected %s", shapeTuple(m.Shape), shapeTuple(x.Shape[:m.Rank()]))
		}
		return tensor.ValueOutcome(boolMaskSelect(x, m))
	}
	return e.maskIntegerArray(x, m, rule)
}

func (e *evaluation) maskDTypeError(rule *Rule, d tensor.DType) tensor.Outcome {
	switch e.p.Framework {
	case PyTorch:
		return e.fail(rule, tensor.IndexDType, "IndexError: tensors used as indices must be long, int, byte or bool tensors")
	case NumPy:
		return e.fail(rule, tensor.IndexDType, "IndexError: arrays used as indices must be of integer (or boolean) type")
	}
	return e.fail(rule, tensor.IndexDType, "TypeError: Indexer must have integer or boolean type, got indexer with type %s", pyName(d))
}

// maskIntegerIndex is t[i] for a 0-dim integer index i of a tensor of
// rank 1 or more (PyTorch, NumPy).
func (e *evaluation) maskIntegerIndex(x *tensor.Tensor, rule *Rule, v int64) tensor.Outcome {
	p, o := e.indexPosition(rule, x.Shape[0], v)
	if o != nil {
		return *o
	}
	return tensor.ValueOutcome(gatherAlong(x, 0, []int{p}, x.Shape[1:], nil))
}

// maskIntegerArray is t[idx] for an integer index array along dim 0.
func (e *evaluation) maskIntegerArray(x, m *tensor.Tensor, rule *Rule) tensor.Outcome {
	n := x.Shape[0]
	if e.p.Framework == JAX && n == 0 && m.Len() > 0 {
		return e.unsupported(pyMaskNotModeled, "tfuzz: a JAX integer index into an empty dim is not modeled")
	}
	pos := make([]int, m.Len())
	for j := range pos {
		v := m.Int(j)
		if e.p.Framework == JAX && m.DType.IsUnsigned() && v < 0 {
			v = math.MaxInt64 // an unsigned index never wraps
		}
		p, o := e.indexPosition(rule, n, v)
		if o != nil {
			return *o
		}
		pos[j] = p
	}
	shape := append(append([]int{}, m.Shape...), x.Shape[1:]...)
	return tensor.ValueOutcome(gatherAlong(x, 0, pos, shape, takeFill))
}

// indexPosition wraps an index into a dim of n: -1 for JAX's fill, an
// error outcome where the framework raises one.
func (e *evaluation) indexPosition(rule *Rule, n int, v int64) (int, *tensor.Outcome) {
	switch {
	case v >= 0 && v < int64(n):
		return int(v), nil
	case v < 0 && v >= -int64(n):
		return int(v) + n, nil
	case e.p.Framework == JAX:
		return -1, nil
	case e.p.Framework == PyTorch && e.p.Device != CPU:
		return 0, outcomePtr(e.unsupported(torchMaskSelectDevice, "tfuzz: an out-of-range index on %s is not modeled", e.p.Device))
	case e.p.Framework == PyTorch:
		return 0, outcomePtr(e.fail(rule, tensor.IndexOutOfRange, "IndexError: index %d is out of bounds for dimension 0 with size %d", v, n))
	}
	return 0, outcomePtr(e.fail(rule, tensor.IndexOutOfRange, "IndexError: index %d is out of bounds for axis 0 with size %d", v, n))
}

// scalarMaskSelect is t[True] or t[False]: a new leading dim of size 1 or 0.
func scalarMaskSelect(x *tensor.Tensor, keep bool) *tensor.Tensor {
	n := 0
	if keep {
		n = 1
	}
	out := tensor.New(x.DType, append([]int{n}, x.Shape...)...)
	for i := range out.Len() {
		copyElem(out, i, x, i)
	}
	return out
}

// boolMaskSelect is t[mask] for a mask over t's leading dims (shapes
// checked; a mask dim of size 0 selects nothing): the slices where the
// mask is nonzero, in row-major order.
func boolMaskSelect(x, m *tensor.Tensor) *tensor.Tensor {
	rest := x.Shape[m.Rank():]
	slice := tensor.NumElements(rest)
	var picked []int
	for i := range m.Len() {
		if isNonzero(m, i) {
			picked = append(picked, i)
		}
	}
	out := tensor.New(x.DType, append([]int{len(picked)}, rest...)...)
	for k, p := range picked {
		for t := 0; t < slice; t++ {
			copyElem(out, k*slice+t, x, p*slice+t)
		}
	}
	return out
}

// burnMaskSelectOp is t.mask_select(mask): host is the mask as the case
// gives it (its dtype decides the Rust type), x and mask as burn holds them.
func (e *evaluation) burnMaskSelectOp(x, mask *tensor.Tensor) tensor.Outcome {
	e.use(burnMaskSelect)
	switch {
	case mask.DType != tensor.Bool:
		return e.unsupported(burnMaskSelect, "mask_select takes a Tensor<D, Bool>, not a %s tensor (does not compile)", mask.DType)
	case mask.Rank() != x.Rank():
		return e.unsupported(burnMaskSelect, "mask_select takes a mask of the tensor's rank %d, not %d (does not compile)", x.Rank(), mask.Rank())
	case !sameShape(mask.Shape, x.Shape):
		return tensor.PanicOutcome("Tensor Operation Error: Mask Select: The mask must have the same shape as the tensor. Tensor shape %v, mask shape %v.", x.Shape, mask.Shape)
	}
	return tensor.ValueOutcome(boolMaskSelect(x.Contiguous().Reshape(x.Len()), mask.Contiguous().Reshape(mask.Len())))
}
