package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// jnp.arange(start, stop, dtype=D) (jax.arange.dtype), on the CPU and on a
// GPU: iota in D, plus start converted to D unless start == 0.

var jaxArangeNoDType = newRule("jax.arange.no-dtype",
	"jnp.arange(start, stop) without a dtype runs as with dtype=D (jax.arange.dtype) for D = dtypes.result_type of the bounds: the default int for two Python ints, the default float when either is a float (x64 off: int32, float32; no warning, D being canonical), so its size is computed in Python first (a NaN span: ValueError \"cannot convert float NaN to integer\", ±inf: OverflowError \"cannot convert float infinity to integer\", as arange(0, inf) and arange(inf, 0); np.ceil of an int beyond int64 is the object loop's, so arange(0, -2**70) is empty), then start is converted to D (np.asarray(start).astype(D): wraps an int64 or uint64 start, refuses an object one) and iota added in D",
	"jax jax-v0.11.0 jax/_src/numpy/lax_numpy.py:5921-5987 (_arange: :5948-5950 dtype = dtypes.result_type(start, stop) when None, :5975-5978 start == 0: size = max(0, int(np.ceil(stop))) and broadcasted_iota, :5979-5983 size = max(0, int(np.ceil(stop - start))) and lax.add(lax.convert_element_type(start, dtype), broadcasted_iota)); numpy v2.5.2 (48fecee5) numpy/_core/code_generators/generate_umath.py:983-991 (ceil: TD(O, f='npy_ObjectCeil')); Python float.__int__, checked locally: int(float('inf')) OverflowError, int(float('nan')) ValueError, int(np.ceil(-2**70)) the exact int")

// jaxArangeDType is jnp.arange(start, stop, dtype=d).
func (e *evaluation) jaxArangeDType(start, end arangeBound, d tensor.DType) tensor.Outcome {
	e.use(jaxArangeDType)
	if !e.p.X64 && narrow32(d) != d {
		e.warnJAXTruncation("arange", d)
		d = narrow32(d)
	}
	fromZero := start.isFloat && start.f == 0 || !start.isFloat && start.i.Sign() == 0 // Python's start == 0
	size, done := e.jaxArangeSize(start, end, fromZero)
	if done != nil {
		return *done
	}
	// the conversion runs before the iota (lax.add's first argument)
	var conv jaxStart
	if !fromZero {
		var o *tensor.Outcome
		if conv, o = e.jaxConvertStart(start, d); o != nil {
			return *o
		}
	} else {
		conv = jaxStart{i: new(big.Int), ok: true}
	}
	if d == tensor.Bool {
		return e.fail(jaxArangeDType, tensor.UnsupportedDType,
			"TypeError: iota does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, complexfloating.")
	}
	if size.Sign() <= 0 {
		return tensor.ValueOutcome(tensor.New(d, 0))
	}
	if !size.IsInt64() || size.Int64() > tensor.MaxElements {
		return e.unsupported(notModeled, "tfuzz: arange of %s elements exceeds the case limit", size)
	}
	out := tensor.New(d, int(size.Int64()))
	for i := 0; i < out.Len(); i++ {
		if !conv.ok || !holdsExactly(big.NewInt(int64(i)), d) {
			out.SetUnspecified(i)
			continue
		}
		if conv.i == nil { // a float start: conv.f is a value of the float (component) dtype
			v, ok := floatPlusIndex(conv.f, i, d)
			if !ok {
				out.SetUnspecified(i)
				continue
			}
			out.SetFloat(i, v)
			continue
		}
		v := new(big.Int).Add(conv.i, big.NewInt(int64(i)))
		switch {
		case !holdsExactly(v, d):
			out.SetUnspecified(i)
		case d.IsFloat() || d.IsComplex():
			f, _ := new(big.Float).SetInt(v).Float64() // exact: holdsExactly
			out.SetFloat(i, f)
		default:
			storeBig(out, i, v)
		}
	}
	return tensor.ValueOutcome(out)
}

// jaxArangeSize is max(0, int(np.ceil(stop))) from 0, else max(0,
// int(np.ceil(stop - start))), in Python; done is its error.
func (e *evaluation) jaxArangeSize(start, end arangeBound, fromZero bool) (*big.Int, *tensor.Outcome) {
	if !end.isFloat && (fromZero || !start.isFloat) {
		if fromZero {
			return new(big.Int).Set(end.i), nil
		}
		return new(big.Int).Sub(end.i, start.i), nil
	}
	span := end.f
	if !fromZero {
		if !start.isFloat && math.IsInf(start.f, 0) || !end.isFloat && math.IsInf(end.f, 0) {
			return nil, outcomePtr(e.fail(jaxArangeDType, tensor.OutOfRange, "OverflowError: int too large to convert to float"))
		}
		span = end.f - start.f
	}
	switch {
	case math.IsNaN(span):
		return nil, outcomePtr(e.fail(jaxArangeDType, tensor.Other, "ValueError: cannot convert float NaN to integer"))
	case math.IsInf(span, 0):
		return nil, outcomePtr(e.fail(jaxArangeDType, tensor.OutOfRange, "OverflowError: cannot convert float infinity to integer"))
	}
	n, _ := new(big.Float).SetFloat64(math.Ceil(span)).Int(nil)
	return n, nil
}

// jaxStart is convert_element_type(start, D): an integer value (i; of D
// for an integer D, the exact start for a float one) or a float one (f, i
// nil), and whether it is a value of D the adds may start from (ok).
type jaxStart struct {
	i  *big.Int
	f  float64
	ok bool
}

// jaxConvertStart is convert_element_type(start, d); done is its error.
func (e *evaluation) jaxConvertStart(start arangeBound, d tensor.DType) (jaxStart, *tensor.Outcome) {
	if start.isFloat { // np.asarray(start, dtype=d): d's setitem
		tmp := tensor.New(d, 1)
		if o := e.numpySetItem(boundElem(start), tmp, 0); o != nil {
			return jaxStart{ok: false}, nil // the OverflowError is caught: XLA converts it
		}
		if d.IsFloat() || d.IsComplex() {
			f := tmp.Float(0)
			return jaxStart{f: f, ok: !math.IsInf(f, 0) && !math.IsNaN(f)}, nil
		}
		v, _ := new(big.Float).SetFloat64(math.Trunc(start.f)).Int(nil)
		return jaxStart{i: v, ok: true}, nil
	}
	v := start.i
	object := !v.IsInt64() && !(v.Sign() > 0 && v.IsUint64()) // np.asarray(start) is an object array
	// an object array's cast is d's setitem of the Python int (bfloat16's:
	// PyLong_AsLong refuses it)
	if object && d != tensor.Bool {
		if o := e.numpySetItem(literalElem{Kind: litInt, Text: v.String()}, tensor.New(d, 1), 0); o != nil {
			return jaxStart{}, o
		}
	}
	if d.IsFloat() || d.IsComplex() || d == tensor.Bool {
		return jaxStart{i: v, ok: holdsExactly(v, d)}, nil
	}
	m := new(big.Int).Lsh(big.NewInt(1), uint(d.Bits())) // astype from int64/uint64 wraps
	w := new(big.Int).Mod(v, m)
	if d.IsSigned() && w.Cmp(new(big.Int).Rsh(m, 1)) >= 0 {
		w.Sub(w, m)
	}
	return jaxStart{i: w, ok: true}, nil
}
