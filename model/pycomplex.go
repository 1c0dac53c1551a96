package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// Complex arithmetic of PyTorch, NumPy and JAX: add, sub, mul and div of
// complex operands (a real operand or Python scalar is first converted to
// complex with a +0 imaginary part). Each component step is an IEEE
// operation in the component dtype (f32 for c64, f64 for c128); where a
// compiler may contract a product and a sum into one fused multiply-add,
// every contraction is evaluated and the element is unspecified when they
// differ.

var (
	torchComplexAddAlpha = newRule("pytorch.complex.add-alpha",
		"PyTorch adds and subtracts as self + alpha * other with alpha = 1 or -1 a complex scalar: the product is a complex multiplication, so an infinite component of other makes the other component NaN (0 * inf), a NaN makes both NaN, and -0 can become +0; a Python number on the left of + is other (t.__radd__), on the left of - it is self (torch.rsub)",
		"pytorch aten/src/ATen/native/ufunc/add.h@66b5b0b5 (add: self + alpha * other; Vectorized: vec::fmadd(other, alpha, self)); c10/util/complex.h@d770bb96 operator*= ((a*c - b*d), (a*d + b*c))")
	complexAddParts = newRule("python.complex.add-parts",
		"NumPy and JAX add and subtract complex numbers part by part (a real operand or Python scalar is first a complex number with a +0 imaginary part)",
		"numpy v2.5.2 numpy/_core/src/umath/loops_arithm_fp.dispatch.c.src:306-310 (npyv_add/npyv_sub on the interleaved parts); xla 63f59304 xla/service/elemental_ir_emitter.cc EmitComplexAdd, EmitComplexSubtract")
	numpyComplexMul = newRule("numpy.complex.mul-fma",
		"NumPy multiplies complex arrays in its SIMD loop: re = fma(a.re, b.re, -(a.im*b.im)), im = fma(a.re, b.im, a.im*b.re), with the products a.im*b rounded first (npyv_muladdsub), a the first operand",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/loops_arithm_fp.dispatch.c.src:236-246, 277-286 (simd_cmul: ab_iiir = a_im * b_rev; npyv_muladdsub(a_re, b, ab_iiir)), :306-310 (multiply uses simd_cmul)")
	complexMulContract = newOpenRule("python.complex.mul-contraction",
		"PyTorch and JAX multiply complex numbers as (a*c - b*d) + (a*d + b*c)i; the compiler may contract either product into a fused multiply-add (PyTorch's scalar tail loop, nvcc, XLA's LLVM with FP op fusion on), so a part is unspecified where the unfused and the two fused forms differ (never when the products are exact)",
		"c10/util/complex.h@d770bb96 operator*=; aten/src/ATen/cpu/vec/vec256/vec256_complex_float.h@87b1b4bf operator* (unfused: mul, hsub); xla 63f59304 xla/service/elemental_ir_emitter.cc EmitComplexMultiply")
	smithComplexDiv = newRule("python.complex.div-smith",
		"PyTorch (CPU, CUDA) and NumPy divide complex numbers by Smith's algorithm: with |c| >= |d| (both zero: a/|c|, b/|d|), rat = d/c, scl = 1/(c + d*rat), re = (a + b*rat)*scl, im = (b - a*rat)*scl; otherwise rat = c/d, scl = 1/(d + c*rat), re = (a*rat + b)*scl, im = (b*rat - a)*scl",
		"c10/util/complex.h@d770bb96 operator/= (\"follows numpy's complex division\"); vec256_complex_float.h@87b1b4bf operator/ (element by element through it); numpy v2.5.2 numpy/_core/src/umath/loops.c.src:2165-2194 (@TYPE@_divide)")
	torchClangComplexAbs = newRule("pytorch.complex.div-clang-abs",
		"PyTorch built with clang (the macOS Arm64 wheels the seeds' M2 Max runs use) takes |c| in c10::complex division as c < 0 ? -c : c, which keeps a -0: a divisor whose parts are both zero divides a by -0 where c is -0 (and b by -0 where d is), so (-1+2j)/(-0+0j) is inf+infj there and -inf+infj with gcc's std::abs",
		"pytorch c10/util/complex.h operator/= (#if defined(__GNUC__) && !defined(__clang__): std::abs, #else abs_c = c < 0 ? -c : c; both zero: real_ = a / abs_c, imag_ = b / abs_d)")
	torchMPSComplexDiv = newRule("pytorch.mps.complex-div",
		"PyTorch MPS divides complex numbers without Smith's scaling: (dot(x, y), x.im*y.re - x.re*y.im) / dot(y, y), each part over c*c + d*d; the Metal compiler may contract the products, so a part is unspecified where the contractions differ (and see python.complex.div-contraction)",
		"pytorch c10/metal/utils.h div (complex: T(::metal::dot(x, y), x.y * y.x - x.x * y.y) / ::metal::dot(y, y)); aten/src/ATen/native/mps/kernels/BinaryKernel.metal div_true_functor (c10::metal::div)")
	xlaComplexDiv = newRule("jax.complex.div-xla",
		"JAX divides complex numbers as XLA's EmitComplexDivide: with |b.re| < |b.im|, ratio = b.re/b.im, denom = b.im + ratio*b.re, re = (ratio*a.re + a.im)/denom, im = (ratio*a.im - a.re)/denom; otherwise ratio = b.im/b.re, denom = b.re + ratio*b.im, re = (ratio*a.im + a.re)/denom, im = (a.im - ratio*a.re)/denom; a (NaN, NaN) result is replaced for a zero divisor (inf with b.re's sign times a), an infinite numerator over a finite divisor, and a finite numerator over an infinite divisor",
		"xla 63f59304 xla/service/elemental_ir_emitter.cc EmitComplexDivide")
	complexDivContract = newOpenRule("python.complex.div-contraction",
		"where a framework's complex division is compiled with fused multiply-add contraction allowed (PyTorch's c10::complex, NumPy on Arm64 (clang), XLA), every contraction of the three multiply-add steps is evaluated; a part is unspecified where they differ; XLA's f32 divisions on NVIDIA GPUs are approximate, so a c64 quotient with an inexact step is unspecified there",
		"c10/util/complex.h@d770bb96 operator/=; xla 63f59304 EmitComplexDivide; jax.gpu.approximate-f32-div")
	torchComplexMaxMin = newRule("pytorch.maximum.complex",
		"torch.maximum and torch.minimum refuse complex operands: \"maximum not implemented for complex tensors.\" (a RuntimeError from TORCH_CHECK in older releases, a TypeError from TORCH_CHECK_TYPE in current sources; class UnsupportedDType either way)",
		"pytorch aten/src/ATen/native/BinaryOps.cpp TORCH_META_FUNC(maximum), TORCH_META_FUNC(minimum) (TORCH_CHECK_TYPE(!self.is_complex() && !other.is_complex(), \"maximum not implemented for complex tensors.\"); TORCH_CHECK before)")
)

// fmaIn is fma(a, b, c) rounded once to the precision p (f32 or f64).
func fmaIn(a, b, c float64, p tensor.DType) float64 {
	if p == tensor.F64 {
		return math.FMA(a, b, c)
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(c) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(c, 0) {
		return roundTo(math.FMA(a, b, c), tensor.F32)
	}
	if v, ok := fma32(a, b, c); ok {
		return v
	}
	s := new(big.Float).SetPrec(400).Mul(big.NewFloat(a), big.NewFloat(b))
	s.Add(s, big.NewFloat(c))
	if s.Sign() == 0 {
		return roundTo(math.FMA(a, b, c), tensor.F32) // an exact zero: its sign as IEEE gives it
	}
	return roundBigTo(s, tensor.F32)
}

// fma32 is fma(a, b, c) rounded once to f32 for finite f32 values a and b:
// their product is exact in f64 (48 bits), TwoSum gives the f64 sum and its
// exact error, and the sum rounded to odd (its last bit set where the error
// is not zero) rounds to f32 as the exact value does, f64 holding more than
// two bits beyond f32's 24 (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", 2008).
// ok is false where the shortcut does not hold (a or b not an f32 value, a
// sum beyond f64).
func fma32(a, b, c float64) (v float64, ok bool) {
	if float64(float32(a)) != a || float64(float32(b)) != b {
		return 0, false
	}
	pr := a * b
	s := pr + c
	if math.IsInf(s, 0) {
		return 0, false
	}
	t := s - pr
	e := (pr - (s - t)) + (c - t)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return roundTo(s, tensor.F32), true
}

// cfpu is one component precision: each method is one rounded IEEE step.
type cfpu struct{ p tensor.DType }

func (f cfpu) add(a, b float64) float64 { return floatArith("add", a, b, f.p) }
func (f cfpu) sub(a, b float64) float64 { return floatArith("sub", a, b, f.p) }
func (f cfpu) mul(a, b float64) float64 { return floatArith("mul", a, b, f.p) }
func (f cfpu) div(a, b float64) float64 { return floatArith("div", a, b, f.p) }

// madd is a*b + c, fused into one rounding when fused is set.
func (f cfpu) madd(fused bool, a, b, c float64) float64 {
	if fused {
		return fmaIn(a, b, c, f.p)
	}
	return f.add(f.mul(a, b), c)
}

// complexMulForm is x*y with the contraction choices re and im: 0 unfused,
// 1 the first product fused (a*c, a*d), 2 the second (b*d, b*c).
func complexMulForm(x, y complex128, f cfpu, re, im int) complex128 {
	a, b, c, d := real(x), imag(x), real(y), imag(y)
	var r, i float64
	switch re {
	case 0:
		r = f.sub(f.mul(a, c), f.mul(b, d))
	case 1:
		r = fmaIn(a, c, -f.mul(b, d), f.p)
	default:
		r = fmaIn(-b, d, f.mul(a, c), f.p)
	}
	switch im {
	case 0:
		i = f.add(f.mul(a, d), f.mul(b, c))
	case 1:
		i = fmaIn(a, d, f.mul(b, c), f.p)
	default:
		i = fmaIn(b, c, f.mul(a, d), f.p)
	}
	return complex(r, i)
}

// smithDiv is Smith's algorithm; fuse bit 0 contracts the denominator, bit
// 1 the real numerator, bit 2 the imaginary numerator. clangAbs is c10's
// non-gcc |c| (c < 0 ? -c : c), which keeps a -0 for the zero divisor.
func smithDiv(x, y complex128, f cfpu, fuse int, clangAbs bool) complex128 {
	a, b, c, d := real(x), imag(x), real(y), imag(y)
	fd, fr, fi := fuse&1 != 0, fuse&2 != 0, fuse&4 != 0
	if math.Abs(c) >= math.Abs(d) {
		if c == 0 && d == 0 {
			absC, absD := math.Abs(c), math.Abs(d)
			if clangAbs {
				absC, absD = c, d // neither is < 0: -0 stays -0
			}
			return complex(f.div(a, absC), f.div(b, absD))
		}
		rat := f.div(d, c)
		scl := f.div(1, f.madd(fd, d, rat, c))
		return complex(f.mul(f.madd(fr, b, rat, a), scl), f.mul(f.madd(fi, -a, rat, b), scl))
	}
	rat := f.div(c, d)
	scl := f.div(1, f.madd(fd, c, rat, d))
	return complex(f.mul(f.madd(fr, a, rat, b), scl), f.mul(f.madd(fi, b, rat, -a), scl))
}

// textbookDiv is the division of c10/metal/utils.h: (a*c + b*d, b*c - a*d)
// over c*c + d*d; fuse bits 0, 1, 2 contract the real numerator, the
// imaginary numerator and the denominator (bit 3 picks which product of
// each is fused).
func textbookDiv(x, y complex128, f cfpu, fuse int) complex128 {
	a, b, c, d := real(x), imag(x), real(y), imag(y)
	second := fuse&8 != 0
	dot := func(fused bool, p, q, r, s float64) float64 { // p*q + r*s
		switch {
		case fused && second:
			return fmaIn(r, s, f.mul(p, q), f.p)
		case fused:
			return fmaIn(p, q, f.mul(r, s), f.p)
		}
		return f.add(f.mul(p, q), f.mul(r, s))
	}
	re := dot(fuse&1 != 0, a, c, b, d)
	im := dot(fuse&2 != 0, b, c, -a, d)
	den := dot(fuse&4 != 0, c, c, d, d)
	return complex(f.div(re, den), f.div(im, den))
}

// xlaComplexDivide is XLA's EmitComplexDivide; fuse as for smithDiv. div is the
// division step (exact IEEE, or the GPU's approximate one).
func xlaComplexDivide(x, y complex128, f cfpu, fuse int, div func(a, b float64) float64) complex128 {
	ar, ai, br, bi := real(x), imag(x), real(y), imag(y)
	fd, fr, fi := fuse&1 != 0, fuse&2 != 0, fuse&4 != 0
	var cr, ci float64
	if math.Abs(br) < math.Abs(bi) {
		ratio := div(br, bi)
		denom := f.madd(fd, ratio, br, bi)
		cr = div(f.madd(fr, ratio, ar, ai), denom)
		ci = div(f.madd(fi, ratio, ai, -ar), denom)
	} else {
		ratio := div(bi, br)
		denom := f.madd(fd, ratio, bi, br)
		cr = div(f.madd(fr, ratio, ai, ar), denom)
		ci = div(f.madd(fi, -ratio, ar, ai), denom)
	}
	if !math.IsNaN(cr) || !math.IsNaN(ci) {
		return complex(cr, ci)
	}
	isInf := func(v float64) bool { return math.IsInf(v, 0) }
	finite := func(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }
	oneIf := func(c bool, sign float64) float64 {
		v := 0.0
		if c {
			v = 1
		}
		return math.Copysign(v, sign)
	}
	inf := math.Inf(1)
	switch {
	case br == 0 && bi == 0 && (!math.IsNaN(ar) || !math.IsNaN(ai)):
		s := math.Copysign(inf, br)
		return complex(f.mul(s, ar), f.mul(s, ai))
	case (isInf(ar) || isInf(ai)) && finite(br) && finite(bi):
		r, i := oneIf(isInf(ar), ar), oneIf(isInf(ai), ai)
		return complex(f.mul(inf, f.add(f.mul(r, br), f.mul(i, bi))), f.mul(inf, f.sub(f.mul(i, br), f.mul(r, bi))))
	case (isInf(br) || isInf(bi)) && finite(ar) && finite(ai):
		r, i := oneIf(isInf(br), br), oneIf(isInf(bi), bi)
		return complex(f.mul(0, f.add(f.mul(ar, r), f.mul(ai, i))), f.mul(0, f.sub(f.mul(ai, r), f.mul(ar, i))))
	}
	return complex(cr, ci)
}

// sameComplex compares parts bit for bit, every NaN equal.
func sameComplex(x, y complex128) bool {
	return sameFloat(real(x), real(y)) && sameFloat(imag(x), imag(y))
}

// complexMul is x*y under the profile; the bool marks an unspecified result.
func (b *pyBin) complexMul(x, y complex128) (complex128, bool) {
	f := cfpu{b.compute.Component()}
	if b.e.p.Framework == NumPy {
		b.e.use(numpyComplexMul)
		return complexMulForm(x, y, f, 1, 1), false
	}
	v := complexMulForm(x, y, f, 0, 0)
	for re := range 3 {
		for im := range 3 {
			if !sameComplex(v, complexMulForm(x, y, f, re, im)) {
				b.e.use(complexMulContract)
				return v, true
			}
		}
	}
	return v, false
}

// complexDiv is x/y under the profile; the bool marks an unspecified result.
func (b *pyBin) complexDiv(x, y complex128) (complex128, bool) {
	f := cfpu{b.compute.Component()}
	if b.e.p.Framework == PyTorch && b.args[0].isScalar() {
		b.e.use(torchRDiv) // s / t is t.reciprocal() * s
		r, open1 := b.torchReciprocal(y, f)
		v, open2 := b.complexMul(r, x)
		return v, open1 || open2
	}
	if b.e.p.Framework == PyTorch && b.e.p.Device == CUDA && b.args[1].isScalar() {
		b.e.use(cudaScalarDiv) // x * (1/y): the reciprocal on the host, then a device multiply
		r, open1 := b.complexDivBy(complex(1, 0), y, f)
		v, open2 := b.complexMul(x, r)
		return v, open1 || open2
	}
	return b.complexDivBy(x, y, f)
}

// torchReciprocal is t.reciprocal() of the tensor element y (converted to
// the complex compute dtype): a complex tensor's is 1/y by c10's division; a
// real tensor's is 1/y in its own float dtype (an integer or bool tensor's
// in the default f32), which the multiply then promotes with a +0 imaginary
// part.
func (b *pyBin) torchReciprocal(y complex128, f cfpu) (complex128, bool) {
	td := b.args[1].t.DType
	if td.IsComplex() {
		return b.complexDivBy(complex(1, 0), y, f)
	}
	if !td.IsFloat() {
		td = tensor.F32
	}
	return complex(roundTo(floatArith("div", 1, real(y), opmath(td)), td), 0), false
}

// complexDivBy is the framework's complex division algorithm.
func (b *pyBin) complexDivBy(x, y complex128, f cfpu) (complex128, bool) {
	exactDiv, gpuInexact := f.div, false
	if b.e.p.Framework == JAX && b.e.p.Device == GPU && f.p == tensor.F32 {
		exactDiv = func(a, c float64) float64 {
			q := f.div(a, c)
			if _, unspec := approxDivF32(a, c, tensor.F32); unspec {
				gpuInexact = true
			}
			return q
		}
	}
	clangAbs := b.e.p.Framework == PyTorch && b.e.p.Device == CPU && b.e.p.Arch == Arm64
	forms := 8
	form := func(fuse int) complex128 {
		switch {
		case b.e.p.Framework == JAX:
			return xlaComplexDivide(x, y, f, fuse, exactDiv)
		case b.e.p.Framework == PyTorch && b.e.p.Device == MPS:
			return textbookDiv(x, y, f, fuse)
		}
		return smithDiv(x, y, f, fuse, clangAbs)
	}
	switch {
	case b.e.p.Framework == JAX:
		b.e.use(xlaComplexDiv)
	case b.e.p.Framework == PyTorch && b.e.p.Device == MPS:
		b.e.use(torchMPSComplexDiv)
		forms = 16
	default:
		b.e.use(smithComplexDiv)
		if clangAbs && real(y) == 0 && imag(y) == 0 {
			b.e.use(torchClangComplexAbs)
		}
	}
	v := form(0)
	if b.e.p.Framework == NumPy && b.e.p.Arch == X86 {
		return v, false // the baseline build has no FMA instruction to contract into
	}
	for fuse := 1; fuse < forms; fuse++ {
		if !sameComplex(v, form(fuse)) {
			gpuInexact = true
		}
	}
	if gpuInexact {
		b.e.use(complexDivContract)
	}
	return v, gpuInexact
}

// complexAddSub is x + y or x - y; PyTorch's is self + alpha*other.
func (b *pyBin) complexAddSub(x, y complex128) complex128 {
	f := cfpu{b.compute.Component()}
	if b.e.p.Framework != PyTorch {
		b.e.use(complexAddParts)
		if b.op == "sub" {
			return complex(f.sub(real(x), real(y)), f.sub(imag(x), imag(y)))
		}
		return complex(f.add(real(x), real(y)), f.add(imag(x), imag(y)))
	}
	b.e.use(torchComplexAddAlpha)
	self, other, alpha := x, y, 1.0
	switch {
	case b.op == "sub":
		alpha = -1
	case b.args[0].isScalar(): // s + t is t.__radd__(s): t is self
		self, other = y, x
	}
	p := complexMulForm(complex(alpha, 0), other, f, 0, 0) // exact products: no contraction matters
	return complex(f.add(real(self), real(p)), f.add(imag(self), imag(p)))
}
