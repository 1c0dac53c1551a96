package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// from_literal with a dtype argument: torch.tensor(lit, dtype=D),
// np.array(lit, dtype=D), jnp.array(lit, dtype=D). No dtype is inferred:
// each Python value of the literal is stored into D by the framework's
// per-element conversion, which is not the tensor cast of pycast.go (it
// checks ranges where a cast wraps). PyTorch stores each element with
// store_scalar; NumPy with the dtype's setitem; JAX canonicalizes D (x32:
// 64-bit dtypes to 32 bits) and hands the list to np.asarray.

var (
	torchLiteralDType = newRule("pytorch.from-literal.dtype",
		"torch.tensor(lit, dtype=D) stores each Python value with store_scalar: an integer D takes a Python int through THPUtils_unpackLong (beyond int64: RuntimeError \"Overflow when unpacking long\") and checked_convert, which refuses a value outside D except a negative one whose magnitude fits an unsigned D (it wraps: -1 -> 255), and a Python float through checked_convert from double, which refuses NaN, ±inf and values below D's lowest or above its max (so -0.5 into uint8 and 127.5 into int8 are errors) and truncates the rest; uint64 uses PyLong_AsUnsignedLongLong (a float is a TypeError, a negative int an OverflowError); a float D takes PyFloat_AsDouble of the value (a Python int rounded once to double; beyond double an OverflowError), then (float) for f32 and Half(float) / BFloat16(float) for f16/bf16 (two roundings); a bool D is x != 0 (NaN and ints beyond int64 are true); a bool value is the int 0 or 1; a complex D takes THPUtils_unpackComplexDouble (PyComplex_AsCComplex: an int, beyond int64 too, rounded once to double; beyond double an OverflowError), each part cast once to float for c64, the imaginary part 0",
		"pytorch 4954dec2 torch/csrc/utils/python_scalars.h:13-24 (unpackIntegral: checked_convert of unpackDouble / unpackLong), :26-78 (store_scalar; :59-65 kComplexFloat, kComplexDouble); pytorch 5c6695ee c10/util/TypeCast.h (convert: static_cast; uint8 through int64; checked_convert: overflows then convert); c10/util/TypeSafeSignMath.h / Half.h overflows (unsigned targets let negatives wrap; floats: NaN overflows, inf overflows an integer, f < lowest || f > max); torch/csrc/utils/python_numbers.h THPUtils_unpackLong, THPUtils_unpackUInt64, THPUtils_unpackNumberAsBool; PyTorch 1.13 checked locally (300 -> error, -1 -> 255 for uint8, 2.7 -> 2, 127.5 and NaN -> error, 2^70 as bool -> True; complex64 of [1, 2.5, 1e39, True, 0.1, -0.0, 2**70, 16777217] is 1, 2.5, inf, 1, float(0.1), -0.0, 2^70 rounded, 2^24, each + 0j, 10**400 into complex128 an OverflowError)")
	torchLiteralDTypeEdge = newRule("pytorch.from-literal.dtype.i64-edge",
		"a Python float equal to 2^63 passes the int64 range check (INT64_MAX rounds to 2^63 as a double) and static_cast<int64_t> of it is the host CPU's conversion: x86-64 cvttsd2si gives INT64_MIN, Arm64 fcvtzs saturates to INT64_MAX; on pytorch/cuda the host is not fixed, so unspecified",
		"pytorch c10/util/TypeSafeSignMath.h overflows (f > limit::max() compares with (double)INT64_MAX = 2^63); DESIGN.md (cvttsd2si integer indefinite, fcvtzs saturation); PyTorch 1.13 checked locally on x86-64 (torch.tensor([9.223372036854775807e18], dtype=torch.int64) = -9223372036854775808)")
	numpyLiteralDType = newRule("numpy.from-literal.dtype",
		"np.array(lit, dtype=D) stores each Python value with D's setitem: an integer D takes a Python float through PyNumber_Long (truncation; NaN: ValueError \"cannot convert float NaN to integer\", ±inf: OverflowError \"cannot convert float infinity to integer\") and every Python int through the strict NEP 50 check (OverflowError \"Python integer 300 out of bounds for uint8\"; beyond the C long: \"Python int too large to convert to C long\"); a float D takes PyNumber_Float (a Python int rounded once; beyond double an OverflowError) then rounds once to D (f16: npy_double_to_half; an overflow to inf warns \"overflow encountered in cast\"); a bool D is PyObject_IsTrue (NaN is true); a complex D takes PyComplex_AsCComplex (an int rounded once to double, beyond it an OverflowError), each part cast to float for c64 with the same overflow warning, the imaginary part 0; bfloat16 is ml_dtypes' CastToCustomFloat (numpy.arange.dtype.bf16: a float through float, an int through PyLong_AsLong, no warning; beyond int64 PyLong_AsLong fails and NPyCustomFloat_SetItem raises TypeError \"expected number, got int\" instead), which PyArray_Pack reaches as every legacy dtype's setitem for a Python float, int or bool. NumPy 1.24 differs: an out-of-bounds Python int wraps with a DeprecationWarning and a float is truncated then wrapped silently",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/arraytypes.c.src:104-154 (MyPyFloat_AsDouble, MyPyFloat_AsFloat, MyPyFloat_AsHalf), :194-250 (MyPyLong_As*), :289-315 (safe_pyint_setitem: OverflowError out of bounds), :355-410 (setitem: PyNumber_Long of a non-int, then the strict check), :455-528 (C@NAME@_setitem); numpy/_core/src/multiarray/array_coercion.c:480-524 (PyArray_Pack: a Python scalar known to the DType goes to setitem), :290-291, dtypemeta.c:970-991, :1308 (every legacy dtype, ml_dtypes' bfloat16 among them, knows Python float, int, bool and complex); ml_dtypes b793a6e2 ml_dtypes/_src/floats.cc:85-139, :436-446 (CastToCustomFloat, NPyCustomFloat_SetItem); NumPy 1.24 checked locally for the float, bool and complex paths (2.7 -> 2, NaN -> ValueError, 0.1 -> float16 0.0999755859375; complex64 of [1, 2.5, 1e39, True, 0.1, -0.0] as PyTorch 1.13 gives, with one overflow warning; 10**400 an OverflowError); bfloat16 not checked (Debian has no ml_dtypes)")
	jaxLiteralDType = newRule("jax.from-literal.dtype",
		"jnp.array(lit, dtype=D) canonicalizes D first (x64 off: i64/u64/f64 become i32/u32/f32 with a UserWarning \"Explicitly requested dtype int64 requested in array is not available\") and then, every leaf being a Python number, is np.asarray(lit, dtype=D): NumPy 2's setitem conversions (numpy.from-literal.dtype) into the canonical dtype, so an int that does not fit int32 under x32 is an OverflowError",
		"jax jax-v0.11.0 jax/_src/numpy/array_constructors.py:211-212 (check_and_canonicalize_user_dtype), :244-250 (coerce_to_array of a bare scalar), :308-314 (np.asarray(object, dtype=dtype)); jax/_src/dtypes.py:957-981 (_maybe_canonicalize_explicit_dtype: WARN)")
	pyLiteralDTypeOpen = newRule("python.from-literal.dtype.not-established",
		"not established from the source, so unsupported here: PyTorch on MPS (the CPU tensor's .to(\"mps\", D) per dtype, no MPS source read or run)",
		"pytorch torch/csrc/utils/tensor_new.cpp internal_new_from_data (tensor.to(device, inferred_scalar_type))").silent()
)

// pyFromLiteralDType evaluates from_literal with the dtype argument d.
func (e *evaluation) pyFromLiteralDType(text string, d tensor.DType) tensor.Outcome {
	elems, shape, err := readPythonSyntax(text)
	if err != nil {
		return e.fail(pyLiteralShape, tensor.ShapeMismatch, "ValueError: %v", err)
	}
	e.use(pyLiteralShape)
	if e.p.Framework == PyTorch && e.p.Device == MPS {
		return e.unsupported(pyLiteralDTypeOpen, "tfuzz: from_literal(dtype=%s) is not established for %s", pyName(d), e.p.Name)
	}
	switch e.p.Framework {
	case PyTorch:
		e.use(torchLiteralDType)
	case NumPy:
		e.use(numpyLiteralDType)
	default:
		e.use(jaxLiteralDType)
		if !e.p.X64 && narrow32(d) != d {
			e.warnJAXTruncation("array", d)
			d = narrow32(d)
		}
	}
	out := tensor.New(d, shape...)
	for i, el := range elems {
		var o *tensor.Outcome
		if e.p.Framework == PyTorch {
			o = e.torchStoreScalar(el, out, i)
		} else {
			o = e.numpySetItem(el, out, i)
		}
		if o != nil {
			return *o
		}
	}
	return tensor.ValueOutcome(out)
}

// literalInt is the Python int of an int or bool element.
func literalInt(el literalElem) *big.Int {
	if el.Kind == litBool {
		return big.NewInt(map[bool]int64{true: 1}[el.Text == "true"])
	}
	v, _ := new(big.Int).SetString(el.Text, 10)
	return v
}

// literalDouble is PyFloat_AsDouble / PyNumber_Float of the element; ok is
// false for an int beyond double's range (OverflowError).
func literalDouble(el literalElem) (float64, bool) {
	f := literalFloat(el)
	return f, !(el.Kind == litInt && math.IsInf(f, 0))
}

// literalTruthy is the element's truth value (NaN is true).
func literalTruthy(el literalElem) bool {
	if el.Kind == litFloat {
		f := literalFloat(el)
		return f != 0 || math.IsNaN(f)
	}
	return literalInt(el).Sign() != 0
}

// storeBig stores the exact int v, known to fit or to wrap, as d's bits.
func storeBig(out *tensor.Tensor, i int, v *big.Int) {
	m := new(big.Int).Lsh(big.NewInt(1), uint(out.DType.Bits()))
	w := new(big.Int).Mod(v, m)
	out.SetUint(i, wrapInt(w.Uint64(), out.DType))
}

// torchStoreScalar is store_scalar of element el into out[i].
func (e *evaluation) torchStoreScalar(el literalElem, out *tensor.Tensor, i int) *tensor.Outcome {
	d := out.DType
	tooBig := func(format string, args ...any) *tensor.Outcome {
		return outcomePtr(e.fail(torchLiteralDType, tensor.OutOfRange, format, args...))
	}
	switch {
	case d == tensor.Bool:
		out.SetBool(i, literalTruthy(el))
	case d.IsFloat(), d.IsComplex(): // a complex D: THPUtils_unpackComplexDouble, each part cast once
		f, ok := literalDouble(el)
		if !ok {
			return tooBig("OverflowError: int too large to convert to float")
		}
		if c := d.Component(); c != tensor.F64 {
			f = roundTo(roundTo(f, tensor.F32), c)
		}
		out.SetFloat(i, f)
	case d == tensor.U64:
		if el.Kind == litFloat {
			return outcomePtr(e.fail(torchLiteralDType, tensor.Other, "TypeError: an integer is required"))
		}
		v := literalInt(el)
		if v.Sign() < 0 {
			return tooBig("OverflowError: can't convert negative int to unsigned")
		}
		if !v.IsUint64() {
			return tooBig("OverflowError: int too big to convert")
		}
		out.SetUint(i, v.Uint64())
	case el.Kind == litFloat:
		f := literalFloat(el)
		lo, hi := float64(d.MinInt()), float64(d.MaxInt())
		if !d.IsSigned() {
			lo, hi = 0, float64(d.MaxUint())
		}
		if math.IsNaN(f) || f < lo || f > hi {
			return tooBig("RuntimeError: value cannot be converted to type %s without overflow", pyName(d))
		}
		if d == tensor.I64 && f == math.Ldexp(1, 63) {
			e.use(torchLiteralDTypeEdge)
			switch {
			case e.p.Device == CUDA:
				out.SetUnspecified(i)
			case e.p.Arch == Arm64:
				out.SetInt(i, math.MaxInt64)
			default:
				out.SetInt(i, math.MinInt64)
			}
			return nil
		}
		out.SetInt(i, int64(math.Trunc(f)))
	default:
		v := literalInt(el)
		if !v.IsInt64() {
			return tooBig("RuntimeError: Overflow when unpacking long")
		}
		fits := bigFits(v, d) || !d.IsSigned() && v.Sign() < 0 && new(big.Int).Neg(v).Cmp(new(big.Int).SetUint64(d.MaxUint())) <= 0
		if !fits {
			return tooBig("RuntimeError: value cannot be converted to type %s without overflow", pyName(d))
		}
		storeBig(out, i, v)
	}
	return nil
}

// numpySetItem is NumPy's setitem of element el into out[i] (NumPy 2; a
// complex D takes PyComplex_AsCComplex's real part, bfloat16 ml_dtypes'
// CastToCustomFloat: numpy.arange.dtype.bf16).
func (e *evaluation) numpySetItem(el literalElem, out *tensor.Tensor, i int) *tensor.Outcome {
	d := out.DType
	rule := numpyLiteralDType
	if e.p.Framework == JAX {
		rule = jaxLiteralDType
	}
	overflow := func(format string, args ...any) *tensor.Outcome {
		return outcomePtr(e.fail(rule, tensor.OutOfRange, format, args...))
	}
	switch {
	case d == tensor.Bool:
		out.SetBool(i, literalTruthy(el))
	case d == tensor.BF16: // ml_dtypes' CastToCustomFloat: through float, no warning
		if el.Kind == litFloat {
			out.SetFloat(i, roundTo(roundTo(literalFloat(el), tensor.F32), d))
			return nil
		}
		v := literalInt(el)
		if !v.IsInt64() { // PyLong_AsLong's OverflowError, replaced by NPyCustomFloat_SetItem
			return outcomePtr(e.fail(rule, tensor.Other, "TypeError: expected number, got int"))
		}
		f, _ := new(big.Float).SetInt(v).Float32() // static_cast<float>(long)
		out.SetFloat(i, roundTo(float64(f), d))
	case d.IsFloat(), d.IsComplex(): // a complex D: PyComplex_AsCComplex, the real part
		f, ok := literalDouble(el)
		if !ok {
			return overflow("OverflowError: int too large to convert to float")
		}
		r := roundTo(f, d.Component())
		if math.IsInf(r, 0) && !math.IsInf(f, 0) {
			e.warn("RuntimeWarning: overflow encountered in cast")
		}
		out.SetFloat(i, r)
	default:
		var v *big.Int
		if el.Kind == litFloat {
			f := literalFloat(el)
			switch {
			case math.IsNaN(f):
				return overflow("ValueError: cannot convert float NaN to integer")
			case math.IsInf(f, 0):
				return overflow("OverflowError: cannot convert float infinity to integer")
			}
			v, _ = new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
		} else {
			v = literalInt(el)
		}
		if !v.IsInt64() && !(d == tensor.U64 && v.IsUint64()) {
			return overflow("OverflowError: Python int too large to convert to C long")
		}
		if !bigFits(v, d) {
			return overflow("OverflowError: Python integer %s out of bounds for %s", v, pyName(d))
		}
		storeBig(out, i, v)
	}
	return nil
}
