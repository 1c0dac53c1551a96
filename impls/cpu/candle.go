package cpu

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle 0.11's CPU backend (debug and release builds): no promotion and no
// broadcasting in its operators, every f64 scalar operand through affine
// with coefficients cast to the element type, integer overflow left to Rust.
// This file holds the binary family; candle_ops.go the unary and cast
// families, candle_reduce.go reductions, cumsum and index_select,
// candle_create.go the creation ops and to_host.

func init() {
	candleAttach(tensor.ClassBinary, func(*profile, *tensor.Case) bool { return true }, candleBinary)
}

// candleAttach attaches a family to both candle profiles whose eval first
// applies the rule every candle op shares (policy candle.dtypes): a tensor
// of a dtype candle does not have cannot be made.
func candleAttach(cl tensor.OpClass, supports func(*profile, *tensor.Case) bool,
	eval func(*Engine, *profile, *tensor.Case) tensor.Outcome) {
	attach(candleProfiles, cl, &family{supports: supports, eval: func(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
		for _, a := range c.Args {
			if a.Tensor != nil && !candleDType(a.Tensor.DType) {
				return tensor.UnsupportedOutcome("candle has no %s dtype (the trait `WithDType` is not implemented for `%s`)",
					a.Tensor.DType, a.Tensor.DType)
			}
		}
		return eval(e, p, c)
	}})
}

// candleDType reports the dtypes candle has: U8 U32 I16 I32 I64 BF16 F16
// F32 F64.
func candleDType(d tensor.DType) bool {
	switch d {
	case tensor.U8, tensor.U32, tensor.I16, tensor.I32, tensor.I64, tensor.BF16, tensor.F16, tensor.F32, tensor.F64:
		return true
	}
	return false
}

func candleIsCmp(op opID) bool { return op.isComparison() }

// candleBinary is the binary family: tensor op tensor, tensor op f64
// (affine), f64 op tensor, and the typed scalars of maximum, minimum and
// the comparisons.
func candleBinary(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	op := parseOp(c.Op)
	switch {
	case op == opFloorDiv:
		return tensor.UnsupportedOutcome("candle 0.11 has no // (no floor_divide on Tensor)")
	case op == opRem || op == opFmod:
		return tensor.UnsupportedOutcome("candle 0.11 has no remainder (no Rem for Tensor, no remainder / fmod)")
	case op == opTruncDiv:
		return tensor.UnsupportedOutcome("candle has no trunc_div: its integer / truncates")
	case op.isBitwise() || op.isShift():
		return tensor.UnsupportedOutcome("candle 0.11 has no bitwise ops (and no shifts) on Tensor")
	}
	a, b := c.Args[0], c.Args[1]
	switch {
	case a.Scalar != nil || b.Scalar != nil:
		return candleScalarBinary(e, p, op, c)
	case op == opPow:
		return candlePowTensor(e, a.Tensor, b.Tensor)
	}
	return candleTensorBinary(e, p, op, a.Tensor, b.Tensor)
}

// candleOpName is the op name in candle's messages.
func candleOpName(op opID) string {
	if candleIsCmp(op) {
		return "cmp"
	}
	return opName(op)
}

// candleTensorBinary is x op y for two tensors: equal shapes first (policy
// candle.binary.same-shape), an empty arithmetic op returns the lhs
// (candle.binary.empty-returns-lhs), then equal dtypes
// (candle.binary.no-promotion).
func candleTensorBinary(e *Engine, p *profile, op opID, x, y *tensor.Tensor) tensor.Outcome {
	if !slices.Equal(x.Shape, y.Shape) {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "shape mismatch in %s, lhs: %s, rhs: %s",
			candleOpName(op), rustShape(x.Shape), rustShape(y.Shape))
	}
	if x.Len() == 0 && !candleIsCmp(op) {
		return tensor.ValueOutcome(x.Clone())
	}
	if x.DType != y.DType {
		return tensor.ErrorOutcome(tensor.DTypeMismatch, "dtype mismatch in %s, lhs: %s, rhs: %s",
			candleOpName(op), rustName(x.DType), rustName(y.DType))
	}
	l := newLayout(x.Shape, viewOf(x), viewOf(y))
	switch kindOf(x.DType) {
	case kU8:
		return candleIntBinary[uint8](e, p, op, x, y, &l)
	case kU32:
		return candleIntBinary[uint32](e, p, op, x, y, &l)
	case kI16:
		return candleIntBinary[int16](e, p, op, x, y, &l)
	case kI32:
		return candleIntBinary[int32](e, p, op, x, y, &l)
	case kI64:
		return candleIntBinary[int64](e, p, op, x, y, &l)
	case kF32:
		return candleFloatBinary[float32](e, op, x, y, &l)
	}
	return candleFloatBinary[float64](e, op, x, y, &l)
}

// candleIntBinary runs an integer op of the CPU backend (bin_op! closures in
// Rust: + - * checked in a debug build; / panics on a zero divisor and on
// MIN / -1 in every build, policies rust.int.overflow-debug-panics,
// rust.int.div-panics, candle.int.div-trunc).
func candleIntBinary[T integer](e *Engine, p *profile, op opID, x, y *tensor.Tensor, l *layout) tensor.Outcome {
	d := x.DType
	xs, ys := loadInput[T](x, d), loadInput[T](y, d)
	if candleIsCmp(op) {
		return candleCompare(e, op, xs, ys, l, x.Shape)
	}
	var k binaryKernel[T, T]
	switch op {
	case opMaximum:
		k = kMaxInt[T]
	case opMinimum:
		k = kMinInt[T]
	case opDiv:
		k = kTruncDiv[T]
	default:
		k = rustArith[T](op, p.debug)
	}
	dst := make([]T, l.n)
	f := runBinary(e, l, dst, xs, ys, k)
	switch {
	case f&faultZeroDiv != 0:
		return tensor.PanicOutcome("%s", msgDivZero)
	case f&faultMinNeg1 != 0:
		return tensor.PanicOutcome("%s", msgDivOverflow)
	case f&faultOverflow != 0:
		return tensor.PanicOutcome("%s", overflowMsg(op))
	}
	return tensor.ValueOutcome(encode(e, dst, d, x.Shape))
}

// candleFloatBinary runs a float op: IEEE + - * / in the element type (f16
// and bf16 in f32, rounded back: policy candle.float.ieee), the CPU's
// maximum and minimum (candle.binary.minmax), comparisons.
func candleFloatBinary[T floating](e *Engine, op opID, x, y *tensor.Tensor, l *layout) tensor.Outcome {
	d := x.DType
	xs, ys := loadInput[T](x, d), loadInput[T](y, d)
	if candleIsCmp(op) {
		return candleCompare(e, op, xs, ys, l, x.Shape)
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
		k = kMaxLhs[T]
	default:
		k = kMinLhs[T]
	}
	dst := make([]T, l.n)
	runBinary(e, l, dst, xs, ys, k)
	return tensor.ValueOutcome(encode(e, dst, d, x.Shape))
}

// candleCompare writes a comparison as a U8 mask (policy candle.cmp.u8).
func candleCompare[T number](e *Engine, op opID, xs, ys []T, l *layout, shape []int) tensor.Outcome {
	dst := make([]uint8, l.n)
	runBinary(e, l, dst, xs, ys, compareKernel[T](op))
	return tensor.ValueOutcome(encode(e, dst, tensor.U8, shape))
}

// candlePowTensor is x.pow(&y) = (&y * x.log()?)?.exp() (policy
// candle.pow): the log of an integer tensor panics on the CPU; the product
// is checked as a binary op of y and log(x).
func candlePowTensor(e *Engine, x, y *tensor.Tensor) tensor.Outcome {
	if x.Len() != 0 && x.DType.IsInt() {
		return tensor.PanicOutcome("not yet implemented: no unary function for %s", x.DType)
	}
	if !slices.Equal(x.Shape, y.Shape) {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "shape mismatch in mul, lhs: %s, rhs: %s", rustShape(y.Shape), rustShape(x.Shape))
	}
	if y.Len() == 0 {
		return tensor.ValueOutcome(y.Clone())
	}
	if x.DType != y.DType {
		return tensor.ErrorOutcome(tensor.DTypeMismatch, "dtype mismatch in mul, lhs: %s, rhs: %s", rustName(y.DType), rustName(x.DType))
	}
	l := newLayout(x.Shape, viewOf(x), viewOf(y))
	if kindOf(x.DType) == kF64 {
		return candlePowRun[float64](e, x, y, &l)
	}
	return candlePowRun[float32](e, x, y, &l)
}

func candlePowRun[T floating](e *Engine, x, y *tensor.Tensor, l *layout) tensor.Outcome {
	xs, ys := loadInput[T](x, x.DType), loadInput[T](y, y.DType)
	dst := make([]T, l.n)
	runBinary(e, l, dst, xs, ys, kPowExpLog[T])
	return tensor.ValueOutcome(encode(e, dst, x.DType, x.Shape))
}

// candleScalarBinary is a binary op with a host scalar operand (policy
// candle.scalar.f64-only): + - * / take an f64 and become affine; powf takes
// an f64; maximum, minimum and comparisons take a typed scalar converted to
// the tensor's dtype first; nothing else has a scalar form.
func candleScalarBinary(e *Engine, p *profile, op opID, c *tensor.Case) tensor.Outcome {
	left := c.Args[0].Scalar != nil
	s, t := c.Args[1].Scalar, c.Args[0].Tensor
	if left {
		s, t = c.Args[0].Scalar, c.Args[1].Tensor
	}
	f64 := s.Kind == tensor.ScalarFloat && (s.Host == "" || s.Host == "f64")
	switch op {
	case opAdd, opSub, opMul, opDiv:
		if !f64 {
			typ := rustScalarType(s)
			return tensor.UnsupportedOutcome("error[E0277]: the trait bound `%s: Borrow<candle_core::Tensor>` is not satisfied", typ)
		}
		v := s.Float()
		if left && op == opDiv { // s / t = t.recip()? * s
			r := candleRecip(e, t)
			if r.Form != tensor.FormValue {
				return r
			}
			return candleAffine(e, p, r.Value, v, 0)
		}
		side := 0
		if left {
			side = 1
		}
		mul, add := candleAffineOps[op][side](v)
		return candleAffine(e, p, t, mul, add)
	case opPow:
		if left || !f64 {
			return tensor.UnsupportedOutcome("candle has only Tensor::powf(f64) for a scalar exponent")
		}
		return candlePowf(e, t, s.Float())
	}
	if left {
		return tensor.UnsupportedOutcome("a scalar has no %s method taking a Tensor", opName(op))
	}
	st, bad := candleScalarTensor(e, s, t)
	if bad != nil {
		return *bad
	}
	if (op == opMaximum || op == opMinimum) && t.Len() == 0 {
		return tensor.ValueOutcome(t.Clone())
	}
	return candleTensorBinary(e, p, op, t, st)
}

// rustScalarType is the Rust type of a scalar operand: its host type, or
// the type rustc gives a literal of its kind in candle's operator position,
// where a float is f64.
func rustScalarType(s *tensor.Scalar) string {
	if s.Host != "" {
		return s.Host
	}
	if t, ok := rustLiteralKindTypes[s.Kind]; ok {
		return t
	}
	return "f64"
}

var rustLiteralKindTypes = map[tensor.ScalarKind]string{tensor.ScalarBool: "bool", tensor.ScalarInt: "{integer}"}

// affineOf gives t.affine's coefficients for the scalar operand s.
type affineOf func(s float64) (mul, add float64)

// candleAffineOps is how candle's bin_trait! turns t op s ([0]) and s op t
// ([1]) into t.affine(mul, add); s / t is t.recip() * s instead.
var candleAffineOps = map[opID][2]affineOf{
	opAdd: {func(s float64) (float64, float64) { return 1, s }, func(s float64) (float64, float64) { return 1, s }},
	opSub: {func(s float64) (float64, float64) { return 1, -s }, func(s float64) (float64, float64) { return -1, s }},
	opMul: {func(s float64) (float64, float64) { return s, 0 }, func(s float64) (float64, float64) { return s, 0 }},
	opDiv: {func(s float64) (float64, float64) { return 1 / s, 0 }, nil},
}

// candleScalarTensor is the typed scalar of maximum, minimum and the
// comparisons: Tensor::new(s) of its Rust type (an unsuffixed integer is
// i32, a float f64), converted to t's dtype with to_dtype (Rust `as`) and
// broadcast as a one-element operand.
func candleScalarTensor(e *Engine, s *tensor.Scalar, t *tensor.Tensor) (*tensor.Tensor, *tensor.Outcome) {
	fail := func(o tensor.Outcome) (*tensor.Tensor, *tensor.Outcome) { return nil, &o }
	typ := rustScalarType(s)
	switch typ {
	case "{integer}":
		typ = rustDefaults[typ]
	case "bool":
		return fail(tensor.UnsupportedOutcome("the trait `WithDType` is not implemented for `bool`"))
	}
	d, ok := rustDTypes[typ]
	if !ok || !candleDType(d) {
		return fail(tensor.UnsupportedOutcome("the trait `WithDType` is not implemented for `%s`", typ))
	}
	lit, err := readRustLiteral(s.Text)
	if err != nil || !lit.bare {
		return fail(rustCompileError("bad scalar " + s.Text))
	}
	if _, why := rustLiteralType(lit.toks, typ); why != "" {
		return fail(rustCompileError(why))
	}
	host := rustTokensTensor(lit.toks, d, []int{1})
	one := host
	if d != t.DType {
		one = rustCast(e, host, t.DType)
	}
	// a one-element tensor broadcast to t's shape (stride 0 everywhere)
	full := &tensor.Tensor{DType: t.DType, Shape: append([]int{}, t.Shape...), Strides: make([]int, len(t.Shape)), Data: one.Data}
	return full, nil
}

// candleAffine is t.affine(mul, add) on the CPU (policy
// candle.cpu.affine-coefficients-as): both coefficients are converted to the
// element type first (integers: `as`, saturating with NaN -> 0; f16/bf16:
// from_f64, one rounding, which is one of the values the model allows:
// candle.half-from-f64-unpinned), then v * mul + add in the element type.
func candleAffine(e *Engine, p *profile, t *tensor.Tensor, mul, add float64) tensor.Outcome {
	if t.Len() == 0 {
		return tensor.ValueOutcome(t.Clone())
	}
	switch kindOf(t.DType) {
	case kU8:
		return candleAffineInt[uint8](e, p, t, mul, add)
	case kU32:
		return candleAffineInt[uint32](e, p, t, mul, add)
	case kI16:
		return candleAffineInt[int16](e, p, t, mul, add)
	case kI32:
		return candleAffineInt[int32](e, p, t, mul, add)
	case kI64:
		return candleAffineInt[int64](e, p, t, mul, add)
	case kF64:
		return candleAffineRun(e, t, kAffineFloat(mul, add))
	}
	switch t.DType {
	case tensor.F16:
		return candleAffineRun(e, t, kAffineF16(roundF16From64(mul), roundF16From64(add)))
	case tensor.BF16:
		return candleAffineRun(e, t, kAffineBF16(roundBF16From64(mul), roundBF16From64(add)))
	}
	return candleAffineRun(e, t, kAffineFloat(float32(mul), float32(add)))
}

// rustAsInt converts x to the integer type T with Rust's `as`.
func rustAsInt[T integer](x float64) T {
	w := bitsOf[T]()
	if isSigned[T]() {
		return T(satSigned(x, w))
	}
	return T(satUnsigned(x, w))
}

func candleAffineInt[T integer](e *Engine, p *profile, t *tensor.Tensor, mul, add float64) tensor.Outcome {
	k := kAffineInt(rustAsInt[T](mul), rustAsInt[T](add), p.debug)
	src := loadInput[T](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]T, l.n)
	if runUnary(e, &l, dst, src, k)&faultOverflow != 0 {
		return tensor.PanicOutcome("%s", msgMulOverflow)
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

func candleAffineRun[T floating](e *Engine, t *tensor.Tensor, k unaryKernel[T, T]) tensor.Outcome {
	src := loadInput[T](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]T, l.n)
	runUnary(e, &l, dst, src, k)
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// candleRecip is t.recip(): an integer tensor hits the CPU's missing
// integer unary function (policy candle.cpu.int-unary-todo).
func candleRecip(e *Engine, t *tensor.Tensor) tensor.Outcome {
	if t.Len() == 0 {
		return tensor.ValueOutcome(t.Clone())
	}
	if t.DType.IsInt() {
		return tensor.PanicOutcome("not yet implemented: no unary function for %s", t.DType)
	}
	return candleFloatUnary(e, t, rustOpRecip)
}

// candlePowf is t.powf(v): an Err for integer tensors (policy candle.pow).
func candlePowf(e *Engine, t *tensor.Tensor, v float64) tensor.Outcome {
	if t.Len() == 0 {
		return tensor.ValueOutcome(t.Clone())
	}
	if t.DType.IsInt() {
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "unsupported dtype %s for op powf", rustName(t.DType))
	}
	l := newLayout(t.Shape, viewOf(t), scalarView)
	if kindOf(t.DType) == kF64 {
		return candlePowfRun[float64](e, t, &l, v)
	}
	return candlePowfRun[float32](e, t, &l, v)
}

func candlePowfRun[T floating](e *Engine, t *tensor.Tensor, l *layout, v float64) tensor.Outcome {
	xs := loadInput[T](t, t.DType)
	es := []T{T(v)} // powf(e as f32) for f32; the half types compute in f32 too
	dst := make([]T, l.n)
	runBinary(e, l, dst, xs, es, kPowf[T])
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}
