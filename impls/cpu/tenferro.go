package cpu

import (
	"math"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// tenferro 0.8 in its three ways of running an op: a TracedTensor graph and
// an eager session, which promote operands by tenferro's lattice, and direct
// Tensor methods, which do not. Integer arithmetic wraps, a zero divisor is
// an error found before computing, a float scalar factor is scale_real, and
// a float -> integer cast checks every value. The model states only these
// ops (binary, neg, abs, cast, from_literal, from_vec); the engine declines
// what it leaves unspecified.

func init() {
	attach(tenferroProfiles, tensor.ClassBinary, tfFamily(tfBinarySupports, tfBinary))
	attach(tenferroProfiles, tensor.ClassUnary, tfFamily(tfUnarySupports, tfUnary))
	attach(tenferroProfiles, tensor.ClassCast, tfFamily(tfCastSupports, tfCast))
	attach(tenferroProfiles, tensor.ClassFromLiteral, tfFamily(tfLiteralSupports,
		func(_ *Engine, _ *profile, c *tensor.Case) tensor.Outcome { return tfFromLiteral(*c.Attrs.Literal) }))
	attach(tenferroProfiles, tensor.ClassFromVec, tfFamily(tfFromVecSupports, tfFromVec))
	// the other classes: only a tensor of a dtype tenferro lacks is answered
	none := func(*profile, *tensor.Case) bool { return false }
	unspecified := func(_ *Engine, _ *profile, c *tensor.Case) tensor.Outcome {
		return tensor.UnsupportedOutcome("cpu engine: %s is unspecified for tenferro", c.Op)
	}
	for _, cl := range []tensor.OpClass{tensor.ClassReduce, tensor.ClassCumsum, tensor.ClassIndexSelect, tensor.ClassToHost} {
		attach(tenferroProfiles, cl, tfFamily(none, unspecified))
	}
}

// tfDType reports tenferro's dtypes: F32 F64 I32 I64 Bool C32 C64.
func tfDType(d tensor.DType) bool {
	switch d {
	case tensor.F32, tensor.F64, tensor.I32, tensor.I64, tensor.Bool, tensor.C64, tensor.C128:
		return true
	}
	return false
}

// tfForeign reports a tensor argument of a dtype tenferro does not have.
func tfForeign(c *tensor.Case) bool {
	for _, a := range c.Args {
		if a.Tensor != nil && !tfDType(a.Tensor.DType) {
			return true
		}
	}
	return false
}

// tfFamily builds a tenferro family: a case with a tensor of a dtype
// tenferro does not have is answered (policy tenferro.dtypes) before the
// op's own support and evaluation.
func tfFamily(supports func(*profile, *tensor.Case) bool, eval func(*Engine, *profile, *tensor.Case) tensor.Outcome) *family {
	return &family{
		supports: func(p *profile, c *tensor.Case) bool {
			if c.Args != nil && !validArgs(c) {
				return false
			}
			return tfForeign(c) || supports(p, c)
		},
		eval: func(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
			for _, a := range c.Args {
				if a.Tensor != nil && !tfDType(a.Tensor.DType) {
					return tensor.UnsupportedOutcome("tenferro has no %s dtype", a.Tensor.DType)
				}
			}
			return eval(e, p, c)
		},
	}
}

// validArgs reports whether every argument is a scalar or a valid tensor.
func validArgs(c *tensor.Case) bool {
	for _, a := range c.Args {
		if a.Scalar == nil && (a.Tensor == nil || !validTensor(a.Tensor)) {
			return false
		}
	}
	return true
}

// tfPromote is tenferro's lattice (policy tenferro.promote.lattice) over
// its dtypes: equal dtypes stay, Bool gives way to anything, and every other
// pair joins as tfJoins says.
func tfPromote(a, b tensor.DType) tensor.DType {
	switch {
	case a == b || b == tensor.Bool:
		return a
	case a == tensor.Bool:
		return b
	}
	return tfJoins[[2]tensor.DType{a, b}]
}

// tfJoins holds the joins of two different non-Bool tenferro dtypes, in
// both orders: I32 and I64 give I64; an integer with a float, and F32 with
// F64, give F64; two complex dtypes give the wider; a complex dtype with
// F32 gives C32 (the case format's c64), with anything else C64 (c128).
var tfJoins = func() map[[2]tensor.DType]tensor.DType {
	const (
		i32, i64, f32, f64, c64, c128 = tensor.I32, tensor.I64, tensor.F32, tensor.F64, tensor.C64, tensor.C128
	)
	joins := map[[2]tensor.DType]tensor.DType{}
	for _, j := range [][3]tensor.DType{
		{i32, i64, i64},
		{i32, f32, f64}, {i32, f64, f64}, {i64, f32, f64}, {i64, f64, f64}, {f32, f64, f64},
		{c64, c128, c128},
		{c64, i32, c128}, {c64, i64, c128}, {c64, f32, c64}, {c64, f64, c128},
		{c128, i32, c128}, {c128, i64, c128}, {c128, f32, c64}, {c128, f64, c128},
	} {
		joins[[2]tensor.DType{j[0], j[1]}] = j[2]
		joins[[2]tensor.DType{j[1], j[0]}] = j[2]
	}
	return joins
}()

// tfBinarySupports declines what the model leaves open: a scalar operand of
// anything but t * f64 (scale_real), scale_real of a Bool tensor or by a
// non-finite factor of a float tensor, floor_div, trunc_div, fmod and the
// bitwise ops, promoted operands of different shapes, Bool arithmetic and
// complex ops other than + - == !=.
func tfBinarySupports(p *profile, c *tensor.Case) bool {
	op := parseOp(c.Op)
	x, y := c.Args[0], c.Args[1]
	if x.Scalar != nil || y.Scalar != nil {
		if op != opMul || x.Scalar != nil {
			return false
		}
		s, d := y.Scalar, x.Tensor.DType
		if s.Kind != tensor.ScalarFloat || s.Host != "" && s.Host != "f64" {
			return true // not scale_real's f64: does not compile
		}
		f := s.Float()
		finite := !math.IsNaN(f) && !math.IsInf(f, 0)
		return d.IsInt() || (d.IsFloat() || d.IsComplex()) && finite
	}
	switch op {
	case opFloorDiv, opTruncDiv, opFmod, opBitAnd, opBitOr, opBitXor, opShl, opShr:
		return false
	}
	a, b := x.Tensor.DType, y.Tensor.DType
	if a != b && p == tfDirect {
		return true // DTypeMismatch
	}
	d := tfPromote(a, b)
	switch {
	case !slices.Equal(x.Tensor.Shape, y.Tensor.Shape):
		return false
	case d == tensor.Bool:
		return op == opEq || op == opNe
	case d.IsComplex():
		return op == opAdd || op == opSub || op == opEq || op == opNe
	}
	return true
}

// tfBinary is the binary family.
func tfBinary(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	op := parseOp(c.Op)
	x := c.Args[0].Tensor
	if s := c.Args[1].Scalar; s != nil {
		return tfScaleReal(e, x, s)
	}
	y := c.Args[1].Tensor
	d := x.DType
	if x.DType != y.DType {
		if p == tfDirect { // policy tenferro.direct.no-promotion
			return tensor.ErrorOutcome(tensor.DTypeMismatch, "%s: dtype mismatch: expected %s, actual %s", c.Op, rustName(x.DType), rustName(y.DType))
		}
		d = tfPromote(x.DType, y.DType)
	}
	if d.IsComplex() {
		return tfComplexBinary(op, x, y, d)
	}
	l := newLayout(x.Shape, viewOf(x), viewOf(y))
	switch d {
	case tensor.Bool:
		return tfCompare[uint8](e, op, x, y, d, &l)
	case tensor.I32:
		return tfIntBinary[int32](e, op, x, y, d, &l)
	case tensor.I64:
		return tfIntBinary[int64](e, op, x, y, d, &l)
	case tensor.F32:
		return tfFloatBinary[float32](e, op, x, y, d, &l)
	}
	return tfFloatBinary[float64](e, op, x, y, d, &l)
}

// tfCompare compares x and y converted to d, into a Bool tensor.
func tfCompare[T number](e *Engine, op opID, x, y *tensor.Tensor, d tensor.DType, l *layout) tensor.Outcome {
	xs, ys := loadInput[T](x, d), loadInput[T](y, d)
	dst := make([]uint8, l.n)
	runBinary(e, l, dst, xs, ys, compareKernel[T](op))
	return tensor.ValueOutcome(encode(e, dst, tensor.Bool, x.Shape))
}

// tfIntBinary is an integer op (policy tenferro.int.wrapping): wrapping +
// - * /, % with the dividend's sign, MIN / -1 = MIN, MIN % -1 = 0; a zero
// divisor is an error, and so is a negative exponent.
func tfIntBinary[T integer](e *Engine, op opID, x, y *tensor.Tensor, d tensor.DType, l *layout) tensor.Outcome {
	if op.isComparison() {
		return tfCompare[T](e, op, x, y, d, l)
	}
	var k binaryKernel[T, T]
	switch op {
	case opAdd:
		k = kAdd[T]
	case opSub:
		k = kSub[T]
	case opMul:
		k = kMul[T]
	case opDiv:
		k = kTruncDiv[T]
	case opRem:
		k = kFmod[T]
	case opPow:
		k = kPowNonNeg[T]
	case opMaximum:
		k = kMaxInt[T]
	default:
		k = kMinInt[T]
	}
	xs, ys := loadInput[T](x, d), loadInput[T](y, d)
	dst := make([]T, l.n)
	f := runBinary(e, l, dst, xs, ys, k)
	switch {
	case e.graphBuild: // value checks happen when the graph runs
	case f&faultZeroDiv != 0:
		return tensor.ErrorOutcome(tensor.ZeroDivision, "%s: division by zero", opName(op))
	case f&faultNegExp != 0:
		return tensor.ErrorOutcome(tensor.Other, "pow: NegativeIntegerExponent")
	}
	return tensor.ValueOutcome(encode(e, dst, d, x.Shape))
}

// tfFloatBinary is a float op (policy tenferro.float.ieee): IEEE + - * / in
// the promoted dtype, NaN-propagating maximum and minimum, comparisons; the
// model leaves rem and pow open (the engine computes Rust's % and powf).
func tfFloatBinary[T floating](e *Engine, op opID, x, y *tensor.Tensor, d tensor.DType, l *layout) tensor.Outcome {
	if op.isComparison() {
		return tfCompare[T](e, op, x, y, d, l)
	}
	var k binaryKernel[T, T]
	switch op {
	case opAdd:
		k = kAdd[T]
	case opSub:
		k = kSub[T]
	case opMul:
		k = kMul[T]
	case opDiv:
		k = kDiv[T]
	case opMaximum:
		k = kMaxNaN[T]
	case opMinimum:
		k = kMinNaN[T]
	case opRem:
		k = kFmodFloat[T]
	default:
		k = kPowf[T]
	}
	xs, ys := loadInput[T](x, d), loadInput[T](y, d)
	dst := make([]T, l.n)
	runBinary(e, l, dst, xs, ys, k)
	return tensor.ValueOutcome(encode(e, dst, d, x.Shape))
}

// tfScaleReal is t.scale_real(factor) (policy tenferro.scale-real): the
// dtype stays; an integer tensor multiplies (wrapping) by the factor rounded
// half away from zero, which must be finite and fit; F32 multiplies by the
// factor as f32, F64 by the factor.
func tfScaleReal(e *Engine, t *tensor.Tensor, s *tensor.Scalar) tensor.Outcome {
	if s.Kind != tensor.ScalarFloat || s.Host != "" && s.Host != "f64" {
		return tensor.UnsupportedOutcome("scale_real takes an f64 factor, not %s", rustScalarType(s))
	}
	f := s.Float()
	d := t.DType
	if d.IsComplex() {
		return tfComplexScale(t, f)
	}
	l := newLayout(t.Shape, viewOf(t), scalarView)
	if d.IsInt() && e.graphBuild { // the factor is checked when the graph runs
		return tensor.ValueOutcome(tensor.New(d, t.Shape...))
	}
	if d.IsInt() {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return tensor.ErrorOutcome(tensor.OutOfRange, "scale_real: invalid argument value: real value must be finite, got %s", tensor.FormatFloat(f))
		}
		r := math.Round(f)
		if r < float64(d.MinInt()) || r >= -float64(d.MinInt()) {
			return tensor.ErrorOutcome(tensor.OutOfRange, "scale_real: invalid argument value: real value %s is out of %s range", tensor.FormatFloat(f), d)
		}
		if d == tensor.I32 {
			return tfScaleRun(e, t, &l, int32(r))
		}
		return tfScaleRun(e, t, &l, int64(r))
	}
	if d == tensor.F32 {
		return tfScaleRun(e, t, &l, float32(f))
	}
	return tfScaleRun(e, t, &l, f)
}

func tfScaleRun[T number](e *Engine, t *tensor.Tensor, l *layout, factor T) tensor.Outcome {
	xs := loadInput[T](t, t.DType)
	dst := make([]T, l.n)
	runBinary(e, l, dst, xs, []T{factor}, kMul[T])
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// tfUnarySupports keeps neg and abs (the unary ops the evidence states) of
// numbers, but not the abs of a complex number.
func tfUnarySupports(p *profile, c *tensor.Case) bool {
	d := c.Args[0].Tensor.DType
	return (c.Op == "neg" || c.Op == "abs" && !d.IsComplex()) && d != tensor.Bool
}

// tfUnary is neg or abs: wrapping_neg / wrapping_abs for integers.
func tfUnary(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	t := c.Args[0].Tensor
	neg := c.Op == "neg"
	switch t.DType {
	case tensor.C64, tensor.C128:
		return tfComplexNeg(t)
	case tensor.I32:
		return tfUnaryRun(e, t, neg, kNeg[int32], kAbsInt[int32])
	case tensor.I64:
		return tfUnaryRun(e, t, neg, kNeg[int64], kAbsInt[int64])
	case tensor.F32:
		return tfUnaryRun(e, t, neg, kNeg[float32], kAbsFloat[float32])
	}
	return tfUnaryRun(e, t, neg, kNeg[float64], kAbsFloat[float64])
}

func tfUnaryRun[T number](e *Engine, t *tensor.Tensor, neg bool, kneg, kabs unaryKernel[T, T]) tensor.Outcome {
	k := kabs
	if neg {
		k = kneg
	}
	src := loadInput[T](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]T, l.n)
	runUnary(e, &l, dst, src, k)
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// tfCastSupports declines a cast of a complex tensor to a float dtype (left
// open by the model).
func tfCastSupports(p *profile, c *tensor.Case) bool {
	from, to := c.Args[0].Tensor.DType, c.Attrs.To
	return !from.IsComplex() || !to.IsFloat() || c.Attrs.Mode == "convert"
}

// tfCast is t.cast(to) (policy tenferro.cast.checked: float -> integer
// checks every value at run time, the rest is Rust `as`) or t.convert(to)
// (tenferro.convert.widening-only: only what the lattice allows).
func tfCast(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	t, to := c.Args[0].Tensor, c.Attrs.To
	from := t.DType
	if !tfDType(to) {
		return tensor.UnsupportedOutcome("tenferro has no %s dtype", to)
	}
	if c.Attrs.Mode == "convert" {
		if tfPromote(from, to) != to {
			prefix := "convert"
			if p == tfTraced {
				prefix = "TracedTensor::convert"
			}
			return tensor.ErrorOutcome(tensor.UnsupportedDType, "%s: unsupported dtype conversion from %s to %s: checked convert only accepts conversions allowed by dtype promotion; use explicit cast for lossy dtype projection",
				prefix, rustName(from), rustName(to))
		}
		if from.IsComplex() || to.IsComplex() {
			return tfComplexCast(e, t, to, false)
		}
		return tensor.ValueOutcome(rustCast(e, t, to))
	}
	if from.IsComplex() || to.IsComplex() {
		return tfComplexCast(e, t, to, to.IsInt() && !e.graphBuild)
	}
	if from.IsFloat() && to.IsInt() && !e.graphBuild {
		if o, bad := tfCastRange(e, t, to); bad {
			return o
		}
	}
	return tensor.ValueOutcome(rustCast(e, t, to))
}

// tfCastRange is the run-time check of a float -> I32/I64 cast: NaN, ±inf
// and values outside [i32::MIN, i32::MAX] (before truncation) or [-2^63,
// 2^63) are an error.
func tfCastRange(e *Engine, t *tensor.Tensor, to tensor.DType) (tensor.Outcome, bool) {
	lo, hi := float64(math.MinInt32), float64(math.MaxInt32)
	if to == tensor.I64 {
		lo, hi = -0x1p63, 0x1p63
	}
	name := map[bool]string{true: "i64", false: "i32"}[to == tensor.I64]
	for _, x := range rustDense[float64](e, t, t.DType) {
		switch {
		case x != x || math.IsInf(x, 0):
			return tensor.ErrorOutcome(tensor.OutOfRange, "cast: invalid argument value: real value must be finite when casting to %s", name), true
		case x < lo || x > hi || to == tensor.I64 && x == hi:
			return tensor.ErrorOutcome(tensor.OutOfRange, "cast: invalid argument value: real value %s is out of %s range", tensor.FormatFloat(x), name), true
		}
	}
	return tensor.Outcome{}, false
}

// tfLiteralSupports declines literals of rank other than 1 (tenferro takes
// a flat Vec and a shape: the model leaves them open).
func tfLiteralSupports(_ *profile, c *tensor.Case) bool {
	if c.Attrs.Literal == nil {
		return false
	}
	lit := compileRustLiteral(*c.Attrs.Literal)
	return lit.reject != "" || len(lit.shape) == 1
}

// tfFromLiteral is Tensor::from_vec_col_major(vec![n], vec![literal...])
// (policy tenferro.create.from-vec): the Vec's element type is the dtype.
func tfFromLiteral(text string) tensor.Outcome {
	lit := compileRustLiteral(text)
	switch {
	case lit.reject != "":
		return rustCompileError(lit.reject)
	case len(lit.shape) != 1:
		return tensor.UnsupportedOutcome("cpu engine: a rank-%d literal is unspecified for tenferro", len(lit.shape))
	}
	d, ok := rustDTypes[lit.typ]
	if !ok || !tfDType(d) {
		return tensor.UnsupportedOutcome("tenferro has no %s element type", lit.typ)
	}
	return tensor.ValueOutcome(rustTokensTensor(lit.toks, d, lit.shape))
}

// tfFromVecSupports declines a data length that does not fill the shape.
func tfFromVecSupports(_ *profile, c *tensor.Case) bool {
	return rustTensorArgs(c, 1) && rustShapeOK(c.Attrs.Shape) && tensor.NumElements(c.Attrs.Shape) == c.Args[0].Tensor.Len()
}

// tfFromVec is Tensor::from_vec_col_major(shape, v).
func tfFromVec(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	return tensor.ValueOutcome(rustReshape(c.Args[0].Tensor, c.Attrs.Shape))
}
