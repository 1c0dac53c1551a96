package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// np.arange(start, stop, dtype=D) (numpy.arange.dtype; bfloat16 through
// ml_dtypes: numpy.arange.dtype.bf16): the length from Python arithmetic,
// D's setitem of start and start + 1, then D's fill.

var numpyArangeNoDType = newRule("numpy.arange.no-dtype",
	"np.arange(start, stop) without a dtype takes PyArray_DescrFromObject of start, then of stop, from NPY_INTP: int64 for ints within int64, float64 for a float bound or an int in [2^63, 2^64) (int64 with uint64 promotes to float64), an object array for an int outside both (no case-format dtype: unsupported, though its length is computed first and its errors stand); then it runs as with that dtype (numpy.arange.dtype): the length is ceil((stop - start) / 1) as a double before any sign check, so a span whose ceiling is outside [-2^63, 2^63], ±inf included, is ValueError \"Maximum allowed size exceeded\" even when stop < start (arange(0, -2**70), arange(0, -1e300)), NaN is ValueError \"arange: cannot compute length\", and a length below 1 an empty array of that dtype",
	"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/ctors.c:3315-3335 (PyArray_ArangeObj: dtype = PyArray_DescrFromObject(start, NPY_INTP), then stop), :2611-2628 (PyArray_DescrFromObject), common.c:118-131 (PyArray_DTypeFromObject: discovery promoted with the minimum), abstractdtypes.c:23-52 (a Python int: int64, else uint64, else object), arraytypes.c.src:3754 (OBJECT_fill: object arrays arange), ctors.c:3068-3085, :3180-3282, :3378-3389 (_calc_length and its errors before the empty result); NumPy 1.24 checked locally: arange(0, -2**70), arange(0, 2**70), arange(2**70, 0), arange(0, -2**64), arange(-2**63, 2**63-1), arange(0, -1e300), arange(0, -1e19), arange(0, inf) \"Maximum allowed size exceeded\", arange(0, nan) \"arange: cannot compute length\", arange(0, -2**63) empty int64, arange(2**63, 2**63+2) float64 [9.22337204e+18 9.22337204e+18], arange(2**63, 0) empty float64, arange(0, -2**63-1) empty object, arange(-2**70, -2**70+2) object")

// numpyArangeInferred is np.arange(start, stop) without a dtype.
func (e *evaluation) numpyArangeInferred(start, end arangeBound) tensor.Outcome {
	e.use(numpyArangeNoDType)
	d := tensor.I64
	object := false
	for _, b := range []arangeBound{start, end} {
		switch {
		case b.isFloat:
			d = tensor.F64
		case b.i.IsInt64():
		case b.i.Sign() > 0 && b.i.IsUint64(): // int64 with uint64
			d = tensor.F64
		default:
			object = true
		}
	}
	if object {
		if _, done := e.numpyArangeLength(numpyArangeNoDType, start, end, tensor.I64); done != nil && done.Form == tensor.FormError {
			return *done
		}
		return e.unsupported(numpyBigInt, "np.arange of a Python int beyond uint64 has dtype object")
	}
	return e.numpyArangeDType(start, end, d)
}

// numpyArangeDType is np.arange(start, stop, dtype=d) (NumPy 2).
func (e *evaluation) numpyArangeDType(start, end arangeBound, d tensor.DType) tensor.Outcome {
	rule := numpyArangeDType
	if d == tensor.BF16 {
		rule = numpyArangeBF16
	}
	e.use(rule)
	n, done := e.numpyArangeLength(rule, start, end, d)
	if done != nil {
		return *done
	}
	out := tensor.New(d, n)
	next := boundElem(start)
	for i := 0; i < n && i < 2; i++ {
		if o := e.numpySetItem(next, out, i); o != nil {
			return *o
		}
		if start.isFloat { // next = start + step in Python: a double add
			next = literalElem{Kind: litFloat, Text: tensor.FormatFloat(start.f + 1)}
		} else {
			next = literalElem{Kind: litInt, Text: new(big.Int).Add(start.i, big.NewInt(1)).String()}
		}
	}
	if n <= 2 {
		return tensor.ValueOutcome(out)
	}
	if d == tensor.Bool {
		return e.fail(rule, tensor.UnsupportedDType, "TypeError: arange() is only supported for booleans when the result has at most length 2.")
	}
	if d.IsFloat() || d.IsComplex() {
		numpyFloatFill(out)
	} else {
		numpyIntFill(out)
	}
	return tensor.ValueOutcome(out)
}

// boundElem is the Python number of an arange bound as a literal element.
func boundElem(b arangeBound) literalElem {
	if b.isFloat {
		return literalElem{Kind: litFloat, Text: tensor.FormatFloat(b.f)}
	}
	return literalElem{Kind: litInt, Text: b.i.String()}
}

// numpyArangeLength is _calc_length's ceil((stop - start) / 1) and its
// errors; done is the outcome when there is nothing to store (empty) or
// the length is beyond the case limit.
func (e *evaluation) numpyArangeLength(rule *Rule, start, end arangeBound, d tensor.DType) (int, *tensor.Outcome) {
	tooBig := func() *tensor.Outcome {
		return outcomePtr(e.fail(rule, tensor.Other, "ValueError: Maximum allowed size exceeded"))
	}
	var span float64 // PyNumber_TrueDivide(stop - start, 1) as a double
	if start.isFloat || end.isFloat {
		for _, b := range []arangeBound{start, end} {
			if !b.isFloat && math.IsInf(b.f, 0) {
				return 0, tooBig() // int - float: OverflowError: int too large to convert to float
			}
		}
		span = end.f - start.f
	} else {
		span, _ = new(big.Float).SetInt(new(big.Int).Sub(end.i, start.i)).Float64() // ±inf: the division's OverflowError
	}
	if math.IsNaN(span) {
		return 0, outcomePtr(e.fail(rule, tensor.Other, "ValueError: arange: cannot compute length"))
	}
	c := math.Ceil(span)
	if !(c >= -math.Ldexp(1, 63) && c <= math.Ldexp(1, 63)) {
		return 0, tooBig()
	}
	if c <= 0 {
		return 0, outcomePtr(tensor.ValueOutcome(tensor.New(d, 0)))
	}
	if c > tensor.MaxElements {
		return 0, outcomePtr(e.unsupported(notModeled, "tfuzz: arange of %g elements exceeds the case limit", c))
	}
	return int(c), nil
}

// numpyFloatFill is @NAME@_fill of f32/f64, HALF_fill, ml_dtypes' bfloat16
// fill (both in float) and the complex fills (each part separately: the
// imaginary parts are 0, so they stay 0) over out[2:].
func numpyFloatFill(out *tensor.Tensor) {
	c := out.DType
	if c.IsComplex() {
		c = c.Component()
	}
	s0, s1 := out.Float(0), out.Float(1) // a complex element's real part
	for i := 2; i < out.Len(); i++ {
		if c == tensor.F64 {
			out.SetFloat(i, s0+float64(float64(i)*(s1-s0))) // no fused multiply-add
		} else { // f32, and f16/bf16 in float, rounded once to the dtype
			out.SetFloat(i, add32(s0, mul32(float64(i), sub32(s1, s0))))
		}
	}
}

// numpyIntFill is @NAME@_fill of an integer dtype over out[2:]: delta =
// buffer[1] - buffer[0] stored back in the dtype, then start + i*delta in
// C integer arithmetic converted to the dtype (int64: signed overflow is
// "?").
func numpyIntFill(out *tensor.Tensor) {
	d := out.DType
	read := func(i int) *big.Int {
		if d.IsSigned() {
			return big.NewInt(out.Int(i))
		}
		return new(big.Int).SetUint64(out.Uint(i))
	}
	w0 := read(0)
	tmp := tensor.New(d, 1)
	storeBig(tmp, 0, new(big.Int).Sub(read(1), w0)) // delta -= start, in the dtype
	delta := big.NewInt(tmp.Int(0))
	if !d.IsSigned() {
		delta.SetUint64(tmp.Uint(0))
	}
	for i := 2; i < out.Len(); i++ {
		step := new(big.Int).Mul(big.NewInt(int64(i)), delta)
		v := new(big.Int).Add(w0, step)
		if d == tensor.I64 && (!step.IsInt64() || !v.IsInt64()) {
			out.SetUnspecified(i) // signed overflow in npy_long
			continue
		}
		storeBig(out, i, v)
	}
}
