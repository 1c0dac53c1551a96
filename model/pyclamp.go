package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// clamp in PyTorch (torch.clamp), NumPy (np.clip) and JAX (jnp.clip).

// pyClamp evaluates clamp(x, lo, hi).
func (e *evaluation) pyClamp() tensor.Outcome {
	x, lo, hi := e.c.Args[0], e.c.Args[1], e.c.Args[2]
	for _, a := range e.c.Args[1:] {
		if a.IsScalar() && a.Scalar.Kind == tensor.ScalarComplex {
			return e.unsupported(pyWhereNotModeled, "tfuzz: clamp with a complex bound is not modeled")
		}
	}
	switch e.p.Framework {
	case PyTorch:
		return e.torchClamp(x, lo, hi)
	case NumPy:
		return e.numpyClip(x, lo, hi)
	}
	return e.jaxClip(x, lo, hi)
}

// binarySub evaluates the binary op on two args (its rules recorded).
func (e *evaluation) binarySub(op string, a, b tensor.Arg) tensor.Outcome {
	return e.sub(&tensor.Case{Op: op, Args: []tensor.Arg{a, b}})
}

// jaxClip is maximum(min, arr) then minimum(max, arr).
func (e *evaluation) jaxClip(x, lo, hi tensor.Arg) tensor.Outcome {
	e.use(jaxClip)
	for _, a := range []tensor.Arg{x, lo, hi} {
		if a.Tensor != nil && a.Tensor.DType.IsComplex() {
			return e.fail(jaxClip, tensor.UnsupportedDType, "ValueError: Clip received a complex value either through the input or the min/max keywords.")
		}
	}
	cur := x
	for _, step := range []struct {
		op    string
		bound tensor.Arg
	}{{"maximum", lo}, {"minimum", hi}} {
		if step.bound.IsNull() {
			continue
		}
		out := e.binarySub(step.op, step.bound, cur)
		if out.Form != tensor.FormValue {
			return out
		}
		cur = tensor.Arg{Tensor: out.Value}
	}
	if cur.Tensor == x.Tensor {
		return tensor.ValueOutcome(e.input(x.Tensor).Clone())
	}
	return tensor.ValueOutcome(cur.Tensor)
}

// numpyClip is np.clip (numpy/_core/_methods.py _clip).
func (e *evaluation) numpyClip(x, lo, hi tensor.Arg) tensor.Outcome {
	e.use(numpyClip)
	d := x.Tensor.DType
	if d.IsInt() {
		if lo.IsScalar() && lo.Scalar.Kind == tensor.ScalarInt && lo.Scalar.Int().Cmp(intLimit(d, false)) <= 0 {
			lo = tensor.Arg{}
		}
		if hi.IsScalar() && hi.Scalar.Kind == tensor.ScalarInt && hi.Scalar.Int().Cmp(intLimit(d, true)) >= 0 {
			hi = tensor.Arg{}
		}
	}
	switch {
	case lo.IsNull() && hi.IsNull():
		if d == tensor.Bool {
			return e.fail(numpyClip, tensor.UnsupportedDType, "TypeError: ufunc 'positive' did not contain a loop with signature matching types")
		}
		return tensor.ValueOutcome(x.Tensor.Clone())
	case lo.IsNull():
		return e.binarySub("minimum", x, hi)
	case hi.IsNull():
		return e.binarySub("maximum", x, lo)
	}
	args := []pyArg{{t: x.Tensor}}
	for _, a := range []tensor.Arg{lo, hi} {
		if a.IsScalar() {
			args = append(args, pyArg{s: a.Scalar})
		} else {
			args = append(args, pyArg{t: a.Tensor})
		}
	}
	common, _ := e.pyPromote(args)
	if common.IsComplex() {
		return e.unsupported(pyWhereNotModeled, "tfuzz: np.clip of complex numbers is not modeled")
	}
	for _, a := range args[1:] {
		if a.isScalar() && a.s.Kind == tensor.ScalarInt && common.IsInt() && !intFits(a.s.Int(), common) {
			return e.fail(numpyIntOverflow, tensor.OutOfRange, "OverflowError: Python integer %s out of bounds for %s", a.s.Text, pyName(common))
		}
		if a.isScalar() && a.s.Kind == tensor.ScalarInt && !common.IsInt() && common != tensor.Bool {
			return e.unsupported(pyWhereNotModeled, "tfuzz: np.clip with a Python int bound of a float result is not modeled")
		}
	}
	shape, o := e.pyBroadcastAll(args)
	if o != nil {
		return *o
	}
	ops := [3]*tensor.Tensor{}
	for k, a := range args {
		ops[k] = e.convertArg(a, common)
	}
	loop := clipConstLoop // two Python scalars: 0-d operands, steps 0
	switch {
	case lo.IsScalar() && hi.IsScalar():
	case common == tensor.BF16:
		loop = clipLoopOpen // ml_dtypes' bfloat16 loop: not read here
	case common.IsFloat():
		e.use(numpyClipLoops)
		loop = numpyClipLoop(args, common, shape)
	}
	out := tensor.New(common, shape...)
	for i := range out.Len() {
		xv, lv, hv := ops[0], ops[1], ops[2]
		xi, li, hi := broadcastIndex(shape, i, xv.Shape), broadcastIndex(shape, i, lv.Shape), broadcastIndex(shape, i, hv.Shape)
		if !common.IsFloat() {
			v, l, h := exactIntValue(xv, xi), exactIntValue(lv, li), exactIntValue(hv, hi)
			r := xi
			src := xv
			if v.Cmp(l) < 0 {
				src, r, v = lv, li, l
			}
			if v.Cmp(h) > 0 {
				src, r = hv, hi
			}
			copyElem(out, i, src, r)
			continue
		}
		a, l, h := xv.Float(xi), lv.Float(li), hv.Float(hi)
		var r float64
		switch {
		case loop == clipConstLoop && (math.IsNaN(l) || math.IsNaN(h)):
			r = math.NaN()
		case loop == clipConstLoop:
			r = a
			if r < l {
				r = l
			}
			if r > h {
				r = h
			}
		default:
			r = npMin(npMax(a, l, common), h, common)
			tie := signedZeroTie(a, l) || signedZeroTie(npMax(a, l, common), h)
			if tie && loop == clipLoopOpen && common != tensor.F16 {
				e.use(numpyClipZeroTie)
				out.SetUnspecified(i)
			}
		}
		out.SetFloat(i, r)
	}
	return tensor.ValueOutcome(out)
}

// npMax and npMin are clip.cpp's _NPY_MAX and _NPY_MIN: a NaN first operand
// wins; f16 (half_tag) keeps the first operand on a tie, f32/f64 take the
// second.
func npMax(a, b float64, d tensor.DType) float64 {
	if math.IsNaN(a) || a > b || d == tensor.F16 && a >= b {
		return a
	}
	return b
}

func npMin(a, b float64, d tensor.DType) float64 {
	if math.IsNaN(a) || a < b || d == tensor.F16 && a <= b {
		return a
	}
	return b
}

// signedZeroTie reports -0.0 against +0.0.
func signedZeroTie(a, b float64) bool {
	return a == 0 && b == 0 && math.Signbit(a) != math.Signbit(b)
}

// torchClamp is torch.clamp.
func (e *evaluation) torchClamp(x, lo, hi tensor.Arg) tensor.Outcome {
	e.use(torchClampCheck)
	if lo.IsNull() && hi.IsNull() {
		return e.fail(torchClampCheck, tensor.Other, "RuntimeError: torch.clamp: At least one of 'min' or 'max' must not be None")
	}
	scalars, tensors := 0, 0
	args := []pyArg{{t: x.Tensor}}
	for _, a := range []tensor.Arg{lo, hi} {
		switch {
		case a.IsScalar():
			scalars++
			args = append(args, pyArg{s: a.Scalar})
		case !a.IsNull():
			tensors++
			args = append(args, pyArg{t: a.Tensor})
		}
	}
	if scalars > 0 && tensors > 0 {
		return e.unsupported(torchClampMixed, "tfuzz: torch.clamp with a number and a tensor bound is not modeled")
	}
	if o := e.torchMPSF64(args); o != nil {
		return *o
	}
	for _, a := range args {
		if !a.isScalar() && a.t.DType.IsComplex() {
			return e.fail(torchClampCheck, tensor.UnsupportedDType, "RuntimeError: clamp is not supported for complex types")
		}
	}
	if tensors > 0 {
		return e.torchClampTensors(x, lo, hi, args)
	}
	d := x.Tensor.DType
	if !d.IsFloat() {
		var o *tensor.Outcome
		if d, o = e.pyPromote(args); o != nil {
			return *o
		}
	}
	kernel := "clamp_scalar_cpu"
	if e.p.Device != CPU {
		kernel = "clamp_scalar_cuda"
	}
	if d == tensor.Bool || isBarebonesUnsigned(d) {
		e.use(torchNoKernel)
		return e.torchNoKernelError(kernel, d)
	}
	if !lo.IsNull() && !hi.IsNull() && (isNaNScalar(lo) || isNaNScalar(hi)) {
		e.use(torchClampValues)
		out := tensor.New(d, x.Tensor.Shape...)
		for i := range out.Len() {
			out.SetFloat(i, math.NaN())
		}
		return tensor.ValueOutcome(out)
	}
	var bounds [2]*tensor.Tensor
	for k, a := range []tensor.Arg{lo, hi} {
		if a.IsNull() {
			continue
		}
		if !torchScalarFits(a.Scalar, d) {
			return e.fail(torchClampCheck, tensor.OutOfRange, "RuntimeError: value cannot be converted to type %s without overflow", torchName(d))
		}
		bounds[k] = e.convertArg(pyArg{s: a.Scalar}, d)
	}
	in := e.convertArg(pyArg{t: x.Tensor}, d)
	stated := e.p.Device == CPU && e.p.Arch == X86
	e.use(torchClampValues)
	out := tensor.New(d, in.Shape...)
	for i := range out.Len() {
		copyElem(out, i, in, i)
		for k, b := range bounds {
			if b == nil {
				continue
			}
			if d.IsFloat() {
				a, v := out.Float(i), b.Float(0)
				if !stated && (math.IsNaN(v) || signedZeroTie(a, v)) {
					e.use(torchClampOpen)
					out.SetUnspecified(i)
				}
				if k == 0 && a < v || k == 1 && v < a {
					out.SetFloat(i, v)
				}
				continue
			}
			c := exactIntValue(out, i).Cmp(exactIntValue(b, 0))
			if k == 0 && c < 0 || k == 1 && c > 0 {
				copyElem(out, i, b, 0)
			}
		}
	}
	return tensor.ValueOutcome(out)
}

// torchScalarFits is c10's checked conversion of a Python number to d:
// an integer must be in range; a finite float must be within d's range
// (infinities and NaN convert).
func torchScalarFits(s *tensor.Scalar, d tensor.DType) bool {
	switch {
	case s.Kind == tensor.ScalarBool:
		return true
	case s.Kind == tensor.ScalarInt && d.IsInt():
		return intFits(s.Int(), d)
	case s.Kind == tensor.ScalarInt:
		f, _ := s.Int().Float64()
		return math.Abs(f) <= maxFinite(d)
	}
	f := s.Float()
	return math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) <= maxFinite(d)
}

// torchClampTensors is clamp with tensor bounds: clamp_stub with both,
// maximum/minimum with one.
func (e *evaluation) torchClampTensors(x, lo, hi tensor.Arg, args []pyArg) tensor.Outcome {
	if lo.IsNull() {
		return e.binarySub("minimum", x, hi)
	}
	if hi.IsNull() {
		return e.binarySub("maximum", x, lo)
	}
	shape, o := e.pyBroadcastAll(args)
	if o != nil {
		return *o
	}
	d, o := e.pyPromote(args)
	if o != nil {
		return *o
	}
	kernel := "clamp_cpu"
	if e.p.Device != CPU {
		kernel = "clamp_cuda"
	}
	if d == tensor.Bool || isBarebonesUnsigned(d) {
		e.use(torchNoKernel)
		return e.torchNoKernelError(kernel, d)
	}
	e.use(torchClampValues)
	ops := [3]*tensor.Tensor{}
	for k, a := range args {
		ops[k] = e.convertArg(a, d)
	}
	out := tensor.New(d, shape...)
	for i := range out.Len() {
		xi, li, hi := broadcastIndex(shape, i, ops[0].Shape), broadcastIndex(shape, i, ops[1].Shape), broadcastIndex(shape, i, ops[2].Shape)
		if !d.IsFloat() {
			src, r := ops[0], xi
			if exactIntValue(src, r).Cmp(exactIntValue(ops[1], li)) < 0 {
				src, r = ops[1], li
			}
			if exactIntValue(src, r).Cmp(exactIntValue(ops[2], hi)) > 0 {
				src, r = ops[2], hi
			}
			copyElem(out, i, src, r)
			continue
		}
		a, l, h := ops[0].Float(xi), ops[1].Float(li), ops[2].Float(hi)
		var r float64
		switch {
		case math.IsNaN(l) || math.IsNaN(h) || math.IsNaN(a):
			r = math.NaN()
		default:
			if a < l {
				r = l
			} else {
				r = a
			}
			if h < r {
				r = h
			}
			if signedZeroTie(a, l) || signedZeroTie(r, h) {
				e.use(torchClampOpen)
				out.SetUnspecified(i)
			}
		}
		out.SetFloat(i, r)
	}
	return tensor.ValueOutcome(out)
}

// intLimit is d's largest (max) or smallest value.
func intLimit(d tensor.DType, max bool) *big.Int {
	switch {
	case max && d.IsUnsigned():
		return new(big.Int).SetUint64(d.MaxUint())
	case max:
		return big.NewInt(d.MaxInt())
	case d.IsUnsigned():
		return new(big.Int)
	}
	return big.NewInt(d.MinInt())
}

// maxFinite is the largest finite value of the float dtype d.
func maxFinite(d tensor.DType) float64 {
	switch d {
	case tensor.F16:
		return 65504
	case tensor.BF16:
		return 0x1.fep127
	case tensor.F32:
		return math.MaxFloat32
	}
	return math.MaxFloat64
}
