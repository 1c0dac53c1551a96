package metal

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// Tensor::cat on a Metal device (candle-core/src/tensor_cat.rs at
// 2a13b0f3): the checks, then cat_contiguous (one copy2d per tensor) when
// every tensor is contiguous or has an outer stride for dim, else cat0
// (copy_strided_src per tensor) along dim 0, or along dim through
// transpose(0, dim) views.

// frontCat is Tensor::cat(&[..], dim) (tensor_cat.rs:21-77): one tensor
// returns itself; then dim against the first tensor's shape, every
// tensor's rank above dim (check_dim), every rank the first's and every
// dim but dim the first's; the dtypes are compared per tensor in the copy.
func (h *host) frontCat(c *tensor.Case) (devTensor, error) {
	xs, err := h.uploadArgs(c)
	if err != nil {
		return devTensor{}, err
	}
	first := xs[0]
	if len(xs) == 1 {
		return first, nil
	}
	dim, err := dimIndex(*c.Attrs.Dim, len(first.shape), "cat", first.shape)
	if err != nil {
		return devTensor{}, err
	}
	for _, x := range xs {
		if dim >= len(x.shape) {
			return devTensor{}, errf(tensor.IndexOutOfRange, "cat: dimension index %d out of range for shape %s", dim, candleShape(x.shape))
		}
	}
	if err := catShapes(xs, dim); err != nil {
		return devTensor{}, err
	}
	copy2dAll := true
	for _, x := range xs {
		_, outer := outerStrideForDim(x, dim)
		copy2dAll = copy2dAll && (x.contiguous() || outer)
	}
	switch {
	case copy2dAll:
		return h.catContiguous(xs, dim)
	case dim == 0:
		return h.cat0(xs)
	}
	ts := make([]devTensor, len(xs))
	for i, x := range xs {
		ts[i] = transpose(x, 0, dim)
	}
	out, err := h.cat0(ts)
	if err != nil {
		return out, err
	}
	return transpose(out, 0, dim), nil
}

// catShapes is cat's rank and shape check (and cat0's and
// cat_contiguous's, which repeat it): UnexpectedNumberOfDims, then
// ShapeMismatchCat, per tensor in order.
func catShapes(xs []devTensor, dim int) error {
	first := xs[0]
	for i, x := range xs {
		if len(x.shape) != len(first.shape) {
			return errf(tensor.ShapeMismatch, "unexpected rank, expected: %d, got: %d (%s)", len(first.shape), len(x.shape), candleShape(x.shape))
		}
		for k := range x.shape {
			if k != dim && x.shape[k] != first.shape[k] {
				return errf(tensor.ShapeMismatch, "shape mismatch in cat for dim %d, shape for arg 1: %s shape for arg %d: %s", k, candleShape(first.shape), i+1, candleShape(x.shape))
			}
		}
	}
	return nil
}

// catDType is the dtype check of cat0 and cat_contiguous, made for each
// tensor as its turn comes (DTypeMismatchBinaryOp "cat").
func catDType(first, x devTensor) error {
	if x.t != first.t {
		return errf(tensor.DTypeMismatch, "dtype mismatch in cat, lhs: %s, rhs: %s", rustDType(first.t), rustDType(x.t))
	}
	return nil
}

// catAlloc is alloc_uninit of the result: the first tensor's dims with dim
// the sum of every tensor's.
func (h *host) catAlloc(xs []devTensor, dim int) (devTensor, error) {
	shape := append([]int{}, xs[0].shape...)
	shape[dim] = 0
	for _, x := range xs {
		if err := catDType(xs[0], x); err != nil {
			return devTensor{}, err
		}
		shape[dim] += x.shape[dim]
	}
	return h.alloc(xs[0].t, shape)
}

// catContiguous is cat_contiguous (tensor_cat.rs:154-238): each tensor is
// d1 rows (the product of the dims before dim) of d2 elements (its dims
// from dim on), copied with copy2d into rows of dst_s, one after the
// other along dim; a tensor's rows are its outer stride apart (d2 when it
// is contiguous).
func (h *host) catContiguous(xs []devTensor, dim int) (devTensor, error) {
	out, err := h.catAlloc(xs, dim)
	if err != nil {
		return out, err
	}
	block := tensor.NumElements(out.shape[dim+1:])
	dstS := block * out.shape[dim]
	dstO := 0
	for _, x := range xs {
		d1 := tensor.NumElements(x.shape[:dim])
		d2 := block * x.shape[dim]
		srcS := d2
		if !x.contiguous() {
			if s, ok := outerStrideForDim(x, dim); ok {
				srcS = s
			}
		}
		if err := h.copy2d(x, out, d1, d2, srcS, dstS, x.offset, dstO); err != nil {
			return out, err
		}
		dstO += d2
	}
	return out, nil
}

// cat0 is cat0 (tensor_cat.rs:79-152): the tensors one after the other,
// each copied whole by copy_strided_src at the running element count.
func (h *host) cat0(xs []devTensor) (devTensor, error) {
	out, err := h.catAlloc(xs, 0)
	if err != nil {
		return out, err
	}
	off := 0
	for _, x := range xs {
		if err := h.copyStridedSrc(x, out, off); err != nil {
			return out, err
		}
		off += x.numel()
	}
	return out, nil
}

// transpose is Layout::transpose(d1, d2): the dims and strides swapped.
func transpose(x devTensor, d1, d2 int) devTensor {
	shape, strides := append([]int{}, x.shape...), append([]int{}, x.strides...)
	shape[d1], shape[d2] = shape[d2], shape[d1]
	strides[d1], strides[d2] = strides[d2], strides[d1]
	return devTensor{buf: x.buf, t: x.t, shape: shape, strides: strides, offset: x.offset}
}
