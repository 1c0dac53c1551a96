package metal

import (
	"fmt"

	"github.com/tfuzz/tfuzz/tensor"
)

// The host's copies between storages, which Tensor::cat runs (read at
// candle 2a13b0f3): MetalStorage::copy2d and copy_strided_src
// (candle-core/src/metal_backend/mod.rs:1778-1904), call_copy2d and
// call_unary_strided (candle-metal-kernels/src/kernels/unary.rs:43-76,
// :156-197), Layout::strided_blocks and outer_stride_for_dim
// (candle-core/src/layout.rs:66-96, :249-288).

// copy2dTypes are the dtypes MetalStorage::copy2d names a kernel for.
func copy2dType(t mslType) bool {
	switch t {
	case tFloat, tHalf, tBfloat, tLong, tInt, tShort, tUint, tUchar:
		return true
	}
	return false
}

// copy2d is MetalStorage::copy2d: d1 rows of d2 elements from src (rows
// srcS apart, from element srcO of its buffer) into dst (rows dstS apart,
// from element dstO). When both strides are d2 it is one blit of d1 * d2
// elements, of any dtype; otherwise no elements return at once, a dtype
// without a kernel bails, and copy2d_T runs over a d1 x d2 grid of threads
// in get_block_dims threadgroups.
func (h *host) copy2d(src, dst devTensor, d1, d2, srcS, dstS, srcO, dstO int) error {
	size := src.t.size()
	if srcS == d2 && dstS == d2 {
		if err := h.dev.Blit(src.buf, srcO*size, dst.buf, dstO*size, d1*d2*size); err != nil {
			return fmt.Errorf("metal: copy2d_contiguous: %w", err)
		}
		return nil
	}
	if d1*d2 == 0 {
		return nil
	}
	if !copy2dType(src.t) {
		return errf(tensor.UnsupportedDType, "Metal copy2d %s not implemented", rustDType(src.t))
	}
	name := "copy2d_" + src.t.String()
	if err := h.load(name); err != nil {
		return err
	}
	g := Grid{Size: [3]int{d1, d2, 1}, Group: blockDims(d1, d2, 1), PerThread: true}
	args := []Arg{Long(int64(d1)), Long(int64(d2)), Long(int64(srcS)), Long(int64(dstS)),
		BufAt(src.buf, srcO*size), BufAt(dst.buf, dstO*size)}
	if err := h.dev.DispatchGrid(name, args, g); err != nil {
		return fmt.Errorf("metal: %w", err)
	}
	return nil
}

// blockDims is candle-metal-kernels' get_block_dims (MLX's): the
// threadgroup of a dispatchThreads grid, powers of two along each
// dimension, grown in turn while the dimension holds twice as many, up to
// 2^10 threads in all (utils.rs:49-84).
func blockDims(d0, d1, d2 int) [3]int {
	dims := [3]int{d0, d1, d2}
	var pows [3]int
	sum := 0
	for {
		before := sum
		for k := range dims {
			if dims[k] >= 1<<(pows[k]+1) {
				pows[k]++
				sum++
			}
			if sum == 10 {
				return [3]int{1 << pows[0], 1 << pows[1], 1 << pows[2]}
			}
		}
		if sum == before {
			return [3]int{1 << pows[0], 1 << pows[1], 1 << pows[2]}
		}
	}
}

// copyStridedSrc is MetalStorage::copy_strided_src: src's elements in
// their layout's row-major order into dst from element dstOff. A
// contiguous source is one blit; otherwise no elements return at once, a
// source whose innermost stride is 1 (or of rank 1) and whose blocks are
// uniform is a copy2d, and any other runs the strided copy kernel, which
// exists for f32 f16 bf16 i64 u32 u8 only (the others bail).
func (h *host) copyStridedSrc(src, dst devTensor, dstOff int) error {
	size := src.t.size()
	if src.contiguous() {
		if err := h.dev.Blit(src.buf, src.offset*size, dst.buf, dstOff*size, src.numel()*size); err != nil {
			return fmt.Errorf("metal: copy_contiguous: %w", err)
		}
		return nil
	}
	n := src.numel()
	if n == 0 {
		return nil
	}
	rank := len(src.strides)
	if rank == 1 || src.strides[rank-1] == 1 {
		if b, ok := uniformBlocks(src); ok {
			return h.copy2d(src, dst, b.count, b.blockLen, b.srcStride, b.blockLen, b.start, dstOff)
		}
	}
	switch src.t {
	case tFloat, tHalf, tBfloat, tLong, tUint, tUchar:
	default:
		return errf(tensor.UnsupportedDType, "Metal copy_strided %s not implemented", rustDType(src.t))
	}
	out := devTensor{buf: dst.buf, t: dst.t, shape: src.shape, strides: tensor.ContiguousStrides(src.shape), offset: dstOff}
	return h.dispatchLinear("copy_"+src.t.String()+"_strided", []Arg{SizeT(n), SizeT(len(src.shape)), sizeTs(src.shape),
		sizeTs(src.strides), src.arg(), out.arg()}, n)
}

// blocks is StridedBlocks::UniformBlocks: count blocks of blockLen
// elements, srcStride apart, the first at element start.
type blocks struct {
	start, blockLen, count, srcStride int
}

// uniformBlocks is Layout::strided_blocks when it gives UniformBlocks:
// the dims from the right that continue a contiguous block (size-1 dims
// always do) leave exactly one dim, the first, to index the blocks.
func uniformBlocks(x devTensor) (blocks, bool) {
	blockLen, inBlock := 1, 0
	for k := len(x.shape) - 1; k >= 0; k-- {
		if x.shape[k] == 1 {
			inBlock++
			continue
		}
		if x.strides[k] != blockLen {
			break
		}
		blockLen *= x.shape[k]
		inBlock++
	}
	if len(x.shape)-inBlock != 1 {
		return blocks{}, false
	}
	return blocks{start: x.offset, blockLen: blockLen, count: x.shape[0], srcStride: x.strides[0]}, true
}

// outerStrideForDim is Layout::outer_stride_for_dim: the dims from dim on
// have exactly the contiguous strides (size-1 dims included), and the dims
// before it are contiguous among themselves; then the stride of dim - 1
// (for dim 0 the product of the dims).
func outerStrideForDim(x devTensor, dim int) (int, bool) {
	want := 1
	for k := len(x.shape) - 1; k >= dim; k-- {
		if x.strides[k] != want {
			return 0, false
		}
		want *= x.shape[k]
	}
	if dim == 0 {
		return want, true
	}
	outer := x.strides[dim-1]
	next := outer
	for k := dim - 2; k >= 0; k-- {
		next *= x.shape[k+1]
		if x.strides[k] != next {
			return 0, false
		}
	}
	return outer, true
}
