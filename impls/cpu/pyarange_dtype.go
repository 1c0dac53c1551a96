package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// arange(start, end, dtype=D) in PyTorch, NumPy and JAX on the CPU
// (policies pytorch.arange.dtype, numpy.arange.dtype,
// numpy.arange.dtype.bf16, jax.arange.dtype): int and float bounds, every
// dtype. The engine declines what the model leaves unstated
// (python.arange.dtype.not-modeled: PyTorch's bounds where its releases'
// checks part) and ranges past the case limit. The frameworks' own steps: pyarange_torch.go,
// pyarange_numpy.go, pyarange_jax.go.

// typedArange is an arange with a dtype argument, read from the case.
type typedArange struct {
	lo, hi    arangeBound
	loText    string
	d         tensor.DType // after JAX's x32 truncation
	truncated bool
}

// arangeRun is what a framework decided before filling: an outcome
// without elements (res), a decline, or n elements to fill.
type arangeRun struct {
	res      *tensor.Outcome
	declined bool
	n        int
}

// readTypedArange parses the bounds; bad is the TypeError of a bound that is
// no number.
func readTypedArange(p *profile, c *tensor.Case) (ta typedArange, bad *tensor.Outcome) {
	ta.loText = "0"
	if c.Attrs.Start != nil {
		ta.loText = *c.Attrs.Start
	}
	var ok1, ok2 bool
	ta.lo, ok1 = parseArangeBound(ta.loText)
	ta.hi, ok2 = parseArangeBound(*c.Attrs.End)
	if !ok1 || !ok2 {
		return ta, outcomeOf(tensor.ErrorOutcome(tensor.Other, "TypeError: arange() bounds must be numbers, got %q, %q", ta.loText, *c.Attrs.End))
	}
	ta.d = c.Attrs.DType
	if p.fw == fwJAX && !p.x64 && narrow32(ta.d) != ta.d {
		ta.d, ta.truncated = narrow32(ta.d), true
	}
	return ta, nil
}

// typedArangeRun is the framework's decision on ta.
func typedArangeRun(p *profile, ta typedArange) arangeRun {
	switch p.fw {
	case fwPyTorch:
		return torchArangeRun(p, ta)
	case fwNumPy:
		return numpyArangeRun(ta)
	}
	return jaxArangeRun(p, ta)
}

// typedArangeSupports declines what the model leaves unstated and ranges
// past the case limit.
func typedArangeSupports(p *profile, c *tensor.Case) bool {
	ta, bad := readTypedArange(p, c)
	return bad != nil || !typedArangeRun(p, ta).declined
}

// typedArangeEval evaluates arange(start, end, dtype=D).
func typedArangeEval(p *profile, c *tensor.Case) tensor.Outcome {
	ta, bad := readTypedArange(p, c)
	if bad != nil {
		return *bad
	}
	res := runTypedArange(p, ta)
	if ta.truncated {
		res.Warnings = append(res.Warnings, jaxTruncation("arange", c.Attrs.DType))
	}
	return res
}

// runTypedArange is the framework's arange of ta in ta.d: decided, then
// filled.
func runTypedArange(p *profile, ta typedArange) tensor.Outcome {
	run := typedArangeRun(p, ta)
	var res tensor.Outcome
	switch {
	case run.declined:
		return tensor.UnsupportedOutcome("arange(%s, ..., dtype=%s) is not implemented", ta.loText, pyName(ta.d))
	case run.res != nil:
		res = *run.res
	default:
		out := tensor.New(ta.d, run.n)
		var stop *tensor.Outcome
		switch p.fw {
		case fwPyTorch:
			torchArangeFill(ta, out)
		case fwNumPy:
			stop = numpyArangeFill(p, ta, out)
		default:
			jaxArangeFill(p, ta, out)
		}
		res = tensor.ValueOutcome(out)
		if stop != nil {
			res = *stop
		}
	}
	return res
}

// exactSumIn is x + k, and whether the sum is exact in float64 (Knuth's
// two-sum leaves no error) and a finite value of the float dtype d (the
// component of a complex one).
func exactSumIn(x float64, k int, d tensor.DType) (float64, bool) {
	if d.IsComplex() {
		d = d.Component()
	}
	y := float64(k)
	s := x + y
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s, false
	}
	yv := s - x
	xv := s - yv
	if (x-xv)+(y-yv) != 0 {
		return s, false
	}
	return s, wordFloat(floatWord(s, d), d) == s
}

// setReal stores the float x, rounded to d's (component) dtype, as element
// k of out; a complex element's imaginary part is +0.
func setReal(out *tensor.Tensor, k int, x float64) {
	if out.DType.IsComplex() {
		out.Data[2*k] = floatWord(x, out.DType.Component())
		out.Data[2*k+1] = 0
		return
	}
	out.Data[k] = floatWord(x, out.DType)
}
