package metal

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// frontMatmul is a.matmul(&b) (candle-core/src/tensor.rs:1497-1551 and
// storage.rs:769-797 at 2a13b0f3): equal ranks of at least 2, a's last
// dim equal to b's second last and equal products of the batch dims (no
// broadcasting: ShapeMismatchBinaryOp otherwise); the result has a's
// batch dims. An empty result or k = 0 checks the dtypes and returns
// zeros (a zeroed buffer: new_buffer_builder().with_zeros, a blit fill);
// otherwise the dtypes must agree, then MetalStorage::matmul.
func (h *host) frontMatmul(c *tensor.Case) (devTensor, error) {
	xs, err := h.uploadArgs(c)
	if err != nil {
		return devTensor{}, err
	}
	a, b := xs[0], xs[1]
	r := len(a.shape)
	shapeErr := errf(tensor.ShapeMismatch, "shape mismatch in matmul, lhs: %s, rhs: %s", candleShape(a.shape), candleShape(b.shape))
	if r < 2 || len(b.shape) != r {
		return devTensor{}, shapeErr
	}
	m, k, k2, n := a.shape[r-2], a.shape[r-1], b.shape[r-2], b.shape[r-1]
	batch := tensor.NumElements(a.shape[:r-2])
	if k != k2 || batch != tensor.NumElements(b.shape[:r-2]) {
		return devTensor{}, shapeErr
	}
	outShape := append(slices.Clone(a.shape[:r-2]), m, n)
	if a.t != b.t {
		return devTensor{}, errf(tensor.DTypeMismatch, "dtype mismatch in matmul, lhs: %s, rhs: %s", rustDType(a.t), rustDType(b.t))
	}
	if tensor.NumElements(outShape) == 0 || k == 0 {
		buf, err := h.dev.Upload(make([]byte, tensor.NumElements(outShape)*a.t.size()))
		if err != nil {
			return devTensor{}, err
		}
		return devTensor{buf: buf, t: a.t, shape: outShape, strides: tensor.ContiguousStrides(outShape)}, nil
	}
	return h.matmul(a, b, batch, m, n, k, outShape)
}
