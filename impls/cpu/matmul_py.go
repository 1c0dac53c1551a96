package cpu

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// matmul of PyTorch, NumPy and JAX on the CPU. The operands are read as
// NumPy reads them (a 1-D left operand is one row, a 1-D right operand one
// column, the batch dims broadcast); PyTorch does not promote and routes by
// rank and layout to dot, mv, mm or bmm, whose checks come in different
// orders (policy pytorch.matmul); NumPy and JAX promote the pair (numpy.matmul,
// jax.matmul). Complex operands, NumPy's bfloat16 and JAX's bool are
// declined.

func init() {
	attach(pythonProfiles(), tensor.ClassMatmul, &family{supports: pyMatmulSupports, eval: pyMatmulEval})
}

// mmGeometry is a matmul's sizes as NumPy reads the shapes.
type mmGeometry struct {
	m, k, kb, n    int   // k: a's last dim; kb: b's contracting dim
	batchA, batchB []int // the dims before the matrices
	batch          []int // their broadcast (nil when they do not broadcast, never nil when they do)
	shape          []int // the result's shape
}

func mmGeometryOf(a, b []int) mmGeometry {
	var g mmGeometry
	g.m, g.k = 1, a[len(a)-1]
	if len(a) > 1 {
		g.m, g.batchA = a[len(a)-2], a[:len(a)-2]
	}
	g.kb, g.n = b[0], 1
	if len(b) > 1 {
		g.kb, g.n, g.batchB = b[len(b)-2], b[len(b)-1], b[:len(b)-2]
	}
	if batch, ok := broadcastShapes(g.batchA, g.batchB); ok {
		g.batch = batch
		g.shape = slices.Clone(g.batch)
		if len(a) > 1 {
			g.shape = append(g.shape, g.m)
		}
		if len(b) > 1 {
			g.shape = append(g.shape, g.n)
		}
	}
	return g
}

// empty reports a result without elements or a sum without terms.
func (g mmGeometry) empty() bool { return tensor.NumElements(g.shape) == 0 || g.k == 0 }

// batches returns the offsets (in elements of the row-major operands) of
// each result batch's matrices, the batch dims broadcast.
func (g mmGeometry) batches() mmBatch {
	nb := tensor.NumElements(g.batch)
	mb := mmBatch{m: g.m, k: g.k, n: g.n, aOff: make([]int, nb), bOff: make([]int, nb)}
	for i := 0; i < nb; i++ {
		mb.aOff[i] = batchOffset(g.batch, g.batchA, i) * g.m * g.k
		mb.bOff[i] = batchOffset(g.batch, g.batchB, i) * g.k * g.n
	}
	return mb
}

// batchOffset maps batch i of the broadcast dims out to the batch of an
// operand with dims in (size-1 dims repeat).
func batchOffset(out, in []int, i int) int {
	off, stride := 0, 1
	for k := 1; k <= len(out); k++ {
		size := out[len(out)-k]
		coord := i % size
		i /= size
		if k <= len(in) {
			if in[len(in)-k] != 1 {
				off += coord * stride
			}
			stride *= in[len(in)-k]
		}
	}
	return off
}

func pyMatmulSupports(p *profile, c *tensor.Case) bool {
	if len(c.Args) != 2 || !validArg(c.Args[0], false) || !validArg(c.Args[1], false) {
		return false
	}
	a, b := pyInput(p, c.Args[0].Tensor), pyInput(p, c.Args[1].Tensor)
	if a.DType.IsComplex() || b.DType.IsComplex() {
		return false
	}
	switch p.fw {
	case fwNumPy:
		return numpyPromote[a.DType][b.DType] != tensor.BF16
	case fwJAX:
		return jaxResultType(p.x64, pyOperand{dtype: a.DType}, pyOperand{dtype: b.DType}) != tensor.Bool
	}
	return true
}

func pyMatmulEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	a, b := pyInput(p, c.Args[0].Tensor), pyInput(p, c.Args[1].Tensor)
	for i, t := range [2]*tensor.Tensor{a, b} {
		if t.Rank() > 0 {
			continue
		}
		switch p.fw { // policies pytorch.matmul, numpy.matmul, jax.matmul
		case fwPyTorch:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: both arguments to matmul need to be at least 1D, but they are %dD and %dD", a.Rank(), b.Rank())
		case fwNumPy:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: matmul: Input operand %d does not have enough dimensions", i)
		}
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: matmul input operand %d must have ndim at least 1, but it has ndim 0", i)
	}
	g := mmGeometryOf(a.Shape, b.Shape)
	var d tensor.DType
	switch p.fw {
	case fwPyTorch:
		if out, done := torchMatmulChecks(a, b, g); done {
			return out
		}
		d = a.DType
	case fwNumPy:
		if g.k != g.kb {
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0 (size %d is different from %d)", g.kb, g.k)
		}
		if g.batch == nil {
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: operands could not be broadcast together with remapped shapes %v %v", a.Shape, b.Shape)
		}
		d = numpyPromote[a.DType][b.DType]
	default:
		if g.batch == nil {
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: Incompatible types for matmul arguments")
		}
		if g.k != g.kb {
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "TypeError: dot_general requires contracting dimensions to have the same shape, got (%d,) and (%d,).", g.k, g.kb)
		}
		d = jaxResultType(p.x64, pyOperand{dtype: a.DType}, pyOperand{dtype: b.DType})
	}
	return tensor.ValueOutcome(matmulTensors(e, a, b, d, g))
}

// torchMatmulChecks are torch.matmul's checks on the CPU in the order of
// the kernel its ranks and layout reach; done with the outcome when one
// decides it (an error, or the zeros bmm returns early).
func torchMatmulChecks(a, b *tensor.Tensor, g mmGeometry) (tensor.Outcome, bool) {
	same := a.DType == b.DType
	noKernel := a.DType == tensor.Bool || a.DType == tensor.U16 || a.DType == tensor.U32 || a.DType == tensor.U64
	mismatch := func() (tensor.Outcome, bool) {
		return tensor.ErrorOutcome(tensor.DTypeMismatch, "RuntimeError: expected m1 and m2 to have the same dtype, but got: %s != %s", torchName(a.DType), torchName(b.DType)), true
	}
	badShape := func() (tensor.Outcome, bool) {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", g.m, g.k, g.kb, g.n), true
	}
	kernelless := func(name string) (tensor.Outcome, bool) {
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "NotImplementedError: %q not implemented for '%s'", name, torchName(a.DType)), true
	}
	ra, rb := a.Rank(), b.Rank()
	switch {
	case ra == 1 && rb == 1: // dot: dtypes, then lengths, then the kernel
		switch {
		case !same:
			return tensor.ErrorOutcome(tensor.DTypeMismatch, "RuntimeError: dot : expected both vectors to have same dtype, but found %s and %s", torchName(a.DType), torchName(b.DType)), true
		case g.k != g.kb:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements", g.k, g.kb), true
		case noKernel:
			return kernelless("dot")
		}
	case ra <= 2 && rb <= 2, torchFolds(a, b): // mm and mv: shapes, dtypes, empty shortcut, kernel
		switch {
		case g.k != g.kb:
			return badShape()
		case !same:
			return mismatch()
		case noKernel && !g.empty():
			return kernelless("addmm_impl_cpu_")
		}
	default: // bmm: batch broadcast, shapes, empty shortcut, dtypes, kernel
		switch {
		case g.batch == nil:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: The size of tensor a must match the size of tensor b at a non-singleton dimension"), true
		case g.k != g.kb:
			return badShape()
		case g.empty():
			z := tensor.New(b.DType, g.shape...) // zeros of batch2's dtype
			return tensor.ValueOutcome(z), true
		case !same:
			return mismatch()
		case noKernel:
			return kernelless("bmm")
		}
	}
	return tensor.Outcome{}, false
}

// torchFolds is should_fold for operands of ranks (>= 3, <= 2) or (1, >= 3):
// the first is not a matrix, and the larger one's leading dims (the second's
// with its last two swapped) fold into rows without a copy, or it is empty.
func torchFolds(a, b *tensor.Tensor) bool {
	big := a
	if b.Rank() > a.Rank() {
		big = b
	}
	if big.Rank() < 3 || min(a.Rank(), b.Rank()) > 2 || a.Rank() == 2 {
		return false
	}
	if big.Len() == 0 {
		return true
	}
	shape, st := slices.Clone(big.Shape), stridesOf(big)
	if big == b {
		r := len(shape)
		shape[r-1], shape[r-2] = shape[r-2], shape[r-1]
		st[r-1], st[r-2] = st[r-2], st[r-1]
	}
	for i := 0; i+2 < len(shape); i++ {
		if st[i] != st[i+1]*shape[i+1] {
			return false
		}
	}
	return true
}

// stridesOf is t's element strides (a copy): a view's, else each dim's
// the count of the elements after it.
func stridesOf(t *tensor.Tensor) []int {
	if t.Strides != nil {
		return slices.Clone(t.Strides)
	}
	st := make([]int, len(t.Shape))
	for i := range st {
		st[i] = tensor.NumElements(t.Shape[i+1:])
	}
	return st
}

// matmulTensors computes a @ b in dtype d (the operands converted as
// promotion converts) into a tensor of the geometry's shape.
func matmulTensors(e *Engine, a, b *tensor.Tensor, d tensor.DType, g mmGeometry) *tensor.Tensor {
	mb := g.batches()
	switch kindOf(d) {
	case kU8:
		if d == tensor.Bool { // policy matmul.bool.or-and: a count of true pairs, then != 0
			return mmBool(e, a, b, g, mb)
		}
		return mmAs[uint8](e, a, b, d, g.shape, mb)
	case kI8:
		return mmAs[int8](e, a, b, d, g.shape, mb)
	case kU16:
		return mmAs[uint16](e, a, b, d, g.shape, mb)
	case kI16:
		return mmAs[int16](e, a, b, d, g.shape, mb)
	case kU32:
		return mmAs[uint32](e, a, b, d, g.shape, mb)
	case kI32:
		return mmAs[int32](e, a, b, d, g.shape, mb)
	case kU64:
		return mmAs[uint64](e, a, b, d, g.shape, mb)
	case kI64:
		return mmAs[int64](e, a, b, d, g.shape, mb)
	case kF32:
		return mmAs[float32](e, a, b, d, g.shape, mb)
	}
	return mmAs[float64](e, a, b, d, g.shape, mb)
}

// mmAs runs the product in representation T (policies matmul.int.wrap,
// matmul.float.order-free: any order is right where the model states a
// value).
func mmAs[T number](e *Engine, a, b *tensor.Tensor, d tensor.DType, shape []int, mb mmBatch) *tensor.Tensor {
	av, bv := rowMajor[T](e, a, d), rowMajor[T](e, b, d)
	dst := make([]T, len(mb.aOff)*mb.m*mb.n)
	mmRun(e, dst, av, bv, mb)
	return encode(e, dst, d, shape)
}

// mmBool is a bool matmul: true where some pair is true.
func mmBool(e *Engine, a, b *tensor.Tensor, g mmGeometry, mb mmBatch) *tensor.Tensor {
	av, bv := rowMajor[int32](e, a, tensor.I32), rowMajor[int32](e, b, tensor.I32)
	counts := make([]int32, len(mb.aOff)*mb.m*mb.n)
	mmRun(e, counts, av, bv, mb)
	out := tensor.New(tensor.Bool, g.shape...)
	for i, v := range counts {
		if v != 0 {
			out.Data[i] = 1
		}
	}
	return out
}
