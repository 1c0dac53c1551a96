package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// from_literal with a dtype argument in PyTorch, NumPy and JAX
// (torch.tensor(lit, dtype=D), np.array(lit, dtype=D), jnp.array(lit,
// dtype=D)). Each element is stored into D by the framework's own per-value
// conversion: PyTorch's store_scalar (range-checked, two roundings into
// f16/bf16), NumPy 2's setitem (truncate floats, then the strict Python int
// check). JAX truncates a 64-bit D to 32 bits when x64 is off and then
// stores as NumPy does (policies pytorch.from-literal.dtype,
// numpy.from-literal.dtype, jax.from-literal.dtype).

// literalStore converts one Python number into the storage word of d, or
// returns the error it raises.
type literalStore func(p *profile, n pyNumber, d tensor.DType) (uint64, *tensor.Outcome)

// pyLiteralDTypeEval stores the literal's numbers into the dtype argument.
func pyLiteralDTypeEval(p *profile, d tensor.DType, nums []pyNumber, shape []int) tensor.Outcome {
	var warn []string
	store := literalStore(numpyStoreNumber)
	switch {
	case p.fw == fwPyTorch:
		store = torchStoreNumber
	case p.fw == fwJAX && !p.x64 && narrow32(d) != d:
		warn = append(warn, jaxTruncation("array", d))
		d = narrow32(d)
	}
	out := tensor.New(d, shape...)
	step := 1
	if d.IsComplex() { // the real part is stored as into the component dtype (PyComplex_AsCComplex
		step = 2 // gives what PyFloat_AsDouble does for a real number); the imaginary part stays 0
	}
	for i, n := range nums {
		w, o := store(p, n, d.Component())
		if o != nil {
			return *o
		}
		out.Data[i*step] = w
	}
	res := tensor.ValueOutcome(out)
	res.Warnings = warn
	return res
}

// truthy is Python's bool() of n (NaN is true).
func truthy(n pyNumber) bool {
	switch n.kind {
	case tensor.ScalarFloat:
		return !(n.f == 0)
	case tensor.ScalarBool:
		return n.truth
	}
	return n.mag != 0 || n.huge
}

// asInt returns n as a Python int (a bool is 0 or 1).
func asInt(n pyNumber) pyNumber {
	if n.kind == tensor.ScalarBool {
		m := uint64(0)
		if n.truth {
			m = 1
		}
		return pyNumber{kind: tensor.ScalarInt, mag: m, f: float64(m)}
	}
	return n
}

// intRange is the closed range of the integer dtype d as float64s (the
// upper end of i64 and u64 rounds up to a power of two).
func intRange(d tensor.DType) (lo, hi float64) {
	b := d.Bits()
	if d.IsSigned() {
		return -math.Ldexp(1, b-1), math.Ldexp(1, b-1) - 1
	}
	return 0, math.Ldexp(1, b) - 1
}

// beyondInt64 reports a Python int that PyLong_AsLongLong refuses.
func beyondInt64(n pyNumber) bool {
	return n.huge || n.neg && n.mag > 1<<63 || !n.neg && n.mag > 1<<63-1
}

func rangeError(format string, args ...any) *tensor.Outcome {
	o := tensor.ErrorOutcome(tensor.OutOfRange, format, args...)
	return &o
}

// torchStoreNumber is PyTorch's store_scalar.
func torchStoreNumber(p *profile, n pyNumber, d tensor.DType) (uint64, *tensor.Outcome) {
	switch {
	case d == tensor.Bool:
		if truthy(n) {
			return 1, nil
		}
		return 0, nil
	case d.IsFloat():
		if n.kind == tensor.ScalarInt && math.IsInf(n.f, 0) {
			return 0, rangeError("OverflowError: int too large to convert to float")
		}
		if d == tensor.F64 {
			return floatWord(n.f, d), nil
		}
		return floatWord(float64(float32(n.f)), d), nil // (float) first, then Half(float) / BFloat16(float)
	case d == tensor.U64:
		if n.kind == tensor.ScalarFloat {
			o := tensor.ErrorOutcome(tensor.Other, "TypeError: an integer is required")
			return 0, &o
		}
		n = asInt(n)
		if n.neg && n.mag != 0 {
			return 0, rangeError("OverflowError: can't convert negative int to unsigned")
		}
		if n.huge {
			return 0, rangeError("OverflowError: int too big to convert")
		}
		return n.mag, nil
	case n.kind == tensor.ScalarFloat:
		lo, hi := intRange(d)
		f := n.f
		if !(f >= lo && f <= hi) { // NaN fails both
			return 0, rangeError("RuntimeError: value cannot be converted to type %s without overflow", pyName(d))
		}
		if f == math.Ldexp(1, 63) { // static_cast<int64_t> past INT64_MAX: the host's instruction
			if p.arch == archArm64 {
				return math.MaxInt64, nil
			}
			return 1 << 63, nil
		}
		return uint64(int64(f)) & wordMask(d), nil
	}
	n = asInt(n)
	if beyondInt64(n) {
		return 0, rangeError("RuntimeError: Overflow when unpacking long")
	}
	if !pyIntFits(n, d) && !(!d.IsSigned() && n.neg && n.mag <= d.MaxUint()) {
		return 0, rangeError("RuntimeError: value cannot be converted to type %s without overflow", pyName(d))
	}
	w, _ := pyIntWord(n, d)
	return w, nil
}

// numpyStoreNumber is NumPy 2's setitem (bfloat16: ml_dtypes').
func numpyStoreNumber(p *profile, n pyNumber, d tensor.DType) (uint64, *tensor.Outcome) {
	switch {
	case d == tensor.Bool:
		if truthy(n) {
			return 1, nil
		}
		return 0, nil
	case d == tensor.BF16: // ml_dtypes' CastToCustomFloat: through float
		if n.kind == tensor.ScalarFloat {
			return uint64(f32ToBF16(float32(n.f))), nil
		}
		n = asInt(n)
		if beyondInt64(n) { // PyLong_AsLong fails; NPyCustomFloat_SetItem raises its own error
			o := tensor.ErrorOutcome(tensor.Other, "TypeError: expected number, got int")
			return 0, &o
		}
		l := int64(n.mag)
		if n.neg {
			l = -l
		}
		return uint64(f32ToBF16(float32(l))), nil
	case d.IsFloat():
		if n.kind == tensor.ScalarInt && math.IsInf(n.f, 0) {
			return 0, rangeError("OverflowError: int too large to convert to float")
		}
		return floatWord(n.f, d), nil
	case n.kind == tensor.ScalarFloat:
		return numpyStoreTruncated(n.f, d)
	}
	n = asInt(n)
	if beyondInt64(n) && !(d == tensor.U64 && !n.neg && !n.huge) {
		return 0, rangeError("OverflowError: Python int too large to convert to C long")
	}
	w, ok := pyIntWord(n, d)
	if !ok {
		return 0, rangeError("OverflowError: Python integer %s out of bounds for %s", n.text, pyName(d))
	}
	return w, nil
}

// numpyStoreTruncated is setitem of a Python float into the integer dtype
// d: int(f), then the Python int check.
func numpyStoreTruncated(f float64, d tensor.DType) (uint64, *tensor.Outcome) {
	switch {
	case math.IsNaN(f):
		return 0, rangeError("ValueError: cannot convert float NaN to integer")
	case math.IsInf(f, 0):
		return 0, rangeError("OverflowError: cannot convert float infinity to integer")
	}
	t := math.Trunc(f)
	longMax := math.Ldexp(1, 63)
	if d == tensor.U64 {
		longMax = math.Ldexp(1, 64)
	}
	if t < -math.Ldexp(1, 63) || t >= longMax {
		return 0, rangeError("OverflowError: Python int too large to convert to C long")
	}
	lo, hi := intRange(d)
	if t < lo || t > hi || d == tensor.I64 && t >= math.Ldexp(1, 63) {
		return 0, rangeError("OverflowError: Python integer %.0f out of bounds for %s", t, pyName(d))
	}
	if t >= math.Ldexp(1, 63) {
		return uint64(t), nil
	}
	return uint64(int64(t)) & wordMask(d), nil
}

// jaxTruncation is the warning JAX gives when dtype d, requested in fn,
// becomes its 32-bit counterpart with x64 off (warnings are recorded, not
// compared).
func jaxTruncation(fn string, d tensor.DType) string {
	return "UserWarning: Explicitly requested dtype " + pyName(d) + " requested in " + fn + " is not available, and will be truncated to dtype " + pyName(narrow32(d)) + "."
}
