package cpu

import (
	"github.com/tfuzz/tfuzz/tensor"
	"slices"
)

// The binary family of PyTorch, NumPy and JAX: each framework's checks in the
// order it makes them, promotion (promote.go), then one run over typed
// buffers (pybinary_run.go). Planning looks at dtypes, shapes and scalars
// only; value-dependent outcomes come from kernel faults.

func init() {
	attach(pythonProfiles(), tensor.ClassBinary, &family{supports: pyBinarySupports, eval: pyBinaryEval})
}

// pyBinarySupports declines complex operands, Python ints outside int64
// and (JAX's integer_pow) 0-dim u64 exponents beyond int64.
func pyBinarySupports(p *profile, c *tensor.Case) bool {
	if y := c.Args[1].Tensor; p.fw == fwJAX && p.x64 && c.Op == "pow" && y != nil && y.Rank() == 0 &&
		y.DType == tensor.U64 && len(y.Data) > y.Offset && int64(y.Data[y.Offset]) < 0 {
		return false
	}
	op := parseOp(c.Op)
	for pos, a := range c.Args {
		if a.Scalar != nil {
			s, ok := parseScalarOrHuge(a.Scalar)
			if !ok || s.huge && hugeIntOutcome(p, op, pos) == nil || s.kind == tensor.ScalarComplex && !complexRejected(p, op) {
				return false
			}
		} else if a.Tensor.DType.IsComplex() && !complexRejected(p, op) {
			return false
		}
	}
	return true
}

// complexRejected reports the ops a framework has no complex form of, so
// that a complex tensor operand is a dtype error the engine answers
// without complex arithmetic: the bitwise ops and shifts everywhere, and
// PyTorch's maximum and minimum (policy pytorch.maximum.complex).
func complexRejected(p *profile, op opID) bool {
	return op.isBitwise() || op.isShift() || p.fw == fwPyTorch && (op == opMaximum || op == opMinimum)
}

// hugeIntOutcome is the outcome of a Python int outside int64 at operand
// pos, for the frameworks that reject it first: PyTorch after its check
// for a number where a tensor must be (policy pytorch.scalar.int64-range:
// "Overflow when unpacking long"), JAX when it parses the jitted argument
// (jax.scalar.int-out-of-range; not pow's exponent, which it does not
// parse). nil where the engine does not state it (NumPy, which takes ints
// up to 2**64 - 1 for uint64).
func hugeIntOutcome(p *profile, op opID, pos int) *tensor.Outcome {
	switch {
	case p.fw == fwPyTorch && torchTensorOnly(op, pos):
		return outcome(tensor.ErrorOutcome(tensor.Other, "TypeError: %s(): argument must be Tensor", opName(op)))
	case p.fw == fwPyTorch:
		return outcome(tensor.ErrorOutcome(tensor.OutOfRange, "RuntimeError: Overflow when unpacking long"))
	case p.fw == fwJAX && !(op == opPow && pos == 1):
		return jaxIntOverflow(p, pyScalar{kind: tensor.ScalarInt, huge: true})
	}
	return nil
}

// torchTensorOnly reports a Python number at position pos where the torch
// function spelling op takes a tensor only (policy
// pytorch.binary.tensor-only): torch.maximum and torch.minimum take none,
// torch.fmod and torch.div(rounding_mode=) one only as the second argument.
func torchTensorOnly(op opID, pos int) bool {
	return op == opMaximum || op == opMinimum || pos == 0 && (op == opFmod || op == opTruncDiv)
}

// complexBitwise is an op of a complex tensor or number that the framework
// does not have (complexRejected: policies pytorch.coverage.no-kernel,
// python.bitwise.float, pytorch.maximum.complex): a TypeError in NumPy
// before the shapes are looked at; in PyTorch and JAX the shapes broadcast
// first, JAX parses its Python ints before that, and PyTorch refuses a
// Python number of torch.maximum before anything. ok is false when no
// operand is complex.
func (b *binPlan) complexBitwise() (o *tensor.Outcome, ok bool) {
	complexArg := false
	for _, a := range b.args {
		complexArg = complexArg || a.t != nil && a.t.DType.IsComplex() || a.t == nil && a.s.kind == tensor.ScalarComplex
	}
	if !complexArg || !complexRejected(b.p, b.op) {
		return nil, false
	}
	noLoop := outcome(tensor.ErrorOutcome(tensor.UnsupportedDType, "%s is not defined for complex operands", opName(b.op)))
	if b.p.fw == fwNumPy {
		return noLoop, true
	}
	if pos := b.scalarArg(); b.p.fw == fwPyTorch && pos >= 0 && torchTensorOnly(b.op, pos) {
		return outcome(tensor.ErrorOutcome(tensor.Other, "TypeError: %s(): argument must be Tensor", opName(b.op))), true
	}
	if pos := b.scalarArg(); b.p.fw == fwJAX && pos >= 0 {
		if o := jaxIntOverflow(b.p, b.args[pos].s); o != nil {
			return o, true
		}
	}
	if o := b.broadcast(); o != nil {
		return o, true
	}
	return noLoop, true
}

// binArg is one operand: a tensor as the framework holds it, or a scalar.
type binArg struct {
	t *tensor.Tensor // nil for a scalar
	s pyScalar
}

func (a *binArg) isScalar() bool { return a.t == nil }

// promo returns the operand as promotion sees it.
func (a *binArg) promo() pyOperand {
	if a.t == nil {
		return pyOperand{scalar: true, kind: a.s.kind}
	}
	return pyOperand{dtype: a.t.DType, zeroD: a.t.Rank() == 0}
}

// binPlan is a binary op decided from dtypes and shapes.
type binPlan struct {
	p      *profile
	op     opID
	args   [2]binArg
	common tensor.DType // the promoted dtype of the operands
	// compute is the dtype the operands are converted to; result the
	// output's dtype (bool for comparisons, f32/f64 for true division of
	// integers).
	compute, result tensor.DType
	shape           []int
	// opmath is the operand PyTorch's kernel reads at f32 from its original
	// value instead of its f16/bf16 conversion (-1: none).
	opmath int
	// intPowExp is set when JAX's lax.integer_pow runs (exponent a Python
	// int or bool, or a 0-dim integer array).
	intPowExp *int64
	// jaxFmodRaw: jnp.fmod of bools keeps a zero divisor (XLA x % 0 = x).
	jaxFmodRaw bool
	// shortcut: PyTorch's pow without a kernel.
	shortcut powShortcut
	// signedUnsigned: NumPy's exact comparison of a signed with an unsigned
	// integer array, whose promotion would be a float.
	signedUnsigned bool
	// predSelect is the bool operand (0 or 1) of a JAX float mul or div that
	// XLA computes as select(pred, ..., +0); -1 for none.
	predSelect int
}

func pyBinaryEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	op := parseOp(c.Op)
	if op == opTruncDiv && p.fw != fwPyTorch { // policy python.trunc-div.none
		return tensor.UnsupportedOutcome("%s has no truncating division", fwName(p.fw))
	}
	b := &binPlan{p: p, op: op, opmath: -1, predSelect: -1}
	for k, a := range c.Args {
		if a.Scalar != nil {
			if b.args[k].s, _ = parseScalarOrHuge(a.Scalar); b.args[k].s.huge {
				return *hugeIntOutcome(p, op, k)
			}
		} else {
			b.args[k].t = pyInput(p, a.Tensor)
		}
	}
	if o, ok := b.complexBitwise(); ok {
		return *o
	}
	var o *tensor.Outcome
	switch p.fw {
	case fwPyTorch:
		o = b.torchPrepare()
	case fwNumPy:
		o = b.numpyPrepare()
	default:
		o = b.jaxPrepare()
	}
	if o != nil {
		return *o
	}
	return b.run(e)
}

func outcome(o tensor.Outcome) *tensor.Outcome { return &o }

// scalarArg returns the position of the scalar operand, or -1.
// divisorSpread reports a divisor XLA's CPU pipeline sees as broadcast to
// the output: a Python scalar over a dimensioned output, or an array whose
// shape is not the output's (policy jax.cpu.div-by-scalar).
func (b *binPlan) divisorSpread() bool {
	d := b.args[1]
	if d.isScalar() {
		return len(b.shape) != 0
	}
	return !slices.Equal(d.t.Shape, b.shape)
}

func (b *binPlan) scalarArg() int {
	for k := range b.args {
		if b.args[k].isScalar() {
			return k
		}
	}
	return -1
}

// broadcast sets b.shape or returns the shape error (policy python.broadcast).
func (b *binPlan) broadcast() *tensor.Outcome {
	x, y := b.args[0].t, b.args[1].t
	switch {
	case x == nil:
		b.shape = append([]int{}, y.Shape...)
		return nil
	case y == nil:
		b.shape = append([]int{}, x.Shape...)
		return nil
	}
	s, ok := broadcastShapes(x.Shape, y.Shape)
	if ok {
		b.shape = s
		return nil
	}
	return outcome(tensor.ErrorOutcome(tensor.ShapeMismatch, "shapes %v and %v do not broadcast", x.Shape, y.Shape))
}

// broadcastShapes is the NumPy-style broadcast of two shapes: the longer
// one, with each of the shorter one's dims (aligned at the last) laid over
// it where that dim is 1; other dims must agree or be 1.
func broadcastShapes(a, b []int) ([]int, bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := append(make([]int, 0, len(a)), a...)
	over := out[len(a)-len(b):]
	for k, db := range b {
		if over[k] == 1 {
			over[k] = db
		} else if db != 1 && db != over[k] {
			return nil, false
		}
	}
	return out, true
}

// setDTypes sets the common, compute and result dtypes; intDiv is the float
// true division of integers computes in (policy python.div.int-to-float).
func (b *binPlan) setDTypes(common, intDiv tensor.DType) {
	b.common = common
	if b.compute = common; b.op == opDiv && !common.IsFloat() {
		b.compute = intDiv
	}
	if b.result = b.compute; b.op.isComparison() {
		b.result = tensor.Bool
	}
}

// usesIntLoopForBool lists the ops NumPy and JAX run on integers for bools.
func (b *binPlan) usesIntLoopForBool() bool {
	return b.op == opFloorDiv || b.op == opRem || b.op == opFmod || b.op == opPow || b.op.isShift()
}

// ---------------------------------------------------------------- PyTorch

func (b *binPlan) torchPrepare() *tensor.Outcome {
	pos := b.scalarArg()
	if pos >= 0 && torchTensorOnly(b.op, pos) {
		return outcome(tensor.ErrorOutcome(tensor.Other, "TypeError: %s(): argument must be Tensor", opName(b.op)))
	}
	if b.op == opSub { // policy pytorch.sub.bool
		for k := range b.args {
			a := &b.args[k]
			if a.isScalar() && a.s.kind == tensor.ScalarBool || !a.isScalar() && a.t.DType == tensor.Bool {
				return outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
					"RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported."))
			}
		}
	}
	if b.op == opPow && pos == 1 && b.args[1].s.kind == tensor.ScalarInt && b.args[1].s.i < 0 {
		if d := b.args[0].t.DType; !d.IsFloat() { // policy pytorch.pow.negative-int-exponent
			return outcome(tensor.ErrorOutcome(tensor.Other, "RuntimeError: Integers to negative integer powers are not allowed."))
		}
	}
	if o := b.broadcast(); o != nil {
		return o
	}
	common, ok := torchResultType(b.args[0].promo(), b.args[1].promo())
	if !ok { // policy pytorch.promote.barebones-unsigned
		return outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
			"RuntimeError: Promotion for uint16, uint32, uint64 types is not supported"))
	}
	b.setDTypes(common, tensor.F32)
	if b.op == opPow && pos >= 0 {
		if b.shortcut = torchPowShortcut(pos, b.args[pos].s); b.shortcut != noShortcut {
			return nil
		}
	}
	if k := torchMissingKernel(b.op, b.compute); k != "" {
		return outcome(torchNoKernel(k, b.compute))
	}
	if b.compute == tensor.Bool && (b.op == opFloorDiv || b.op == opRem || b.op == opFmod) {
		// policy pytorch.coverage.bool-division
		k := "div_floor_cpu"
		switch b.op {
		case opRem:
			k = "remainder_cpu"
		case opFmod:
			k = "fmod_cpu"
		}
		return outcome(torchNoKernel(k, tensor.Bool))
	}
	b.setOpmath()
	return nil
}

// powShortcut is how PyTorch answers pow without a kernel.
type powShortcut uint8

const (
	noShortcut powShortcut = iota
	fillOnes               // pow(t, 0 or False), 1 ** t
	copyBase               // pow(t, 1 or True)
)

// torchPowShortcut returns the shortcut for a scalar at position pos
// (policy pytorch.pow.shortcut): dtypes without a pow kernel succeed.
func torchPowShortcut(pos int, s pyScalar) powShortcut {
	switch {
	case pos == 1 && s.f == 0:
		return fillOnes
	case pos == 1 && s.f == 1:
		return copyBase
	case pos == 0 && s.kind != tensor.ScalarBool && s.f == 1:
		return fillOnes
	}
	return noShortcut
}

// setOpmath finds the operand PyTorch's CPU kernels read at f32 from its
// original value when the computation dtype is f16 or bf16: the second
// operand the kernel sees (iter.is_scalar(2)) of mul, div, floor_div and
// trunc_div, when it has one element (policy pytorch.scalar.opmath-original).
// Python reflects a left scalar of mul and div (s / t is reciprocal(t) * s),
// so there the scalar is that operand.
func (b *binPlan) setOpmath() {
	if !isHalf(b.compute) {
		return
	}
	switch b.op {
	case opMul, opDiv, opFloorDiv, opTruncDiv:
	default:
		return
	}
	second := 1
	if (b.op == opMul || b.op == opDiv) && b.args[0].isScalar() {
		second = 0
	}
	if a := &b.args[second]; a.isScalar() || a.t.Len() == 1 {
		b.opmath = second
	}
}

// ---------------------------------------------------------------- NumPy

func (b *binPlan) numpyPrepare() *tensor.Outcome {
	common := numpyResultType(b.args[0].promo(), b.args[1].promo())
	b.setDTypes(common, tensor.F64)
	if b.op.isComparison() && !b.args[0].isScalar() && !b.args[1].isScalar() && !common.IsInt() &&
		b.args[0].t.DType.IsInt() && b.args[1].t.DType.IsInt() {
		b.signedUnsigned = true // policy numpy.compare.signed-unsigned: the int64/uint64 loops
	}
	if pos := b.scalarArg(); pos >= 0 && b.args[pos].s.kind == tensor.ScalarInt && common.IsInt() &&
		b.op != opDiv && !b.op.isComparison() && !intFits(b.args[pos].s.i, common) {
		// policy numpy.scalar.int-out-of-bounds
		return outcome(tensor.ErrorOutcome(tensor.OutOfRange, "OverflowError: Python integer out of bounds for %s", pyName(common)))
	}
	switch {
	case b.op == opSub && common == tensor.Bool: // policy numpy.sub.bool
		return outcome(tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: numpy boolean subtract is not supported"))
	case b.usesIntLoopForBool() && common == tensor.Bool: // policy numpy.bool-as-int8
		b.compute, b.result = tensor.I8, tensor.I8
	case (b.op.isBitwise() || b.op.isShift()) && common.IsFloat(): // policies python.bitwise.float, numpy.shift.out-of-range
		return outcome(tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: ufunc '%s' not supported for the input types", opName(b.op)))
	}
	return b.broadcast()
}

// intFits reports whether v is a value of the integer dtype d.
func intFits(v int64, d tensor.DType) bool {
	if d.IsSigned() {
		return v >= d.MinInt() && v <= d.MaxInt()
	}
	return v >= 0 && uint64(v) <= d.MaxUint()
}

// ---------------------------------------------------------------- JAX

func (b *binPlan) jaxPrepare() *tensor.Outcome {
	// a Python int exponent of ** is not parsed as a jitted argument
	if pos := b.scalarArg(); pos >= 0 && !(b.op == opPow && pos == 1) {
		if o := jaxIntOverflow(b.p, b.args[pos].s); o != nil {
			return o
		}
	}
	if b.op == opPow {
		if o, taken := b.jaxIntegerPow(); taken {
			return o
		}
	}
	common := jaxResultType(b.p.x64, b.args[0].promo(), b.args[1].promo())
	intDiv := tensor.F32
	if common.Bits() == 64 { // to_inexact_dtype
		intDiv = tensor.F64
	}
	b.setDTypes(common, intDiv)
	if o := b.broadcast(); o != nil {
		return o
	}
	switch {
	case b.op == opSub && common == tensor.Bool: // policy jax.sub.bool
		return outcome(tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: sub does not accept dtype bool"))
	case b.usesIntLoopForBool() && common == tensor.Bool: // policy jax.bool-as-int32
		b.compute, b.result = tensor.I32, tensor.I32
		b.jaxFmodRaw = true
	case (b.op.isBitwise() || b.op.isShift()) && common.IsFloat(): // policies python.bitwise.float, jax.shift.out-of-range
		return outcome(tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: %s does not accept dtype %s", opName(b.op), pyName(common)))
	case b.compute.IsFloat() && (b.op == opMul || b.op == opDiv):
		b.predSelect = b.boolOperandSelected()
	}
	return nil
}

// boolOperandSelected finds the operand XLA's algebraic simplifier turns
// into a select (policies jax.mul.bool-array-select,
// jax.div.bool-array-reciprocal): for mul, a bool array that needs no
// broadcast; for div, such a numerator of rank >= 1 over a divisor that is
// a Python scalar or a 0-dim array, or (on the CPU, the only device here)
// any divisor broadcast to the output.
func (b *binPlan) boolOperandSelected() int {
	for k := range 2 {
		t := b.args[k].t
		if t == nil || t.DType != tensor.Bool || !slices.Equal(t.Shape, b.shape) {
			continue
		}
		switch divisor := b.args[1-k]; {
		case b.op == opMul:
			return k
		case b.op == opDiv && k == 0 && len(b.shape) > 0 && (divisor.isScalar() || divisor.t.Rank() == 0):
			return k
		case b.op == opDiv && k == 0 && b.divisorSpread(): // the CPU's reciprocal rewrite, then the select
			return k
		}
	}
	return -1
}

// jaxIntOverflow is the error of a Python int a jitted JAX function cannot
// parse, beyond int32 without x64 and int64 with it (policy
// jax.scalar.int-out-of-range), or nil.
func jaxIntOverflow(p *profile, s pyScalar) *tensor.Outcome {
	limit := tensor.I32
	if p.x64 {
		limit = tensor.I64
	}
	if s.kind != tensor.ScalarInt || !s.huge && intFits(s.i, limit) {
		return nil
	}
	return outcome(tensor.ErrorOutcome(tensor.OutOfRange,
		"OverflowError: An overflow was encountered while parsing an argument to a jitted computation"))
}

// jaxIntegerPow takes jnp.power's lax.integer_pow path when the exponent is
// a Python int or bool, or a 0-dim integer array: the result has the numeric
// dtype of the base alone (policy jax.pow.integer-pow).
func (b *binPlan) jaxIntegerPow() (*tensor.Outcome, bool) {
	y := &b.args[1]
	var n int64
	switch {
	case y.isScalar() && y.s.kind != tensor.ScalarFloat:
		n = y.s.i
	case !y.isScalar() && y.t.Rank() == 0 && y.t.DType.IsInt():
		n = int64(y.t.Data[y.t.Offset])
		if y.t.DType.IsSigned() {
			sh := 64 - y.t.DType.Bits()
			n = n << sh >> sh
		} else if y.t.DType.Bits() < 64 {
			n &= 1<<y.t.DType.Bits() - 1
		}
		// a u64 exponent beyond int64 is declined by pyBinarySupports
	default:
		return nil, false
	}
	b.intPowExp = &n
	base := &b.args[0]
	var d tensor.DType
	switch {
	case !base.isScalar():
		d = base.t.DType
	case base.s.kind == tensor.ScalarBool:
		d = tensor.Bool
	case base.s.kind == tensor.ScalarInt:
		d = tensor.I64 // a weak int takes the default int dtype
	default:
		d = tensor.F64
	}
	if !b.p.x64 {
		d = narrow32(d)
	}
	b.common, b.compute, b.result = d, d, d
	if d == tensor.Bool { // jax.dtypes.to_numeric_dtype
		b.compute, b.result = tensor.I32, tensor.I32
	}
	if b.compute.IsInt() && n < 0 {
		return outcome(tensor.ErrorOutcome(tensor.Other, "TypeError: Integers cannot be raised to negative powers")), true
	}
	if base.isScalar() {
		b.shape = []int{}
	} else {
		b.shape = append([]int{}, base.t.Shape...)
	}
	return nil, true
}
