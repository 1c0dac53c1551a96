package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// np.arange(start, stop, dtype=D) (numpy.arange.dtype; bfloat16 through
// ml_dtypes: numpy.arange.dtype.bf16): the length from Python arithmetic,
// D's setitem of start and start + 1, then D's fill.

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
