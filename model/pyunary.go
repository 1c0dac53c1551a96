package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// The unary family of PyTorch, NumPy and JAX: neg abs sign sqrt exp floor
// ceil round trunc square bitwise_not. Integer results are the same in every
// profile (wrapping two's complement); the profiles differ in which dtypes
// they accept, in the result dtype of exp/sqrt and of a few bool inputs, in
// sign of NaN and -0, and in how precisely exp and sqrt are computed
// (the precision rules at the end of this file; exactmath.go computes the
// correctly rounded reference).

// pyUnary evaluates a unary op.
func (e *evaluation) pyUnary() tensor.Outcome {
	x := e.input(e.c.Args[0].Tensor)
	op := e.c.Op
	if x.DType.IsComplex() {
		return e.unsupported(notModeled, "tfuzz: %s of %s is not modeled yet for %s", op, x.DType, e.p.Name)
	}
	if out, failed := e.unaryDTypeError(op, x.DType); failed {
		return out
	}
	switch {
	case op == "exp" || op == "sqrt":
		return e.pyTranscendental(op, x)
	case x.DType == tensor.Bool:
		return e.unaryBool(op, x)
	case x.DType.IsFloat():
		return e.unaryFloat(op, x)
	}
	return e.unaryInt(op, x, x.DType)
}

// --- accepted dtypes ---------------------------------------------------------------------

var (
	torchNegBool = newRule("pytorch.neg.bool",
		"PyTorch refuses neg of a bool tensor before dispatch: RuntimeError \"Negation, the `-` operator, on a bool tensor is not supported\"",
		"ATen UnaryOps.cpp neg meta check (source; no oracle case)")
	numpyNoLoop = newRule("numpy.unary.no-loop",
		"NumPy has no loop for sign(bool) (UFuncTypeError), invert of a float (TypeError \"ufunc 'invert' not supported for the input types\"), nor negative(bool) (TypeError \"The numpy boolean negative, the `-` operator, is not supported\")",
		"oracle2-00063 (sign bool), oracle2-00348 and oracle2-01213 (invert float); negative(bool): NumPy source (no oracle case)")
	jaxUnaryDTypes = newRule("jax.unary.dtype-check",
		"jax.lax checks the operand dtype of sign (integer, floating, complex), not (integer, bool), neg (number) and round (floating; jnp.round passes bool on to lax.round): TypeError \"sign does not accept dtype bool\"",
		"oracle2-00063 (sign bool), notes unary_index_coverage.md §1.2 (bitwise_not float); neg/round of bool: jax source (no oracle case)")
)

// unaryDTypeError returns the error of a profile that has no such (op, dtype).
func (e *evaluation) unaryDTypeError(op string, d tensor.DType) (tensor.Outcome, bool) {
	switch e.p.Framework {
	case PyTorch:
		if op == "neg" && d == tensor.Bool {
			return e.fail(torchNegBool, tensor.UnsupportedDType,
				"RuntimeError: Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."), true
		}
		if k := e.p.torchUnaryKernel(op, d); k != "" {
			return e.torchNoKernelError(k, d), true
		}
		return tensor.Outcome{}, false
	case NumPy:
		switch {
		case op == "sign" && d == tensor.Bool:
			return e.fail(numpyNoLoop, tensor.UnsupportedDType,
				"UFuncTypeError: ufunc 'sign' did not contain a loop with signature matching types <class 'numpy.dtypes.BoolDType'> -> None"), true
		case op == "bitwise_not" && d.IsFloat():
			return e.fail(numpyNoLoop, tensor.UnsupportedDType,
				"TypeError: ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''"), true
		case op == "neg" && d == tensor.Bool:
			return e.fail(numpyNoLoop, tensor.UnsupportedDType,
				"TypeError: The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead."), true
		}
	case JAX:
		lax, accepted := "", ""
		switch {
		case op == "sign" && d == tensor.Bool:
			lax, accepted = "sign", "integer, complexfloating, floating"
		case op == "bitwise_not" && d.IsFloat():
			lax, accepted = "not", "integer, bool"
		case op == "neg" && d == tensor.Bool:
			lax, accepted = "neg", "number"
		case op == "round" && d == tensor.Bool:
			lax, accepted = "round", "floating"
		}
		if lax != "" {
			return e.fail(jaxUnaryDTypes, tensor.UnsupportedDType,
				"TypeError: %s does not accept dtype %s. Accepted dtypes are subtypes of %s.", lax, pyName(d), accepted), true
		}
	}
	return tensor.Outcome{}, false
}

// torchUnaryKernel returns the PyTorch kernel that rejects (op, d), or "".
// exp and sqrt of integers and bool run in the default float dtype (the cast
// comes before the kernel), and square of bool is pow(x, 2) in int64, so
// those dispatch on a dtype every kernel has.
func (p *Profile) torchUnaryKernel(op string, d tensor.DType) string {
	if (op == "exp" || op == "sqrt") && !d.IsFloat() {
		return ""
	}
	if op == "square" && d == tensor.Bool {
		return ""
	}
	return p.torchMissingKernel(op, d)
}

// --- integers ------------------------------------------------------------------------------

var pyIntUnary = newRule("python.unary.int-wrap",
	"integer neg, abs, square and bitwise_not wrap in the dtype (neg(MIN) = abs(MIN) = MIN, u8 neg 1 = 255, i8 127^2 = 1); sign is -1/0/1; floor, ceil, round and trunc return the integer unchanged in its dtype",
	"oracle-01041, oracle-01047, oracle-01055, oracle-01069, oracle-01083 (abs), oracle-01082 (neg), oracle-01046/01053/01074/01088 (square), oracle-01043/01050/01085 (bitwise_not), oracle2-00412 (ceil i16)")

// unaryInt applies op to the integers of x, giving a tensor of dtype d.
func (e *evaluation) unaryInt(op string, x *tensor.Tensor, d tensor.DType) tensor.Outcome {
	e.use(pyIntUnary)
	out := tensor.New(d, x.Shape...)
	for i := 0; i < x.Len(); i++ {
		out.SetUint(i, intUnary(op, x.Uint(i), d))
	}
	return tensor.ValueOutcome(out)
}

// intUnary computes op on v (two's complement, sign-extended) in dtype d.
func intUnary(op string, v uint64, d tensor.DType) uint64 {
	neg := d.IsSigned() && int64(v) < 0
	switch op {
	case "neg":
		return wrapInt(-v, d)
	case "abs":
		if neg {
			return wrapInt(-v, d)
		}
	case "sign":
		switch {
		case neg:
			return wrapInt(math.MaxUint64, d) // -1
		case v != 0:
			return 1
		}
		return 0
	case "square":
		return wrapInt(v*v, d) // the low bits of a product do not depend on signedness
	case "bitwise_not":
		return wrapInt(^v, d)
	}
	return v // abs of a non-negative value; floor, ceil, round, trunc
}

// --- bool ----------------------------------------------------------------------------------

var (
	pyBoolUnary = newRule("python.unary.bool",
		"on bool, bitwise_not is logical not; PyTorch sign, abs (CUDA/MPS kernel; the CPU has none) and NumPy/JAX abs, floor, ceil and trunc return the bool unchanged",
		"oracle2-00063 (PyTorch sign bool), oracle2-01126 (NumPy/JAX trunc bool); ATen cuda/AbsKernel.cu dispatches Bool; jnp.absolute returns bool input as is")
	torchSquareBool = newRule("pytorch.square.bool",
		"PyTorch square(x) is pow(x, 2): a bool tensor with an int scalar promotes to int64, so square of bool is an i64 tensor of 0 and 1",
		"ATen UnaryOps.cpp square = at::pow(self, 2); result_type(bool tensor, int) = int64 (source; no oracle case)")
	numpySquareBool = newRule("numpy.square.bool",
		"np.square has integer and inexact loops but none for bool; the first loop bool casts to safely is int8",
		"NumPy generate_umath.py square TD(ints+inexact) (source; no oracle case)")
	jaxSquareBool = newRule("jax.square.bool",
		"jnp.square promotes bool with promote_dtypes_numeric, i.e. to int32 (also with x64 on)",
		"jax/_src/dtypes.py to_numeric_dtype: bool -> int32 (source; no oracle case)")
	numpyRoundBool = newRule("numpy.round.bool",
		"np.round returns integer arrays unchanged (PyArray_ISINTEGER excludes bool) and otherwise calls rint, whose first loop for bool is float16",
		"NumPy PyArray_Round (source; no oracle case)")
)

// unaryBool applies op to a bool tensor (the dtype errors are already out).
func (e *evaluation) unaryBool(op string, x *tensor.Tensor) tensor.Outcome {
	switch {
	case op == "square":
		d := map[Framework]tensor.DType{PyTorch: tensor.I64, NumPy: tensor.I8, JAX: tensor.I32}[e.p.Framework]
		e.use(map[Framework]*Rule{PyTorch: torchSquareBool, NumPy: numpySquareBool, JAX: jaxSquareBool}[e.p.Framework])
		return e.unaryInt(op, x, d)
	case op == "round" && e.p.Framework == NumPy:
		e.use(numpyRoundBool)
		return tensor.ValueOutcome(convertTensor(x, tensor.F16))
	}
	e.use(pyBoolUnary)
	out := tensor.New(tensor.Bool, x.Shape...)
	for i := 0; i < x.Len(); i++ {
		out.SetBool(i, x.Bool(i) != (op == "bitwise_not"))
	}
	return tensor.ValueOutcome(out)
}

// --- floats --------------------------------------------------------------------------------

var (
	pyFloatUnary = newRule("python.unary.float-exact",
		"float neg and abs flip or clear the sign bit (neg(-0) = +0, abs(-0) = +0); square is x*x rounded once (exact in f32 for f16/bf16 inputs); floor, ceil, trunc keep the sign of a zero result (trunc(-0.5) = -0); round is half to even (round(-0.5) = -0); ±inf and NaN pass through",
		"oracle-01096, oracle-01097, oracle-01102, oracle-01103, oracle-01112, oracle-01125, oracle-01127, oracle2-00112, oracle2-01267, oracle2-01325, oracle2-01475")
	torchSignFloat = newRule("pytorch.sign.float",
		"PyTorch computes sign as (0 < x) - (x < 0): NaN gives 0 and ±0 gives +0",
		"oracle-01098 (f16), oracle-01106 (bf16), oracle-01122 (f64); ATen sign_kernel")
	numpySignFloat = newRule("numpy.sign.float",
		"np.sign keeps NaN; ±0 gives +0 for f16/f32/f64, but the bf16 loop of ml_dtypes returns -0 for -0",
		"oracle-01098 (f16), oracle-01106 (bf16), oracle-01122 (f64)")
	jaxSignFloat = newRule("jax.sign.float",
		"lax.sign keeps NaN and returns a zero unchanged (sign(-0) = -0)",
		"oracle-01098 (f16), oracle-01106 (bf16), oracle-01122 (f64)")
)

// unaryFloat applies an exact float op to x.
func (e *evaluation) unaryFloat(op string, x *tensor.Tensor) tensor.Outcome {
	out := tensor.New(x.DType, x.Shape...)
	rule := pyFloatUnary
	if op == "sign" {
		rule = map[Framework]*Rule{PyTorch: torchSignFloat, NumPy: numpySignFloat, JAX: jaxSignFloat}[e.p.Framework]
	}
	e.use(rule)
	for i := 0; i < x.Len(); i++ {
		v := x.Float(i)
		if op == "sign" {
			out.SetFloat(i, e.signFloat(v, x.DType))
		} else {
			out.SetFloat(i, floatUnary(op, v))
		}
	}
	return tensor.ValueOutcome(out)
}

// floatUnary computes an op whose result is exact, or rounded once (square).
func floatUnary(op string, v float64) float64 {
	switch op {
	case "neg":
		return -v
	case "abs":
		return math.Abs(v)
	case "square":
		return v * v // exact for f16/bf16/f32 values; one rounding for f64; SetFloat rounds once
	case "floor":
		return math.Floor(v)
	case "ceil":
		return math.Ceil(v)
	case "trunc":
		return math.Trunc(v)
	case "round":
		return math.RoundToEven(v)
	}
	panic("model: floatUnary of " + op)
}

// signFloat is each framework's sign of a float.
func (e *evaluation) signFloat(v float64, d tensor.DType) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	case e.p.Framework == PyTorch:
		return 0 // NaN and ±0
	case math.IsNaN(v):
		return v
	case e.p.Framework == NumPy && d != tensor.BF16:
		return 0
	}
	return v // JAX, and NumPy's bf16: the zero keeps its sign
}

// --- exp and sqrt --------------------------------------------------------------------------

var (
	torchExpSqrtDType = newRule("pytorch.exp-sqrt.int-to-default-float",
		"PyTorch exp/sqrt of an integer or bool tensor first converts it to the default float dtype f32 (rounding to nearest), then runs the float kernel: sqrt(16777217:i32) = 4096, sqrt(u64 max) = 2^32",
		"oracle-01086, oracle-01093; oracle-01066, oracle-01080, oracle-01094 (u16/u32/u64 work)")
	numpyExpSqrtDType = newRule("numpy.exp-sqrt.int-loop",
		"np.exp/np.sqrt of integers use the first float loop the input casts to safely: bool, u8, i8 -> f16; u16, i16 -> f32; 32- and 64-bit integers -> f64",
		"oracle-01044 (i8 -> f16), oracle-01058 (i16 -> f32), oracle-01079 (u32 -> f64)")
	jaxExpSqrtDType = newRule("jax.exp-sqrt.to-inexact",
		"jnp.exp/jnp.sqrt promote integers with to_inexact_dtype: bool and 8/16/32-bit integers -> f32 (also with x64 on), 64-bit integers -> f64",
		"oracle2-00326 (i32 -> f32 on x64), oracle-01080 (u32 -> f32 on x64), oracle-01059, oracle-01087 (i64 -> f64); jax/_src/dtypes.py _dtype_to_inexact")
)

var pyUnarySameDType = newRule("python.unary.same-dtype",
	"exp and sqrt of a float keep its dtype (after JAX x32 narrowing)",
	"oracle-01123, oracle-01125, oracle2-01568")

// transcendentalDType returns the result dtype of exp/sqrt of dtype d.
func (e *evaluation) transcendentalDType(d tensor.DType) tensor.DType {
	if d.IsFloat() {
		e.use(pyUnarySameDType)
		return d
	}
	switch e.p.Framework {
	case PyTorch:
		e.use(torchExpSqrtDType)
		return tensor.F32
	case NumPy:
		e.use(numpyExpSqrtDType)
		switch d {
		case tensor.Bool, tensor.U8, tensor.I8:
			return tensor.F16
		case tensor.U16, tensor.I16:
			return tensor.F32
		}
		return tensor.F64
	}
	e.use(jaxExpSqrtDType)
	if d.Bits() == 64 {
		return tensor.F64
	}
	return tensor.F32
}

// pyTranscendental evaluates exp or sqrt: the input is converted to the
// result dtype (integers rounded once), the exact result is rounded once, and
// the profile's precision rules mark the elements its library may get wrong.
func (e *evaluation) pyTranscendental(op string, x *tensor.Tensor) tensor.Outcome {
	d := e.transcendentalDType(x.DType)
	out := tensor.New(d, x.Shape...)
	pol := e.precisionPolicy(op, d)
	for i := 0; i < x.Len(); i++ {
		v := transcendentalInput(x, i, d)
		r, rule, unspecified := pol.element(op, v, d)
		out.SetFloat(i, r)
		if unspecified {
			out.SetUnspecified(i)
		}
		e.use(rule)
	}
	return tensor.ValueOutcome(out)
}

// transcendentalInput returns element i of x as a value of the float dtype d.
func transcendentalInput(x *tensor.Tensor, i int, d tensor.DType) float64 {
	switch {
	case x.DType == tensor.Bool:
		if x.Bool(i) {
			return 1
		}
		return 0
	case x.DType.IsFloat():
		return x.Float(i)
	}
	return intToFloat(x.Uint(i), x.DType, d)
}

// --- exp and sqrt precision ------------------------------------------------------------------

var (
	expSettled = newRule("python.exp.settled",
		"exp(NaN) = NaN, exp(±0) = 1, exp(inf) = inf, exp(-inf) = 0, and far beyond the overflow or underflow threshold of the result dtype (f32: x > 89 or x < -104; f64: x > 710 or x < -746) every library returns inf or 0",
		"notes unary_index_coverage.md §1.4-1.6; oracle-01045, oracle-01059 and the funary exp cases (uic_unary.py 1029/1029)")
	sqrtSettled = newRule("python.sqrt.settled",
		"sqrt(NaN) = NaN, sqrt(x < 0) = NaN, sqrt(±0) = ±0, sqrt(inf) = inf in every library",
		"oracle-01123, oracle-01125 (funary sqrt); IEEE 754 §5.4.1")
	sqrtCorrect = newRule("python.sqrt.correctly-rounded",
		"sqrt is correctly rounded (IEEE sqrt instruction or sqrt.rn): pytorch/cpu f32 (MKL vsSqrt, 89/89 observed), pytorch/cuda, numpy, jax/cpu, jax/gpu f64, and the Arm64 CPU's fsqrt",
		"uic_precision.py: 0 misses in 89 + 9 + 23 + 52 + 98 + 98 f32/f64 sqrt elements of those profiles")
	halfViaF32 = newOpenRule("python.exp-sqrt.half-via-f32",
		"f16 and bf16 exp/sqrt are computed in f32 and rounded to the half type: the result is the correctly rounded one, except where the exact value lies within 4 f32 ulps of a half-type rounding boundary (an f32 exp that is off by an ulp, or the second rounding, can then move it); those elements are '?' (2 f16 exp inputs differ even with a correctly rounded f32 step)",
		"uic_precision.py: 311/311 f16/bf16 elements correctly rounded in all 7 profiles; uic_dblround_scan.py (x = 0.007297515869140625, 0.0226898193359375)")
	torchExpMKL = newOpenRule("pytorch.exp.mkl-vml",
		"x86-64 PyTorch CPU computes f32/f64 exp with MKL VML vsExp/vdExp in HA mode (ATen cpu/vml.h IMPLEMENT_VML_MKL(exp, Exp)), not correctly rounded (observed +1 ulp): elements are '?'",
		"oracle2-01568 elem 3 (exp(1.3331f) one ulp high); notes unary_index_coverage.md §1.5")
	torchSqrtMKL = newOpenRule("pytorch.sqrt.mkl-vml-f64",
		"x86-64 PyTorch CPU computes f64 sqrt with MKL VML vdSqrt in HA mode (IMPLEMENT_VML_MKL(sqrt, Sqrt)), not correctly rounded (sqrt(0.5) one ulp low): f64 elements are '?'",
		"oracle-01123 elem 2 (0.7071067811865475, correctly rounded ...476)")
	torchExpSleef = newOpenRule("pytorch.exp.sleef",
		"Arm64 PyTorch CPU computes f32/f64 exp with SLEEF's 1.0-ulp expf/exp (ATen Vectorized NEON), not correctly rounded: elements are '?'",
		"ATen cpu/vec/vec128 and vec_base Sleef_expf4_u10 / Sleef_expd2_u10 (source; no oracle run on Arm64)")
	torchExpCUDA = newOpenRule("pytorch.exp.cuda-libdevice",
		"PyTorch CUDA exp uses CUDA's expf/exp (libdevice; documented max error 2 ulp in f32, 1 ulp in f64), not correctly rounded: elements are '?'",
		"oracle-01045 elem 7, oracle2-00281, oracle2-01568 (f32 exp one ulp high, bit-identical to jax/gpu)")
	torchMPSPrecision = newOpenRule("pytorch.mps.exp-sqrt",
		"PyTorch MPS computes exp and sqrt with Metal/MPSGraph, whose precision is not documented as correctly rounded (and may work in half precision for f16): elements that are not a special value are '?'",
		"no MPS run; Metal Shading Language spec precision tables (exp: up to 4 ulp)")
	numpyExpSIMD = newOpenRule("numpy.exp.simd",
		"NumPy computes exp in its own SIMD loops (AVX2/AVX512F f32 exp; f64 exp through its AVX512F loop or libm), not correctly rounded (f32 observed ±1 ulp): f32/f64 elements are '?'",
		"oracle-01059 elems 3-4, oracle2-01428, oracle2-01568 (15 of 41 f32 elements off by one ulp)")
	jaxExpXLACPU = newOpenRule("jax.exp.xla-cpu",
		"JAX on CPU computes exp with XLA's own polynomial expansion, not correctly rounded (f32 +1 ulp at exp(48), f64 +1 ulp at exp(1), exp(-1), exp(200)): elements are '?'",
		"oracle2-01323, oracle2-01145, oracle2-01557")
	jaxExpXLAGPU = newOpenRule("jax.exp.xla-gpu",
		"JAX on GPU computes exp with libdevice __nv_expf/__nv_exp (the same f32 results as PyTorch CUDA), not correctly rounded: elements are '?'",
		"oracle-01045 elem 7, oracle2-00281, oracle2-01568")
	jaxSqrtGPU = newOpenRule("jax.sqrt.gpu-approx-f32",
		"JAX on GPU computes f32 sqrt with an approximate square root (one ulp low when wrong: sqrt(5), sqrt(30), sqrt(1.5)): f32 elements are '?'; f16/bf16 results get the 4-ulp boundary doubt",
		"oracle-01044 elem 6, oracle-01051, oracle-01058, oracle2-00286 (17 of 158 elements one ulp low)")
)

// precision says how exactly a profile's library computes exp or sqrt in
// one result dtype.
type precision struct {
	exact bool  // the library returns the correctly rounded result
	slack int   // f16/bf16 through f32: ulps of f32 doubt near a rounding boundary
	rule  *Rule // the rule that says so
}

// precisionPolicy returns the precision of op in result dtype d.
func (e *evaluation) precisionPolicy(op string, d tensor.DType) precision {
	p := e.p
	gpuJAX := p.Framework == JAX && p.Device == GPU
	switch {
	case p.Device == MPS:
		return precision{rule: torchMPSPrecision}
	case d == tensor.F16 || d == tensor.BF16:
		if op == "exp" || gpuJAX {
			return precision{exact: true, slack: 4, rule: halfViaF32}
		}
		return precision{exact: true, rule: halfViaF32}
	case op == "sqrt" && gpuJAX && d == tensor.F32:
		return precision{rule: jaxSqrtGPU}
	case op == "sqrt" && p.Framework == PyTorch && p.Device == CPU && p.Arch == X86 && d == tensor.F64:
		return precision{rule: torchSqrtMKL}
	case op == "sqrt":
		return precision{exact: true, rule: sqrtCorrect}
	}
	switch {
	case p.Framework == NumPy:
		return precision{rule: numpyExpSIMD}
	case p.Framework == JAX && p.Device == GPU:
		return precision{rule: jaxExpXLAGPU}
	case p.Framework == JAX:
		return precision{rule: jaxExpXLACPU}
	case p.Device == CUDA:
		return precision{rule: torchExpCUDA}
	case p.Arch == Arm64:
		return precision{rule: torchExpSleef}
	}
	return precision{rule: torchExpMKL}
}

// element returns op(v) correctly rounded to d, the rule that decided it, and
// whether the profile leaves it unspecified.
func (p precision) element(op string, v float64, d tensor.DType) (float64, *Rule, bool) {
	if op == "exp" {
		r := crExp(v, d)
		if expIsSettled(v, d) {
			return r, expSettled, false
		}
		return p.judge(r, d, math.Exp(v), func() *big.Float { return exactExpBig(v) })
	}
	r := crSqrt(v, d)
	if math.IsNaN(v) || v <= 0 || math.IsInf(v, 1) {
		return r, sqrtSettled, false
	}
	return p.judge(r, d, math.Sqrt(v), func() *big.Float { return exactSqrtBig(v) })
}

// judge applies the precision to the correctly rounded result r.
// approx is a float64 approximation of the exact result (to approxRelErr):
// most results are far from any boundary, which it shows without the exact
// big-float value.
func (p precision) judge(r float64, d tensor.DType, approx float64, exact func() *big.Float) (float64, *Rule, bool) {
	switch {
	case !p.exact:
		return r, p.rule, true
	case p.slack > 0 && nearRoundingBoundaryApprox(approx, d, p.slack) && nearRoundingBoundary(exact(), d, p.slack):
		return r, p.rule, true
	}
	return r, p.rule, false
}

// expIsSettled reports whether every library agrees on exp(x) in d: special
// inputs, and inputs far past the overflow or underflow threshold.
func expIsSettled(x float64, d tensor.DType) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return true
	}
	limits := map[tensor.DType][2]float64{
		tensor.F16: {12, -18}, tensor.BF16: {89, -135}, tensor.F32: {89, -104}, tensor.F64: {710, -746},
	}[d]
	return x > limits[0] || x < limits[1]
}
