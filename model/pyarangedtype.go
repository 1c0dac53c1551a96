package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// arange(start, end, dtype=D): torch.arange(start, end, dtype=D),
// np.arange(start, stop, dtype=D), jnp.arange(start, stop, dtype=D). No
// dtype is inferred; what differs is how each framework sizes the range
// and computes the elements in D. PyTorch: pyarangetorch.go, NumPy:
// pyarangenumpy.go, JAX: pyarangejax.go.

var (
	torchArangeDType = newOpenRule("pytorch.arange.dtype",
		"torch.arange(start, end, dtype=D) on the CPU: an int bound is an int64 Scalar, a uint64 one in [2^63, 2^64) (pytorch.arange.scalar-bounds: beyond both the parser raises OverflowError, and an int64 accumulate type refuses a uint64 one), a float bound a Scalar double; arange_out dispatches AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16) (bool, complex, u16/u32/u64: \"arange_cpu\" not implemented), converts the bounds to the accumulate type (int64 for an integer D: a float truncated, NaN/inf/outside int64 refused by checked_convert; double for f32/f64; float for f16/bf16: an int rounded once to float, a double beyond float's range refused), refuses a non-finite one (\"unsupported range\") and end < start in it (\"upper bound and larger bound inconsistent with step sign\"), and sizes int64 from the converted end - start, every other D from ceil(end.to<double>() - start.to<double>()) (\"invalid size, possible overflow?\" below 0 or above 2^63); element idx is start + idx in the accumulate type converted to D: integer D wraps (an int64 sum past INT64_MAX is signed overflow: \"?\"); float D: the scalar path rounds start + idx once, the vector path rounds a vector's base to D first and adds the steps to it, so element 0 is D(start) and element i > 0 is fixed (start + i exactly) only when start + j is a value of D for every j <= i, else \"?\" (which elements take the vector path depends on the CPU's vector width). Later releases check the bounds in double instead (RangeUtils.h arange_check_bounds); where the two readings part the model states nothing (python.arange.dtype.not-modeled)",
		"pytorch e4bb10d6 aten/src/ATen/native/RangeFactories.cpp:159-207 arange_out (:160 AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16), :162-164 accscalar_t xstart/xend, :167-171 the finite and sign checks, :180-187 size_d: int64_t from (xend - xstart + xstep - sgn) / xstep, else ceil(end.to<double>() - start.to<double>()), :189-190 the size check); pytorch 00c0db4e aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp:21-43 arange_kernel (:32-34 start + step * idx; :35-40 Vectorized<scalar_t>::arange(start + step * idx, step)); aten/src/ATen/AccumulateType.h (CPU_ACC_TYPE); pytorch 5c6695ee c10/util/TypeCast.h checked_convert, c10/util/TypeSafeSignMath.h overflows; later: pytorch 615a9d17 aten/src/ATen/native/RangeUtils.h compute_arange_size (the same checks in the accumulate type), and RangeUtils.h arange_check_bounds of 27a4844d (as quoted in a copy, not read upstream: start.to<double>(), end.to<double>() checked); PyTorch 1.13 checked locally: arange(0, 300, dtype=uint8) wraps to 0 at 256, arange(2**63-1000, 2**63-1, dtype=int32) has 1024 elements, arange(0, 2**63, dtype=int32) is Overflow when unpacking long (1.13's parser; 2.x: cannot be converted to int64_t), arange(-0.5, 3, dtype=int32) is [0, 1, 2, 3] and dtype=int64 [0, 1, 2], arange(0, inf, dtype=int32) is \"value cannot be converted to type int64_t without overflow\", arange(0.5, -0.5, dtype=int32) is invalid size, arange(1e39, 1e39+1, dtype=float16) cannot be converted to float, arange(0.1, 3, dtype=float16) is [0.0999755859375, 1.099609375, 2.099609375], arange(2**24+1, 2**24+3, dtype=bfloat16) [2^24, 2^24], bool and complex64 \"arange_cpu\" not implemented (RuntimeError), arange(2040, 2060, dtype=float16) on its scalar path rounds once (2049 -> 2048), while arange(2**24+1, 2**24+81, dtype=float32) and arange(2049, 2149, dtype=float16) differ from the once-rounded values at elements 1, 2, 5, 6, 9, 10, ... (the vector path adds to the rounded base 2^24, 2048)")
	torchArangeDTypeCUDA = newOpenRule("pytorch.arange.dtype.cuda",
		"torch.arange(start, end, dtype=D) on CUDA: the bounds, the dispatch (\"arange_cuda\" not implemented for bool, complex, u16/u32/u64), the checks and the size as on the CPU (pytorch.arange.dtype) but in CUDA's accumulate type (int64 for an integer D, double for f64, float for f32, f16 and bf16); one thread per element computes static_cast<D>(xstart + xstep * ind) in it: integer D wraps (an int64 sum past INT64_MAX is signed overflow: \"?\"), f32 is float(start) + ind rounded once (xstep is 1, so a contracted fma is the same add), f16/bf16 that float sum rounded again to D, f64 double(start) + ind; no vector path, so every float element is fixed",
		"pytorch feac1ee6 aten/src/ATen/native/cuda/RangeFactories.cu:211-269 arange_cuda_out (:212 AT_DISPATCH_ALL_TYPES_AND2(Half, BFloat16), :213-216 acc_type<scalar_t, true> xstart/xend, :225-232 size_d, :234-242 the checks, :258-262 gpu_kernel_with_index: inc = xstep * ind, val = xstart + inc, static_cast<scalar_t>(val)); aten/src/ATen/AccumulateType.h (CUDA_ACC_TYPE: Half, BFloat16 and float to float); c10/util/Half.h, BFloat16.h (float to Half/BFloat16 rounds to nearest even); no CUDA run (this task lent no GPU)")
	numpyArangeDType = newOpenRule("numpy.arange.dtype",
		"np.arange(start, stop, dtype=D): _calc_length takes stop - start in Python (ints exactly; with a float, an int beyond double is an OverflowError) over 1 as a double (NaN: ValueError \"arange: cannot compute length\"; a ceiling outside [-2^63, 2^63], ±inf included: OverflowError, raised as ValueError \"Maximum allowed size exceeded\"), the length is its ceiling (0 when not positive); then D's setitem stores start and, for a length of 2 or more, next = start + 1 computed in Python (a float start: a double add) (numpy.from-literal.dtype: an int D truncates a float and refuses a value outside D, \"Python integer 256 out of bounds for uint8\"; a float D rounds once, f16/f32 warn on overflow; bool is truthiness; a complex D takes PyComplex_AsCComplex: the real part, rounded to float for c64); a bool D stops there: BOOL_fill raises TypeError \"arange() is only supported for booleans when the result has at most length 2.\"; any other D's fill computes element i >= 2 from the stored values as start + i*delta with delta = buffer[1] - buffer[0] in D: integer D in C integer arithmetic converted to D (wrapping; a float start can give delta 0: arange(-0.5, 3) is [0, 0, 0, 0]; int64 past INT64_MAX is signed overflow: \"?\"), f32/f64 in D, f16 (HALF_fill) in float then npy_float_to_half, complex parts separately (the imaginary part stays +0). NumPy 1.24 differs: an out-of-bounds int (start, next, or a truncated float) wraps with at most a DeprecationWarning",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/ctors.c:3068-3085 (_arange_safe_ceil_to_intp), :3180-3282 (_calc_length: PyNumber_Subtract, PyNumber_TrueDivide, next = start + step), :3290-3440 (PyArray_ArangeObj: :3378-3386 OverflowError as ValueError, :3404 setitem(start), :3410 setitem(next), :3419 fill); numpy/_core/src/multiarray/arraytypes.c.src:289-315 (safe_pyint_setitem), :354-412 (@TYPE@_setitem), :455-528 (C@NAME@_setitem: PyComplex_AsCComplex, the float overflow warning), :3742-3750 (BOOL_fill), :3791-3815 (@NAME@_fill: start + i*delta), :3817-3829 (HALF_fill), :3831-3856 (C@NAME@_fill); NumPy 1.24 checked locally: arange(0, 300, dtype=uint8) wraps at 256, arange(2040, 2060, dtype=float16), arange(-0.5, 3, dtype=int32) [0 0 0 0], arange(250.5, 258, dtype=uint8), arange(0, 3, dtype=bool) the TypeError, arange(-1, 1, dtype=bool) [True False], arange(0.1, 3, dtype=complex64), arange(0, inf) and arange(0, -2**70) \"Maximum allowed size exceeded\", arange(0, nan) \"cannot compute length\", arange(70000.5, 70002, dtype=float16) [inf inf] with two overflow warnings; arange(255.5, 258, dtype=uint8) is [255 0 1] there (2.5.2: OverflowError at next = 256.5)")
	numpyArangeBF16 = newOpenRule("numpy.arange.dtype.bf16",
		"np.arange(start, stop, dtype=ml_dtypes.bfloat16) sizes and stores start and next as numpy.arange.dtype does, with ml_dtypes' setitem: a Python float d is bfloat16(float(d)) (two roundings to nearest even, no warning), a Python int is PyLong_AsLong then bfloat16((float)l) (beyond int64 PyLong_AsLong fails and NPyCustomFloat_SetItem raises TypeError \"expected number, got int\" in place of its OverflowError); its fill takes float start = buffer[0], delta = buffer[1] - start and stores bfloat16(start + i*delta) computed in float",
		"ml_dtypes b793a6e2 ml_dtypes/_src/floats.cc:85-139 (CastToCustomFloat: :91-98 a float as T(d), :99-107 an int as T(static_cast<float>(PyLong_AsLong))), :437-446 (NPyCustomFloat_SetItem: a failed CastToCustomFloat becomes TypeError \"expected number, got %s\"), :514-523 (NPyCustomFloat_Fill: float start, delta; static_cast<T>(start + i * delta)), :868, :873 (setitem, fill registered); bfloat16 is Eigen's (third_party/eigen: float to bfloat16 rounds to nearest even; a double goes through float: numpy.cast.bf16-via-f32); numpy v2.5.2 ctors.c:3355-3361 (a dtype with a fill runs the generic path); no local check (Debian has no ml_dtypes)")
	jaxArangeDType = newOpenRule("jax.arange.dtype",
		"jnp.arange(start, stop, dtype=D), on the CPU and on a GPU (the same jnp code and HLO: iota, convert, add): D is canonicalized (x64 off: i64/u64/f64/c128 become i32/u32/f32/c64 with a UserWarning); start == 0 (0, 0.0 or -0.0) gives broadcasted_iota(D, max(0, int(ceil(stop)))), any other start convert_element_type(start, D) + broadcasted_iota(D, max(0, int(ceil(stop - start)))), the size in Python (a float NaN: ValueError \"cannot convert float NaN to integer\", ±inf: OverflowError \"cannot convert float infinity to integer\", an int beyond double against a float: OverflowError) and the conversion before the iota; iota refuses bool (TypeError \"iota does not accept dtype bool\"); the conversion of an int start is np.asarray(start).astype(D) (int64, then uint64 below 2^64, else an object array whose cast is D's setitem: an integer D refuses it, OverflowError \"Python int too large to convert to C long\", bfloat16 too, TypeError \"expected number, got int\" (ml_dtypes' setitem); a float D rounds it), of a float start np.asarray(start, dtype=D) (D's setitem: truncation for an integer D, and a value that does not fit D an OverflowError the code catches, converting in XLA instead: \"?\"); an element is fixed when the converted start, the iota index and their sum are values of D (integers: in range; floats and complex parts: exactly representable; the imaginary part is 0), otherwise \"?\": XLA's iota past D's range, its float to int conversion and the add's overflow or rounding were not read",
		"jax jax-v0.11.0 jax/_src/numpy/lax_numpy.py:5921-5983 (_arange: :5925-5926 check_and_canonicalize_user_dtype, :5975-5978 start == 0: size = max(0, int(np.ceil(stop))), broadcasted_iota; :5979-5983 size = max(0, int(np.ceil(stop - start))), lax.add(lax.convert_element_type(start, dtype), lax.broadcasted_iota(...))); jax/_src/lax/lax.py:1667-1764 (_convert_element_type: :1725-1728 an int as np.asarray(operand).astype(new_dtype); :1735-1754 a float as np.asarray(operand, dtype=new_dtype), OverflowError caught and bound to convert_element_type_p), :3668-3677 (broadcasted_iota), :9332-9339 (_iota_abstract_eval: subtypes of _num), :4465-4472 (_num = integer, floating, complexfloating); numpy v2.5.2 numpy/_core/src/multiarray/abstractdtypes.c:23-52 (an int is int64, else uint64, else object), numpy/_core/src/multiarray/convert_datatype.c:66-74 (a cast from object is object_to_any), dtype_transfer.c:307-336 (object to any: PyArray_Pack, D's setitem), array_coercion.c:480-524, dtypemeta.c:1308 (a Python int is known to every legacy dtype: setitem); ml_dtypes b793a6e2 floats.cc:99-103 (PyLong_AsLong), :437-446 (NPyCustomFloat_SetItem: its TypeError)")
	pyArangeDTypeOpen = newRule("python.arange.dtype.not-modeled",
		"arange with a dtype argument is not stated for: PyTorch on MPS (its arange moved from MPSGraph to Metal kernels between releases; neither read for the profile's release); PyTorch's bounds where the releases' checks part (PyTorch 1.13 and arange_out at e4bb10d6 convert and check the bounds in the accumulate type, later releases check start.to<double>() and end.to<double>() first): a NaN, ±inf or outside-int64 float bound for an integer D, a float bound beyond float's range for a D whose accumulate type is float, bounds reversed in one of the two types but not in the other (unless both releases refuse them)",
		"pytorch 027eb316 aten/src/ATen/native/mps/operations/RangeFactories.mm (arange_mps_out: Metal kernels arange_<type>, not read); pytorch e4bb10d6 RangeFactories.cpp:159-190 against RangeUtils.h arange_check_bounds (27a4844d, as quoted)").silent()
)

// pyArangeDType evaluates arange(start, end, dtype=d).
func (e *evaluation) pyArangeDType(d tensor.DType) tensor.Outcome {
	startText := "0"
	if e.c.Attrs.Start != nil {
		startText = *e.c.Attrs.Start
	}
	endText := *e.c.Attrs.End
	start, err1 := parseBound(startText)
	end, err2 := parseBound(endText)
	if err1 != nil || err2 != nil {
		return e.fail(pyLiteralShape, tensor.Other, "TypeError: arange() bounds must be numbers, got %q, %q", startText, endText)
	}
	switch {
	case e.p.Framework == PyTorch && e.p.Device == MPS:
		return e.unsupported(pyArangeDTypeOpen, "tfuzz: arange(dtype=%s) is not established for %s", pyName(d), e.p.Name)
	case e.p.Framework == PyTorch:
		return e.torchArangeDType(start, end, d) // pyarangetorch.go
	case e.p.Framework == NumPy:
		return e.numpyArangeDType(start, end, d) // pyarangenumpy.go
	}
	return e.jaxArangeDType(start, end, d) // pyarangejax.go
}

// holdsExactly reports whether v is a value of d (an integer dtype: in its
// range; a float dtype: exactly representable and finite; a complex dtype:
// so in its component).
func holdsExactly(v *big.Int, d tensor.DType) bool {
	if d.IsComplex() {
		d = d.Component()
	}
	if !d.IsFloat() {
		return bigFits(v, d)
	}
	f, acc := new(big.Float).SetInt(v).Float64()
	return acc == big.Exact && !math.IsInf(f, 0) && roundTo(f, d) == f
}

// floatPlusIndex is x + j exactly, and whether that sum is a finite value
// of the float dtype d (a complex dtype: of its component).
func floatPlusIndex(x float64, j int, d tensor.DType) (float64, bool) {
	if d.IsComplex() {
		d = d.Component()
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x, false
	}
	s := new(big.Float).SetPrec(2200).SetFloat64(x)
	s.Add(s, new(big.Float).SetInt64(int64(j)))
	f, acc := s.Float64()
	return f, acc == big.Exact && !math.IsInf(f, 0) && roundTo(f, d) == f
}
