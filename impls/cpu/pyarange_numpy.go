package cpu

import (
	"errors"
	"math"
	"math/big"
	"strconv"

	"github.com/tfuzz/tfuzz/tensor"
)

// np.arange(start, stop, dtype=D) (policies numpy.arange.dtype,
// numpy.arange.dtype.bf16): _calc_length's length, D's setitem of start
// and of start + 1, then D's fill of the rest from those two.

// numpyArangeRun is _calc_length: ceil((stop - start) / 1) as a double.
func numpyArangeRun(ta typedArange) arangeRun {
	valueErr := func(msg string) arangeRun {
		return arangeRun{res: outcomeOf(tensor.ErrorOutcome(tensor.Other, "ValueError: %s", msg))}
	}
	var span float64
	if ta.lo.isFloat || ta.hi.isFloat {
		if !ta.lo.isFloat && math.IsInf(ta.lo.f, 0) || !ta.hi.isFloat && math.IsInf(ta.hi.f, 0) {
			return valueErr("Maximum allowed size exceeded") // the int's float() overflows
		}
		span = ta.hi.f - ta.lo.f
	} else {
		diff := new(big.Int).Sub(ta.hi.i, ta.lo.i).String()
		var err error
		if span, err = strconv.ParseFloat(diff, 64); errors.Is(err, strconv.ErrRange) {
			return valueErr("Maximum allowed size exceeded") // int / int beyond double
		}
	}
	length := math.Ceil(span)
	switch {
	case length != length:
		return valueErr("arange: cannot compute length")
	case length < -0x1p63 || length > 0x1p63:
		return valueErr("Maximum allowed size exceeded")
	case length <= 0:
		return arangeRun{res: outcomeOf(tensor.ValueOutcome(tensor.New(ta.d, 0)))}
	case length > tensor.MaxElements:
		return arangeRun{declined: true}
	}
	return arangeRun{n: int(length)}
}

// numpyArangeFill stores buffer[0] and buffer[1] with setitem, then runs
// the fill; the outcome is the error that stopped it, or nil.
func numpyArangeFill(p *profile, ta typedArange, out *tensor.Tensor) *tensor.Outcome {
	first, _ := pyWord(ta.loText)
	second := pyNumber{kind: tensor.ScalarFloat, f: ta.lo.f + 1}
	if !ta.lo.isFloat {
		second, _ = pyWord(new(big.Int).Add(ta.lo.i, big.NewInt(1)).String())
	}
	for k, num := range []pyNumber{first, second} {
		if k == out.Len() {
			return nil
		}
		if err := numpyArangeStore(p, num, out, k); err != nil {
			return err
		}
	}
	if out.Len() == 2 {
		return nil
	}
	d := out.DType
	switch {
	case d == tensor.Bool:
		return outcomeOf(tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: arange() is only supported for booleans when the result has at most length 2."))
	case d == tensor.F64 || d == tensor.C128:
		a := math.Float64frombits(out.Data[0])
		gap := math.Float64frombits(out.Data[len(out.Data)/out.Len()]) - a
		for i := 2; i < out.Len(); i++ {
			setReal(out, i, a+float64(float64(i)*gap))
		}
	case d.IsFloat() || d.IsComplex(): // f32, c64, and f16/bf16 computed in float
		w := len(out.Data) / out.Len()
		a := float32(wordFloat(out.Data[0], d.Component()))
		gap := float32(wordFloat(out.Data[w], d.Component())) - a
		for i := 2; i < out.Len(); i++ {
			setReal(out, i, float64(a+float32(float32(i)*gap)))
		}
	default:
		numpyIntArangeFill(out)
	}
	return nil
}

// numpyArangeStore is D's setitem of num into element k: NumPy's own (and
// ml_dtypes' for bfloat16), PyComplex_AsCComplex's real part for a complex
// D.
func numpyArangeStore(p *profile, num pyNumber, out *tensor.Tensor, k int) *tensor.Outcome {
	d := out.DType
	switch {
	case d.IsComplex():
		if num.kind == tensor.ScalarInt && math.IsInf(num.f, 0) {
			return rangeError("OverflowError: int too large to convert to float")
		}
		setReal(out, k, num.f)
	default:
		w, err := numpyStoreNumber(p, num, d)
		if err != nil {
			return err
		}
		out.Data[k] = w
	}
	return nil
}

// numpyIntArangeFill is @NAME@_fill of an integer dtype: delta is
// buffer[1] - buffer[0] in the dtype, element i is start + i*delta in C
// arithmetic (int64 for the narrow types, npy_long with its signed
// overflow "?", npy_ulong wrapping) stored into the dtype.
func numpyIntArangeFill(out *tensor.Tensor) {
	d := out.DType
	mask := wordMask(d)
	signed := func(w uint64) int64 { // the word as the C type's value
		shift := 64 - d.Bits()
		return int64(w<<shift) >> shift
	}
	w0 := out.Data[0]
	dw := (out.Data[1] - w0) & mask
	for i := 2; i < len(out.Data); i++ {
		switch {
		case d == tensor.U64:
			out.Data[i] = w0 + uint64(i)*dw
		case d == tensor.I64:
			a, step := int64(w0), int64(dw)
			prod := int64(i) * step
			if step != 0 && prod/step != int64(i) || prod > 0 && a > math.MaxInt64-prod || prod < 0 && a < math.MinInt64-prod {
				out.SetUnspecified(i)
				continue
			}
			out.Data[i] = uint64(a + prod)
		case d.IsSigned():
			out.Data[i] = uint64(signed(w0)+int64(i)*signed(dw)) & mask
		default:
			out.Data[i] = (w0 + uint64(i)*dw) & mask
		}
	}
}
