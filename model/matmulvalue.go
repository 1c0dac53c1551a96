package model

import (
	"math"
	"math/bits"

	"github.com/tfuzz/tfuzz/tensor"
)

// The elements of a matmul once a framework has fixed its result dtype and
// shape (matmul.go, matmulrust.go): C[b, i, j] = sum over l of
// A[b, i, l] * B[b, l, j]. Integers wrap modulo 2^bits (a sum of products
// mod 2^n is the same in every order and at every accumulator width), bool
// is the OR of ANDs. A float element is stated only where every order and
// accumulator gives one value: its products exact in the result dtype and
// every partial sum exact there (multiples of one quantum 2^q adding up to
// less than 2^(q+p)), or a NaN / an infinity that no order changes; any
// other float element is "?" (spec: matmul elements whose value depends on
// the accumulation order). A complex element is "?" (BLAS may use 3M
// products, an order of partial products nothing pins) unless k = 0.

var (
	mmIntWrap = newRule("matmul.int.wrap",
		"an integer matmul element is the sum of the products modulo 2^bits of the result dtype (two's complement): the kernels multiply and add in the dtype or wider and keep the low bits, which gives the same value in every order",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/matmul.c.src:267-319 (@TYPE@_matmul_inner_noblas: *op += val1 * val2 in the type); pytorch aten/src/ATen/native/LinearAlgebra.cpp@00076d21 baddbmm_cpu_kernel (acc_value += s * m in opmath_t), addmm_impl_cpu_ (cpublas::gemm); burn 2c06be35 crates/burn-flex/src/ops/matmul.rs:590-605, :750-755 (wrapping_add of wrapping_mul for I32 and I64)")
	mmBoolOrAnd = newRule("matmul.bool.or-and",
		"a bool matmul element is true when some A[i, l] and B[l, j] are both true (NumPy's BOOL loop)",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/matmul.c.src:325-362 (BOOL_matmul_inner_noblas)")
	mmFloatExact = newOpenRule("matmul.float.order-free",
		"a float matmul element is stated when every accumulation order and accumulator width gives one value: all products finite and exact in the result dtype with every partial sum exact (multiples of one quantum whose magnitudes add up to less than 2^(q+p) and at most the dtype's largest finite), a NaN product, or infinities of one sign with finite products whose magnitudes add up to at most the largest finite; a zero sum is +0 unless every product is -0 (then \"?\": kernels start from +0 or from the first product); k = 0 gives +0; a non-finite operand against a zero is \"?\" (BLAS kernels may skip zero products); every other element is \"?\"",
		"spec/case-format.md §Ops and attrs added 2026-12 (matmul: float elements whose value depends on the accumulation order are \"?\" unless every partial sum is exact); IEEE 754-2019 §6.3 (the sign of an exact zero sum); pytorch aten/src/ATen/native/LinearAlgebra.cpp@00076d21 addmm_impl_cpu_ (k = 0: result.zero_())")
	mmComplexOpen = newOpenRule("matmul.complex.open",
		"a complex matmul element is \"?\" (the real and imaginary parts are sums of products in an order and with a multiplication scheme, 4M or 3M, nothing pins), except that k = 0 gives 0",
		"spec/case-format.md §Ops and attrs added 2026-12 (matmul); BLAS cgemm/zgemm leave the scheme to the implementation")
	mmTF32 = newOpenRule("matmul.gpu.tf32-inputs",
		"with the default precision an f32 (and c64) matmul on an NVIDIA GPU rounds its inputs to TensorFloat-32 (11 significant bits) first: an element is stated only when its inputs are TF32 values (zero, or normal with at most 11 significant bits)",
		"jax jax-v0.11.0 jax/_src/lax/lax.py:2145-2149 (Precision.DEFAULT: on GPU uses tensorfloat32 where available, e.g. A100 and H100)")
	mmNoSubnormal = newOpenRule("matmul.gpu.subnormals",
		"on Apple GPUs (Metal, MPS) subnormal values may be flushed to zero: a float element is stated only when every product and partial sum is zero or normal",
		"Metal Shading Language Specification §7 (Numerical Compliance: denormals may be flushed to zero); not measured")
)

// mmOperand is one operand of a matmul read as batch x rows x cols: a
// tensor already in the compute dtype, its batch dims (broadcast against
// the result's, or indexed flat).
type mmOperand struct {
	t          *tensor.Tensor
	batch      []int
	rows, cols int
}

// mmGeom is the shape of a matmul: the result's batch dims and shape,
// m x k times k x n; flat: result batch b reads batch b of both operands
// (candle compares only the batch products), else they broadcast.
type mmGeom struct {
	batch   []int
	out     []int
	m, k, n int
	flat    bool
}

// mmValueOpts are the framework's deviations in the element rules.
type mmValueOpts struct {
	tf32        bool // inputs rounded to TF32 first (JAX f32 on a GPU)
	noSubnormal bool // subnormals may flush (Metal, MPS)
	intOpen     bool // an element whose products or partial sums may overflow the dtype is "?" (burn ndarray)
}

// matmulValues computes every element of the result (dtype d) of a @ b.
func (e *evaluation) matmulValues(a, b mmOperand, g mmGeom, d tensor.DType, o mmValueOpts) *tensor.Tensor {
	out := tensor.New(d, g.out...)
	nb := tensor.NumElements(g.batch)
	if out.Len() == 0 || nb == 0 {
		return out
	}
	switch {
	case d == tensor.Bool:
		e.use(mmBoolOrAnd)
	case d.IsInt():
		e.use(mmIntWrap)
	case d.IsComplex():
		e.use(mmComplexOpen)
	default:
		e.use(mmFloatExact)
		if o.tf32 && d == tensor.F32 {
			e.use(mmTF32)
		}
		if o.noSubnormal {
			e.use(mmNoSubnormal)
		}
	}
	av, bv := mmWords(a.t), mmWords(b.t)
	cell := 0
	for bi := 0; bi < nb; bi++ {
		ab, bb := bi, bi
		if !g.flat {
			ab, bb = broadcastIndex(g.batch, bi, a.batch), broadcastIndex(g.batch, bi, b.batch)
		}
		aOff, bOff := ab*g.m*g.k, bb*g.k*g.n
		for i := 0; i < g.m; i++ {
			for j := 0; j < g.n; j++ {
				row, col := aOff+i*g.k, bOff+j
				switch {
				case d.IsComplex():
					if g.k > 0 {
						out.SetUnspecified(cell)
					}
				case d == tensor.Bool:
					v := false
					for l := 0; l < g.k && !v; l++ {
						v = av[row+l] != 0 && bv[col+l*g.n] != 0
					}
					out.SetBool(cell, v)
				case d.IsInt():
					e.mmIntElem(out, cell, av, bv, row, col, g, o.intOpen)
				default:
					x := mmFloatDot(av, bv, row, col, g, d, o)
					if x.open {
						out.SetUnspecified(cell)
					} else {
						out.SetFloat(cell, x.v)
					}
				}
				cell++
			}
		}
	}
	return out
}

// mmWords returns t's elements in row-major order: integer bits (sign
// extended) or float64 values.
func mmWords(t *tensor.Tensor) []uint64 {
	w := make([]uint64, t.Len())
	for i := range w {
		switch {
		case t.DType.IsComplex():
		case t.DType.IsFloat():
			w[i] = math.Float64bits(t.Float(i))
		default:
			w[i] = uint64(t.Int(i))
		}
	}
	return w
}

// mmIntElem stores the wrapped sum of products of one element; with open,
// an element some order of whose partial sums may leave the dtype's range
// is "?" (a debug build panics there, a release build wraps).
func (e *evaluation) mmIntElem(out *tensor.Tensor, cell int, av, bv []uint64, row, col int, g mmGeom, open bool) {
	var sum uint64
	var abs, carry uint64 // the magnitudes' sum, for the overflow check
	limit := uint64(out.DType.MaxInt())
	if out.DType.IsUnsigned() {
		limit = ^uint64(0) >> (64 - out.DType.Bits())
	}
	overflow := false
	for l := 0; l < g.k; l++ {
		x, y := av[row+l], bv[col+l*g.n]
		sum += x * y
		if open && !overflow {
			hi, lo := bits.Mul64(mmAbs(x, out.DType), mmAbs(y, out.DType))
			abs, carry = bits.Add64(abs, lo, 0)
			overflow = hi != 0 || carry != 0 || lo > limit || abs > limit
		}
	}
	if overflow {
		e.use(burnI64Native)
		out.SetUnspecified(cell)
		return
	}
	out.SetUint(cell, sum)
}

// mmAbs is |x| of an element word (sign-extended for signed dtypes).
func mmAbs(x uint64, d tensor.DType) uint64 {
	if d.IsSigned() && int64(x) < 0 {
		return -x
	}
	return x
}

// mmDot is one float element: its value, or open ("?").
type mmDot struct {
	v    float64
	open bool
}

// mmFloatDot decides one float element by the order-free rules of mmFloatExact.
func mmFloatDot(av, bv []uint64, row, col int, g mmGeom, d tensor.DType, o mmValueOpts) mmDot {
	p := int(significandBits(d))
	var (
		nan, posInf, negInf bool
		inexact, tiny       bool
		anyNonzero, posZero bool
		q                   = math.MaxInt32 // exponent of the common quantum
		mag                 float64         // magnitudes in units of 2^q (an integer below 2^p)
		absSum, sum         float64
	)
	for l := 0; l < g.k; l++ {
		x, y := math.Float64frombits(av[row+l]), math.Float64frombits(bv[col+l*g.n])
		if o.tf32 && d == tensor.F32 && (!tf32Value(x) || !tf32Value(y)) {
			return mmDot{open: true}
		}
		xf, yf := isFinite(x), isFinite(y)
		if (!xf && y == 0) || (!yf && x == 0) {
			return mmDot{open: true} // 0 * inf, or a NaN a kernel may skip
		}
		pr := x * y
		switch {
		case math.IsNaN(pr):
			nan = true
			continue
		case math.IsInf(pr, 1):
			posInf = true
			continue
		case math.IsInf(pr, -1):
			negInf = true
			continue
		}
		if !mmProductExact(x, y, pr, d) {
			inexact = true
		}
		absSum += math.Abs(pr)
		if pr == 0 {
			posZero = posZero || !math.Signbit(pr)
			continue
		}
		anyNonzero = true
		if o.noSubnormal && math.Abs(pr) < minNormal(d) {
			tiny = true
		}
		_, pq, _ := redDecompose(pr)
		q = min(q, pq)
	}
	switch {
	case nan || (posInf && negInf):
		return mmDot{v: math.NaN()}
	case posInf || negInf:
		if absSum > maxFinite(d) {
			return mmDot{open: true}
		}
		if posInf {
			return mmDot{v: math.Inf(1)}
		}
		return mmDot{v: math.Inf(-1)}
	case g.k == 0:
		return mmDot{v: 0}
	case inexact || tiny:
		return mmDot{open: true}
	case !anyNonzero:
		if posZero {
			return mmDot{v: 0}
		}
		return mmDot{open: true} // every product -0: +0 or -0 by the kernel's start
	}
	for l := 0; l < g.k; l++ {
		pr := math.Float64frombits(av[row+l]) * math.Float64frombits(bv[col+l*g.n])
		if pr == 0 {
			continue
		}
		m := math.Ldexp(math.Abs(pr), -q)
		if m >= math.Ldexp(1, p) {
			return mmDot{open: true}
		}
		mag += m
		if mag >= math.Ldexp(1, p) {
			return mmDot{open: true}
		}
		sum += pr
	}
	if math.Ldexp(mag, q) > maxFinite(d) || (o.noSubnormal && math.Ldexp(1, q) < minNormal(d)) {
		return mmDot{open: true}
	}
	return mmDot{v: sum} // exact: every partial sum is a value of d
}

// mmProductExact reports whether x*y (computed as pr) is exact and a value of d.
func mmProductExact(x, y, pr float64, d tensor.DType) bool {
	if d != tensor.F64 {
		return roundTo(pr, d) == pr // x*y of narrower values is exact in float64
	}
	if pr == 0 {
		return x == 0 || y == 0 // else it underflowed
	}
	return math.Abs(pr) >= 0x1p-968 && math.FMA(x, y, -pr) == 0
}

// tf32Value reports whether x is a TensorFloat-32 value: zero, non-finite,
// or normal with at most 11 significant bits.
func tf32Value(x float64) bool {
	if x == 0 || !isFinite(x) {
		return true
	}
	if math.Abs(x) < 0x1p-126 {
		return false
	}
	return math.Float32bits(float32(x))&(1<<13-1) == 0
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
