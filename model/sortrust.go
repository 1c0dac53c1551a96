package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// sort and argsort in candle (sort_last_dim / arg_sort_last_dim: the last
// dim only, no stable argument) and burn (sort, sort_descending, argsort,
// argsort_descending: any dim, unstable, Rust's total_cmp order). tenferro
// states neither (tenferro.unspecified, in evalTenferro).

var (
	candleSortRule = newRule("candle.sort-last-dim",
		"t.sort_last_dim(asc) and t.arg_sort_last_dim(asc) sort along the last dim only (no other dim has a spelling) and take no stable argument; a non-contiguous tensor is an Err (RequiresContiguous), a 0-dim one an Err \"empty last-dim in arg-sort\", a last dim of size 0 panics in rayon (\"chunk_size must not be zero\"); on the CPU each row's U32 indices are sorted with slice::sort_by by partial_cmp (a > b reversed for descending), a stable sort: equal elements, -0.0 and +0.0 included, keep their input order in both directions; the kernels cover U8 U32 I16 I32 I64 BF16 F16 F32 F64; sort_last_dim gathers the values at the indices",
		"candle 2a13b0f3 candle-core/src/sort.rs:10-56 (ArgSort::asort: par_chunks_exact_mut(last_dim), sort_by with partial_cmp().unwrap_or(Greater), the descending closure's swapped arguments), :126-150 (cpu_fwd dtypes), :262-305 (arg_sort_last_dim: is_contiguous, dims().last(); sort_last_dim: gather); Rust core slice::sort_by (\"This sort is stable\"); rayon ParallelSliceMut::par_chunks_exact_mut (assert chunk_size != 0)")
	candleSortNaN = newRule("candle.sort.nan-not-total",
		"with a NaN in a row, candle's comparator partial_cmp(..).unwrap_or(Greater) is not a total order, and Rust's sort_by then may return any permutation or panic: not stated",
		"candle 2a13b0f3 candle-core/src/sort.rs:33-52; Rust core slice::sort_by (\"May panic if compare does not implement a total order\")").silent()
	candleSortMetal = newOpenRule("candle.metal.sort",
		"on Metal arg_sort_last_dim runs the bitonic kernel asort_asc_T / asort_desc_T over one threadgroup of ncols_pad (the next power of two) threads per row, comparing with > and <: equal elements come out in an unspecified order and a row with a NaN is unspecified; sort.metal defines the kernel for f32 f16 u8 u32 i64 bf16 only, so f64, i16 and i32 fail when the pipeline loads; sort_last_dim then gathers with U32 ids, which Metal's gather names for f32 f16 bf16 u32 i64 only (U8: Err \"Metal gather U32 U8 not implemented\")",
		"candle 2a13b0f3 candle-core/src/sort.rs:170-240 (metal_fwd: asort names per dtype, ncols_pad, call_arg_sort), candle-metal-kernels/src/metal_src/sort.metal (argsort<order, T>, ARGSORT instances), candle-metal-kernels/src/kernels/sort.rs:8-44 (call_arg_sort: one threadgroup of ncols_pad per row), candle-core/src/metal_backend/mod.rs:1456-1487 (gather kernel names)")
	candleSortMetalSilent = newRule("candle.metal.sort.not-modeled",
		"on Metal, rows longer than 1024 (more threads than a threadgroup holds) and tensors of zero elements (a dispatch of no threadgroups, then nrows = el / ncols) are not stated",
		"candle 2a13b0f3 candle-core/src/sort.rs:220-230; Metal's maxTotalThreadsPerThreadgroup (1024 on Apple GPUs)").silent()
	burnSortRule = newOpenRule("burn.sort",
		"sort / sort_descending / argsort / argsort_descending (dim negative from the end; out of range panics) exist for Float and Int tensors, not Bool; both backends sort each slice with sort_unstable_by by total_cmp (floats: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN, NaNs of one sign ordered by a payload the case format does not encode, so their order among themselves is left open; f16 and bf16 through f32 on Flex) or Ord, reversed for descending: the values are fixed, the indices of equal elements are not (there is no stable sort); argsort of a Float tensor returns the device's Int dtype (Flex I32, ndarray I64); on Flex argsort of an Int tensor returns the kernel's isize indices uncast (I64), on ndarray the input's own dtype",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/orderable.rs:40-190 (sort, sort_descending, argsort, argsort_descending: unwrap_dim_index; \"This sort is unstable\"), crates/burn-tensor/src/tensor/kind.rs:19 (Ordered: Numeric kinds), crates/burn-tensor/src/bridge/ops/float.rs:676-694 (float_argsort with settings.int_dtype), bridge/ops/int.rs:368-370; crates/burn-flex/src/ops/sort.rs:40-98 (total_cmp, Ord::cmp, sort_unstable_by), crates/burn-flex/src/ops/mod.rs:11 (INDEX_DTYPE I64), crates/burn-flex/src/ops/int.rs:1053-1055 (no cast); crates/burn-backend/src/backend/ops/sort.rs (ndarray's default: compare = ElementComparison::cmp, sort_unstable_by), crates/burn-std/src/element/base.rs:195-299 (cmp = total_cmp), crates/burn-backend/src/backend/ops/int_tensor.rs:1501-1510 (int_argsort: the input's dtype)")
)

// candleSort is t.sort_last_dim(asc) or t.arg_sort_last_dim(asc).
func (e *evaluation) candleSort() tensor.Outcome {
	e.use(candleSortRule)
	x := e.c.Args[0].Tensor
	dim := e.c.Attrs.SortDim()
	if last := max(x.Rank()-1, 0); dim != -1 && dim != last {
		return e.unsupported(candleSortRule, "candle sorts along the last dim only (sort_last_dim), not dim %d of a rank-%d tensor", dim, x.Rank())
	}
	if !candleLayoutContiguous(x) {
		return e.fail(candleSortRule, tensor.Other, "%s requires a contiguous tensor", candleSortName(e.c.Op))
	}
	if x.Rank() == 0 {
		return e.fail(candleSortRule, tensor.Other, "empty last-dim in arg-sort")
	}
	desc := e.c.Attrs.IsDescending()
	order := rowOrder{elemOrder: numericOrder, ties: tiesInputOrder}
	if desc {
		order.elemOrder = reverse(numericOrder)
	}
	if e.candleOnMetal() {
		e.use(candleSortMetal)
		ncols := x.Shape[x.Rank()-1]
		if x.Len() == 0 || ncols > 1024 {
			return e.unsupported(candleSortMetalSilent, "tfuzz: candle Metal sort of %v is not modeled", x.Shape)
		}
		switch x.DType {
		case tensor.F64, tensor.I16, tensor.I32:
			dir := map[bool]string{false: "asc", true: "desc"}[desc]
			return e.fail(candleSortMetal, tensor.UnsupportedDType, "Metal error Error while loading function: asort_%s_%s", dir, x.DType)
		case tensor.U8:
			if e.c.Op == "sort" {
				return e.fail(candleSortMetal, tensor.UnsupportedDType, "Metal gather U32 U8 not implemented")
			}
		}
		order.ties, order.openNaNRows = tiesOpen, true
	} else {
		if x.Shape[x.Rank()-1] == 0 {
			return tensor.PanicOutcome("chunk_size must not be zero")
		}
		if x.DType.IsFloat() {
			for i := range x.Len() {
				if isNaNElem(x, i) {
					return e.unsupported(candleSortNaN, "tfuzz: candle sort of a row holding NaN is not stated (the comparator is not a total order)")
				}
			}
		}
	}
	return e.sortResult(sortRows(x, x.Rank()-1, order), tensor.U32)
}

func candleSortName(op string) string {
	if op == "sort" {
		return "sort_last_dim"
	}
	return "arg_sort_last_dim"
}

// burnSort is sort / sort_descending / argsort / argsort_descending of a
// burn tensor (x as burn holds it; host is the dtype of its host data).
func (e *evaluation) burnSort(x *tensor.Tensor) tensor.Outcome {
	e.use(burnSortRule)
	if x.DType == tensor.Bool {
		return e.unsupported(burnKinds, "burn's Bool tensors have no %s (Ordered is implemented for Float and Int)", e.c.Op)
	}
	dim := e.c.Attrs.SortDim()
	d, ok := normalizeDim(dim, x.Rank())
	if !ok {
		return tensor.PanicOutcome("Tensor Operation Error: Sort: dimension %d out of bounds: 0..%d", dim, x.Rank())
	}
	order := rowOrder{elemOrder: totalOrder, ties: tiesOpen}
	if e.c.Attrs.IsDescending() {
		order.elemOrder = reverse(totalOrder)
	}
	idx := x.DType // ndarray's int_argsort: the input's dtype
	switch {
	case x.DType.IsFloat():
		idx = e.burnIntDType()
	case e.burnFlex():
		idx = tensor.I64
	}
	return e.sortResult(sortRows(x, d, order), idx)
}
