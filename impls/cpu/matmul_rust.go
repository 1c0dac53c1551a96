package cpu

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// matmul of candle (the accelerate CPU build: Tensor::matmul's shape
// checks, then the BLAS path's stride and dtype checks) and burn (Flex's
// gemm and wrapping integer loops, ndarray's general_mat_mul), through the
// kernels of matmul.go.

func init() {
	candleAttach(tensor.ClassMatmul, rustMatmulSupports, candleMatmulEval)
	burnAttach(tensor.ClassMatmul, burnMatmulSupports, burnMatmulEval)
}

func rustMatmulSupports(_ *profile, c *tensor.Case) bool {
	return len(c.Args) == 2 && validArg(c.Args[0], false) && validArg(c.Args[1], false)
}

// candleMatmulEval is a.matmul(&b) on the CPU (policies candle.matmul,
// candle.cpu.matmul.accelerate).
func candleMatmulEval(e *Engine, _ *profile, c *tensor.Case) tensor.Outcome {
	a, b := c.Args[0].Tensor, c.Args[1].Tensor
	r := a.Rank()
	if r < 2 || b.Rank() != r || a.Shape[r-1] != b.Shape[r-2] ||
		tensor.NumElements(a.Shape[:r-2]) != tensor.NumElements(b.Shape[:r-2]) {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "shape mismatch in matmul, lhs: %s, rhs: %s", rustShape(a.Shape), rustShape(b.Shape))
	}
	m, k, n := a.Shape[r-2], a.Shape[r-1], b.Shape[r-1]
	shape := append(append([]int{}, a.Shape[:r-2]...), m, n)
	if a.DType != b.DType {
		return tensor.ErrorOutcome(tensor.DTypeMismatch, "dtype mismatch in matmul, lhs: %s, rhs: %s", rustName(a.DType), rustName(b.DType))
	}
	if tensor.NumElements(shape) == 0 || k == 0 {
		return tensor.ValueOutcome(tensor.New(a.DType, shape...))
	}
	if !blasBatchOK(a) || !blasBatchOK(b) || !blasMatrixOK(a, m, k) || !blasMatrixOK(b, k, n) {
		return tensor.ErrorOutcome(tensor.Other, "matmul is only supported for contiguous tensors (strides %v, %v)", stridesOf(a), stridesOf(b))
	}
	switch a.DType {
	case tensor.F32, tensor.F64:
	case tensor.F16:
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "the accelerate backend does not support f16 matmul")
	default:
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "unsupported dtype %s for op matmul", rustName(a.DType))
	}
	nb := tensor.NumElements(a.Shape[:r-2])
	g := mmGeometry{m: m, k: k, kb: k, n: n, batch: []int{nb}, batchA: []int{nb}, batchB: []int{nb}, shape: shape}
	return tensor.ValueOutcome(matmulTensors(e, a, b, a.DType, g))
}

// blasBatchOK: the batch dims of a rank-4 operand must fold into one stride
// or keep a size-1 dim; rank 5 and up have no batch stride at all.
func blasBatchOK(t *tensor.Tensor) bool {
	st := stridesOf(t)
	switch t.Rank() {
	case 2, 3:
		return true
	case 4:
		return t.Shape[0] == 1 || t.Shape[1] == 1 || st[0] == st[1]*t.Shape[1]
	}
	return false
}

// blasMatrixOK: the last two strides of a rows x cols operand are
// row-major (either stride free when its side is 1) or transposed.
func blasMatrixOK(t *tensor.Tensor, rows, cols int) bool {
	st := stridesOf(t)
	inner, outer := st[len(st)-1], st[len(st)-2]
	if (inner == 1 || cols == 1) && (outer == cols || rows == 1) {
		return true
	}
	return inner == rows && outer == 1
}

// burnMatmulSupports declines what the model leaves open: Flex release
// batch dims that do not broadcast, a Flex float gemm with k = 0, and the
// dtypes neither backend's dispatch is known for.
func burnMatmulSupports(p *profile, c *tensor.Case) bool {
	if !rustMatmulSupports(p, c) {
		return false
	}
	x, y := c.Args[0].Tensor, c.Args[1].Tensor
	if x.Rank() != y.Rank() || x.Rank() < 2 || burnTensorDType(p, c.Args[0]) != burnTensorDType(p, c.Args[1]) {
		return true // a compile error or a panic, decided in eval
	}
	g := mmGeometryOf(x.Shape, y.Shape)
	switch d := burnTensorDType(p, c.Args[0]); {
	case g.k != g.kb:
		return true
	case g.batch == nil:
		return !burnFlex(p) || p.debug
	case burnFlex(p) && d == tensor.F32 && g.k == 0 && tensor.NumElements(g.shape) > 0:
		return false
	}
	return true
}

// burnMatmulEval is x.matmul(y) (policy burn.matmul) of the tensors burn
// made of the inputs.
func burnMatmulEval(e *Engine, p *profile, _ *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	x, y := args[0], args[1]
	if x.DType == tensor.Bool || y.DType == tensor.Bool {
		return tensor.UnsupportedOutcome("does not compile: Tensor<B, D, Bool> has no matmul")
	}
	if x.DType.IsInt() != y.DType.IsInt() || x.Rank() != y.Rank() {
		return tensor.UnsupportedOutcome("does not compile: matmul takes a tensor of its own type")
	}
	r := x.Rank()
	switch {
	case r >= 2 && x.Shape[r-1] != y.Shape[r-2]:
		return tensor.PanicOutcome("Matmul: the inner dimension of matmul should be the same, but got %d and %d", x.Shape[r-1], y.Shape[r-2])
	case x.DType != y.DType:
		return tensor.PanicOutcome("matmul: dtype mismatch")
	case r < 2:
		return tensor.PanicOutcome("matmul requires at least 2D tensors")
	}
	g := mmGeometryOf(x.Shape, y.Shape)
	if g.batch == nil {
		return tensor.PanicOutcome("matmul: batch dimensions are not broadcastable")
	}
	if !burnFlex(p) {
		// ndarray divides by m*k, k*n and m*n, m the vec-mat reshape's
		// batch for [.., B, 1, K] @ [.., 1, K, N]
		rows := g.m
		if r >= 3 && g.m == 1 && y.Shape[r-3] == 1 {
			rows = x.Shape[r-3]
		}
		if rows*g.k == 0 || g.k*g.n == 0 || rows*g.n == 0 {
			return tensor.PanicOutcome("attempt to divide by zero")
		}
	}
	return tensor.ValueOutcome(matmulTensors(e, x, y, x.DType, g))
}
