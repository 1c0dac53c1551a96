package cpu

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// arange(start, end, dtype=D) in PyTorch, NumPy and JAX on the CPU, for int
// bounds (policies pytorch.arange.dtype, numpy.arange.dtype,
// jax.arange.dtype). Float bounds, bool and complex dtypes, NumPy's
// bfloat16 and a JAX start beyond int64 are declined (policy
// python.arange.dtype.not-modeled).

// typedArange is an arange with a dtype argument, read from the case.
type typedArange struct {
	lo, hi    *big.Int
	loText    string
	d         tensor.DType // after JAX's x32 truncation
	truncated bool
}

// readTypedArange parses the bounds; bad is the TypeError of a bound that is
// no number, declined what the engine does not implement.
func readTypedArange(p *profile, c *tensor.Case) (ta typedArange, bad *tensor.Outcome, declined bool) {
	ta.loText = "0"
	if c.Attrs.Start != nil {
		ta.loText = *c.Attrs.Start
	}
	lo, ok1 := parseArangeBound(ta.loText)
	hi, ok2 := parseArangeBound(*c.Attrs.End)
	if !ok1 || !ok2 {
		return ta, outcomeOf(tensor.ErrorOutcome(tensor.Other, "TypeError: arange() bounds must be numbers, got %q, %q", ta.loText, *c.Attrs.End)), false
	}
	ta.d = c.Attrs.DType
	switch {
	case lo.isFloat || hi.isFloat, ta.d == tensor.Bool, ta.d.IsComplex():
		return ta, nil, true
	case p.fw == fwNumPy && ta.d == tensor.BF16, p.fw == fwJAX && !lo.i.IsInt64():
		return ta, nil, true
	}
	ta.lo, ta.hi = lo.i, hi.i
	if p.fw == fwJAX && !p.x64 && narrow32(ta.d) != ta.d {
		ta.d, ta.truncated = narrow32(ta.d), true
	}
	return ta, nil, false
}

// typedArangeSupports declines the sub-cases above and ranges past the
// case limit.
func typedArangeSupports(p *profile, c *tensor.Case) bool {
	ta, bad, declined := readTypedArange(p, c)
	if declined {
		return false
	}
	if bad != nil {
		return true
	}
	n, _ := ta.length(p)
	return n <= tensor.MaxElements
}

// length is the element count the framework allocates; err is PyTorch's
// refusal of the bounds.
func (ta typedArange) length(p *profile) (float64, *tensor.Outcome) {
	if p.fw != fwPyTorch {
		span := new(big.Int).Sub(ta.hi, ta.lo)
		if span.Sign() <= 0 {
			return 0, nil
		}
		if !span.IsInt64() {
			return math.Inf(1), nil
		}
		return float64(span.Int64()), nil
	}
	if !ta.lo.IsInt64() || !ta.hi.IsInt64() {
		return 0, outcomeOf(tensor.ErrorOutcome(tensor.OutOfRange, "RuntimeError: Overflow when unpacking long"))
	}
	if ta.d == tensor.U16 || ta.d == tensor.U32 || ta.d == tensor.U64 {
		return 0, outcomeOf(tensor.ErrorOutcome(tensor.UnsupportedDType, "NotImplementedError: %q not implemented for '%s'", "arange_cpu", torchName(ta.d)))
	}
	a, b := ta.lo.Int64(), ta.hi.Int64()
	inconsistent := b < a
	if ta.d == tensor.F16 || ta.d == tensor.BF16 {
		inconsistent = float32(b) < float32(a)
	} else if ta.d.IsFloat() {
		inconsistent = float64(b) < float64(a)
	}
	if inconsistent {
		return 0, outcomeOf(tensor.ErrorOutcome(tensor.Other, "RuntimeError: upper bound and larger bound inconsistent with step sign"))
	}
	if ta.d == tensor.I64 {
		if b-a < 0 { // the difference overflows int64
			return math.Inf(1), nil
		}
		return float64(b - a), nil
	}
	size := math.Ceil(float64(b) - float64(a))
	if size < 0 {
		return 0, outcomeOf(tensor.ErrorOutcome(tensor.Other, "RuntimeError: invalid size, possible overflow?"))
	}
	return size, nil
}

// typedArangeEval evaluates arange(start, end, dtype=D).
func typedArangeEval(p *profile, c *tensor.Case) tensor.Outcome {
	ta, bad, _ := readTypedArange(p, c)
	if bad != nil {
		return *bad
	}
	n, stop := ta.length(p)
	if stop != nil {
		return *stop
	}
	out := tensor.New(ta.d, int(n))
	var res tensor.Outcome
	switch p.fw {
	case fwPyTorch:
		res = torchTypedArange(ta, out)
	case fwNumPy:
		res = numpyTypedArange(p, ta, out)
	default:
		res = jaxTypedArange(ta, out)
	}
	if ta.truncated {
		res.Warnings = append(res.Warnings, "UserWarning: Explicitly requested dtype "+pyName(c.Attrs.DType)+" requested in arange is not available, and will be truncated to dtype "+pyName(ta.d)+".")
	}
	return res
}

// exactInteger is the largest magnitude below which every integer is a
// value of the float dtype d (2^p for p significand bits).
func exactInteger(d tensor.DType) int64 {
	bits := map[tensor.DType]int{tensor.F16: 11, tensor.BF16: 8, tensor.F32: 24, tensor.F64: 53}[d]
	return int64(1) << bits
}

// torchTypedArange fills out with start + idx in the accumulate type.
func torchTypedArange(ta typedArange, out *tensor.Tensor) tensor.Outcome {
	a := ta.lo.Int64()
	mask := wordMask(ta.d)
	for idx := range out.Data {
		v := a + int64(idx)
		if v < a { // the int64 accumulator overflowed
			out.SetUnspecified(idx)
			continue
		}
		if !ta.d.IsFloat() {
			out.Data[idx] = uint64(v) & mask
			continue
		}
		// f16/bf16/f32/f64: a vector's base is rounded to D before the steps are added
		if m := exactInteger(ta.d); a < -m || v > m {
			out.SetUnspecified(idx)
			continue
		}
		out.Data[idx] = floatWord(float64(v), ta.d)
	}
	return tensor.ValueOutcome(out)
}

// numpyTypedArange stores start and start + 1 with setitem, then runs the
// dtype's fill.
func numpyTypedArange(p *profile, ta typedArange, out *tensor.Tensor) tensor.Outcome {
	for k := 0; k < len(out.Data) && k < 2; k++ {
		text := ta.loText
		if k == 1 {
			text = new(big.Int).Add(ta.lo, big.NewInt(1)).String()
		}
		num, _ := pyWord(text)
		w, err := numpyStoreNumber(p, num, ta.d)
		if err != nil {
			return *err
		}
		out.Data[k] = w
	}
	if len(out.Data) <= 2 {
		return tensor.ValueOutcome(out)
	}
	w0, w1 := out.Data[0], out.Data[1]
	d := ta.d
	for i := 2; i < len(out.Data); i++ {
		switch {
		case d == tensor.F64:
			s := math.Float64frombits(w0)
			step := math.Float64frombits(w1) - s
			out.Data[i] = math.Float64bits(s + float64(float64(i)*step))
		case d.IsFloat(): // f32, and f16 through HALF_fill's float
			s := float32(wordFloat(w0, d))
			step := float32(wordFloat(w1, d)) - s
			out.Data[i] = floatWord(float64(s+float32(float32(i)*step)), d)
		case d == tensor.I64 && int64(w0) > math.MaxInt64-int64(i):
			out.SetUnspecified(i) // npy_long overflow
		default: // delta is 1: start + 1 fit
			out.Data[i] = (w0 + uint64(i)) & wordMask(d)
		}
	}
	return tensor.ValueOutcome(out)
}

// jaxTypedArange is iota in D plus start converted to D.
func jaxTypedArange(ta typedArange, out *tensor.Tensor) tensor.Outcome {
	d := ta.d
	start := new(big.Int).Set(ta.lo)
	if !d.IsFloat() { // astype wraps: the word read back as a value of D
		w := uint64(ta.lo.Int64()) & wordMask(d)
		start.SetUint64(w)
		if d.IsSigned() && w>>(d.Bits()-1) == 1 {
			start.Sub(start, new(big.Int).Lsh(big.NewInt(1), uint(d.Bits())))
		}
	}
	startOK := valueOfDType(start, d)
	for i := range out.Data {
		sum := new(big.Int).Add(start, big.NewInt(int64(i)))
		if !startOK || !valueOfDType(big.NewInt(int64(i)), d) || !valueOfDType(sum, d) {
			out.SetUnspecified(i)
			continue
		}
		if d.IsFloat() {
			f, _ := sum.Float64()
			out.Data[i] = floatWord(f, d)
		} else if d.IsSigned() {
			out.Data[i] = uint64(sum.Int64()) & wordMask(d)
		} else {
			out.Data[i] = sum.Uint64()
		}
	}
	return tensor.ValueOutcome(out)
}

// valueOfDType reports whether the integer v is exactly a finite value of d.
func valueOfDType(v *big.Int, d tensor.DType) bool {
	if d.IsFloat() {
		f, exact := v.Float64()
		return exact == big.Exact && !math.IsInf(f, 0) && wordFloat(floatWord(f, d), d) == f
	}
	if d.IsSigned() {
		return v.IsInt64() && v.Int64() >= d.MinInt() && v.Int64() <= d.MaxInt()
	}
	return v.Sign() >= 0 && v.IsUint64() && v.Uint64() <= d.MaxUint()
}
