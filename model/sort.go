package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// sort and argsort in PyTorch, NumPy and JAX (spec "Ops and attrs added
// 2026-12": attrs dim -1, descending false, stable false when absent). The
// three differ in where NaN goes when descending (PyTorch and JAX: first,
// NumPy: last), in JAX's descending sort being the reverse of an ascending
// one (equal elements come out reversed), in the index dtype, in what a
// 0-dim input means, and in which devices leave -0.0 / +0.0 ties or NaN
// rows open. The orders themselves are in sortorder.go.

var (
	torchSortRule = newOpenRule("pytorch.sort",
		"torch.sort(t, dim, descending, stable) on the CPU: the comparator puts NaN after every number ascending ((!isnan(a) && isnan(b)) || a < b) and before every number descending, -0.0 equal to +0.0; stable=True is std::stable_sort (equal elements keep their input order), stable=False std::sort or x86-simd-sort (their order is unspecified); every real dtype has a kernel (bool, u16/u32/u64, f16, bf16 included), complex has none; the indices are int64; a 0-dim input is copied with index 0 before any kernel; dim wraps as maybe_wrap_dim (a 0-dim tensor takes -1 and 0)",
		"pytorch 019d41a4 aten/src/ATen/native/cpu/SortingKernel.cpp KeyValueCompAsc / KeyValueCompDesc, sort_kernel_impl (std::stable_sort if stable, else std::sort), can_use_xss_sort (not stable), _dim_apply (AT_DISPATCH_V2 kBool, kHalf, kBFloat16, AT_ALL_TYPES, AT_BAREBONES_UNSIGNED_TYPES); aten/src/ATen/native/Sorting.cpp TORCH_IMPL_FUNC(sort_stable_out) (0-dim: values.copy_, indices.zero_)")
	torchSortCUDA = newOpenRule("pytorch.cuda.sort",
		"torch.sort on CUDA: the same comparators in the bitonic kernel for short rows, cub's radix sort (stable) for long rows and stable=True; a complex input is a TypeError (\"Sort currently does not support complex dtypes on CUDA.\"), u16/u32/u64 have no kernel (AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16)); whether the radix key of -0.0 sorts before +0.0 no source here fixes: a group of equal elements holding both is unspecified",
		"pytorch 07e6f4ac aten/src/ATen/native/cuda/Sort.cpp sort_cuda_kernel (should_use_small_sort, complex TORCH_CHECK_TYPE); pytorch 061531e8 aten/src/ATen/native/cuda/SortStable.cu do_launch_stable_sort_kernel (AT_DISPATCH_ALL_TYPES_AND3, cub radix_sort_pairs); pytorch 018d6823 aten/src/ATen/native/cuda/Sort.cu sortKeyValueInplace (LTComp / GTComp with NaN handling)")
	torchSortMPS = newOpenRule("pytorch.mps.sort",
		"torch.sort on MPS runs MPSGraph sortWithTensor / argSortWithTensor on the input cast to int32, half or float (castToIHFTypes), ignoring stable: the order of equal elements, of -0.0 and +0.0, and where NaN goes are Apple's and unspecified here; u16/u32/u64 and complex inputs are not stated",
		"pytorch 0d29b8f5 aten/src/ATen/native/mps/operations/Sort.mm sort_stable_out_mps (values.copy_, 0-dim: indices.zero_, castToIHFTypes, sortWithTensor, argSortWithTensor)")
	numpySortRule = newOpenRule("numpy.sort",
		"np.sort / np.argsort(a, axis, stable=, descending=): `less` puts NaN after every number and holds -0.0 equal to +0.0; descending (NumPy 2.5) uses `greater`, which also puts NaN last (\"Values that are NaN are sorted to the end for both orders\"); complex is lexicographic with NaN parts last; stable=True is timsort or radix sort (equal elements keep their input order), otherwise introsort or a SIMD sort (their order is unspecified); argsort returns intp (int64); np.sort of a 0-dim array is an AxisError (axis -1 of 0 dims), np.argsort ravels it to shape (1,) first",
		"numpy v2.5.2 (48fecee5) numpy/_core/fromnumeric.py:942-1112 (sort: descending versionadded 2.5.0), :1116 (argsort); numpy/_core/src/common/numpy_tag.h floating_point_type / half_tag / complex_type less and greater; numpy/_core/src/npysort/npysort_methods.cpp sort_loop_ / argsort_loop_ (STABLE: radixsort or timsort, DEFAULT: quicksort_, DESCENDING: reverse = true); numpy/_core/src/multiarray/item_selection.c:3235 (PyArray_Sort: check_and_adjust_axis), numpy/_core/src/multiarray/ctors.c:2886-2931 (PyArray_CheckAxis ravels a 0-d array)")
	jaxSortRule = newOpenRule("jax.sort",
		"jnp.sort / jnp.argsort(a, axis, stable=, descending=) are lax.sort with a comparator that canonicalizes float keys (-0.0 to +0.0, every NaN to one NaN after +inf) and compares complex parts lexicographically; is_stable=stable (False: equal elements in an unspecified order); a descending sort is lax.rev of the ascending one, so NaN comes first and equal elements come out in reverse input order; a stable descending argsort reverses the input first and keeps equal elements in input order; argsort indices are the default int dtype (int32 with x64 off); a 0-dim input is a ValueError (canonicalize_axis)",
		"jax jax-v0.11.0 jax/_src/numpy/sorting.py:32-91 (sort: lax.sort, lax.rev if descending), :93-177 (argsort: int_dtype_for_dim then default_int_dtype, rev of arr and iota when descending and stable); jax/_src/lax/lax.py:8781-8837 (_canonicalize_float_for_sort, _sort_lt_comparator, _operands_to_keys); jax/_src/util.py:494-501 (canonicalize_axis)")
	pySortNotModeled = newRule("python.sort.not-modeled",
		"sort and argsort on MPS of u16/u32/u64 or complex inputs are not stated",
		"tfuzz").silent()
)

// pySort is sort or argsort in PyTorch, NumPy or JAX.
func (e *evaluation) pySort() tensor.Outcome {
	x := e.input(e.c.Args[0].Tensor)
	dim := e.c.Attrs.SortDim()
	desc, stable := e.c.Attrs.IsDescending(), e.c.Attrs.IsStable()
	switch e.p.Framework {
	case PyTorch:
		return e.torchSort(x, dim, desc, stable)
	case NumPy:
		e.use(numpySortRule)
		if x.Rank() == 0 {
			if e.c.Op == "sort" {
				return e.fail(numpySortRule, tensor.IndexOutOfRange, "AxisError: axis %d is out of bounds for array of dimension 0", dim)
			}
			x = x.Contiguous().Reshape(1) // PyArray_CheckAxis ravels it
		}
		d, ok := normalizeDim(dim, x.Rank())
		if !ok {
			return e.fail(numpySortRule, tensor.IndexOutOfRange, "AxisError: axis %d is out of bounds for array of dimension %d", dim, x.Rank())
		}
		order := rowOrder{elemOrder: nanLastOrder, ties: tiesOpen}
		if desc {
			order.elemOrder = nanLastDescOrder
		}
		if stable {
			order.ties = tiesInputOrder
		}
		return e.sortResult(sortRows(x, d, order), tensor.I64)
	}
	e.use(jaxSortRule)
	d, ok := normalizeDim(dim, x.Rank())
	if !ok {
		return e.fail(jaxSortRule, tensor.IndexOutOfRange, "ValueError: axis %d is out of bounds for array of dimension %d", dim, x.Rank())
	}
	order := rowOrder{elemOrder: jaxKeyOrder, ties: tiesOpen}
	switch {
	case desc && e.c.Op == "sort":
		// lax.rev of the ascending sort: NaN first, equal elements reversed
		order.elemOrder = reverse(jaxKeyOrder)
		if stable {
			order.ties = tiesReversed
		}
	case desc:
		order.elemOrder = reverse(jaxKeyOrder)
		if stable {
			order.ties = tiesInputOrder
		}
	case stable:
		order.ties = tiesInputOrder
	}
	return e.sortResult(sortRows(x, d, order), e.defaultInt())
}

// torchSort is torch.sort(t, dim, descending, stable) on the profile's device.
func (e *evaluation) torchSort(x *tensor.Tensor, dim int, desc, stable bool) tensor.Outcome {
	e.use(torchSortRule)
	if o := e.torchMPSF64([]pyArg{{t: x}}); o != nil {
		return *o
	}
	rank := max(x.Rank(), 1)
	d, ok := normalizeDim(dim, rank)
	if !ok {
		return e.fail(torchSortRule, tensor.IndexOutOfRange,
			"IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -rank, rank-1, dim)
	}
	order := rowOrder{elemOrder: nanLastOrder, ties: tiesOpen}
	if desc {
		order.elemOrder = nanFirstDescOrder
	}
	if stable {
		order.ties = tiesInputOrder
	}
	if x.Rank() > 0 {
		switch e.p.Device {
		case CPU:
			if x.DType.IsComplex() {
				return e.torchNoKernelError("sorting_kernel_method_name", x.DType)
			}
		case CUDA:
			e.use(torchSortCUDA)
			if x.DType.IsComplex() {
				return e.fail(torchSortCUDA, tensor.UnsupportedDType, "TypeError: Sort currently does not support complex dtypes on CUDA.")
			}
			if isBarebonesUnsigned(x.DType) {
				return e.torchNoKernelError("sort", x.DType)
			}
			order.openZeros = true
		default: // MPS
			e.use(torchSortMPS)
			if x.DType.IsComplex() || isBarebonesUnsigned(x.DType) {
				return e.unsupported(pySortNotModeled, "tfuzz: MPS sort of %s is not modeled", x.DType)
			}
			order.ties, order.openZeros, order.openNaNRows = tiesOpen, true, true
		}
	}
	return e.sortResult(sortRows(x, d, order), tensor.I64)
}

// sortResult is the values (sort) or the indices in dtype idx (argsort).
func (e *evaluation) sortResult(r sortedRows, idx tensor.DType) tensor.Outcome {
	if e.c.Op == "sort" {
		return tensor.ValueOutcome(r.values)
	}
	return tensor.ValueOutcome(indicesAs(r.indices, idx))
}

// indicesAs returns the I64 indices in dtype d (every index fits: rows are
// shorter than 2^31), "?" marks kept.
func indicesAs(ix *tensor.Tensor, d tensor.DType) *tensor.Tensor {
	if d == tensor.I64 {
		return ix
	}
	out := tensor.New(d, ix.Shape...)
	for i := range ix.Len() {
		out.SetInt(i, ix.Int(i))
		if ix.IsUnspecified(i) {
			out.SetUnspecified(i)
		}
	}
	return out
}
