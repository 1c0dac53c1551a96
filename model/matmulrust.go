package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// matmul in candle (Tensor::matmul: equal ranks >= 2, one dtype, batch dims
// compared only by their product, no broadcasting; the CPU build is the
// seeds' accelerate one) and burn (Tensor::matmul of one Rust type: Float
// or Int of one rank; Flex's gemm and integer loops, ndarray's
// general_mat_mul). The elements in matmulvalue.go.

var (
	candleMatmul = newRule("candle.matmul",
		"a.matmul(&b) needs equal ranks >= 2, a's last dim equal to b's second last and equal products of the batch dims (Err \"shape mismatch in matmul\"; the result takes a's batch dims, batch i of each read flat); an empty result or k = 0 gives zeros after a dtype check; otherwise the storages must have one dtype (Err \"dtype mismatch in matmul\")",
		"candle 2a13b0f3 candle-core/src/tensor.rs:1497-1551 (matmul), candle-core/src/storage.rs:769-795 (matmul: same_dtype); seed 003 §没有类型提升 (f32.matmul(f64): Err dtype mismatch in matmul, lhs: F32, rhs: F64)")
	candleMatmulCPU = newRule("candle.cpu.matmul.accelerate",
		"the CPU matmul (accelerate build) first checks the layouts, the batch strides (rank 3: any; rank 4: folding or a size-1 dim; rank 5 and up: an Err) and each matrix's last two strides (row-major or transposed, MatMulUnexpectedStriding otherwise), then runs sgemm / dgemm: f16 is an Err \"the accelerate backend does not support f16 matmul\", integers and bf16 UnsupportedDTypeForOp",
		"candle 2a13b0f3 candle-core/src/cpu_backend/mod.rs:1417-1437 (ab_skip), :1523-1602 (the accelerate f: lda/transa, ldb/transb, then the dtype match)")
	candleMatmulMetal = newRule("candle.metal.matmul",
		"the Metal matmul (MLX gemm) takes f32, f16 and bf16 (anything else: Err \"mlx matmul doesn't support\"), then checks each matrix's last two strides (row-major or transposed, MatMulNonContiguous otherwise)",
		"candle 2a13b0f3 candle-core/src/metal_backend/mod.rs:1730-1776 (matmul: the dtype match), candle-metal-kernels/src/kernels/mlx_gemm.rs:485-518 (lda/a_trans, ldb/b_trans)")
	candleMatmulOpen = newRule("candle.metal.matmul.not-stated",
		"the batch strides a Metal matmul accepts for a non-contiguous operand of rank 3 or more (or a contiguous one whose dim rank-3 has size 1 and a stride other than m*k: the kernels read batch item z at z * stride[rank-3]), and a Metal matmul with an empty result, are not stated",
		"candle 2a13b0f3 candle-metal-kernels/src/kernels/mlx_gemm.rs:207-222 (check_batch_collapse), :328-355 (call_mlx_gemv: vec_batch_stride, mat_batch_stride), :575-587 (call_mlx_gemm: batch_stride_a/b), each stride[len-3]; not modeled").silent()
	burnMatmul = newRule("burn.matmul",
		"Tensor::matmul takes two tensors of one Rust type (Float or Int of one rank; Bool has no matmul): the inner dims must match (check! panics), a rank below 2 panics in the backend; Flex broadcasts the batch dims (a debug build panics on dims that do not broadcast: debug_assert) and requires one dtype (assert_eq!), with gemm for F32/F64/F16/BF16 and integer loops for I32/I64 (wrapping); ndarray panics on batch dims that do not broadcast and divides by m*k, k*n and m*n (each 0 panics) after the tensor API has read [.., B, 1, K] @ [.., 1, K, N] as [.., 1, B, K] @ [.., 1, K, N]",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/numeric.rs:817-835 (matmul: check!, the vec-mat reshape), crates/burn-tensor/src/tensor/api/check.rs:471-500 (TensorCheck::matmul: inner dims only), crates/burn-flex/src/ops/matmul.rs:83-105 (matmul: assert_eq! dtype, rank >= 2), :121-176 (broadcast_batch_dims: debug_assert!), :498-520 (int_matmul: I32, I64), crates/burn-ndarray/src/ops/matmul.rs:9-30 (num_elements() / l_mat_size), :105-170 (output_shape panics)")
	burnMatmulOpen = newRule("burn.matmul.not-stated",
		"a Flex release matmul over batch dims that do not broadcast (unchecked), a Flex float matmul with k = 0 (the gemm crate with k = 0), and dtypes these backends do not dispatch, are not stated",
		"burn 2c06be35 crates/burn-flex/src/ops/matmul.rs (debug_assert only), gemm crate; not modeled").silent()
)

// candleMatmulOp is a.matmul(&b).
func (e *evaluation) candleMatmulOp() tensor.Outcome {
	e.use(candleMatmul)
	a, b := e.c.Args[0].Tensor, e.c.Args[1].Tensor
	r := a.Rank()
	shapeErr := func() tensor.Outcome {
		return e.fail(candleMatmul, tensor.ShapeMismatch, "shape mismatch in matmul, lhs: %s, rhs: %s", candleShape(a.Shape), candleShape(b.Shape))
	}
	if r < 2 || b.Rank() != r {
		return shapeErr()
	}
	m, k, k2, n := a.Shape[r-2], a.Shape[r-1], b.Shape[r-2], b.Shape[r-1]
	batch := tensor.NumElements(a.Shape[:r-2])
	if k != k2 || batch != tensor.NumElements(b.Shape[:r-2]) {
		return shapeErr()
	}
	out := append(append([]int{}, a.Shape[:r-2]...), m, n)
	dtypeErr := func() tensor.Outcome {
		return e.fail(candleMatmul, tensor.DTypeMismatch, "dtype mismatch in matmul, lhs: %s, rhs: %s", rustName(a.DType), rustName(b.DType))
	}
	empty := tensor.NumElements(out) == 0 || k == 0
	switch {
	case empty && a.DType != b.DType:
		return dtypeErr()
	case empty && e.candleOnMetal():
		return e.unsupported(candleMatmulOpen, "tfuzz: not modeled: an empty Metal matmul")
	case empty:
		return tensor.ValueOutcome(tensor.New(a.DType, out...))
	case a.DType != b.DType:
		return dtypeErr()
	}
	if e.candleOnMetal() {
		e.use(candleMatmulMetal)
		if d := a.DType; d != tensor.F32 && d != tensor.F16 && d != tensor.BF16 {
			return e.fail(candleMatmulMetal, tensor.UnsupportedDType, "mlx matmul doesn't support %s", rustName(d))
		}
		if !candleGemmStrides(a, b, m, k, n, true) {
			return e.fail(candleMatmulMetal, tensor.Other, "matmul is only supported for contiguous tensors lstride: %v rstride: %v mnk: (%d, %d, %d)", elemStrides(a), elemStrides(b), m, n, k)
		}
		if r > 2 && !(candleMetalBatchFlat(a, batch) && candleMetalBatchFlat(b, batch)) {
			return e.unsupported(candleMatmulOpen, "tfuzz: not modeled: a batched Metal matmul of a strided operand")
		}
	} else {
		e.use(candleMatmulCPU)
		if !candleBatchStrides(a) || !candleBatchStrides(b) || !candleGemmStrides(a, b, m, k, n, false) {
			return e.fail(candleMatmulCPU, tensor.Other, "matmul is only supported for contiguous tensors lstride: %v rstride: %v mnk: (%d, %d, %d)", elemStrides(a), elemStrides(b), m, n, k)
		}
		switch a.DType {
		case tensor.F32, tensor.F64:
		case tensor.F16:
			return e.fail(candleMatmulCPU, tensor.UnsupportedDType, "the accelerate backend does not support f16 matmul")
		default:
			return e.fail(candleMatmulCPU, tensor.UnsupportedDType, "unsupported dtype %s for op matmul", rustName(a.DType))
		}
	}
	g := mmGeom{batch: []int{batch}, out: out, m: m, k: k, n: n, flat: true}
	return tensor.ValueOutcome(e.matmulValues(mmOperandOf(a, nil, m, k), mmOperandOf(b, nil, k, n), g, a.DType, mmValueOpts{noSubnormal: e.candleOnMetal()}))
}

// candleMetalBatchFlat reports whether Metal's matmul reads the batch of
// t as a flat array of matrices: t is contiguous and its stride at
// rank-3, by which the kernels step from one batch item to the next, is
// the matrix size (a dim of size 1 there may have any stride), or the
// batch has one item.
func candleMetalBatchFlat(t *tensor.Tensor, batch int) bool {
	if !candleLayoutContiguous(t) {
		return false
	}
	r := t.Rank()
	return batch <= 1 || t.Strides == nil || t.Strides[r-3] == t.Shape[r-2]*t.Shape[r-1]
}

// candleBatchStrides is ab_skip's test of an operand's batch strides.
func candleBatchStrides(t *tensor.Tensor) bool {
	st, dims := elemStrides(t), t.Shape
	switch len(st) - 2 {
	case 0, 1:
		return true
	case 2:
		return st[0] == st[1]*dims[1] || dims[0] == 1 || dims[1] == 1
	}
	return false
}

// candleGemmStrides is the lda/ldb test of both matrices' last two strides
// (metal: MLX's variant, which also takes a single row or column either way).
func candleGemmStrides(a, b *tensor.Tensor, m, k, n int, metal bool) bool {
	as, bs := elemStrides(a), elemStrides(b)
	a1, a2 := as[len(as)-1], as[len(as)-2]
	b1, b2 := bs[len(bs)-1], bs[len(bs)-2]
	lhs := (a1 == 1 || k == 1) && (a2 == k || m == 1)
	rhs := (b1 == 1 || n == 1) && (b2 == n || k == 1)
	if metal {
		lhs = lhs || (a1 == m || k == 1) && (a2 == 1 || m == 1)
		rhs = rhs || (b1 == k || n == 1) && (b2 == 1 || k == 1)
	} else {
		lhs = lhs || a1 == m && a2 == 1
		rhs = rhs || b1 == k && b2 == 1
	}
	return lhs && rhs
}

// burnMatmulOp is x.matmul(y) of converted burn tensors.
func (e *evaluation) burnMatmulOp(x, y *tensor.Tensor) tensor.Outcome {
	e.use(burnMatmul)
	switch {
	case burnKind(x.DType) == 'b' || burnKind(y.DType) == 'b':
		return e.unsupported(burnMatmul, "no method named `matmul` found for Tensor<B, %d, Bool>", x.Rank())
	case burnKind(x.DType) != burnKind(y.DType) || x.Rank() != y.Rank():
		return e.unsupported(burnMatmul, "mismatched types: expected Tensor<B, %d, %s>, found Tensor<B, %d, %s> (E0308)", x.Rank(), rustName(x.DType), y.Rank(), rustName(y.DType))
	}
	r := x.Rank()
	if r >= 2 && x.Shape[r-1] != y.Shape[r-2] {
		return tensor.PanicOutcome("=== Tensor Operation Error ===\n  Operation: 'Matmul'\n  Reason:\n    1. The inner dimension of matmul should be the same, but got %d and %d.", x.Shape[r-1], y.Shape[r-2])
	}
	if x.DType != y.DType {
		return tensor.PanicOutcome("matmul: dtype mismatch (%s, %s)", rustName(x.DType), rustName(y.DType))
	}
	if r < 2 {
		return tensor.PanicOutcome("matmul requires at least 2D tensors")
	}
	s := numpyMatmulShape(x.Shape, y.Shape)
	flex := e.burnFlex()
	switch {
	case s.badBatch && flex && !e.p.Debug:
		return e.unsupported(burnMatmulOpen, "tfuzz: not modeled: a Flex release matmul over batch dims %v and %v", s.aBatch, s.bBatch)
	case s.badBatch && flex:
		return tensor.PanicOutcome("matmul: batch dimensions not broadcastable: %v vs %v", s.aBatch, s.bBatch)
	case s.badBatch:
		return tensor.PanicOutcome("Dimensions differ and cannot be broadcasted.")
	case !flex && burnNdarrayZeroDiv(x.Shape, y.Shape):
		return tensor.PanicOutcome("attempt to divide by zero")
	}
	d := x.DType
	switch {
	case flex && d.IsInt() && d != tensor.I32 && d != tensor.I64,
		!flex && d.IsFloat() && d != tensor.F32 && d != tensor.F64:
		return e.unsupported(burnMatmulOpen, "tfuzz: not modeled: a %s matmul of %s", e.p.Name, rustName(d))
	case flex && d.IsFloat() && s.g.k == 0 && tensor.NumElements(s.g.out) > 0:
		return e.unsupported(burnMatmulOpen, "tfuzz: not modeled: a Flex gemm with k = 0")
	}
	return tensor.ValueOutcome(e.matmulValues(mmOperandOf(x, s.aBatch, s.g.m, s.g.k), mmOperandOf(y, s.bBatch, s.g.k, s.g.n), s.g, d, mmValueOpts{intOpen: !flex}))
}

// burnNdarrayZeroDiv reports whether ndarray's matmul divides by zero: m*k,
// k*n or m*n is 0, with [.., B, 1, K] @ [.., 1, K, N] read as [.., 1, B, K].
func burnNdarrayZeroDiv(a, b []int) bool {
	r := len(a)
	m, k, n := a[r-2], a[r-1], b[r-1]
	if r >= 3 && a[r-2] == 1 && b[r-3] == 1 {
		m = a[r-3]
	}
	return m*k == 0 || k*n == 0 || m*n == 0
}
