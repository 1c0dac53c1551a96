package model

import "github.com/tfuzz/tfuzz/tensor"

// The cast op (a.to(dtype), a.astype(dtype)) for PyTorch, NumPy and JAX.
// Which conversion each profile runs is decided here; the conversions
// themselves are the primitives of convert.go. Evidence: /work/notes/casts.md,
// whose simulation (model/evidence/sim/casts_sim.py) reproduces all 162 oracle cast
// cases on all 7 oracle profiles.

// Rules every Python profile shares.
var (
	castShape = newRule("cast.shape-and-dtype",
		"a cast keeps the shape and gives the target dtype (elementwise conversion)",
		"spec/case-format.md op catalog (a.to(dtype)); oracle2-00019, oracle2-00289 (0-dim, empty)")
	castNoConvert = newRule("cast.python.no-checked-convert",
		"PyTorch, NumPy and JAX have no checked (widening-only) convert: mode=convert is tenferro's spelling, so it is unsupported here",
		"spec/case-format.md op catalog (cast: tenferro cast / convert); seed 001 §astype 拆成两个")
	castIntWrap = newRule("cast.int-wrap",
		"integer -> integer keeps the low bits of the exact value (two's complement), any widths and signedness",
		"casts.md §3; oracle-00902..00909, oracle-00914..00928, oracle2-00400")
	castToBool = newRule("cast.to-bool-nonzero",
		"anything -> bool is x != 0: NaN -> true, -0.0 -> false, subnormals -> true; complex: re != 0 || im != 0",
		"casts.md §3; oracle-00875, oracle2-00801, oracle-00901; complex: PyTorch maybe_bool, JAX astype special case (source, no oracle case)")
	castFromBool = newRule("cast.from-bool",
		"bool -> number is false -> 0, true -> 1",
		"casts.md §3; oracle-00917..00937, oracle2-01244")
	castFloatRNE = newRule("cast.float-rne",
		"float -> float rounds once to nearest, ties to even, with gradual underflow (no FTZ) and overflow to ±inf at MAX + ulp/2; NaN, ±0, ±inf kept; f16 <-> bf16 through f32 (exact)",
		"casts.md §3; oracle-00938..00941, oracle-00885, oracle2-00418, oracle-00859")
	castIntToFloatRNE = newRule("cast.int-to-float-rne",
		"integer -> float is the correctly rounded value (ties to even), u64 above 2^63 included; f16 overflows to inf at 65520",
		"casts.md §3; oracle-00936, oracle-00930, oracle2-00105, oracle2-00907")
	castComplexParts = newRule("cast.complex-parts",
		"-> complex converts each part with the float rule (c128 -> c64 rounds to nearest even); a real source becomes (x, +0)",
		"casts.md §7 (framework source: c10::convert, NumPy and XLA converts); no oracle case")
	castComplexToReal = newRule("cast.complex-real-part",
		"complex -> real or integer converts the real part with the real rule and discards the imaginary part, with a warning (PyTorch UserWarning, NumPy ComplexWarning, JAX DeprecationWarning; JAX may turn it into an error in a later version)",
		"casts.md §7 (framework source); no oracle case, unverified")
)

// Rules of a profile's rounding path to f16/bf16.
var (
	torchHalfViaF32 = newRule("pytorch.cast.half-via-f32",
		"PyTorch builds f16/bf16 from a double or an integer through float (c10::Half and c10::BFloat16 have only a float constructor): RNE16(RNE32(x)), a double rounding",
		"casts.md §6: c10/util/Half.h, BFloat16.h; the oracle cannot tell (ablation: 0 differences)")
	numpyBF16ViaF32 = newRule("numpy.cast.bf16-via-f32",
		"NumPy's bf16 (ml_dtypes) converts a double or an integer through float: RNE_bf16(RNE32(x)); the f32 -> bf16 step is integer arithmetic and raises no FP flags",
		"casts.md §6: ml_dtypes custom_float.h NPyCast; oracle-00941 (3.4028234663852886e38 -> inf without a warning)")
	numpyF64ToF16 = newRule("numpy.cast.f64-to-f16-single",
		"NumPy rounds f64 -> f16 once (npy_doublebits_to_halfbits), and integers -> f16 through float (harmless: an integer inexact in f32 overflows f16)",
		"casts.md §6: numpy lowlevel_strided_loops.c.src, halffloat.c")
	jaxHalfPath = newOpenRule("jax.cast.half-path-unpinned",
		"XLA's rounding path for f64 -> f16/bf16 and 32/64-bit integer -> bf16 (direct, or through f32 in older XLA) is not pinned by evidence: the element is unspecified where a single and a double rounding differ",
		"casts.md §6 and §11.1: xla elemental_ir_emitter.cc; the oracle cannot tell (ablation: 0 differences)")
)

// Rules of float -> integer.
var (
	castF2IXLA = newRule("jax.cast.f2i-saturate-nan0",
		"JAX (XLA convert, CPU and GPU) truncates and saturates to the destination's own range, NaN -> 0, for every integer destination",
		"casts.md §3; oracle-00850 (255.5 -> i8 127, NaN -> 0), oracle-00851, oracle-00869, oracle2-00592")
	castF2ITorchU8 = newRule("pytorch.cast.f2i-u8-via-i64",
		"PyTorch converts float -> u8 through int64 on every device (c10::static_cast_with_inter_type: \"Route float -> uint8 via int64\") and keeps the low 8 bits",
		"casts.md §4, §5; oracle-00864 index 14 (f64 -2147483649 -> u8 255 on CPU and CUDA, NumPy 0)")
	castF2IX86Low = newRule("cast.f2i.x86.cvtt32-lowbits",
		"x86-64 (gcc): float -> i8/u8/i16/u16 runs cvttss2si/cvttsd2si into 32 bits (NaN, ±inf and out-of-range -> 0x80000000) and keeps the low bits: 300 -> i8 44, 65520 -> i16 -16, NaN -> 0",
		"casts.md §4; oracle-00850, oracle-00865, oracle-00866, oracle2-00592, oracle2-00046")
	castF2IX86I32 = newRule("cast.f2i.x86.cvtt32",
		"x86-64: float -> i32 is cvttss2si/cvttsd2si: NaN, ±inf and out-of-range give -2147483648",
		"casts.md §4; oracle-00854, oracle-00867")
	castF2IX86I64 = newRule("cast.f2i.x86.cvtt64",
		"x86-64: float -> i64 is cvttsd2si into 64 bits: NaN, ±inf and out-of-range give -2^63",
		"casts.md §4; oracle-00856, oracle-00869, oracle2-00976")
	castF2IX86U64 = newRule("cast.f2i.x86.u64-split",
		"x86-64 (gcc): float -> u64 is the 2^63 range split (comisd; cvttsd2si; btc 63): NaN, -inf, x < -2^63 -> 2^63; x >= 2^64 -> 0; negatives in range wrap",
		"casts.md §4; oracle-00870, oracle-00883, oracle-00896")
	castF2IX86U32Vec = newRule("cast.f2i.x86.u32-vector-split",
		"x86-64 (gcc -O3, AVX2): the vectorised body of a float -> u32 loop uses the 2^31 range split: NaN, -inf, x < -2^31 -> 2^31; x >= 2^32 -> 0",
		"casts.md §4.1; oracle-00868, oracle-00894 (positions 9, 10, 12, 14, 16 of 21)")
	castF2IX86U32Scalar = newRule("cast.f2i.x86.u32-scalar-low32",
		"x86-64: scalar float -> u32 code is cvtt into 64 bits keeping the low 32 bits; f16 loops (_cvtsh_ss per element) are never vectorised: NaN, ±inf -> 0",
		"casts.md §4.1; oracle-00881 (f16 -> u32 NaN/±inf -> 0)")
	castF2IX86U32Tail = newOpenRule("cast.f2i.x86.u32-tail-unspecified",
		"x86-64: where the vector body ends (the scalar tail of the last n mod 4 (f32/f64) or n mod 8 (bf16) elements per gcc 12, or an unknown split: complex sources, PyTorch loops split across threads) a float -> u32 element is unspecified when the vector and scalar sequences differ (NaN, x <= -2^31-1, 2^32 <= x < 2^63)",
		"casts.md §4.1 and §11.2: the tail boundary comes from gcc 12 code (model/evidence/sim/cc_tail.c), not from the oracle")
	castF2ICuda = newRule("cast.f2i.cuda.cvt-rzi",
		"CUDA: float -> integer is cvt.rzi, which saturates; i8/i16 go through s32 and u16 through u32 keeping the low bits; NaN -> 0 for f32/f16/bf16 into 32 bits, the 0x80..0 pattern for f64 into 32 bits and for any source into 64 bits",
		"casts.md §5; oracle-00850 (1e20 -> i8 -1), oracle-00854, oracle-00867, oracle-00868, oracle-00866, oracle2-00099, oracle-00856")
	castF2IArm64 = newRule("cast.f2i.arm64.fcvtz-saturate",
		"Arm64 (clang): float -> integer is fcvtzs/fcvtzu, which saturate at the register width (32 bits for i8/i16/i32/u32, 64 for i64/u64) with NaN -> 0, narrower results keeping the low bits",
		"DESIGN.md (Arm64 fcvtzs/fcvtzu saturate, NaN -> 0); seed 003 to_dtype rows (M2 Max: -1.7 -> i64 -1, inf -> u32 4294967295, NaN -> 0, 300 -> u8 44); no oracle run")
	numpyArm64F64I32 = newRule("numpy.arm64.cast.f64-i32-saturate",
		"NumPy on Arm64: f64 -> i32 astype saturates at 32 bits with NaN -> 0 (fcvtzs w), also in its vectorized loop: 1e20 -> 2147483647, -1e20 -> -2147483648, inf -> 2147483647",
		"seed 001 §astype 拆成两个 (M2 Max: NumPy's int32 and int64 astype give JAX's numbers, [-2, 2, 2, 0, 2147483647, -2147483648, 0, 2147483647])")
	castF2IArm64Unspec = newOpenRule("cast.f2i.arm64.unpinned",
		"Arm64: unspecified where clang may emit different conversions: u8/u16 as fcvtzs or fcvtzu into 32 bits (negative values), and f64 sources into a 32-bit intermediate converted in vector loops at 64 bits then narrowed (xtn) instead of saturating at 32 bits",
		"LLVM AArch64 lowering (FP_TO_UINT promotion to FP_TO_SINT; LowerVectorFP_TO_INT converts v2f64 at 64 bits and truncates); no run pins them")
	castF2IMPS = newRule("pytorch.mps.cast.f2i-as-cuda",
		"PyTorch MPS: float -> integer is assumed to behave as on CUDA (saturating conversion, narrow destinations through 32 bits); no seed or oracle evidence",
		"assumed: the seeds have no MPS cast rows and the oracle has no MPS run")
	torchMPSNoF64 = newRule("pytorch.mps.no-float64",
		"PyTorch MPS has no float64: a float64 tensor cannot be made or cast to on the device (TypeError)",
		"pytorch/pytorch#79019, #122602 (\"Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64\"); no oracle run")
	numpyCastWarnings = newRule("numpy.cast.fp-warnings",
		"NumPy warns after a cast whose conversions raised FP flags: invalid (float -> int of NaN, ±inf or a value outside the executed 32/64-bit conversion), overflow (finite -> ±inf into f16 or f32), underflow (an inexact tiny f16/f32 result); ml_dtypes' bf16 rounding raises none",
		"casts.md §8; oracle2-00046/00099/00592 (no warning inside the 32-bit range), oracle2-00449, oracle-00858, oracle-00938")
	jaxX32CastTarget = newRule("jax.x32.cast-target-narrowed",
		"with jax_enable_x64 off, astype to i64/u64/f64/c128 gives i32/u32/f32/c64 with a UserWarning (also for empty tensors and sources already narrow), and the values follow the narrow destination's rule (1e20 -> \"i64\" 2147483647)",
		"casts.md §2; oracle-00856, oracle-00870, oracle-00908, oracle2-01429, oracle2-00526")
)

// torchParallelGrain is at::internal::GRAIN_SIZE: longer PyTorch CPU loops
// may be split across threads, which moves the vector-body boundaries.
const torchParallelGrain = 32768

// pyCast evaluates the cast op for PyTorch, NumPy and JAX.
func (e *evaluation) pyCast() tensor.Outcome {
	if e.c.Attrs.Mode == "convert" {
		return e.unsupported(castNoConvert, "%s has no checked convert (mode=convert); only an explicit cast", e.p.Framework)
	}
	src := e.input(e.c.Args[0].Tensor)
	to := e.castTarget()
	if e.p.Device == MPS && (src.DType == tensor.F64 || to == tensor.F64) {
		return e.fail(torchMPSNoF64, tensor.UnsupportedDType,
			"TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead.")
	}
	if src.DType.IsComplex() && !to.IsComplex() {
		e.complexToRealWarning(to)
	}
	e.use(castShape)
	out := tensor.New(to, src.Shape...)
	var flags convFlags
	for i := 0; i < src.Len(); i++ {
		f := e.castElement(src, out, i)
		if f.has(convUnspecified) {
			out.SetUnspecified(i)
		}
		flags |= f
	}
	e.numpyWarnings(flags)
	return tensor.ValueOutcome(out)
}

// castTarget is the result dtype: attr to, narrowed by JAX with x64 off.
func (e *evaluation) castTarget() tensor.DType {
	to := e.c.Attrs.To
	if e.p.Framework != JAX || e.p.X64 || narrow32(to) == to {
		return to
	}
	e.use(jaxX32CastTarget)
	e.warnJAXTruncation("astype", to)
	return narrow32(to)
}

// warnJAXTruncation records JAX's warning that dtype d, requested in fn,
// becomes narrow32(d) with x64 off.
func (e *evaluation) warnJAXTruncation(fn string, d tensor.DType) {
	e.warn("UserWarning: Explicitly requested dtype %s requested in %s is not available, and will be truncated to dtype %s. "+
		"To enable more dtypes, set the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment variable. "+
		"See https://github.com/jax-ml/jax#current-gotchas for more.", pyName(d), fn, pyName(narrow32(d)))
}

// castElement converts element i of src into out and returns its flags.
func (e *evaluation) castElement(src, out *tensor.Tensor, i int) convFlags {
	sd, dd := src.DType, out.DType
	switch {
	case dd == tensor.Bool:
		e.use(castToBool)
		out.SetBool(i, isNonzero(src, i))
	case sd == tensor.Bool && dd.IsInt():
		e.use(castFromBool)
		out.SetInt(i, int64(src.Bits(i)))
	case sd == tensor.Bool:
		e.use(castFromBool)
		out.SetFloat(i, float64(src.Bits(i)))
	case sd.IsInt() && dd.IsInt():
		e.use(castIntWrap)
		out.SetUint(i, src.Uint(i))
	case sd.IsInt():
		r, f := e.castIntToFloat(src.Uint(i), sd, dd.Component())
		out.SetFloat(i, r)
		return f
	case dd.IsComplex():
		e.use(castComplexParts)
		c := complexOf(src, i)
		re, f1 := floatToFloat(real(c), dd.Component())
		im, f2 := floatToFloat(imag(c), dd.Component())
		out.SetComplex(i, complex(re, im))
		return f1 | f2
	case dd.IsFloat():
		r, f := e.castFloatToFloat(src.Float(i), sd.Component(), dd)
		out.SetFloat(i, r)
		return f
	default:
		v, f := e.castFloatToInt(src.Float(i), sd, dd, i, src.Len())
		out.SetUint(i, v)
		return f
	}
	return 0
}

// complexToRealWarning records the warning of a complex -> real cast.
func (e *evaluation) complexToRealWarning(to tensor.DType) {
	if to == tensor.Bool && e.p.Framework != PyTorch {
		return // NumPy and JAX test both parts: nothing is discarded
	}
	e.use(castComplexToReal)
	switch e.p.Framework {
	case PyTorch: // copy_ warns for any non-complex destination
		e.warn("UserWarning: Casting complex values to real discards the imaginary part")
	case NumPy:
		e.warn("ComplexWarning: Casting complex values to real discards the imaginary part")
	case JAX:
		e.warn("DeprecationWarning: Casting from complex to real dtypes will soon raise a ValueError. " +
			"Please first use jnp.real or jnp.imag to take the real/imaginary component of your input.")
	}
}

// isHalf reports whether d is one of the 16-bit float dtypes.
func isHalf(d tensor.DType) bool { return d == tensor.F16 || d == tensor.BF16 }

// castFloatToFloat converts x of the real float dtype src to the float
// dtype d along the profile's rounding path.
func (e *evaluation) castFloatToFloat(x float64, src, d tensor.DType) (float64, convFlags) {
	switch {
	case e.p.Framework == NumPy && d == tensor.BF16:
		e.use(numpyBF16ViaF32)
		y, f := floatToFloat(x, tensor.F32) // the C cast to float raises flags
		r, _ := floatToFloat(y, d)          // the bf16 rounding does not
		return r, f
	case src != tensor.F64 || !isHalf(d):
		e.use(castFloatRNE)
		return floatToFloat(x, d)
	case e.p.Framework == PyTorch:
		e.use(torchHalfViaF32)
		return floatToFloatVia(x, tensor.F32, d)
	case e.p.Framework == NumPy:
		e.use(numpyF64ToF16)
		return floatToFloat(x, d)
	}
	e.use(jaxHalfPath)
	return floatToFloatEither(x, d)
}

// castIntToFloat converts the integer v of dtype src to the float dtype d
// along the profile's rounding path.
func (e *evaluation) castIntToFloat(v uint64, src, d tensor.DType) (float64, convFlags) {
	if !isHalf(d) {
		e.use(castIntToFloatRNE)
		return intToFloatRNE(v, src, d)
	}
	switch e.p.Framework {
	case PyTorch:
		e.use(torchHalfViaF32)
		return intToFloatVia(v, src, tensor.F32, d)
	case NumPy:
		if d == tensor.BF16 {
			e.use(numpyBF16ViaF32)
			r, _ := intToFloatVia(v, src, tensor.F32, d)
			return r, 0
		}
		e.use(numpyF64ToF16)
		return intToFloatVia(v, src, tensor.F32, d)
	}
	if d == tensor.BF16 && src.Bits() >= 32 {
		e.use(jaxHalfPath)
		return intToFloatEither(v, src, d)
	}
	e.use(castIntToFloatRNE)
	return intToFloatRNE(v, src, d)
}

// castFloatToInt converts x, element i of n of a tensor of dtype src (a
// complex source gives its real part), to the integer dtype dst on the
// profile's hardware.
func (e *evaluation) castFloatToInt(x float64, src, dst tensor.DType, i, n int) (uint64, convFlags) {
	switch {
	case e.p.Framework == JAX:
		e.use(castF2IXLA)
		return saturateNaN0(x, dst)
	case e.p.Framework == PyTorch && dst == tensor.U8:
		e.use(castF2ITorchU8)
		v, f := e.deviceFloatToInt(x, src, tensor.I64, i, n)
		return wrapInt(v, dst), f
	}
	return e.deviceFloatToInt(x, src, dst, i, n)
}

// deviceFloatToInt is the C/C++ cast compiled for the profile's device.
func (e *evaluation) deviceFloatToInt(x float64, src, dst tensor.DType, i, n int) (uint64, convFlags) {
	comp := src.Component()
	var v uint64
	var f convFlags
	switch {
	case e.p.Device == CUDA:
		e.use(castF2ICuda)
		return cudaFloatToInt(x, comp, dst)
	case e.p.Device == MPS:
		e.use(castF2IMPS)
		return cudaFloatToInt(x, comp, dst)
	case e.p.Framework == NumPy && e.p.Arch == Arm64 && comp == tensor.F64 && dst == tensor.I32:
		e.use(numpyArm64F64I32)
		v, f = saturateToInt(x, 32, true, 0)
		return wrapInt(v, dst), f
	case e.p.Arch == Arm64:
		e.use(castF2IArm64)
		v, f = arm64FloatToInt(x, comp, dst)
		if f.has(convUnspecified) {
			e.use(castF2IArm64Unspec)
		}
		return v, f
	}
	lane := laneUnknown
	if dst == tensor.U32 {
		if e.p.Framework == NumPy || n <= torchParallelGrain {
			lane = x86U32Lane(src, i, n)
		}
	}
	v, f = x86FloatToInt(x, comp, dst, lane)
	e.use(x86Rule(dst, lane, f))
	return v, f
}

// x86Rule names the x86 rule that decided a conversion to dst.
func x86Rule(dst tensor.DType, lane loopLane, f convFlags) *Rule {
	switch {
	case dst == tensor.I32:
		return castF2IX86I32
	case dst == tensor.I64:
		return castF2IX86I64
	case dst == tensor.U64:
		return castF2IX86U64
	case dst != tensor.U32:
		return castF2IX86Low
	case f.has(convUnspecified):
		return castF2IX86U32Tail
	case lane == laneVector:
		return castF2IX86U32Vec
	}
	return castF2IX86U32Scalar
}

// numpyWarnings records NumPy's RuntimeWarnings for the FP flags a cast raised.
func (e *evaluation) numpyWarnings(f convFlags) {
	if e.p.Framework != NumPy || f&(convInvalid|convOverflow|convUnderflow) == 0 {
		return
	}
	e.use(numpyCastWarnings)
	for _, w := range []struct {
		flag convFlags
		what string
	}{{convInvalid, "invalid value"}, {convOverflow, "overflow"}, {convUnderflow, "underflow"}} {
		if f.has(w.flag) {
			e.warn("RuntimeWarning: %s encountered in cast", w.what)
		}
	}
}
