package cpu

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// jnp.arange(start, stop, dtype=D) (policy jax.arange.dtype): iota in D
// when start == 0, else start converted to D plus iota in D. An element
// the engine does not know (XLA's iota past D, a float to int conversion,
// an add that overflows or rounds) is "?".

// jaxStartValue is convert_element_type(start, D) as the engine holds it:
// an integer D's value (n for signed, u for unsigned), or a float
// (component) value x; known is false where XLA's conversion decides.
type jaxStartValue struct {
	n     int64
	u     uint64
	x     float64
	known bool
}

// jaxFromZero is Python's start == 0.
func jaxFromZero(ta typedArange) bool {
	if ta.lo.isFloat {
		return ta.lo.f == 0
	}
	return ta.lo.i.Sign() == 0
}

// jaxArangeRun sizes the range, converts start and checks the iota's dtype,
// in jnp.arange's order.
func jaxArangeRun(p *profile, ta typedArange) arangeRun {
	fail := func(class tensor.ErrorClass, msg string) arangeRun {
		return arangeRun{res: outcomeOf(tensor.ErrorOutcome(class, "%s", msg))}
	}
	zero := jaxFromZero(ta)
	var count float64 // the size, ±inf past float64
	switch {
	case !ta.hi.isFloat && (zero || !ta.lo.isFloat): // Python ints
		stop := ta.hi.i
		if !zero {
			stop = new(big.Int).Sub(ta.hi.i, ta.lo.i)
		}
		count, _ = new(big.Float).SetInt(stop).Float64()
	default:
		diff := ta.hi.f
		if !zero {
			if !ta.lo.isFloat && math.IsInf(ta.lo.f, 0) || !ta.hi.isFloat && math.IsInf(ta.hi.f, 0) {
				return fail(tensor.OutOfRange, "OverflowError: int too large to convert to float")
			}
			diff -= ta.lo.f
		}
		if math.IsNaN(diff) {
			return fail(tensor.Other, "ValueError: cannot convert float NaN to integer")
		}
		if math.IsInf(diff, 0) {
			return fail(tensor.OutOfRange, "OverflowError: cannot convert float infinity to integer")
		}
		count = math.Ceil(diff)
	}
	if !zero {
		if _, stopped := jaxConvert(p, ta); stopped != nil {
			return arangeRun{res: stopped}
		}
	}
	switch {
	case ta.d == tensor.Bool:
		return fail(tensor.UnsupportedDType, "TypeError: iota does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, complexfloating.")
	case count <= 0:
		return arangeRun{res: outcomeOf(tensor.ValueOutcome(tensor.New(ta.d, 0)))}
	case count > tensor.MaxElements:
		return arangeRun{declined: true}
	}
	return arangeRun{n: int(count)}
}

// jaxConvert is convert_element_type(start, D) of a start other than 0:
// an int through np.asarray(start).astype(D) (int64, uint64, or an object
// array cast by D's setitem), a float through np.asarray(start, dtype=D),
// whose OverflowError sends it to XLA's conversion.
func jaxConvert(p *profile, ta typedArange) (v jaxStartValue, stopped *tensor.Outcome) {
	d := ta.d
	c := d.Component()
	if ta.lo.isFloat {
		x := ta.lo.f
		switch {
		case d == tensor.Bool:
			return v, nil
		case d == tensor.BF16:
			x = float64(float32(x)) // ml_dtypes: through float
		case !c.IsFloat():
			w, err := numpyStoreTruncated(x, d)
			if err != nil {
				return v, nil // caught: XLA converts it
			}
			return jaxIntStart(w, d), nil
		}
		r := wordFloat(floatWord(x, c), c)
		return jaxStartValue{x: r, known: !math.IsInf(r, 0)}, nil
	}
	z := ta.lo.i
	object := !z.IsInt64() && !(z.Sign() > 0 && z.IsUint64())
	if object && d != tensor.Bool { // the object array's cast is d's setitem of the Python int
		num, _ := pyWord(ta.loText)
		if _, err := numpyStoreNumber(p, num, c); err != nil {
			return v, err
		}
	}
	switch {
	case d == tensor.Bool:
		return v, nil
	case c.IsFloat(): // the start is known when D holds it exactly
		r := wordFloat(floatWord(ta.lo.f, c), c)
		exact := new(big.Float).SetFloat64(ta.lo.f).Cmp(new(big.Float).SetInt(z)) == 0
		return jaxStartValue{x: r, known: exact && r == ta.lo.f && !math.IsInf(r, 0)}, nil
	}
	low := new(big.Int).And(z, new(big.Int).SetUint64(math.MaxUint64)).Uint64() // two's complement's low 64 bits
	return jaxIntStart(low&wordMask(d), d), nil
}

// jaxIntStart is the integer start whose word in d is w.
func jaxIntStart(w uint64, d tensor.DType) jaxStartValue {
	if d.IsSigned() {
		shift := 64 - d.Bits()
		return jaxStartValue{n: int64(w<<shift) >> shift, known: true}
	}
	return jaxStartValue{u: w, known: true}
}

// jaxArangeFill adds iota to the converted start (0 from zero).
func jaxArangeFill(p *profile, ta typedArange, out *tensor.Tensor) {
	d := ta.d
	v := jaxStartValue{known: true}
	if !jaxFromZero(ta) {
		v, _ = jaxConvert(p, ta)
	}
	for k := 0; k < out.Len(); k++ {
		if !v.known {
			out.SetUnspecified(k)
			continue
		}
		if d.IsFloat() || d.IsComplex() {
			if _, idxOK := exactSumIn(0, k, d); !idxOK {
				out.SetUnspecified(k)
				continue
			}
			s, ok := exactSumIn(v.x, k, d)
			if !ok {
				out.SetUnspecified(k)
				continue
			}
			setReal(out, k, s)
			continue
		}
		lo, hi := intRange(d)
		if d.IsSigned() {
			s := v.n + int64(k)
			if s < v.n || float64(s) < lo || float64(s) > hi || float64(k) > hi {
				out.SetUnspecified(k)
				continue
			}
			out.Data[k] = uint64(s) & wordMask(d)
			continue
		}
		s := v.u + uint64(k)
		if s < v.u || s > d.MaxUint() || uint64(k) > d.MaxUint() {
			out.SetUnspecified(k)
			continue
		}
		out.Data[k] = s
	}
}
