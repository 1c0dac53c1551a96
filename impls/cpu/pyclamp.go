package cpu

import (
	"math"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// clamp(x, min, max) in PyTorch (torch.clamp), NumPy (np.clip) and JAX
// (jnp.clip). Where a framework spells clamp as its binary ops (JAX always:
// maximum(min, x) then minimum(max, x); PyTorch and NumPy with one bound:
// maximum or minimum), the engine runs its binary family on them. Otherwise
// one kernel clamps: kClampConst for bounds that are the same everywhere
// (PyTorch's Python-number bounds, np.clip's constant loop), kClipStepped
// for np.clip's stepped loop (pyclip_loop.go), kClampTensor for other
// bounds that vary (tensor bounds, NaN propagating).

func init() {
	attach(pythonProfiles(), tensor.ClassClamp, &family{supports: pyClampSupports, eval: pyClampEval})
}

// clampStep is a binary op of a clamp spelled as binary ops: op of the
// running value and the bound (boundFirst: of the bound and the value).
type clampStep struct {
	op         string
	bound      tensor.Arg
	boundFirst bool
}

// clampPlan is a clamp decided from dtypes, shapes and scalars: steps to
// run as binary ops, or a kernel over the common dtype.
type clampPlan struct {
	p       *profile
	x       *tensor.Tensor // the input as given (the binary steps convert it)
	steps   []clampStep
	args    [3]binArg // x, min, max as the framework holds them
	present [3]bool   // args[k] is given (x always)
	common  tensor.DType
	shape   []int
	// constant: both bounds are the same for every element (kClampConst);
	// nanFill: one of them is NaN, which fills the result with NaN.
	constant, nanFill bool
	// inner: np.clip's loop over float array bounds (clipInnerUnknown
	// otherwise: kClampTensor)
	inner clipInner
}

// pyClampSupports declines complex scalar bounds, NumPy's ints outside
// int64, and what the model leaves unstated (see planClamp).
func pyClampSupports(p *profile, c *tensor.Case) bool {
	if len(c.Args) != 3 || c.Args[0].Tensor == nil || !validTensor(c.Args[0].Tensor) {
		return false
	}
	for _, a := range c.Args[1:] {
		if a.IsNull() {
			continue
		}
		if !validArg(a, true) {
			return false
		}
		if a.Scalar != nil { // JAX's binary steps and PyTorch's checked conversion reject an int outside int64
			if s, ok := parseScalarOrHuge(a.Scalar); !ok || s.huge && p.fw == fwNumPy {
				return false
			}
		}
	}
	_, _, ok := planClamp(p, c)
	return ok
}

func pyClampEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	cp, o, _ := planClamp(p, c)
	if cp == nil {
		return *o
	}
	return cp.run(e)
}

// planClamp reads the arguments and plans the framework's clamp; it returns
// the plan, the outcome the checks decide, or ok false to decline.
func planClamp(p *profile, c *tensor.Case) (cp *clampPlan, o *tensor.Outcome, ok bool) {
	cp = &clampPlan{p: p, x: c.Args[0].Tensor}
	cp.args[0].t, cp.present[0] = c.Args[0].Tensor, true
	for k, a := range c.Args[1:] {
		switch {
		case a.Scalar != nil:
			cp.args[k+1].s, _ = parseScalarOrHuge(a.Scalar)
			cp.present[k+1] = true
		case a.Tensor != nil:
			cp.args[k+1].t = a.Tensor
			cp.present[k+1] = true
		}
	}
	switch p.fw {
	case fwPyTorch:
		return cp.planTorch(c)
	case fwNumPy:
		return cp.planNumPy(c)
	}
	return cp.planJAX(c)
}

// anyComplex reports a complex tensor among the arguments.
func (cp *clampPlan) anyComplex() bool {
	for k, a := range cp.args {
		if cp.present[k] && !a.isScalar() && a.t.DType.IsComplex() {
			return true
		}
	}
	return false
}

// planTorch is torch.clamp (policies pytorch.clamp.bounds,
// pytorch.clamp.values): at least one bound, bounds all numbers or all
// tensors (a mix picks an overload the model does not state), no complex
// operand; one tensor bound is maximum / minimum.
func (cp *clampPlan) planTorch(c *tensor.Case) (*clampPlan, *tensor.Outcome, bool) {
	lo, hi := cp.present[1], cp.present[2]
	if !lo && !hi {
		return nil, outcome(tensor.ErrorOutcome(tensor.Other, "RuntimeError: torch.clamp: At least one of 'min' or 'max' must not be None")), true
	}
	scalars, tensors := 0, 0
	for k := 1; k <= 2; k++ {
		switch {
		case !cp.present[k]:
		case cp.args[k].isScalar():
			scalars++
		default:
			tensors++
		}
	}
	if scalars > 0 && tensors > 0 {
		return nil, nil, false
	}
	if cp.anyComplex() {
		return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType, "RuntimeError: clamp is not supported for complex types")), true
	}
	if tensors > 0 {
		switch {
		case !lo:
			cp.steps = []clampStep{{op: "minimum", bound: c.Args[2]}}
			return cp, nil, true
		case !hi:
			cp.steps = []clampStep{{op: "maximum", bound: c.Args[1]}}
			return cp, nil, true
		}
		if o := cp.broadcast(); o != nil {
			return nil, o, true
		}
		d, promoted := torchResultType(cp.promos()...)
		if !promoted { // policy pytorch.promote.barebones-unsigned
			return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
				"RuntimeError: Promotion for uint16, uint32, uint64 types is not supported")), true
		}
		if d == tensor.Bool || barebonesUnsigned(d) {
			return nil, outcome(torchNoKernel("clamp_cpu", d)), true
		}
		cp.common = d
		return cp, nil, true
	}
	// Python-number bounds: the input's dtype if it is a float, else the
	// promotion of the input with them
	d := cp.x.DType
	if !d.IsFloat() {
		var promoted bool
		if d, promoted = torchResultType(cp.promos()...); !promoted {
			return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
				"RuntimeError: Promotion for uint16, uint32, uint64 types is not supported")), true
		}
	}
	if d == tensor.Bool || barebonesUnsigned(d) {
		return nil, outcome(torchNoKernel("clamp_scalar_cpu", d)), true
	}
	cp.common, cp.shape, cp.constant = d, cp.x.Shape, true
	cp.nanFill = lo && hi && (cp.args[1].isNaN() || cp.args[2].isNaN())
	if cp.nanFill {
		return cp, nil, true
	}
	for k := 1; k <= 2; k++ {
		if cp.present[k] && cp.args[k].s.huge && d.IsFloat() {
			return nil, nil, false // converted from its low 64 bits: not stated here
		}
	}
	for k := 1; k <= 2; k++ {
		if cp.present[k] && !torchNumberFits(cp.args[k].s, d) {
			return nil, outcome(tensor.ErrorOutcome(tensor.OutOfRange, "RuntimeError: value cannot be converted to type %s without overflow", torchName(d))), true
		}
	}
	return cp, nil, true
}

// torchNumberFits is c10's checked conversion of a Python number to the
// clamp's dtype d: an int within an integer dtype, a finite number within a
// float dtype's largest finite magnitude (infinities and NaN convert).
func torchNumberFits(s pyScalar, d tensor.DType) bool {
	if s.huge { // an int outside int64 (an integer d: the caller declines a float one)
		return false
	}
	if s.kind == tensor.ScalarInt && d.IsInt() {
		return intFits(s.i, d)
	}
	limit := largestFinite(d)
	return s.kind == tensor.ScalarBool || math.IsInf(s.f, 0) || !(s.f > limit || s.f < -limit)
}

// largestFinite is the largest finite value of the float dtype d: its
// all-ones significand below the infinite exponent.
func largestFinite(d tensor.DType) float64 {
	switch d {
	case tensor.F16:
		return 0x1.ffcp15
	case tensor.BF16:
		return 0x1.fep127
	case tensor.F32:
		return 0x1.fffffep127
	}
	return math.MaxFloat64
}

// planNumPy is np.clip (policy numpy.clip): a Python-int bound beyond an
// integer input's range is dropped; no bound left is a copy (bool: no
// np.positive loop), one is np.minimum / np.maximum, two the clip ufunc.
func (cp *clampPlan) planNumPy(c *tensor.Case) (*clampPlan, *tensor.Outcome, bool) {
	if cp.anyComplex() {
		return nil, nil, false // complex clip is not stated
	}
	if d := cp.x.DType; d.IsInt() {
		for k := 1; k <= 2; k++ {
			a := &cp.args[k]
			if cp.present[k] && a.isScalar() && a.s.kind == tensor.ScalarInt && beyondRange(a.s.i, d, k == 2) {
				cp.present[k] = false
			}
		}
	}
	lo, hi := cp.present[1], cp.present[2]
	switch {
	case !lo && !hi && cp.x.DType == tensor.Bool:
		return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: ufunc 'positive' did not contain a loop with signature matching types")), true
	case !lo && !hi:
		return cp, nil, true // a copy
	case !lo:
		cp.steps = []clampStep{{op: "minimum", bound: c.Args[2]}}
		return cp, nil, true
	case !hi:
		cp.steps = []clampStep{{op: "maximum", bound: c.Args[1]}}
		return cp, nil, true
	}
	cp.common = numpyResultType(cp.promos()...)
	for k := 1; k <= 2; k++ {
		a := &cp.args[k]
		if !a.isScalar() || a.s.kind != tensor.ScalarInt {
			continue
		}
		if cp.common.IsInt() && !intFits(a.s.i, cp.common) { // policy numpy.scalar.int-out-of-bounds
			return nil, outcome(tensor.ErrorOutcome(tensor.OutOfRange, "OverflowError: Python integer out of bounds for %s", pyName(cp.common))), true
		}
		if !cp.common.IsInt() && cp.common != tensor.Bool {
			return nil, nil, false // a Python int bound of a float clip is not stated
		}
	}
	if o := cp.broadcast(); o != nil {
		return nil, o, true
	}
	cp.constant = cp.args[1].isScalar() && cp.args[2].isScalar()
	cp.nanFill = cp.constant && (cp.args[1].isNaN() || cp.args[2].isNaN())
	if !cp.constant && cp.common.IsFloat() && cp.common != tensor.BF16 {
		cp.inner = cp.numpyClipInner() // bf16 (ml_dtypes' loop): ties not stated
		if cp.common == tensor.F16 {
			cp.inner = clipInnerStepped // both loops compute _NPY_CLIP for half
		}
	}
	return cp, nil, true
}

// beyondRange reports a Python int np.clip drops as a bound of an integer
// array of dtype d: a min at or below d's smallest value, a max at or above
// its largest.
func beyondRange(v int64, d tensor.DType, isMax bool) bool {
	switch {
	case isMax && d.IsUnsigned():
		return v >= 0 && uint64(v) >= d.MaxUint()
	case isMax:
		return v >= d.MaxInt()
	case d.IsUnsigned():
		return v <= 0
	}
	return v <= d.MinInt()
}

// planJAX is jnp.clip (policy jax.clip): maximum(min, x), then
// minimum(max, x), each skipped without its bound; a complex operand is a
// ValueError.
func (cp *clampPlan) planJAX(c *tensor.Case) (*clampPlan, *tensor.Outcome, bool) {
	if cp.anyComplex() {
		return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
			"ValueError: Clip received a complex value either through the input or the min/max keywords.")), true
	}
	if cp.present[1] {
		cp.steps = append(cp.steps, clampStep{op: "maximum", bound: c.Args[1], boundFirst: true})
	}
	if cp.present[2] {
		cp.steps = append(cp.steps, clampStep{op: "minimum", bound: c.Args[2], boundFirst: true})
	}
	return cp, nil, true
}

// promos returns the present arguments as promotion sees them.
func (cp *clampPlan) promos() []pyOperand {
	var ops []pyOperand
	for k := range cp.args {
		if cp.present[k] {
			ops = append(ops, cp.args[k].promo())
		}
	}
	return ops
}

// broadcast sets cp.shape from the present tensors, or returns the error.
func (cp *clampPlan) broadcast() *tensor.Outcome {
	cp.shape = cp.x.Shape
	for k := 1; k <= 2; k++ {
		if !cp.present[k] || cp.args[k].isScalar() {
			continue
		}
		s, ok := broadcastShapes(cp.shape, cp.args[k].t.Shape)
		if !ok {
			return outcome(tensor.ErrorOutcome(tensor.ShapeMismatch, "shapes %v and %v do not broadcast", cp.shape, cp.args[k].t.Shape))
		}
		cp.shape = s
	}
	return nil
}

// isNaN reports a Python float scalar whose value is NaN.
func (a *binArg) isNaN() bool {
	return a.isScalar() && a.s.kind == tensor.ScalarFloat && math.IsNaN(a.s.f)
}

// run evaluates the plan.
func (cp *clampPlan) run(e *Engine) tensor.Outcome {
	switch {
	case len(cp.steps) > 0:
		return cp.runSteps(e)
	case cp.common == tensor.Invalid: // np.clip without bounds; jnp.clip without bounds
		out := pyInput(cp.p, cp.x).Clone()
		if m := wordMask(out.DType); m != math.MaxUint64 { // JAX narrowed to 32 bits
			for i := range out.Data {
				out.Data[i] &= m
			}
		}
		return tensor.ValueOutcome(out)
	case cp.nanFill:
		out := tensor.New(cp.common, cp.shape...)
		nan := floatWord(math.NaN(), cp.common)
		for i := range out.Data {
			out.Data[i] = nan
		}
		return tensor.ValueOutcome(out)
	}
	switch kindOf(cp.common) {
	case kU8:
		return clampRun(e, cp, minOf[uint8](), maxOf[uint8]())
	case kI8:
		return clampRun(e, cp, minOf[int8](), maxOf[int8]())
	case kU16:
		return clampRun(e, cp, minOf[uint16](), maxOf[uint16]())
	case kI16:
		return clampRun(e, cp, minOf[int16](), maxOf[int16]())
	case kU32:
		return clampRun(e, cp, minOf[uint32](), maxOf[uint32]())
	case kI32:
		return clampRun(e, cp, minOf[int32](), maxOf[int32]())
	case kU64:
		return clampRun(e, cp, minOf[uint64](), maxOf[uint64]())
	case kI64:
		return clampRun(e, cp, minOf[int64](), maxOf[int64]())
	case kF32:
		return clampRun(e, cp, float32(math.Inf(-1)), float32(math.Inf(1)))
	}
	return clampRun(e, cp, math.Inf(-1), math.Inf(1))
}

// runSteps runs the binary ops a clamp is spelled with, each on the
// previous one's result.
func (cp *clampPlan) runSteps(e *Engine) tensor.Outcome {
	cur := tensor.Arg{Tensor: cp.x}
	var out tensor.Outcome
	for _, s := range cp.steps {
		args := []tensor.Arg{cur, s.bound}
		if s.boundFirst {
			args[0], args[1] = s.bound, cur
		}
		out = pyBinaryEval(e, cp.p, &tensor.Case{Op: s.op, Args: args})
		if out.Form != tensor.FormValue {
			return out
		}
		cur = tensor.Arg{Tensor: out.Value}
	}
	return out
}

// clampRun converts the operands to the common dtype and runs the kernel:
// kClampConst, an absent (or, for PyTorch, NaN) bound being lowest or
// highest (T's -inf and +inf, or MIN and MAX: a bound that clamps
// nothing), or kClampTensor over the broadcast operands.
func clampRun[T number](e *Engine, cp *clampPlan, lowest, highest T) tensor.Outcome {
	if cp.constant { // the result has x's shape: decoded, clamped and encoded a tile at a time
		lo, hi := lowest, highest
		if cp.present[1] && !cp.args[1].isNaN() {
			lo = scalarAs[T](cp.p, cp.args[1].s, cp.common)
		}
		if cp.present[2] && !cp.args[2].isNaN() {
			hi = scalarAs[T](cp.p, cp.args[2].s, cp.common)
		}
		words, _ := mapWords(e, rowMajorWords(cp.x), cp.x.DType, cp.common, kClampConst(lo, hi))
		return tensor.ValueOutcome(&tensor.Tensor{DType: cp.common, Shape: slices.Clone(cp.shape), Data: words})
	}
	x := argAs[T](cp.p, &cp.args[0], cp.common)
	dst := make([]T, tensor.NumElements(cp.shape))
	if cp.inner == clipInnerFixed && len(dst) > 0 { // np.clip's constant loop: fill NaN, or clamp by the one bound pair
		lo, hi := uniformBound[T](cp, 1), uniformBound[T](cp, 2)
		if lo != lo || hi != hi {
			cp.nanFill = true
			return cp.run(e)
		}
		l := newLayout(cp.shape, viewOf(cp.x))
		runUnary(e, &l, dst, x, kClampConst(lo, hi))
		return tensor.ValueOutcome(encode(e, dst, cp.common, cp.shape))
	}
	lo, hi := argAs[T](cp.p, &cp.args[1], cp.common), argAs[T](cp.p, &cp.args[2], cp.common)
	l := newLayout(cp.shape, cp.args[0].view(), cp.args[1].view(), cp.args[2].view())
	kernel := kClampTensor[T]
	if cp.inner != clipInnerUnknown {
		kernel = kClipStepped[T](cp.common == tensor.F16) // half_tag keeps the first operand on a tie
	}
	runTernary(e, &l, dst, x, lo, hi, kernel)
	return tensor.ValueOutcome(encode(e, dst, cp.common, cp.shape))
}
