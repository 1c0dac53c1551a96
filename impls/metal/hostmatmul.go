package metal

import (
	"fmt"

	"github.com/tfuzz/tfuzz/tensor"
)

// The host of matmul on Metal, read at candle 2a13b0f3:
// MetalStorage::matmul (candle-core/src/metal_backend/mod.rs:1730-1776),
// call_mlx_gemm and call_mlx_gemv with their tile choices
// (candle-metal-kernels/src/kernels/mlx_gemm.rs:59-668), and
// Device::device_type (candle-metal-kernels/src/metal/device.rs:166-175).

// deviceClass is MetalDeviceType from the architecture name's last letter.
type deviceClass byte

const (
	devicePhone   deviceClass = 'p'
	deviceBasePro deviceClass = 'g'
	deviceMax     deviceClass = 's'
	deviceUltra   deviceClass = 'd'
	deviceMedium  deviceClass = 0 // any other letter
)

func deviceClassOf(arch string) deviceClass {
	if arch == "" {
		return deviceMedium
	}
	switch c := deviceClass(arch[len(arch)-1]); c {
	case devicePhone, deviceBasePro, deviceMax, deviceUltra:
		return c
	}
	return deviceMedium
}

// gemm tiles by name, as select_tile_config returns them.
var (
	tile32x32x16x2x2 = [5]int{32, 32, 16, 2, 2}
	tile64x64x16x2x2 = [5]int{64, 64, 16, 2, 2}
	tile64x64x16x1x2 = [5]int{64, 64, 16, 1, 2}
	tile64x32x32x2x2 = [5]int{64, 32, 32, 2, 2}
	tile32x64x16x1x2 = [5]int{32, 64, 16, 1, 2}
)

// selectTile is select_tile_config (mlx_gemm.rs:59-179): m below 16 takes
// the 32 x 32 tile; otherwise the device class, the output's size (2^20
// elements or more is large), the dtype (f32 or a half), whether only B is
// transposed (nt), and for large half matmuls whether 2 max(m, n) > k.
func selectTile(t mslType, m, n, k, batch int, aT, bT bool, dev deviceClass) [5]int {
	if m < 16 {
		return tile32x32x16x2x2
	}
	large := batch*m*n >= 1<<20
	nt := !aT && bT
	half := t != tFloat
	switch dev {
	case devicePhone, deviceBasePro:
		switch {
		case nt:
			return tile64x32x32x2x2
		case half:
			return tile64x64x16x1x2
		}
		return tile64x64x16x2x2
	case deviceUltra:
		switch {
		case large && !half:
			return tile64x64x16x2x2
		case large && 2*max(m, n) > k:
			return tile64x64x16x1x2
		case large && nt:
			return tile64x32x32x2x2
		case large:
			return tile32x64x16x1x2
		case half && nt:
			return tile64x32x32x2x2
		case half:
			return tile64x64x16x1x2
		case nt:
			return tile32x64x16x1x2
		}
		return tile64x32x32x2x2
	}
	// Max and Medium
	switch {
	case !half && large:
		return tile64x64x16x2x2
	case !half && nt:
		return tile32x64x16x1x2
	case !half:
		return tile64x32x32x2x2
	case large && 2*max(m, n) > k:
		return tile64x64x16x1x2
	case nt:
		return tile64x32x32x2x2
	case large:
		return tile32x64x16x1x2
	}
	return tile64x64x16x1x2
}

// gemmLayout is the lda/a_trans and ldb/b_trans test of call_mlx_gemm
// (mlx_gemm.rs:485-518, the same in call_mlx_gemv): each matrix is
// row-major or transposed by its last two strides, a single row or
// column passing either way; anything else is MatMulNonContiguous
// (err.rs:23-28: "Invalid matmul arguments {lhs_stride:?}
// {rhs_stride:?} {mnk:?}", which candle-core's Error::Metal prefixes with
// "Metal error ").
func gemmLayout(l, r devTensor, m, n, k int) (lda int, aT bool, ldb int, bT bool, err error) {
	l1, l2 := l.strides[len(l.strides)-1], l.strides[len(l.strides)-2]
	r1, r2 := r.strides[len(r.strides)-1], r.strides[len(r.strides)-2]
	bad := errf(tensor.Other, "Metal error Invalid matmul arguments %s %s (%d, %d, %d)", candleShape(l.strides), candleShape(r.strides), m, n, k)
	switch {
	case (l1 == 1 || k == 1) && (l2 == k || m == 1):
		lda = k
	case (l1 == m || k == 1) && (l2 == 1 || m == 1):
		lda, aT = m, true
	default:
		return 0, false, 0, false, bad
	}
	switch {
	case (r1 == 1 || n == 1) && (r2 == n || k == 1):
		ldb = n
	case (r1 == k || n == 1) && (r2 == 1 || k == 1):
		ldb, bT = k, true
	default:
		return 0, false, 0, false, bad
	}
	return lda, aT, ldb, bT, nil
}

// batchStride is a matrix's stride[rank - 3], or def for a rank-2 one.
func batchStride(x devTensor, def int) int {
	if len(x.strides) > 2 {
		return x.strides[len(x.strides)-3]
	}
	return def
}

// matmul is MetalStorage::matmul of batch x (m x k) by (k x n): a buffer
// of batch * m * n elements, the dtype match (f32 f16 bf16, anything else
// an Err), then call_mlx_gemm: the layout test, gemv for m = 1 or n = 1,
// else the batch folded into m when A is row-major and contiguous across
// the batch and B is shared by the batch (stride 0), the tile, the
// GemmParams, and a grid of (tiles along n, tiles along m, batch)
// threadgroups of (32, wn, wm) threads.
func (h *host) matmul(l, r devTensor, batch, m, n, k int, outShape []int) (devTensor, error) {
	out, err := h.alloc(l.t, outShape)
	if err != nil {
		return out, err
	}
	if l.t != tFloat && l.t != tHalf && l.t != tBfloat {
		return out, errf(tensor.UnsupportedDType, "Metal error mlx matmul doesn't support %s", rustDType(l.t))
	}
	lda, aT, ldb, bT, err := gemmLayout(l, r, m, n, k)
	if err != nil {
		return out, err
	}
	if m == 1 || n == 1 {
		return out, h.gemv(l, r, out, batch, m, n, k, lda, aT, ldb, bT)
	}
	strideA, strideB := batchStride(l, m*k), batchStride(r, n*k)
	if batch > 1 && !aT && batchStride(l, m*k) == m*k && batchStride(r, 0) == 0 {
		batch, m, lda, strideA, strideB = 1, batch*m, k, 0, 0 // check_batch_collapse
	}
	tile := selectTile(l.t, m, n, k, batch, aT, bT, deviceClassOf(h.dev.Architecture()))
	bm, bn, bk, wm, wn := tile[0], tile[1], tile[2], tile[3], tile[4]
	p := gemmParams{m: m, n: n, k: k, lda: lda, ldb: ldb, ldd: n, tilesN: (n + bn - 1) / bn, tilesM: (m + bm - 1) / bm,
		strideA: strideA, strideB: strideB, strideD: m * n, kIters: k / bk, batchNDim: 1}
	name := gemmName(aT, bT, l.t, tile)
	if err := h.load(name); err != nil {
		return out, err
	}
	args := []Arg{l.arg(), r.arg(), out.arg(), {Bytes: p.bytes()}, Uints([]int{batch}), SizeTs([]int{strideA, strideB}),
		Bool(batch > 1), Bool(m%bm == 0), Bool(n%bn == 0), Bool(k%bk == 0)}
	g := Grid{Size: [3]int{p.tilesN, p.tilesM, batch}, Group: [3]int{32, wn, wm}}
	if err := h.dev.DispatchGrid(name, args, g); err != nil {
		return out, fmt.Errorf("metal: %w", err)
	}
	return out, nil
}

// gemv is call_mlx_gemv (mlx_gemm.rs:261-450): the matrix is B when n >
// 1 (then the vector is A), else A; the kernel is gemv_t when the matrix
// is read with k along its rows (B row-major, or A transposed), gemv
// otherwise; the block by the vector's and the output's sizes; a grid of
// (ceil(out / per threadgroup), 1, batch) threadgroups of (32, bn, bm).
func (h *host) gemv(l, r, out devTensor, batch, m, n, k, lda int, aT bool, ldb int, bT bool) error {
	matIsB := n != 1
	transposed, mat, vec, ld, outSize := aT, l, r, lda, m
	vecStride, matStride := batchStride(r, k), batchStride(l, 0)
	if matIsB {
		transposed, mat, vec, ld, outSize = !bT, r, l, ldb, n
		vecStride, matStride = batchStride(l, k), batchStride(r, 0)
	}
	var b [6]int // bm bn sm sn tm tn
	kind := "gemv"
	if transposed {
		kind = "gemv_t"
		sm, sn := 8, 4
		if k >= 8192 && outSize >= 2048 {
			sm, sn = 4, 8
		}
		bn := 2
		switch {
		case outSize >= 2048:
			bn = 16
		case outSize >= 512:
			bn = 4
		}
		tn := 4
		if outSize < 4 {
			tn = 1
		}
		b = [6]int{1, bn, sm, sn, 4, tn}
	} else {
		switch {
		case k <= 64:
			b = [6]int{1, 1, 8, 4, 0, 4}
		case k >= 16*outSize:
			b = [6]int{1, 8, 1, 32, 0, 4}
		case outSize >= 4096:
			b = [6]int{8, 1, 1, 32, 0, 4}
		default:
			b = [6]int{4, 1, 1, 32, 0, 4}
		}
		b[4] = 4
		if outSize < 4 {
			b[4] = 1
		}
	}
	name := gemvName(kind, l.t, b)
	if err := h.load(name); err != nil {
		return err
	}
	perGroup := b[0] * b[2] * b[4]
	if transposed {
		perGroup = b[1] * b[3] * b[5]
	}
	args := []Arg{mat.arg(), vec.arg(), out.arg(), Uint(k), Uint(outSize), Uint(ld), Float(1), Float(0), Uint(1),
		Uints([]int{batch}), SizeTs([]int{vecStride}), SizeTs([]int{matStride}), SizeTs([]int{0}), Uint(1)}
	g := Grid{Size: [3]int{(outSize + perGroup - 1) / perGroup, 1, batch}, Group: [3]int{32, b[1], b[0]}}
	if err := h.dev.DispatchGrid(name, args, g); err != nil {
		return fmt.Errorf("metal: %w", err)
	}
	return nil
}
