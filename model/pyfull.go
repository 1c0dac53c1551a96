package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// full(shape, value, dtype) in PyTorch, NumPy and JAX. The value literal is
// a Python bool, int or float; each framework turns it into one element of
// the result's dtype its own way: PyTorch parses a c10::Scalar and converts
// it with Scalar::to<D> (checked), NumPy stores the Python int with the
// setitem of the common DType of int and D, JAX converts np.asarray(value)
// with astype (a C cast of an int64 or uint64 array, setitem of an object
// array).

var (
	pyFullRule = newRule("python.full",
		"full(shape, value, dtype) fills the shape with value converted to dtype; without a dtype PyTorch infers it from the value (bool -> bool, int -> i64, float -> the default f32), NumPy from np.asarray(value) (bool, float64, and an int is int64, else uint64, else an object array: no case-format dtype), JAX a bool as bool, an int or float as the weak default int or float (x64 off: 32-bit); a Python int value is converted as pytorch.full.scalar, numpy.full.int and jax.full.int state",
		"pytorch fe4d1829 aten/src/ATen/native/TensorFactories.cpp infer_full_options, full (at::empty then fill_); numpy v2.5.2 (48fecee5) numpy/_core/numeric.py:382-387 (dtype None: asarray(fill_value).dtype; empty, copyto(casting='unsafe')), numpy/_core/src/multiarray/abstractdtypes.c:23-52 (a Python int: int64, else uint64, else object); jax jax-v0.11.0 jax/_src/numpy/array_creation.py:248-256 (check_and_canonicalize_user_dtype, lax.full), jax/_src/lax/lax.py:3620-3628 (dtype None: weak_type, dtypes.dtype of the value)")
	torchFullScalar = newRule("pytorch.full.scalar",
		"torch.full's fill value is a c10::Scalar the Python arg parser makes before any device is involved: an int through PyLong_AsLongLongAndOverflow (an int64 Scalar), on overflow through PyLong_AsUnsignedLongLong (a uint64 Scalar for 2^63 <= v < 2^64; below -2^63 OverflowError \"can't convert negative int to unsigned\", from 2^64 OverflowError \"int too big to convert\"); an integral Scalar, uint64 too, infers int64; fill_ converts it with Scalar::to<D> (checked_convert, also for an empty shape: the kernel converts before its loop): an integer D refuses a value outside D (RuntimeError \"value cannot be converted to type uint8_t without overflow\") except a negative int64 whose magnitude fits an unsigned D, which wraps (-1 -> 255); bool is != 0, unchecked; f16 refuses |v| > 65504 and bf16, f32, f64 and the complex dtypes |v| beyond their largest finite value (a NaN or ±inf float passes); an int becomes D by static_cast (bf16 and f16 through float), a float f64 exactly, f32 rounded once, f16/bf16 through float. PyTorch 1.13 differs: every int outside int64 is RuntimeError \"Overflow when unpacking long\" (no uint64 Scalar)",
		"pytorch 54d4a162 torch/csrc/utils/python_arg_parser.cpp PythonArgs::scalar_slow (PyLong_AsLongLongAndOverflow; on overflow PyLong_AsUnsignedLongLong, at::Scalar(uint64_t)); pytorch aa6104e2 c10/core/Scalar.h (Scalar(uint64_t): HAS_u above INT64_MAX; isIntegral counts HAS_u; DEFINE_ACCESSOR: checked_convert of v.d, v.i, v.u); pytorch fe4d1829 aten/src/ATen/native/TensorFactories.cpp infer_full_options (isIntegral(false) -> kLong), full; pytorch 285b7d18 aten/src/ATen/native/Fill.cpp fill_out (scalar_fill for one element, else fill_stub); pytorch 8eab75f8 aten/src/ATen/native/cpu/FillKernel.cpp fill_kernel (value_scalar.to<scalar_t>() before cpu_kernel_vec; fill_non_native_type for Half/BFloat16); pytorch 5c6695ee c10/util/TypeCast.h checked_convert (bool excluded), c10/util/TypeSafeSignMath.h overflows (greater_than_max / less_than_lowest; unsigned targets let a negative of fitting magnitude wrap); CPython Objects/longobject.c PyLong_AsUnsignedLongLong (the two OverflowError messages, checked locally with ctypes); PyTorch 1.13 checked locally: full((2,), 2**63 / -2**63-1 / 2**64, dtype=float32) and full((2,), 2**63) are Overflow when unpacking long, full((2,), 70000, dtype=float16) and full((0,), 70000, dtype=float16) \"value cannot be converted to type at::Half without overflow\", full((2,), 300, dtype=uint8) cannot be converted to uint8_t, full((2,), -1, dtype=uint8) is [255, 255], full((2,), 5, dtype=bool) [True, True], full((2,), 1e39, dtype=float32) cannot be converted to float")
	numpyFullInt = newRule("numpy.full.int",
		"np.full(shape, v, dtype=D) with a Python int v: copyto finds the descriptor for the Python int as the common DType of int and D (D itself for an integer, float or complex D and for ml_dtypes' bfloat16, the default int64 for bool) and stores v with its setitem (numpy.from-literal.dtype: an integer D raises OverflowError \"Python integer 300 out of bounds for uint8\", beyond the C long \"Python int too large to convert to C long\"; a float D takes float(v), beyond double OverflowError \"int too large to convert to float\", f16 overflowing to inf with a warning; bfloat16 is ml_dtypes' setitem: PyLong_AsLong, then float, then bf16, and an int beyond int64 makes it raise TypeError \"expected number, got int\"; complex takes the real part), then casts it unsafely into the result: D = bool is that int64 != 0, so a v beyond int64 raises; without a dtype the result has np.asarray(v)'s dtype and its value. NumPy 1.24 differs: copyto casts the int64, uint64 or object array of v unsafely (int dtypes wrap 2**63 and 300, an object beyond int64 raises only for integer D, bool is True)",
		"numpy v2.5.2 (48fecee5) numpy/_core/numeric.py:382-387 (full: empty, copyto(a, fill_value, casting='unsafe')); numpy/_core/src/multiarray/multiarraymodule.c:1950-2030 (array_copyto: PyArray_FromAny of the Python int, npy_mark_tmp_array_if_pyscalar, npy_find_descr_for_scalar, npy_update_operand_for_scalar, PyArray_AssignArray); numpy/_core/src/multiarray/abstractdtypes.c:168-211 (int_common_dtype: bool -> intp; a legacy user dtype through its common DType with uint8), :391-431 (npy_update_operand_for_scalar: a new 0-d array of the descriptor, PyArray_SETITEM of the Python int), :449-495 (npy_find_descr_for_scalar); numpy/_core/src/multiarray/arraytypes.c.src:276-315 (MyPyLong_AsLong / AsUnsignedLong, safe_pyint_setitem), :355-412 (setitem); ml_dtypes b793a6e2 ml_dtypes/_src/floats.cc:99-107 (CastToCustomFloat: PyLong_AsLong, T(static_cast<float>(l))), :437-446 (NPyCustomFloat_SetItem: a failed cast becomes TypeError \"expected number, got %s\"), :719-722 (uint8 -> bfloat16 a safe cast: their common DType is bfloat16); NumPy 1.24 checked locally (full((2,), 2**63, dtype=int8) is [0 0], 2**64 into int8/uint8/int64/uint64 \"Python int too large to convert to C long\", 2**70 and -2**63-1 into bool [True True], 10**400 into float32 \"int too large to convert to float\", 300 into int8 [44 44], 2**63 into float16 [inf inf] with an overflow warning, full((2,), 2**63) uint64, full((2,), 2**64) object)")
	jaxFullInt = newRule("jax.full.int",
		"jnp.full(shape, v, dtype=D) with a Python int v: D is canonicalized (x64 off: a 64-bit D becomes its 32-bit kind with a UserWarning; no dtype: the weak default int, int32 without x64); lax.full converts v with _convert_element_type, which for a Python int is np.asarray(v).astype(D): an int64 array (or uint64 for 2^63 <= v < 2^64) cast as C casts it (an integer D keeps the low bits, even int32 of 2**40 under x32; bool is v != 0; a float D rounds once, f16 through float, bfloat16 through float as ml_dtypes' cast; complex the real part), or for any other v an object array whose cast is D's setitem (numpy.from-literal.dtype: an integer D raises OverflowError \"Python int too large to convert to C long\", bool is True, a float D takes float(v), bfloat16 raises TypeError \"expected number, got int\"); the same on the CPU and on a GPU (the conversion runs in NumPy on the host)",
		"jax jax-v0.11.0 jax/_src/numpy/array_creation.py:248-256 (full: check_and_canonicalize_user_dtype, lax.full), jax/_src/lax/lax.py:3603-3640 (full: fill_dtype, _convert_element_type(fill_value, fill_dtype, weak_type), broadcast), :1667-1764 (_convert_element_type: :1725-1728 type(operand) is int: np.asarray(operand).astype(new_dtype)), jax/_src/dtypes.py:992-1015 (dtype of a Python int: the canonical default int, no range check); numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/abstractdtypes.c:23-52 (int64, else uint64, else object), numpy/_core/src/multiarray/lowlevel_strided_loops.c.src:915 (an integer to half: npy_float_to_half((float)x)), :921 (to bool: x != 0), :923 (a C cast), convert_datatype.c:66-74 and dtype_transfer.c:307-336 (object to any: PyArray_Pack, the setitem); ml_dtypes b793a6e2 ml_dtypes/_src/floats.cc:603-611 (NPyCast: static_cast<To>(static_cast<float>(from))), :437-446 (setitem's TypeError); no local check (Debian has no JAX)")
	pyFullOpen = newRule("python.full.not-modeled",
		"not stated for full: a Python float into an integer dtype (PyTorch: checked_convert from double; NumPy: a float64 operand cast unsafely; JAX: np.asarray(v, dtype=D) or XLA's convert), and on PyTorch's GPU devices what the releases read do not fix: CUDA's fill with a u16/u32/u64 dtype (fill_kernel_cuda's dispatch has no barebones unsigned types in the releases read, later ones may), MPS's conversion of a uint64 Scalar and a value checked_convert refuses (fill_scalar_mps returns before converting when the tensor is empty)",
		"pytorch 7c1411ed aten/src/ATen/native/cuda/FillKernel.cu fill_kernel_cuda (AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(Bool, Half, BFloat16)); pytorch 28be6078 aten/src/ATen/native/mps/operations/ConstantOps.mm fill_scalar_mps_impl (numel() == 0: return self; getMPSScalar: scalar.to<T>())").silent()
)

// pyFull is full(shape, value, dtype).
func (e *evaluation) pyFull() tensor.Outcome {
	e.use(pyFullRule)
	text := *e.c.Attrs.Value
	s, ok := pyScalarLiteral(text)
	if !ok {
		return e.unsupported(pyFullRule, "%q is not a Python number literal", text)
	}
	if s.Kind == tensor.ScalarInt {
		switch e.p.Framework {
		case PyTorch:
			return e.torchFullInt(s.Int())
		case NumPy:
			return e.numpyFullInt(s.Int())
		}
		return e.jaxFullInt(s.Int())
	}
	d := e.c.Attrs.DType
	if !d.Valid() {
		d = tensor.Bool
		if s.Kind == tensor.ScalarFloat {
			d = e.defaultFloat()
		}
	}
	if e.p.Framework == PyTorch {
		return e.torchFullFloat(s, d)
	}
	d = e.jaxFullDType(d)
	if s.Kind == tensor.ScalarFloat && !(d.IsFloat() || d.IsComplex()) {
		return e.unsupported(pyFullOpen, "tfuzz: full of the float %s as %s is not modeled", text, d)
	}
	return e.fill(e.convertArg(pyArg{s: s}, d))
}

// fill is the shape of the case filled with one's element.
func (e *evaluation) fill(one *tensor.Tensor) tensor.Outcome {
	out := tensor.New(one.DType, e.c.Attrs.Shape...)
	for i := range out.Len() {
		copyElem(out, i, one, 0)
	}
	return tensor.ValueOutcome(out)
}

// jaxFullDType is the dtype argument as JAX canonicalizes it (x64 off: a
// 64-bit dtype narrowed, with check_and_canonicalize_user_dtype's warning).
func (e *evaluation) jaxFullDType(d tensor.DType) tensor.DType {
	if e.p.Framework != JAX || e.p.X64 || narrow32(d) == d {
		return d
	}
	e.use(x32Narrow)
	if e.c.Attrs.DType.Valid() {
		e.warnJAXTruncation("full", d)
	}
	return narrow32(d)
}

// torchGPUFill is what PyTorch's CUDA and MPS fills leave open for dtype d
// (pytorch.full.scalar stands for the CPU's): nil when the CPU's
// conversion holds there too. refused reports a Scalar checked_convert
// refuses, or a uint64 one.
func (e *evaluation) torchGPUFill(d tensor.DType, refused bool) *tensor.Outcome {
	switch {
	case e.p.Device == CUDA && isBarebonesUnsigned(d):
		return outcomePtr(e.unsupported(pyFullOpen, "tfuzz: torch.full with dtype %s on CUDA is not modeled", pyName(d)))
	case e.p.Device == MPS && refused:
		return outcomePtr(e.unsupported(pyFullOpen, "tfuzz: this conversion of torch.full's value on MPS is not modeled"))
	}
	return e.torchMPSF64([]pyArg{{t: tensor.New(d)}})
}

// torchFullInt is torch.full of the Python int v.
func (e *evaluation) torchFullInt(v *big.Int) tensor.Outcome {
	e.use(torchFullScalar)
	switch {
	case v.IsInt64():
	case v.Sign() < 0:
		return e.fail(torchFullScalar, tensor.OutOfRange, "OverflowError: can't convert negative int to unsigned")
	case !v.IsUint64():
		return e.fail(torchFullScalar, tensor.OutOfRange, "OverflowError: int too big to convert")
	}
	d := e.c.Attrs.DType
	if !d.Valid() {
		d = tensor.I64
	}
	one, ok := torchScalarFromInt(e, v, d)
	if o := e.torchGPUFill(d, !ok || !v.IsInt64()); o != nil {
		return *o
	}
	if !ok {
		return e.fail(torchFullScalar, tensor.OutOfRange, "RuntimeError: value cannot be converted to type %s without overflow", cppName(d))
	}
	return e.fill(one)
}

// torchScalarFromInt is Scalar::to<d>() of the int64 or uint64 Scalar v;
// ok is false where checked_convert refuses it.
func torchScalarFromInt(e *evaluation, v *big.Int, d tensor.DType) (*tensor.Tensor, bool) {
	one := tensor.New(d)
	from := tensor.I64
	if !v.IsInt64() {
		from = tensor.U64
	}
	switch {
	case d == tensor.Bool:
		one.SetBool(0, v.Sign() != 0)
	case d.IsInt():
		wraps := !d.IsSigned() && v.Sign() < 0 && new(big.Int).Neg(v).Cmp(new(big.Int).SetUint64(d.MaxUint())) <= 0
		if !bigFits(v, d) && !wraps {
			return nil, false
		}
		storeBig(one, 0, v)
	default:
		c := d.Component()
		if c == tensor.F16 && new(big.Int).Abs(v).Cmp(big.NewInt(65504)) > 0 {
			return nil, false
		}
		one.SetFloat(0, e.intToFloatVia(low64(v), from, c))
	}
	return one, true
}

// torchFullFloat is torch.full of a Python float or bool into d.
func (e *evaluation) torchFullFloat(s *tensor.Scalar, d tensor.DType) tensor.Outcome {
	e.use(torchFullScalar)
	f := s.Float()
	isBool := s.Kind == tensor.ScalarBool || d == tensor.Bool // to bool is unchecked; a bool Scalar never overflows
	if !isBool && d.IsInt() {
		return e.unsupported(pyFullOpen, "tfuzz: full of the float %s as %s is not modeled", s.Text, d)
	}
	c := d.Component()
	refused := !isBool && !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) > maxFinite(c)
	if o := e.torchGPUFill(d, refused); o != nil {
		return *o
	}
	switch {
	case s.Kind == tensor.ScalarFloat && isBool: // static_cast<bool>: NaN is true
		one := tensor.New(d)
		one.SetBool(0, f != 0)
		return e.fill(one)
	case isBool:
		return e.fill(e.convertArg(pyArg{s: s}, d))
	case refused:
		return e.fail(torchFullScalar, tensor.OutOfRange, "RuntimeError: value cannot be converted to type %s without overflow", cppName(d))
	case c == tensor.F16 || c == tensor.BF16: // Half(float) / BFloat16(float) of the double
		f = roundTo(f, tensor.F32)
	}
	one := tensor.New(d)
	one.SetFloat(0, f) // rounded to d (the real part of a complex d)
	return e.fill(one)
}

// numpyFullInt is np.full of the Python int v.
func (e *evaluation) numpyFullInt(v *big.Int) tensor.Outcome {
	d := e.c.Attrs.DType
	el := literalElem{Kind: litInt, Text: v.String()}
	if !d.Valid() { // np.asarray(v).dtype
		switch {
		case v.IsInt64():
			d = tensor.I64
		case v.Sign() > 0 && v.IsUint64():
			d = tensor.U64
		default:
			return e.unsupported(numpyBigInt, "np.full of %s has dtype object", v)
		}
	}
	e.use(numpyFullInt)
	one := tensor.New(d)
	if d == tensor.Bool { // the common DType of int and bool is int64
		tmp := tensor.New(tensor.I64, 1)
		if o := e.numpySetItem(el, tmp, 0); o != nil {
			return *o
		}
		one.SetBool(0, tmp.Int(0) != 0)
		return e.fill(one)
	}
	if o := e.numpySetItem(el, one, 0); o != nil {
		return *o
	}
	return e.fill(one)
}

// jaxFullInt is jnp.full of the Python int v.
func (e *evaluation) jaxFullInt(v *big.Int) tensor.Outcome {
	e.use(jaxFullInt)
	d := e.c.Attrs.DType
	if !d.Valid() {
		d = e.defaultInt()
	}
	d = e.jaxFullDType(d)
	one := tensor.New(d)
	from := tensor.I64
	switch {
	case v.IsInt64():
	case v.Sign() > 0 && v.IsUint64():
		from = tensor.U64
	default: // an object array: astype is D's setitem
		if o := e.numpySetItem(literalElem{Kind: litInt, Text: v.String()}, one, 0); o != nil {
			return *o
		}
		return e.fill(one)
	}
	switch { // astype of the int64 / uint64 array: a C cast
	case d == tensor.Bool:
		one.SetBool(0, v.Sign() != 0)
	case d.IsInt():
		storeBig(one, 0, v)
	default: // the real part of a complex d
		one.SetFloat(0, e.intToFloatVia(low64(v), from, d.Component()))
	}
	return e.fill(one)
}

// pyScalarLiteral reads a Python number literal: True/False/true/false, an
// int, or a float (nan and inf too).
func pyScalarLiteral(text string) (*tensor.Scalar, bool) {
	switch text {
	case "True", "true":
		return &tensor.Scalar{Text: "true", Kind: tensor.ScalarBool}, true
	case "False", "false":
		return &tensor.Scalar{Text: "false", Kind: tensor.ScalarBool}, true
	}
	s := &tensor.Scalar{Text: text, Kind: tensor.ScalarInt}
	if v := s.Int(); v.Sign() != 0 || text == "0" || text == "-0" {
		return s, true
	}
	if _, err := tensor.ParseFloatText(text); err == nil {
		return &tensor.Scalar{Text: text, Kind: tensor.ScalarFloat}, true
	}
	return nil, false
}
