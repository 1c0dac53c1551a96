package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// matmul in PyTorch, NumPy and JAX (case format, added 2026-12): the shapes
// as NumPy reads them (a 1-D a is a row, a 1-D b a column, batch dims
// broadcast), the result dtype (PyTorch: no promotion at all; NumPy and
// JAX: their promotion of the two arrays) and each framework's checks in
// its order; the elements in matmulvalue.go.

var (
	torchMatmul = newRule("pytorch.matmul",
		"torch.matmul needs both operands at least 1-D (RuntimeError) and does not promote: 1-D @ 1-D is dot (the dtype check first, \"dot : expected both vectors to have same dtype\", then the lengths), 2-D @ 1-D mv and 1-D/2-D @ 2-D mm (the shapes checked first, \"mat1 and mat2 shapes cannot be multiplied\", then \"expected m1 and m2 to have the same dtype\"), an N-D operand against a 1-D/2-D one is folded into mm or mv when its leading dims fold without a copy (should_fold), else the batch dims broadcast (\"The size of tensor a ...\") and bmm runs: its shape check, then an empty result or k = 0 returns zeros of the second operand's dtype before any dtype check; the CPU kernels cover every dtype but bool and uint16/32/64 (NotImplementedError), which mm, mv and bmm reach only past their empty shortcuts",
		"pytorch aten/src/ATen/native/LinearAlgebra.cpp@00076d21 _matmul_impl, should_fold, TORCH_META_FUNC(mm), addmm_impl_cpu_ (dtype check, numel 0, k = 0: zero_, _AT_DISPATCH_ADDMM_TYPES), bmm_out_or_baddbmm_ (numel 0, contraction 0, AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2), common_checks_baddbmm_bmm (output dtype: batch2's); aten/src/ATen/native/Blas.cpp@017943b7 dot_check, TORCH_META_FUNC(addmv), addmv_out_cpu (mat.numel() == 0: zero_); seed 003 §没有类型提升 (f32 @ f64: RuntimeError expected m1 and m2 to have the same dtype)")
	torchMatmulCUDA = newRule("pytorch.cuda.matmul.float-only",
		"PyTorch CUDA matmul has float and complex kernels only (cuBLAS): an integer or bool matmul is NotImplementedError \"addmm_cuda\" not implemented; fp32 matmul does not use TF32 by default (torch.backends.cuda.matmul.allow_tf32 is False)",
		"pytorch aten/src/ATen/native/cuda/Blas.cpp@960a6846 addmm_out_cuda_impl (AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(Half, BFloat16, \"addmm_cuda\")); PyTorch docs, CUDA semantics §TensorFloat-32 (allow_tf32 defaults to False for matmul)")
	torchMatmulOpen = newRule("pytorch.matmul.not-stated",
		"what PyTorch does for a matmul outside the paths read here is not stated: on MPS anything but two operands of one of f16, bf16, f32 (integer mm moved from an error to Metal kernels across 2.x releases), on CUDA the order of the empty shortcuts against the dtype and kernel checks",
		"pytorch aten/src/ATen/native/mps/operations/LinearAlgebra.mm (mm_out_mps_impl: \"MPS device does not support mm for non-float inputs\" in older releases, int_gemm kernels in newer ones); not modeled").silent()
	numpyMatmul = newRule("numpy.matmul",
		"np.matmul is a gufunc (n?,k),(k,m?)->(n?,m?): a 0-d operand is a ValueError, the core dims must match and the batch dims broadcast (ValueError); the operands are promoted to their result_type and there are loops for bool, every integer, f16, f32, f64 and complex (f16 and the integers by a plain loop, f32/f64/complex by BLAS where the strides allow)",
		"numpy v2.5.2 (48fecee5) numpy/_core/code_generators/generate_umath.py:1177-1184 (matmul: PyUFunc_SimpleUniformOperationTypeResolver, TD(notimes_or_obj)), :342 (notimes_or_obj = bints + inexact), numpy/_core/src/umath/matmul.c.src:267-362, :481-560 (noblas fallback)")
	numpyMatmulBF16 = newRule("numpy.matmul.bf16-not-stated",
		"ml_dtypes registers no matmul loop for bfloat16 (only the arrfuncs dot), so what np.matmul resolves a bf16 operation to is not stated",
		"ml_dtypes b793a6e2 ml_dtypes/_src/floats.cc:526, :874 (NPyCustomFloat_DotFunc only); no matmul ufunc registration").silent()
	jaxMatmul = newRule("jax.matmul",
		"jnp.matmul needs both operands at least 1-D (ValueError), promotes them with result_type, broadcasts the batch dims (ValueError \"Incompatible types for matmul arguments\") and contracts with lax.dot_general (TypeError when the contracting dims differ); integers wrap on the CPU",
		"jax jax-v0.11.0 jax/_src/numpy/tensor_contractions.py:194-276 (matmul), jax/_src/lax/lax.py:5796-5823 (_dot_general_dtype_rule)")
	jaxMatmulOpen = newRule("jax.matmul.not-stated",
		"a bool matmul (what XLA's dot does with PRED) and an integer matmul on a GPU are not stated",
		"jax jax-v0.11.0 jax/_src/lax/lax.py _dot_general_dtype_rule (bool not rejected); XLA GPU integer dot emitter not read").silent()
)

// mmShape is a matmul's shape as NumPy reads it, with what is wrong with it.
type mmShape struct {
	g                 mmGeom
	aBatch, bBatch    []int
	badCore, badBatch bool
}

// numpyMatmulShape reads shapes a and b (rank >= 1 each) as np.matmul does.
func numpyMatmulShape(a, b []int) mmShape {
	d, _ := tensor.MatmulDimsOf(a, b)
	s := mmShape{aBatch: d.BatchA, bBatch: d.BatchB, badCore: d.K != d.K2}
	batch, _, ok := broadcastShapes(d.BatchA, d.BatchB)
	s.badBatch = !ok
	s.g = mmGeom{batch: batch, m: d.M, k: d.K, n: d.N}
	s.g.out = append([]int{}, batch...)
	if len(a) >= 2 {
		s.g.out = append(s.g.out, d.M)
	}
	if len(b) >= 2 {
		s.g.out = append(s.g.out, d.N)
	}
	return s
}

// empty reports whether the result has no elements or the sum no terms.
func (s mmShape) empty() bool { return tensor.NumElements(s.g.out) == 0 || s.g.k == 0 }

// pyMatmul is matmul(a, b) in PyTorch, NumPy or JAX.
func (e *evaluation) pyMatmul() tensor.Outcome {
	a, b := e.input(e.c.Args[0].Tensor), e.input(e.c.Args[1].Tensor)
	if o := e.torchMPSF64([]pyArg{{t: a}, {t: b}}); o != nil {
		return *o
	}
	for i, t := range []*tensor.Tensor{a, b} {
		if t.Rank() == 0 {
			return e.mmRank0(i, a.Rank(), b.Rank())
		}
	}
	s := numpyMatmulShape(a.Shape, b.Shape)
	switch e.p.Framework {
	case PyTorch:
		return e.torchMatmulOp(a, b, s)
	case NumPy:
		e.use(numpyMatmul)
		switch {
		case s.badCore:
			return e.fail(numpyMatmul, tensor.ShapeMismatch, "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size %d is different from %d)", s.g.k, matmulK2(b.Shape))
		case s.badBatch:
			return e.fail(numpyMatmul, tensor.ShapeMismatch, "ValueError: operands could not be broadcast together with remapped shapes [original->remapped]: %s->%s %s->%s", shapeTupleCompact(a.Shape), shapeTupleCompact(a.Shape), shapeTupleCompact(b.Shape), shapeTupleCompact(b.Shape))
		}
		d, _ := e.pyPromote([]pyArg{{t: a}, {t: b}})
		if d == tensor.BF16 {
			return e.unsupported(numpyMatmulBF16, "tfuzz: not modeled: np.matmul of bfloat16 (ml_dtypes has no matmul loop)")
		}
		return e.mmValue(a, b, s, d, mmValueOpts{})
	}
	e.use(jaxMatmul)
	switch {
	case s.badBatch:
		return e.fail(jaxMatmul, tensor.ShapeMismatch, "ValueError: Incompatible types for matmul arguments: %s and %s", pyName(a.DType), pyName(b.DType))
	case s.badCore:
		return e.fail(jaxMatmul, tensor.ShapeMismatch, "TypeError: dot_general requires contracting dimensions to have the same shape, got (%d,) and (%d,).", s.g.k, matmulK2(b.Shape))
	}
	d, _ := e.pyPromote([]pyArg{{t: a}, {t: b}})
	if d == tensor.Bool || (d.IsInt() && e.p.Device == GPU) {
		return e.unsupported(jaxMatmulOpen, "tfuzz: not modeled: jnp.matmul of %s on %s", d, e.p.Name)
	}
	return e.mmValue(a, b, s, d, mmValueOpts{tf32: e.p.Device == GPU})
}

// matmulK2 is the size of b's contracting dim.
func matmulK2(b []int) int {
	d, _ := tensor.MatmulDimsOf([]int{1}, b)
	return d.K2
}

// mmRank0 is the error of a 0-dim operand (position i).
func (e *evaluation) mmRank0(i, ra, rb int) tensor.Outcome {
	switch e.p.Framework {
	case PyTorch:
		return e.fail(torchMatmul, tensor.ShapeMismatch, "RuntimeError: both arguments to matmul need to be at least 1D, but they are %dD and %dD", ra, rb)
	case NumPy:
		return e.fail(numpyMatmul, tensor.ShapeMismatch, "ValueError: matmul: Input operand %d does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)", i)
	}
	return e.fail(jaxMatmul, tensor.ShapeMismatch, "ValueError: matmul input operand %d must have ndim at least 1, but it has ndim 0", i)
}

// mmValue converts a and b to d and computes the elements.
func (e *evaluation) mmValue(a, b *tensor.Tensor, s mmShape, d tensor.DType, o mmValueOpts) tensor.Outcome {
	ca, cb := e.convertArg(pyArg{t: a}, d), e.convertArg(pyArg{t: b}, d)
	return tensor.ValueOutcome(e.matmulValues(mmOperandOf(ca, s.aBatch, s.g.m, s.g.k), mmOperandOf(cb, s.bBatch, s.g.k, s.g.n), s.g, d, o))
}

// mmOperandOf reads t as its batch of rows x cols matrices.
func mmOperandOf(t *tensor.Tensor, batch []int, rows, cols int) mmOperand {
	return mmOperand{t: t, batch: batch, rows: rows, cols: cols}
}

// torchMatmulPath names the kernel torch.matmul reaches: dot, mv, mm or bmm
// (a folded operand reaches mm or mv).
func torchMatmulPath(a, b *tensor.Tensor) string {
	ra, rb := a.Rank(), b.Rank()
	switch {
	case ra == 1 && rb == 1:
		return "dot"
	case ra == 2 && rb == 1:
		return "mv"
	case ra <= 2 && rb == 2:
		return "mm"
	case torchShouldFold(a, b):
		if min(ra, rb) == 1 {
			return "mv"
		}
		return "mm"
	}
	return "bmm"
}

// torchShouldFold is should_fold: the larger operand (the second one
// transposed when it is the larger) has rank >= 3, the other rank <= 2, the
// first is not 2-D, and the larger's leading dims fold without a copy (or
// it is empty).
func torchShouldFold(a, b *tensor.Tensor) bool {
	t1, other := a, b.Rank()
	shape, strides := a.Shape, elemStrides(a)
	if a.Rank() < b.Rank() {
		t1, other = b, a.Rank()
		shape, strides = swapLast2(b.Shape), swapLast2(elemStrides(b))
	}
	if t1.Rank() < 3 || other > 2 || a.Rank() == 2 {
		return false
	}
	if t1.Len() == 0 {
		return true
	}
	for i := 0; i < len(shape)-2; i++ {
		if strides[i] != strides[i+1]*shape[i+1] {
			return false
		}
	}
	return true
}

// elemStrides returns t's strides in elements: a view's, else row-major (every framework's contiguous strides).
func elemStrides(t *tensor.Tensor) []int {
	if t.Strides != nil {
		return t.Strides
	}
	s := make([]int, t.Rank())
	acc := 1
	for i := t.Rank() - 1; i >= 0; i-- {
		s[i] = acc
		acc *= t.Shape[i]
	}
	return s
}

func swapLast2(xs []int) []int {
	ys := append([]int{}, xs...)
	n := len(ys)
	ys[n-1], ys[n-2] = ys[n-2], ys[n-1]
	return ys
}

// torchMatmulOp is torch.matmul past the rank check.
func (e *evaluation) torchMatmulOp(a, b *tensor.Tensor, s mmShape) tensor.Outcome {
	e.use(torchMatmul)
	same := a.DType == b.DType
	d := a.DType
	switch e.p.Device {
	case MPS:
		if !same || (d != tensor.F16 && d != tensor.BF16 && d != tensor.F32) {
			return e.unsupported(torchMatmulOpen, "tfuzz: not modeled: torch.matmul of %s and %s on MPS", d, b.DType)
		}
	case CUDA:
		e.use(torchMatmulCUDA)
	}
	kernel := map[string]string{"dot": "dot", "mv": "addmv_impl_cpu", "mm": "addmm_impl_cpu_", "bmm": "bmm"}
	noKernel := d == tensor.Bool || isBarebonesUnsigned(d)
	if e.p.Device == CUDA {
		kernel = map[string]string{"dot": "dot", "mv": "addmv_impl_cuda", "mm": "addmm_cuda", "bmm": "bmm_cuda"}
		noKernel = !d.IsFloat() && !d.IsComplex()
	}
	path := torchMatmulPath(a, b)
	dtypeErr := func() tensor.Outcome {
		return e.fail(torchMatmul, tensor.DTypeMismatch, "RuntimeError: expected m1 and m2 to have the same dtype, but got: %s != %s", torchCName(a.DType), torchCName(b.DType))
	}
	shapeErr := func() tensor.Outcome {
		return e.fail(torchMatmul, tensor.ShapeMismatch, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", s.g.m, s.g.k, matmulK2(b.Shape), s.g.n)
	}
	switch path {
	case "dot":
		switch {
		case !same:
			return e.fail(torchMatmul, tensor.DTypeMismatch, "RuntimeError: dot : expected both vectors to have same dtype, but found %s and %s", torchCName(a.DType), torchCName(b.DType))
		case s.badCore:
			return e.fail(torchMatmul, tensor.ShapeMismatch, "RuntimeError: inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", a.Len(), b.Len(), a.Len(), b.Len())
		case noKernel && e.p.Device == CUDA && s.empty():
			return e.unsupported(torchMatmulOpen, "tfuzz: not modeled: an empty CUDA dot of %s", d)
		case noKernel:
			return e.torchNoKernelError(kernel[path], d)
		}
	case "mv", "mm":
		switch {
		case s.badCore:
			return shapeErr()
		case !same:
			return dtypeErr()
		case noKernel && s.empty() && e.p.Device == CUDA:
			return e.unsupported(torchMatmulOpen, "tfuzz: not modeled: an empty CUDA matmul of %s", d)
		case noKernel && !s.empty():
			return e.torchNoKernelError(kernel[path], d)
		}
	default:
		switch {
		case s.badBatch:
			return e.fail(torchMatmul, tensor.ShapeMismatch, "RuntimeError: The size of tensor a must match the size of tensor b at a non-singleton dimension (batch dims %v and %v)", s.aBatch, s.bBatch)
		case s.badCore:
			return e.fail(torchMatmul, tensor.ShapeMismatch, "RuntimeError: Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", tensor.NumElements(s.g.batch), s.g.k, tensor.NumElements(s.g.batch), matmulK2(b.Shape))
		case s.empty() && e.p.Device == CUDA && (!same || noKernel):
			return e.unsupported(torchMatmulOpen, "tfuzz: not modeled: an empty CUDA bmm of %s and %s", d, b.DType)
		case s.empty():
			return tensor.ValueOutcome(tensor.New(b.DType, s.g.out...)) // zeros of batch2's dtype
		case !same:
			return dtypeErr()
		case noKernel:
			return e.torchNoKernelError(kernel[path], d)
		}
	}
	return e.mmValue(a, b, s, d, mmValueOpts{noSubnormal: e.p.Device == MPS})
}

// torchCName is the dtype as c10 prints it in these messages (float, double, c10::Half).
func torchCName(d tensor.DType) string {
	switch d {
	case tensor.F32:
		return "float"
	case tensor.F64:
		return "double"
	case tensor.F16:
		return "c10::Half"
	case tensor.BF16:
		return "c10::BFloat16"
	}
	return pyName(d)
}
