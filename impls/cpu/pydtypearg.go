package cpu

import "github.com/tfuzz/tfuzz/tensor"

// The dtype argument of sum, prod, mean and cumsum in PyTorch, NumPy and
// JAX (a.sum(dtype=D)). The engine converts the input once with its cast
// kernels (pycast.go) into the dtype the framework computes in, runs the
// ordinary reduction and scan runners on the converted tensor, and narrows
// integer results to D by their low bits: a sum or product modulo 2^64
// keeps every lower power of two, so the 64-bit runners give D's wrap. A
// bool D is any (sum, cumsum) or all (prod) of x != 0.

// dtypeTarget is the dtype the profile returns for a requested dtype d
// (policy jax.dtype-arg.x32: JAX with x64 off truncates 64-bit dtypes).
func dtypeTarget(p *profile, d tensor.DType) tensor.DType {
	if p.fw == fwJAX && !p.x64 && d != tensor.Bool {
		return narrow32(d)
	}
	return d
}

// dtypeArgSupports declines what the model leaves unsupported: complex
// dtypes, and PyTorch's cumsum of a 0-dim input into another dtype (policy
// pytorch.reduce.dtype-arg.not-established).
func dtypeArgSupports(p *profile, c *tensor.Case) bool {
	d := c.Attrs.DType
	if !d.Valid() {
		return true
	}
	x := c.Args[0].Tensor
	zeroDimCumsum := c.Op == "cumsum" && p.fw == fwPyTorch && x.Rank() == 0 && c.Attrs.Dim != nil
	return !d.IsComplex() && !(zeroDimCumsum && x.DType != d)
}

// dtypeArgEarly returns the errors the dtype argument of a reduction gives
// before the dim is looked at (policies pytorch.mean.dtype-arg,
// jax.mean.dtype-arg).
func dtypeArgEarly(p *profile, op opID, d tensor.DType) (tensor.Outcome, bool) {
	switch {
	case op != opMean:
	case p.fw == fwPyTorch && !d.IsFloat():
		return tensor.ErrorOutcome(tensor.UnsupportedDType,
			"RuntimeError: mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: %s", torchName(d)), true
	case p.fw == fwJAX && d == tensor.Bool:
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: div does not accept dtype bool"), true
	}
	return tensor.Outcome{}, false
}

// torchMissingDTypeKernel names PyTorch CPU's kernel without an
// instantiation for the requested dtype (policy
// pytorch.cpu.reduce.dtype-arg.kernels).
func torchMissingDTypeKernel(op opID, d tensor.DType) string {
	unsigned := barebonesUnsigned(d)
	switch {
	case op == opSum && unsigned:
		return "sum_cpu"
	case op == opProd && unsigned:
		return "prod_out_cpu"
	case op == opCumsum && (unsigned || d == tensor.Bool):
		return "cumsum_out_cpu"
	}
	return ""
}

// convertFor returns x converted to dtype to by the profile's cast kernels
// (x itself when it has that dtype already).
func convertFor(e *Engine, p *profile, x *tensor.Tensor, to tensor.DType) *tensor.Tensor {
	if x.DType == to {
		return x
	}
	return runCast(e, x, to, planCast(p, x.DType, to, x.Len()))
}

// convertForReduce is convertFor for a reduction's input: PyTorch's
// self.to(D) of a tensor that is not row-major is a copy laid out by
// denseStrides (policy pytorch.cpu.reduce.converted-view), which the
// reduction then reads through its strides; anything else is converted to
// a contiguous tensor.
func convertForReduce(e *Engine, p *profile, x *tensor.Tensor, to tensor.DType) *tensor.Tensor {
	c := convertFor(e, p, x, to)
	if _, rowMajor := denseOffset(x); p.fw != fwPyTorch || c == x || rowMajor {
		return c
	}
	st := denseStrides(x.Shape, torchStridesOf(x))
	out := &tensor.Tensor{DType: to, Shape: c.Shape, Strides: st, Data: make([]uint64, len(c.Data))}
	scatterStrided(out.Data, c.Data, c.Shape, st)
	return out
}

// narrowWords relabels the integer tensor t as the integer dtype d,
// keeping the low bits of every element.
func narrowWords(t *tensor.Tensor, d tensor.DType) *tensor.Tensor {
	mask := ^uint64(0) >> (64 - d.Bits())
	out := &tensor.Tensor{DType: d, Shape: t.Shape, Data: make([]uint64, len(t.Data))}
	for i, w := range t.Data {
		out.Data[i] = w & mask
	}
	return out
}

// pyReduceDTypeArg is sum, prod or mean with the dtype argument d.
func pyReduceDTypeArg(e *Engine, p *profile, op opID, x *tensor.Tensor, g *redGeom, d tensor.DType) tensor.Outcome {
	d = dtypeTarget(p, d)
	if p.fw == fwPyTorch && g.numel > 0 {
		if k := torchMissingDTypeKernel(op, d); k != "" {
			return torchNoKernel(k, d)
		}
	}
	if op == opMean {
		return tensor.ValueOutcome(meanDTypeArg(e, p, x, g, d))
	}
	// policies pytorch.reduce.dtype-arg, numpy.reduce.dtype-arg, jax.reduce.dtype-arg
	xc := convertForReduce(e, p, x, d)
	switch {
	case d == tensor.Bool:
		return tensor.ValueOutcome(anyAll(xc, g, op == opProd))
	case d.IsFloat():
		return tensor.ValueOutcome(reduceSumProd(e, p, op == opProd, xc, g))
	}
	return tensor.ValueOutcome(narrowWords(reduceSumProd(e, p, op == opProd, xc, g), d))
}

// anyAll is the bool reduction of the bool tensor x: any, or all when all
// is set.
func anyAll(x *tensor.Tensor, g *redGeom, all bool) *tensor.Tensor {
	words := rowMajorWords(x)
	out := tensor.New(tensor.Bool, g.shape...)
	for k := range g.groups() {
		o, t := k/g.inner, k%g.inner
		v := all
		for j := range g.n {
			set := words[(o*g.n+j)*g.inner+t] != 0
			if all && !set {
				v = false
				break
			}
			if !all && set {
				v = true
				break
			}
		}
		if v {
			out.Data[k] = 1
		}
	}
	return out
}

// meanDTypeArg is mean with the dtype argument d (d: the profile's target).
func meanDTypeArg(e *Engine, p *profile, x *tensor.Tensor, g *redGeom, d tensor.DType) *tensor.Tensor {
	switch p.fw {
	case fwPyTorch: // policy pytorch.mean.dtype-arg: f16/bf16 sum and divide in f32
		c := d
		if isHalf(d) {
			c = tensor.F32
		}
		m := reduceMean(e, p, convertForReduce(e, p, x, c), g)
		return convertFor(e, p, m, d)
	case fwJAX: // policy jax.mean.dtype-arg
		xc := convertFor(e, p, x, d)
		if d.IsFloat() {
			return reduceMean(e, p, xc, g)
		}
		return jaxIntMean(narrowWords(reduceSumProd(e, p, false, xc, g), d), uint64(g.n))
	}
	// policy numpy.mean.dtype-arg: the sum in d, divided in float64 by an intp
	xc := convertFor(e, p, x, d)
	if d == tensor.Bool {
		sums := anyAll(xc, g, false)
		for i := range sums.Data {
			if g.n == 0 {
				sums.Data[i] = 1 // bool(NaN)
			}
		}
		return sums
	}
	var sums *tensor.Tensor
	if d.IsFloat() {
		sums = reduceSumProd(e, p, false, xc, g)
	} else {
		sums = narrowWords(reduceSumProd(e, p, false, xc, g), d)
	}
	vals := rowMajor[float64](e, sums, tensor.F64)
	N := float64(g.n)
	for i := range vals {
		vals[i] /= N
	}
	if d.IsFloat() {
		return encodeRounded(e, vals, d, g.shape)
	}
	return convertFor(e, p, encode(e, vals, tensor.F64, g.shape), d)
}

// jaxIntMean is XLA's truncating division of the integer sums by the count
// converted to their dtype (x / 0 is all ones; MIN / -1 is MIN).
func jaxIntMean(sums *tensor.Tensor, count uint64) *tensor.Tensor {
	d := sums.DType
	bits := d.Bits()
	mask := ^uint64(0) >> (64 - bits)
	den := count & mask
	out := &tensor.Tensor{DType: d, Shape: sums.Shape, Data: make([]uint64, len(sums.Data))}
	for i, w := range sums.Data {
		switch {
		case den == 0:
			out.Data[i] = mask
		case d.IsSigned():
			shift := uint(64 - bits)
			a, b := int64(w<<shift)>>shift, int64(den<<shift)>>shift
			out.Data[i] = uint64(a/b) & mask // Go's MIN / -1 is MIN, as XLA's
		default:
			out.Data[i] = w / den
		}
	}
	return out
}

// cumsumDTypeArg is cumsum with the dtype argument d over g.
func cumsumDTypeArg(e *Engine, p *profile, x *tensor.Tensor, g *redGeom, shape []int, d tensor.DType) tensor.Outcome {
	d = dtypeTarget(p, d)
	if p.fw == fwPyTorch && g.numel > 0 && x.Rank() > 0 {
		if k := torchMissingDTypeKernel(opCumsum, d); k != "" {
			return torchNoKernel(k, d)
		}
	}
	xc := convertForReduce(e, p, x, d)
	switch {
	case d == tensor.Bool:
		return tensor.ValueOutcome(runningAny(xc, g, shape))
	case d.IsFloat():
		return tensor.ValueOutcome(cumsumRun(e, p, xc, g, shape))
	}
	return tensor.ValueOutcome(narrowWords(cumsumRun(e, p, xc, g, shape), d))
}

// runningAny is the cumulative logical or of the bool tensor x along g.
func runningAny(x *tensor.Tensor, g *redGeom, shape []int) *tensor.Tensor {
	words := rowMajorWords(x)
	out := tensor.New(tensor.Bool, shape...)
	for k := range g.groups() {
		o, t := k/g.inner, k%g.inner
		var v uint64
		for j := range g.n {
			i := (o*g.n+j)*g.inner + t
			v |= words[i]
			out.Data[i] = v
		}
	}
	return out
}
