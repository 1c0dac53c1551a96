package metal

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// sort_last_dim and arg_sort_last_dim on a Metal device (candle-core
// src/sort.rs:262-297 at 2a13b0f3) and the Tensor::gather that
// sort_last_dim ends with (candle-core/src/tensor.rs:1879-1909).

// frontSort is t.arg_sort_last_dim(asc) (argsort) or
// t.sort_last_dim(asc).0 (sort): the last dim only (candle has no other
// spelling: a dim attr naming another dim does not translate), then
// RequiresContiguous, then a rank-0 tensor's "empty last-dim in
// arg-sort", then ArgSort::metal_fwd; sort gathers x at the indices along
// the last dim. The stable attr changes nothing (candle's sort takes no
// such argument; the model ignores it too).
func (h *host) frontSort(c *tensor.Case) (devTensor, error) {
	x, err := h.upload(c.Args[0].Tensor)
	if err != nil {
		return devTensor{}, err
	}
	op := "arg_sort_last_dim"
	if c.Op == "sort" {
		op = "sort_last_dim"
	}
	last := max(len(x.shape)-1, 0)
	if d := c.Attrs.SortDim(); d != -1 && d != last {
		return devTensor{}, unsupported("candle sorts along the last dim only (%s), not dim %d of a rank-%d tensor", op, d, len(x.shape))
	}
	if !x.contiguous() {
		return devTensor{}, errf(tensor.Other, "%s requires a contiguous tensor", op)
	}
	if len(x.shape) == 0 {
		return devTensor{}, errf(tensor.Other, "empty last-dim in arg-sort")
	}
	ids, err := h.argSort(x, !c.Attrs.IsDescending())
	if err != nil || c.Op == "argsort" {
		return ids, err
	}
	return h.gather(x, ids, last)
}
