package cpu

import (
	"errors"
	"strconv"

	"github.com/tfuzz/tfuzz/tensor"
)

// full(shape, value, dtype) in PyTorch, NumPy and JAX (policy python.full):
// the value is a Python number literal; without a dtype its kind picks the
// framework's default (bool, the default int, the default float: PyTorch's
// int is int64 and its float f32); JAX without x64 narrows the dtype; the
// value is converted to it as a binary op converts a Python scalar (to a
// complex dtype: the real part, the imaginary +0), and repeated.

func init() {
	attach(pythonProfiles(), tensor.ClassFull, &family{supports: pyFullSupports, eval: pyFullEval})
}

// fullPlan is the element full repeats and the result's dtype and shape.
type fullPlan struct {
	value pyScalar
	d     tensor.DType
}

// pyFullSupports declines what the model leaves unstated: an int beyond
// int64, a float value of an integer or bool dtype, an int that does not fit
// an integer dtype.
func pyFullSupports(p *profile, c *tensor.Case) bool {
	if c.Attrs.Value == nil || !validShape(c.Attrs.Shape) || len(c.Attrs.Shape) > tensor.MaxRank {
		return false
	}
	_, _, ok := planFull(p, c)
	return ok
}

func pyFullEval(_ *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	f, o, _ := planFull(p, c)
	if f == nil {
		return *o
	}
	if f.d.IsComplex() { // the value as the real part, +0 as the imaginary
		part := f.d.Component()
		out := tensor.New(f.d, c.Attrs.Shape...)
		re := floatWord(scalarFloat(p, f.value, part), part)
		for i := 0; i < len(out.Data); i += 2 {
			out.Data[i] = re
		}
		return tensor.ValueOutcome(out)
	}
	var w uint64
	switch v := f.value; {
	case f.d.IsFloat():
		w = floatWord(scalarFloat(p, v, f.d), f.d)
	case f.d == tensor.Bool && v.kind == tensor.ScalarInt: // an int is true when nonzero
		w = uint64(b2u(v.i != 0))
	default:
		w = uint64(v.i) & wordMask(f.d)
	}
	out := tensor.New(f.d, c.Attrs.Shape...)
	for i := range out.Data {
		out.Data[i] = w
	}
	return tensor.ValueOutcome(out)
}

// planFull reads the value literal and picks the dtype; ok is false to
// decline.
func planFull(p *profile, c *tensor.Case) (f *fullPlan, o *tensor.Outcome, ok bool) {
	text := *c.Attrs.Value
	s, known, err := readFullValue(text)
	switch {
	case !known:
		return nil, nil, false // an int beyond int64
	case err != nil:
		return nil, outcome(tensor.UnsupportedOutcome("%q is not a Python number literal", text)), true
	}
	d := c.Attrs.DType
	if !d.Valid() {
		switch s.kind {
		case tensor.ScalarBool:
			d = tensor.Bool
		case tensor.ScalarInt:
			d = defaultInt(p)
		default:
			d = defaultFloat(p)
		}
	}
	if p.fw == fwJAX && !p.x64 { // policy jax.x32.narrow-inputs
		d = narrow32(d)
	}
	switch {
	case s.kind == tensor.ScalarFloat && !d.IsFloat() && !d.IsComplex():
		return nil, nil, false
	case s.kind == tensor.ScalarInt && d.IsInt() && !intFits(s.i, d):
		return nil, nil, false
	}
	return &fullPlan{value: s, d: d}, nil, true
}

// readFullValue parses a Python number literal: True / False (either case
// of the first letter), a decimal int (0 only as "0" or "-0"), or a float;
// known is false for an int outside int64, err is set for other text.
func readFullValue(text string) (s pyScalar, known bool, err error) {
	switch text {
	case "True", "true":
		return pyScalar{kind: tensor.ScalarBool, i: 1, f: 1}, true, nil
	case "False", "false":
		return pyScalar{kind: tensor.ScalarBool}, true, nil
	}
	v, ierr := strconv.ParseInt(text, 10, 64)
	switch {
	case errors.Is(ierr, strconv.ErrRange):
		return pyScalar{}, false, nil
	case ierr == nil && (v != 0 || text == "0" || text == "-0"):
		return pyScalar{kind: tensor.ScalarInt, i: v, f: float64(v)}, true, nil
	}
	f, ferr := tensor.ParseFloatText(text)
	if ferr != nil {
		return pyScalar{}, true, ferr
	}
	return pyScalar{kind: tensor.ScalarFloat, f: f}, true, nil
}
