package metal

import (
	"fmt"

	"github.com/tfuzz/tfuzz/tensor"
)

// The host of arg_sort_last_dim and gather on Metal, read at candle
// 2a13b0f3: ArgSort::metal_fwd (candle-core/src/sort.rs:172-250),
// call_arg_sort (candle-metal-kernels/src/kernels/sort.rs:8-44),
// MetalStorage::gather (candle-core/src/metal_backend/mod.rs:1456-1505)
// and call_gather (candle-metal-kernels/src/kernels/indexing.rs:61-104).

// argSort is ArgSort::metal_fwd of a contiguous x with ncols elements per
// row: the kernel named for every dtype (asort_asc_f64, _i16 and _i32
// too, which sort.metal does not define: an Err when the pipeline loads),
// nrows = el / ncols (a Rust division: ncols 0 panics), ncols_pad the next
// power of two, then one threadgroup of ncols_pad threads per row over a
// grid (1, nrows, 1), with ncols_pad * 4 bytes (at least 16) of
// threadgroup memory. The result is U32 indices of x's shape.
func (h *host) argSort(x devTensor, asc bool) (devTensor, error) {
	dir := "desc"
	if asc {
		dir = "asc"
	}
	name := "asort_" + dir + "_" + x.t.String()
	ncols := x.shape[len(x.shape)-1]
	el := x.numel()
	if ncols == 0 {
		return devTensor{}, errDivZero // nrows = el / ncols
	}
	nrows := el / ncols
	out, err := h.alloc(tUint, x.shape)
	if err != nil {
		return out, err
	}
	pad := 1
	for pad < ncols {
		pad *= 2
	}
	if err := h.load(name); err != nil {
		return out, err
	}
	g := Grid{Size: [3]int{1, nrows, 1}, Group: [3]int{pad, 1, 1}, Shared: []int{max(pad*4, 16)}}
	if err := h.dev.DispatchGrid(name, []Arg{x.arg(), out.arg(), Long(int64(ncols)), Long(int64(pad))}, g); err != nil {
		return out, fmt.Errorf("metal: %w", err)
	}
	return out, nil
}

// gatherKernels are the (ids, source) pairs MetalStorage::gather names a
// kernel for (mod.rs:1469-1486); any other pair bails.
var gatherKernels = func() map[[2]mslType]bool {
	m := map[[2]mslType]bool{}
	for _, p := range gatherPairs {
		m[p] = true
	}
	return m
}()

// gather is MetalStorage::gather of src along dim at ids (contiguous ids
// required, RequiresContiguous otherwise): the result has the ids' shape;
// the kernel reads src as contiguous from its offset, with src's dims
// (left, src_dim, right) and the ids' size along dim, over ids_size *
// left * right threads split by linear_split (zero divides by zero).
func (h *host) gather(src, ids devTensor, dim int) (devTensor, error) {
	if !ids.contiguous() {
		return devTensor{}, errf(tensor.Other, "gather requires a contiguous tensor")
	}
	nIDs := ids.shape[dim]
	out, err := h.alloc(src.t, ids.shape)
	if err != nil {
		return out, err
	}
	if !gatherKernels[[2]mslType{ids.t, src.t}] {
		return out, errf(tensor.UnsupportedDType, "Metal gather %s %s not implemented", rustDType(ids.t), rustDType(src.t))
	}
	left := tensor.NumElements(src.shape[:dim])
	right := tensor.NumElements(src.shape[dim+1:])
	n := nIDs * left * right // call_gather's dst_el
	name := "gather_" + ids.t.String() + "_" + src.t.String()
	return out, h.dispatchLinear(name, []Arg{SizeT(n), SizeT(left), SizeT(src.shape[dim]), SizeT(right), SizeT(nIDs),
		src.arg(), ids.arg(), out.arg()}, n)
}
