package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// arange(start, end, dtype=D) with integer bounds on the CPU:
// torch.arange(start, end, dtype=D), np.arange(start, stop, dtype=D),
// jnp.arange(start, stop, dtype=D). No dtype is inferred; what differs is
// how each framework sizes the range and computes the elements in D.

var (
	torchArangeDType = newOpenRule("pytorch.arange.dtype",
		"torch.arange(start, end, dtype=D) with int bounds on the CPU: each bound is a Scalar (beyond int64: RuntimeError \"Overflow when unpacking long\"); arange_out dispatches AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16) (u16/u32/u64: \"arange_cpu\" not implemented), converts the bounds to the accumulate type (int64 for integer D, double for f32/f64, float for f16/bf16; no int64 bound overflows these), checks end >= start in it, and sizes int64 from end - start, every other D from ceil(double(end) - double(start)) (so near 2^63 an i32 range can be longer or shorter than end - start; a negative size is \"invalid size, possible overflow?\"); element idx is start + idx in the accumulate type converted to D: integer D wraps (an int64 sum past INT64_MAX, reachable by the double sizing, is signed overflow: \"?\"); float D: the scalar path rounds start + idx once, the vector path rounds each vector's base to D first and adds in the accumulate type, so an element is fixed (its exact value) only when start >= -2^p and the element <= 2^p (p the significand bits: f16 11, bf16 8, f32 24, f64 53), else \"?\" (which elements take the vector path depends on the CPU's vector width)",
		"pytorch aten/src/ATen/native/RangeFactories.cpp arange_out (AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16), accscalar_t xstart/xend, size_d: int64_t from (xend - xstart + xstep - sgn) / xstep, else ceil(end.to<double>() - start.to<double>()), the sign and size checks), aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp arange_kernel (start + step * idx; Vectorized<scalar_t>::arange(start + step * idx, step)), aten/src/ATen/AccumulateType.h (CPU_ACC_TYPE); PyTorch 1.13 checked locally: arange(0, 300, dtype=uint8) wraps to 0 at 256, arange(2**63-1000, 2**63-1, dtype=int32) has 1024 elements, arange(0, 2**63, dtype=int32) is Overflow when unpacking long, arange(2040, 2060, dtype=float16) on its scalar path rounds once (2049 -> 2048), while arange(2**24+1, 2**24+81, dtype=float32) and arange(2049, 2149, dtype=float16) differ from the once-rounded values at elements 1, 2, 5, 6, 9, 10, ... (the vector path adds to the rounded base 2^24, 2048) and agree on the scalar tail")
	numpyArangeDType = newOpenRule("numpy.arange.dtype",
		"np.arange(start, stop, dtype=D) with int bounds: the length is ceil((stop - start) / 1) over Python ints (0 when not positive), then D's setitem stores start and, for a length of 2 or more, start + 1 (numpy.from-literal.dtype: an int outside D is OverflowError \"Python integer 300 out of bounds for uint8\", a float D rounds the int once through double, f16 warns on overflow), then D's fill computes element i >= 2 as start + i*delta with delta = buffer[1] - buffer[0]: integer D in C integer arithmetic converted to D (wrapping; int64 past INT64_MAX is signed overflow: \"?\"), f32/f64 in D, f16 (HALF_fill) in float then npy_float_to_half. NumPy 1.24 differs: an out-of-bounds start wraps with a DeprecationWarning",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/ctors.c:3181-3280 (_calc_length: PyNumber_Subtract, PyNumber_TrueDivide, _arange_safe_ceil_to_intp, next = start + step), :3291-3440 (PyArray_ArangeObj: setitem(start), setitem(next), fill); numpy/_core/src/multiarray/arraytypes.c.src:3861-3873 (@NAME@_fill: start + i*delta), :3876-3890 (HALF_fill: float start, delta, npy_float_to_half); NumPy 1.24 agreed locally on arange(0, 300, dtype=uint8) (wraps at 256) and arange(2040, 2060, dtype=float16)")
	jaxArangeDType = newOpenRule("jax.arange.dtype",
		"jnp.arange(start, stop, dtype=D) with int bounds canonicalizes D (x64 off: i64/u64/f64 become i32/u32/f32 with a UserWarning), sizes max(0, ceil(stop - start)) over Python ints, and gives broadcasted_iota(D, size) when start is 0, else convert_element_type(start, D) + broadcasted_iota(D, size), the conversion being np.asarray(start).astype(D) (an int D wraps; a Python int beyond int64 is not stated). An element is fixed when the iota index, the converted start and their sum are values of D (integers: in range; floats: exactly representable); otherwise \"?\": XLA's iota past D's range and the add's overflow or rounding in a 16-bit float on the CPU were not read",
		"jax jax-v0.11.0 jax/_src/numpy/lax_numpy.py:5925-5987 (_arange: check_and_canonicalize_user_dtype, size = max(0, int(np.ceil(stop - start))), lax.broadcasted_iota, lax.add(lax.convert_element_type(start, dtype), iota)); jax/_src/lax/lax.py:1668 (_convert_element_type: a Python int is np.asarray(operand).astype(new_dtype))")
	pyArangeDTypeOpen = newRule("python.arange.dtype.not-modeled",
		"arange with a dtype argument is not stated for: a float bound (PyTorch's truncation to int64 for an integer D, NumPy's setitem of a float start, JAX's ceil of a float size), a bool D (PyTorch: no kernel; NumPy: BOOL_fill's TypeError beyond length 2), a complex D, NumPy's bfloat16 (ml_dtypes' fill, not read), a JAX start beyond int64 (np.asarray gives uint64 or fails), and every device but the CPU (PyTorch CUDA/MPS kernels, JAX on a GPU)",
		"pytorch aten/src/ATen/native/RangeFactories.cpp arange_out; numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/arraytypes.c.src:3802-3808 (BOOL_fill); jax jax-v0.11.0 jax/_src/numpy/lax_numpy.py:5925-5987 (_arange)").silent()
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
	if start.isFloat || end.isFloat || d == tensor.Bool || d.IsComplex() || e.p.Device != CPU ||
		d == tensor.BF16 && e.p.Framework == NumPy || e.p.Framework == JAX && !start.i.IsInt64() {
		return e.unsupported(pyArangeDTypeOpen, "tfuzz: arange(%s, %s, dtype=%s) is not established for %s", startText, endText, pyName(d), e.p.Name)
	}
	switch e.p.Framework {
	case PyTorch:
		return e.torchArangeDType(start.i, end.i, d)
	case NumPy:
		return e.numpyArangeDType(start.i, end.i, d)
	}
	return e.jaxArangeDType(start.i, end.i, d)
}

// holdsExactly reports whether v is a value of d (an integer dtype: in its
// range; a float dtype: exactly representable and finite).
func holdsExactly(v *big.Int, d tensor.DType) bool {
	if !d.IsFloat() {
		return bigFits(v, d)
	}
	f, acc := new(big.Float).SetInt(v).Float64()
	return acc == big.Exact && !math.IsInf(f, 0) && roundTo(f, d) == f
}

// torchArangeDType is torch.arange(start, end, dtype=d) on the CPU.
func (e *evaluation) torchArangeDType(start, end *big.Int, d tensor.DType) tensor.Outcome {
	e.use(torchArangeDType)
	if !start.IsInt64() || !end.IsInt64() {
		return e.fail(torchArangeDType, tensor.OutOfRange, "RuntimeError: Overflow when unpacking long")
	}
	if d == tensor.U16 || d == tensor.U32 || d == tensor.U64 {
		return e.torchNoKernelError("arange_cpu", d)
	}
	s, t := start.Int64(), end.Int64()
	var backwards bool
	switch {
	case d == tensor.F16 || d == tensor.BF16: // accumulate type float
		backwards = float32(t) < float32(s)
	case d.IsFloat(): // double
		backwards = float64(t) < float64(s)
	default: // int64
		backwards = t < s
	}
	if backwards {
		return e.fail(torchArangeDType, tensor.Other, "RuntimeError: upper bound and larger bound inconsistent with step sign")
	}
	var size float64
	if d == tensor.I64 {
		diff := new(big.Int).Sub(end, start)
		if !diff.IsInt64() || diff.Int64() > tensor.MaxElements {
			return e.unsupported(notModeled, "tfuzz: arange of %s elements exceeds the case limit", diff)
		}
		size = float64(diff.Int64())
	} else {
		size = math.Ceil(float64(t) - float64(s))
		if size < 0 {
			return e.fail(torchArangeDType, tensor.Other, "RuntimeError: invalid size, possible overflow?")
		}
		if size > tensor.MaxElements {
			return e.unsupported(notModeled, "tfuzz: arange of %g elements exceeds the case limit", size)
		}
	}
	out := tensor.New(d, int(size))
	limit := new(big.Int).Lsh(big.NewInt(1), significandBits(d))
	vectorSafe := start.Cmp(new(big.Int).Neg(limit)) >= 0
	for i := 0; i < out.Len(); i++ {
		v := new(big.Int).Add(start, big.NewInt(int64(i)))
		switch {
		case !v.IsInt64():
			out.SetUnspecified(i) // signed overflow of the int64 accumulator
		case d.IsFloat() && (!vectorSafe || v.Cmp(limit) > 0):
			out.SetUnspecified(i)
		case d.IsFloat():
			out.SetFloat(i, float64(v.Int64()))
		default:
			storeBig(out, i, v)
		}
	}
	return tensor.ValueOutcome(out)
}

// numpyArangeDType is np.arange(start, stop, dtype=d) (NumPy 2).
func (e *evaluation) numpyArangeDType(start, end *big.Int, d tensor.DType) tensor.Outcome {
	e.use(numpyArangeDType)
	out, done := e.arangeOut(start, end, d)
	if done != nil {
		return *done
	}
	for i := 0; i < out.Len() && i < 2; i++ {
		v := new(big.Int).Add(start, big.NewInt(int64(i)))
		if o := e.numpySetItem(literalElem{Kind: litInt, Text: v.String()}, out, i); o != nil {
			return *o
		}
	}
	if out.Len() <= 2 {
		return tensor.ValueOutcome(out)
	}
	var s0, s1 float64
	if d.IsFloat() {
		s0, s1 = out.Float(0), out.Float(1)
	}
	for i := 2; i < out.Len(); i++ {
		switch d {
		case tensor.F16, tensor.F32: // f16: HALF_fill computes in float, then npy_float_to_half
			out.SetFloat(i, add32(s0, mul32(float64(i), sub32(s1, s0))))
		case tensor.F64:
			out.SetFloat(i, s0+float64(float64(i)*(s1-s0))) // no fused multiply-add
		default: // start and start + 1 both fit, so delta is 1
			v := new(big.Int).Add(start, big.NewInt(int64(i)))
			if d == tensor.I64 && !v.IsInt64() {
				out.SetUnspecified(i) // signed overflow in npy_long
				continue
			}
			storeBig(out, i, v)
		}
	}
	return tensor.ValueOutcome(out)
}

// jaxArangeDType is jnp.arange(start, stop, dtype=d); start fits int64.
func (e *evaluation) jaxArangeDType(start, end *big.Int, d tensor.DType) tensor.Outcome {
	e.use(jaxArangeDType)
	if !e.p.X64 && narrow32(d) != d {
		e.warn("UserWarning: Explicitly requested dtype %s requested in arange is not available, and will be truncated to dtype %s. "+
			"To enable more dtypes, set the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment variable. "+
			"See https://github.com/jax-ml/jax#current-gotchas for more.", pyName(d), pyName(narrow32(d)))
		d = narrow32(d)
	}
	out, done := e.arangeOut(start, end, d)
	if done != nil {
		return *done
	}
	conv := new(big.Int).Set(start) // np.asarray(start).astype(d)
	if !d.IsFloat() {
		m := new(big.Int).Lsh(big.NewInt(1), uint(d.Bits()))
		conv.Mod(conv, m)
		if d.IsSigned() && conv.Cmp(new(big.Int).Rsh(m, 1)) >= 0 {
			conv.Sub(conv, m)
		}
	}
	convOK := holdsExactly(conv, d)
	for i := 0; i < out.Len(); i++ {
		idx := big.NewInt(int64(i))
		v := new(big.Int).Add(conv, idx)
		if !convOK || !holdsExactly(idx, d) || !holdsExactly(v, d) {
			out.SetUnspecified(i)
			continue
		}
		if d.IsFloat() {
			f, _ := new(big.Float).SetInt(v).Float64() // exact: holdsExactly
			out.SetFloat(i, f)
		} else {
			storeBig(out, i, v)
		}
	}
	return tensor.ValueOutcome(out)
}

// arangeOut is the result tensor of an arange of end - start elements of
// dtype d (NumPy's and JAX's length with int bounds); done is the outcome
// instead when there is nothing to fill (empty) or the length is beyond the
// case limit.
func (e *evaluation) arangeOut(start, end *big.Int, d tensor.DType) (out *tensor.Tensor, done *tensor.Outcome) {
	n := new(big.Int).Sub(end, start)
	if n.Sign() <= 0 {
		o := tensor.ValueOutcome(tensor.New(d, 0))
		return nil, &o
	}
	if !n.IsInt64() || n.Int64() > tensor.MaxElements {
		o := e.unsupported(notModeled, "tfuzz: arange of %s elements exceeds the case limit", n)
		return nil, &o
	}
	return tensor.New(d, int(n.Int64())), nil
}
