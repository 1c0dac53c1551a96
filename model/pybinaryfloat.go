package model

import "github.com/tfuzz/tfuzz/tensor"

// The float elements of the Python binary family (pybinary.go): each op's
// kernel formula per framework and device.

// ---------------------------------------------------------------- float elements

var (
	torchRDiv = newRule("pytorch.div.scalar-left",
		"s / t is t.reciprocal() * s (Tensor.__rtruediv__): the reciprocal is rounded to the tensor's dtype (a complex tensor's by c10's complex division; a real tensor's in its float dtype, then promoted with a +0 imaginary part when s is complex), then multiplied",
		"torch/_tensor.py __rdiv__ (source); promotion.md §2.4, §6.4")
	cudaScalarDiv = newRule("pytorch.cuda.div-by-scalar",
		"PyTorch CUDA divides by a CPU scalar b as a * (1/b), the reciprocal rounded in opmath (also for floor_div and trunc_div)",
		"oracle-00842 (f32 65504 / 3.0 = 21834.66796875), oracle-00847, oracle2-01345; BinaryDivTrueKernel.cu")
	xlaCPURecipDiv = newRule("jax.cpu.div-by-scalar",
		"XLA on CPU rewrites A / broadcast(B) into A * broadcast(1/B) for real floats: a divisor that is broadcast to the result's shape (a Python scalar, a 0-dim array or any array of another shape, all of them jit parameters) divides as a * (1/b), the reciprocal rounded in f32 (f64 for f64); a divisor of the result's shape (and a Python scalar over a 0-dim result) divides as IEEE; complex divisors are not rewritten (the rewrite is off for complex without fast math); a bool array numerator takes jax.div.bool-array-reciprocal; the GPU has no such rewrite (f64 divides exactly: oracle-00847)",
		"xla 0057bb15 xla/hlo/transforms/simplifiers/algebraic_simplifier.cc HandleDivide (\"A / broadcast(B) => A * broadcast(1 / B)\": options_.executing_on_cpu() && enable_sink_broadcast() (default true, algebraic_simplifier.h), not complex unless fast math, B with one use); jax jax-v0.11.0 jax/_src/numpy/ufuncs.py:2441-2443 (true_divide is a jit function: a Python scalar is a parameter, as a 0-dim array is); oracle-00842, oracle-00847, oracle-00837 (bf16), oracle2-01345, oracle2-00562")
	xlaGPUDiv = newOpenRule("jax.gpu.approximate-f32-div",
		"XLA on NVIDIA GPUs divides f32 (and f16/bf16, in f32) approximately, x * rcp(y) with a faithful reciprocal: unspecified where the two faithful reciprocals give different results",
		"oracle-00194, oracle2-00388 (30/255 = 0.11764705181121826), oracle2-01037 (0.5/255), oracle2-00312")
	floorDivFloatRule = newRule("python.float.floor-div",
		"float floor division: PyTorch and NumPy take (a - fmod(a, b)) / b, correct it toward -inf and snap it to an integer (x // 0 is x / 0); JAX rounds half away from zero instead (-0.0 // 3 is 0.0)",
		"oracle-00195, oracle-00185, oracle-00205, oracle2-00653; c10::div_floor_floating, npy_divmod, jnp _float_divmod")
	remFloatRule = newRule("python.float.rem",
		"float remainder = fmod(a, b) plus b when nonzero and of the other sign; PyTorch and JAX keep a zero's sign from fmod, NumPy gives a zero the divisor's sign",
		"oracle-00196, oracle-00176, oracle2-00373, oracle2-00808")
	maxMinZeros = newOpenRule("python.float.max-min-signed-zero",
		"maximum/minimum propagate NaN; on ±0 ties pytorch/cpu (x86 maxps/minps) and NumPy return the second operand (NumPy's f16 loop the first), CUDA, Arm64 and JAX order -0 < +0, MPS is unspecified",
		"oracle-00178, oracle-00188, oracle-00189, oracle-00198, oracle-00199, oracle-00208, oracle-00209")
	floatPowRule = newRule("python.float.pow",
		"float pow is C99 pow correctly rounded (f16/bf16 through f32); PyTorch special-cases scalar exponents 0.5 (sqrt), -0.5 (1/sqrt), -1 (1/x) and 2, 3, -2 (multiplications), NumPy's float arrays ** 2, ** -1, ** 0.5",
		"oracle2-00029, oracle2-00857, oracle2-01308, oracle2-00223; ATen pow_tensor_scalar_kernel; numpy fast_scalar_power")
	numpyArm64MaxMin = newRule("numpy.arm64.max-min-fmax",
		"NumPy on Arm64 computes f32/f64 maximum/minimum with the fmax/fmin instructions (scalar asm and NEON vmaxq/vminq): NaN propagates and -0 < +0, so a ±0 tie gives +0 for maximum and -0 for minimum whichever operand holds it; f16 (npy_half loop) keeps the first operand and ml_dtypes bf16 the second, as on x86",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/loops_minmax.dispatch.c.src:47, 65-76 (#ifdef __aarch64__: fmax/fmin asm), numpy/_core/src/common/simd/neon/math.h:104, 143 (npyv_maxn_f32 = vmaxq_f32); ml_dtypes v0.5.4 ufuncs.h:585-596")
	faithfulPow = newOpenRule("python.float.pow-faithful-only",
		"NumPy's f64 pow (SVML) and XLA's GPU pow are faithful but not correctly rounded: where the exact power is not a value of the dtype, the element is unspecified when the two faithful results differ",
		"oracle2-00029 (numpy 1.6328322220012903e+46, correct ...906e+46), oracle2-00886, oracle2-00369 (jax/gpu-x64), oracle2-00857 (jax/gpu f32 and f64)")
	cudaPowF64 = newOpenRule("pytorch.cuda.pow-f64-libdevice",
		"PyTorch CUDA computes f64 pow (tensor ** tensor, and ** a Python number other than PyTorch's special exponents) with ::pow, libdevice's __nv_pow, which is not correctly rounded (recorded outcomes one ulp off): an element is unspecified where the exact power is not an f64 value",
		"pytorch aten/src/ATen/native/cuda/PowKernel.cu (pow_tensor_tensor_kernel, pow_tensor_scalar_kernel_impl: pow_(base, exp) = ::pow); CUDA C Programming Guide, Mathematical Functions appendix (pow: a nonzero maximum ulp error); issue 13 (recorded f64 results one ulp from the correctly rounded ones)")
	cudaRsqrt = newOpenRule("pytorch.cuda.rsqrt",
		"PyTorch CUDA computes t ** -0.5 with the approximate rsqrt intrinsic: unspecified for finite positive inputs",
		"ATen PowKernel.cu pow_tensor_scalar_kernel (source)")
)

// floatElem evaluates a float op on two elements of the compute dtype; the
// bool reports an unspecified result.
func (b *pyBin) floatElem(x, y float64) (float64, bool) {
	d := b.compute
	switch b.op {
	case "add", "sub", "mul", "div":
		return b.floatArith(x, y)
	case "floor_div":
		b.e.use(floorDivFloatRule)
		return roundTo(b.floatFloorDiv(x, y), d), false
	case "trunc_div":
		return b.floatTruncDiv(x, y), false
	case "rem":
		b.e.use(remFloatRule)
		if b.e.p.Framework == NumPy {
			return numpyRemFloat(stepFPU(d), x, y), false
		}
		return remFloat(stepFPU(d), x, y), false
	case "fmod":
		return fmodFloat(x, y), false
	case "maximum", "minimum":
		return b.floatMaxMin(x, y)
	}
	return b.floatPow(x, y)
}

// reads returns the values the kernel reads for x and y (PyTorch's opmath
// originals where they apply).
func (b *pyBin) reads(x, y float64) (float64, float64) {
	if o := b.ops[0].opmath; o != nil {
		x = *o
	}
	if o := b.ops[1].opmath; o != nil {
		y = *o
	}
	return x, y
}

func (b *pyBin) floatArith(x, y float64) (float64, bool) {
	e, d, p := b.e, b.compute, opmath(b.compute)
	switch {
	case e.p.Framework == PyTorch && b.op == "div" && b.args[0].isScalar():
		e.use(torchRDiv)
		rec := roundTo(floatArith("div", 1, y, p), d)
		s, _ := b.reads(x, y)
		return roundTo(floatArith("mul", rec, s, p), d), false
	case e.p.Framework == PyTorch && b.op == "div" && e.p.Device == CUDA && b.args[1].isScalar():
		e.use(cudaScalarDiv)
		x, y = b.reads(x, y)
		return roundTo(floatArith("mul", x, floatArith("div", 1, y, p), p), d), false
	case e.p.Framework == PyTorch:
		x, y = b.reads(x, y)
	case b.op == "div" && e.p.Framework == JAX && e.p.Device == GPU && p == tensor.F32:
		v, unspec := approxDivF32(x, y, d)
		if unspec {
			e.use(xlaGPUDiv)
		}
		return v, unspec
	case b.op == "div" && e.p.Framework == JAX && e.p.Device == CPU && b.divisorBroadcast():
		e.use(xlaCPURecipDiv)
		return roundTo(floatArith("mul", x, floatArith("div", 1, y, p), p), d), false
	}
	return roundTo(floatArith(b.op, x, y, p), d), false
}

// divisorBroadcast reports a divisor that JAX's lowering broadcasts to the
// result's shape (an HLO broadcast of a jit parameter): a Python scalar or a
// tensor of another shape than the result.
func (b *pyBin) divisorBroadcast() bool {
	a := b.args[1]
	if a.isScalar() {
		return len(b.shape) > 0
	}
	return !sameShape(a.t.Shape, b.shape)
}

func (b *pyBin) floatFloorDiv(x, y float64) float64 {
	e, d := b.e, b.compute
	switch {
	case e.p.Framework == JAX:
		return jaxFloorDivFloat(stepFPU(d), x, y)
	case e.p.Framework == PyTorch && e.p.Device == CUDA && b.args[1].isScalar() && y != 0:
		e.use(cudaScalarDiv)
		return floorDivRecipFloat(opmathFPU(d), x, y)
	}
	x, y = b.reads(x, y)
	return floorDivFloat(opmathFPU(d), x, y)
}

// floatTruncDiv is PyTorch's trunc(a / b) on floats.
func (b *pyBin) floatTruncDiv(x, y float64) float64 {
	e, d, p := b.e, b.compute, opmath(b.compute)
	switch {
	case b.ops[1].opmath != nil:
		return roundTo(truncFloat(floatArith("div", x, *b.ops[1].opmath, tensor.F32)), d)
	case e.p.Device == CUDA && b.args[1].isScalar():
		e.use(cudaScalarDiv)
		return roundTo(truncFloat(floatArith("mul", x, floatArith("div", 1, y, p), p)), d)
	}
	return truncFloat(roundTo(floatArith("div", x, y, p), d))
}

func (b *pyBin) floatMaxMin(x, y float64) (float64, bool) {
	e, tie := b.e, tieIEEE
	switch {
	case e.p.Framework == PyTorch && e.p.Device == MPS:
		tie = tieUnspecified
	case e.p.Framework == NumPy && b.compute == tensor.F16:
		tie = tieFirst
	case e.p.Framework == NumPy && e.p.Arch == Arm64 && b.compute != tensor.BF16:
		e.use(numpyArm64MaxMin)
		tie = tieIEEE
	case e.p.Framework == NumPy || (e.p.Framework == PyTorch && e.p.Device == CPU && e.p.Arch == X86):
		tie = tieSecond
	}
	v, tied, unspec := maxMinFloat(x, y, b.op == "maximum", tie)
	if tied {
		e.use(maxMinZeros)
	}
	return v, unspec
}

// cudaLibdevicePow is f64 pow on an NVIDIA GPU: the correctly rounded
// value, unspecified unless the exact power is an f64 value (or a special
// case pow fixes: x = 1, y = 0, NaN, infinities, zeros).
func (e *evaluation) cudaLibdevicePow(x, y float64) (float64, bool) {
	rn, other := powCandidates(x, y, tensor.F64)
	if binSameFloat(rn, other) {
		return rn, false
	}
	e.use(cudaPowF64)
	return rn, true
}

func (b *pyBin) floatPow(x, y float64) (float64, bool) {
	e, d := b.e, b.compute
	e.use(floatPowRule)
	s, pos := b.scalarArg()
	switch e.p.Framework {
	case PyTorch:
		if pos == 1 {
			v, unspec, generic := torchScalarPow(x, s.Float(), d, e.p.Device == CUDA)
			switch {
			case generic && e.p.Device == CUDA && d == tensor.F64:
				return e.cudaLibdevicePow(x, roundTo(s.Float(), d))
			case unspec:
				e.use(cudaRsqrt)
			}
			return v, unspec
		}
		if e.p.Device == CUDA && d == tensor.F64 {
			return e.cudaLibdevicePow(x, y)
		}
	case NumPy:
		if pos == 1 {
			if v, ok := numpyFastPow(x, s, d); ok {
				return v, false
			}
		}
	}
	v, unfaithful := powFaithful(x, y, d)
	if unfaithful && ((e.p.Framework == NumPy && d == tensor.F64) || (e.p.Framework == JAX && e.p.Device == GPU)) {
		e.use(faithfulPow)
		return v, true
	}
	return v, false
}
