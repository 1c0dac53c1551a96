package model

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Creation in PyTorch, NumPy and JAX: torch.tensor(literal) / np.array /
// jnp.array, arange(start, end) and zeros(shape, dtype). What differs is the
// default dtypes (PyTorch's default float is f32, NumPy's f64, JAX's follows
// x64) and what happens to an integer that does not fit the default int.

var (
	pyDefaultDTypes = newRule("python.create.default-dtypes",
		"a literal or arange of Python ints gets the default int dtype (i64; JAX x32: i32), of any float the default float dtype (PyTorch f32, NumPy f64, JAX f64 with x64, f32 without), of only bools bool (bools among ints count as 0/1); an empty list is float",
		"oracle-01140, oracle-01141, oracle-01142, oracle-01143 ([1, 2.0] -> float), oracle-01148, oracle-01149; seed 001 §默认 dtype")
	pyLiteralShape = newRule("python.create.literal-shape",
		"a nested list literal gives a tensor of its nesting shape, a bare number a 0-dim tensor; ragged nesting is an error",
		"oracle-01144, oracle-01145 (0-dim); torch.tensor / np.array (ValueError on ragged nesting)")
	pyIntTooBig = newRule("python.create.int-overflow",
		"an int literal outside the default int dtype is an error: JAX x32 OverflowError \"Python integer 1099511627776 out of bounds for int32\" (no silent narrowing), JAX x64 the same for int64, PyTorch RuntimeError \"Overflow when unpacking long\"",
		"oracle-01146, oracle-01147 (JAX x32); PyTorch python_arg_parser / tensor_new.cpp (source)")
	numpyBigInt = newRule("numpy.create.big-int",
		"np.array gives each Python int int64 if it fits, else uint64 if it fits, else object, and promotes them: only uint64 (and bools) -> uint64, int64 with uint64 -> float64; an object array has no case-format dtype (unsupported here)",
		"NumPy discover_descriptor_from_pylong and PyArray_PromoteTypes (source; no oracle case)").silent()
)

// pyCreate evaluates from_literal, arange and zeros.
func (e *evaluation) pyCreate() tensor.Outcome {
	switch e.op().Class {
	case tensor.ClassFromLiteral:
		return e.pyFromLiteral(*e.c.Attrs.Literal)
	case tensor.ClassArange:
		start := "0"
		if e.c.Attrs.Start != nil {
			start = *e.c.Attrs.Start
		}
		return e.pyArange(start, *e.c.Attrs.End)
	}
	return e.pyZeros()
}

// defaultInt and defaultFloat are the profile's default dtypes.
func (e *evaluation) defaultInt() tensor.DType {
	if e.p.Framework == JAX && !e.p.X64 {
		return tensor.I32
	}
	return tensor.I64
}

func (e *evaluation) defaultFloat() tensor.DType {
	if e.p.Framework == NumPy || (e.p.Framework == JAX && e.p.X64) {
		return tensor.F64
	}
	return tensor.F32
}

// --- literals ------------------------------------------------------------------------------

// The syntax is litsyntax.go's; the dtype inference is this file's rule.

// literalDType returns the dtype inference of torch.tensor / np.array /
// jnp.array for the elements, before any range check.
func (e *evaluation) literalDType(elems []literalElem) tensor.DType {
	if len(elems) == 0 {
		return e.defaultFloat()
	}
	d := tensor.Bool
	for _, el := range elems {
		switch {
		case el.Kind == litFloat:
			return e.defaultFloat()
		case el.Kind == litInt:
			d = e.defaultInt()
		}
	}
	return d
}

// pyFromLiteral evaluates from_literal.
func (e *evaluation) pyFromLiteral(text string) tensor.Outcome {
	elems, shape, err := readPythonSyntax(text)
	if err != nil {
		return e.fail(pyLiteralShape, tensor.ShapeMismatch, "ValueError: %v", err)
	}
	e.use(pyLiteralShape)
	e.use(pyDefaultDTypes)
	d := e.literalDType(elems)
	if d == tensor.I64 && e.p.Framework == NumPy {
		var failed bool
		if d, failed = e.numpyIntDType(elems); failed {
			return e.unsupported(numpyBigInt, "tfuzz: np.array(%s) has dtype object", text)
		}
	}
	out := tensor.New(d, shape...)
	for i, el := range elems {
		switch {
		case d.IsFloat():
			out.SetFloat(i, literalFloat(el))
		case el.Kind == litBool:
			out.SetBool(i, el.Text == "true")
		default:
			v, _ := new(big.Int).SetString(el.Text, 10)
			if !bigFits(v, d) {
				return e.intOverflow(el.Text, d)
			}
			if v.Sign() < 0 {
				out.SetInt(i, v.Int64())
			} else {
				out.SetUint(i, v.Uint64())
			}
		}
	}
	return tensor.ValueOutcome(out)
}

// literalFloat is the float64 Python makes of an element (ints exactly
// rounded, bools 0/1); storing it rounds once more to the tensor's dtype.
func literalFloat(el literalElem) float64 {
	switch el.Kind {
	case litBool:
		if el.Text == "true" {
			return 1
		}
		return 0
	case litInt: // a Python int: -0 is 0
		v, _ := new(big.Int).SetString(el.Text, 10)
		f, _ := new(big.Float).SetInt(v).Float64() // exact, then nearest; ±inf beyond float64's range
		return f
	}
	f, _ := tensor.ParseFloatText(el.Text)
	return f
}

// bigFits reports whether v is a value of the integer dtype d.
func bigFits(v *big.Int, d tensor.DType) bool {
	if d.IsSigned() {
		return v.IsInt64() && v.Int64() >= d.MinInt() && v.Int64() <= d.MaxInt()
	}
	return v.Sign() >= 0 && v.IsUint64() && v.Uint64() <= d.MaxUint()
}

// numpyIntDType is NumPy's dtype for a literal of ints (and bools); failed
// means an object array.
func (e *evaluation) numpyIntDType(elems []literalElem) (tensor.DType, bool) {
	signed, unsigned := false, false
	for _, el := range elems {
		if el.Kind != litInt {
			continue
		}
		v, _ := new(big.Int).SetString(el.Text, 10)
		switch {
		case v.IsInt64():
			signed = true
		case v.IsUint64():
			unsigned = true
		default:
			return tensor.Invalid, true
		}
	}
	switch {
	case signed && unsigned:
		e.use(numpyBigInt)
		return tensor.F64, false
	case unsigned:
		e.use(numpyBigInt)
		return tensor.U64, false
	}
	return tensor.I64, false
}

// intOverflow is the error for an int that does not fit the default int d.
func (e *evaluation) intOverflow(text string, d tensor.DType) tensor.Outcome {
	if e.p.Framework == PyTorch {
		return e.fail(pyIntTooBig, tensor.OutOfRange, "RuntimeError: Overflow when unpacking long")
	}
	return e.fail(pyIntTooBig, tensor.OutOfRange, "OverflowError: Python integer %s out of bounds for %s", text, pyName(d))
}

// --- arange ----------------------------------------------------------------------------------

var (
	pyArangeValues = newRule("python.arange.values",
		"torch.arange(start, end) without a dtype has ceil(end - start) elements start, start+1, ... (int64 for int bounds; floats computed as start + i in the accumulate type: the CPU's double, then rounded; CUDA/MPS: in f32); NumPy's and JAX's are numpy.arange.no-dtype and jax.arange.no-dtype",
		"oracle-01148, oracle-01149; ATen RangeFactories.cpp / cuda/RangeFactories.cu (acc_type) (source)")
	torchArangeRange = newRule("pytorch.arange.range",
		"PyTorch arange refuses an end below start with step 1 (RuntimeError \"upper bound and larger bound inconsistent with step sign\") and non-finite ends (RuntimeError \"unsupported range: 0 -> inf\"); NumPy and JAX state theirs in numpy.arange.no-dtype and jax.arange.no-dtype",
		"pytorch e4bb10d6 aten/src/ATen/native/RangeFactories.cpp:167-171 arange_out (the finite and sign checks); PyTorch 1.13 checked locally (arange(0, inf): unsupported range: 0 -> inf; arange(0, -1e300): inconsistent with step sign)")
)

// arangeBound is one parsed end of an arange: an int (big) or a float.
type arangeBound struct {
	isFloat bool
	f       float64
	i       *big.Int
}

func parseBound(text string) (arangeBound, error) {
	el := literalElem{Kind: litInt, Text: text}
	if strings.ContainsAny(text, ".eEnN") {
		el.Kind = litFloat
		if _, err := tensor.ParseFloatText(text); err != nil {
			return arangeBound{}, err
		}
	} else if _, ok := new(big.Int).SetString(text, 10); !ok {
		return arangeBound{}, fmt.Errorf("%q is not a number", text)
	}
	b := arangeBound{isFloat: el.Kind == litFloat, f: literalFloat(el)}
	if !b.isFloat {
		b.i, _ = new(big.Int).SetString(text, 10)
	}
	return b, nil
}

// pyArange evaluates arange(start, end) with step 1.
func (e *evaluation) pyArange(startText, endText string) tensor.Outcome {
	start, err1 := parseBound(startText)
	end, err2 := parseBound(endText)
	if err1 != nil || err2 != nil {
		return e.fail(pyLiteralShape, tensor.Other, "TypeError: arange() bounds must be numbers, got %q, %q", startText, endText)
	}
	e.use(pyDefaultDTypes)
	switch e.p.Framework {
	case NumPy:
		return e.numpyArangeInferred(start, end) // pyarangenumpy.go
	case PyTorch:
		if o := e.torchArangeScalars(start, end, !start.isFloat && !end.isFloat); o != nil {
			return *o // pyarangetorch.go
		}
	default:
		e.use(jaxArangeNoDType)
		d := e.defaultInt() // result_type of the bounds
		if start.isFloat || end.isFloat {
			d = e.defaultFloat()
		}
		return e.jaxArangeDType(start, end, d) // pyarangejax.go
	}
	e.use(pyArangeValues)
	isFloat := start.isFloat || end.isFloat
	if isFloat && (math.IsNaN(start.f) || math.IsNaN(end.f) || math.IsInf(start.f, 0) || math.IsInf(end.f, 0)) {
		return e.fail(torchArangeRange, tensor.Other, "RuntimeError: unsupported range: %s -> %s", startText, endText)
	}
	if (isFloat && end.f < start.f) || (!isFloat && end.i.Cmp(start.i) < 0) {
		return e.fail(torchArangeRange, tensor.Other, "RuntimeError: upper bound and larger bound inconsistent with step sign")
	}
	if isFloat {
		return e.torchArangeFloat(start.f, end.f)
	}
	return e.torchArangeInt(start.i, end.i)
}

// torchArangeInt is torch.arange over int64 bounds: int64 elements.
func (e *evaluation) torchArangeInt(start, end *big.Int) tensor.Outcome {
	n := new(big.Int).Sub(end, start)
	if !n.IsInt64() || n.Int64() > tensor.MaxElements {
		return e.unsupported(notModeled, "tfuzz: arange of %s elements exceeds the case limit", n)
	}
	out := tensor.New(tensor.I64, int(n.Int64()))
	for i := 0; i < out.Len(); i++ {
		out.SetInt(i, start.Int64()+int64(i)) // below end, an int64
	}
	return tensor.ValueOutcome(out)
}

// torchArangeFloat is torch.arange over floats in the default float dtype:
// start + i in the accumulate type (the CPU's double, f32 elsewhere).
func (e *evaluation) torchArangeFloat(start, end float64) tensor.Outcome {
	d := e.defaultFloat()
	n := math.Ceil(end - start)
	if n > tensor.MaxElements {
		return e.unsupported(notModeled, "tfuzz: arange of %g elements exceeds the case limit", n)
	}
	out := tensor.New(d, int(n))
	for i := 0; i < out.Len(); i++ {
		if e.p.Device == CPU {
			out.SetFloat(i, start+float64(i)) // SetFloat rounds to d
		} else {
			out.SetFloat(i, add32(roundTo(start, tensor.F32), float64(i)))
		}
	}
	return tensor.ValueOutcome(out)
}

// --- zeros -----------------------------------------------------------------------------------

var (
	pyZerosDType = newRule("python.zeros.dtype",
		"zeros(shape) has the default float dtype unless a dtype is given; JAX with x64 off truncates a requested 64-bit dtype to its 32-bit kind with a UserWarning",
		"torch.zeros / np.zeros / jnp.zeros documentation; jax dtypes.check_user_dtype_supported (source)")
)

// pyZeros evaluates zeros(shape, dtype).
func (e *evaluation) pyZeros() tensor.Outcome {
	e.use(pyZerosDType)
	d := e.c.Attrs.DType
	if !d.Valid() {
		d = e.defaultFloat()
	}
	if e.p.Framework == JAX && !e.p.X64 && narrow32(d) != d {
		e.warn("UserWarning: Explicitly requested dtype %s requested in zeros is not available, and will be truncated to dtype %s.", pyName(d), pyName(narrow32(d)))
		d = narrow32(d)
	}
	return tensor.ValueOutcome(tensor.New(d, e.c.Attrs.Shape...))
}
