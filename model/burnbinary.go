package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn's binary ops: tensor op tensor of one kind (broadcasting within a
// rank) and tensor op scalar (add_scalar, div_scalar, equal_elem, ...).

// burnKind is a tensor's burn kind: 'f' Float, 'i' Int, 'b' Bool.
func burnKind(d tensor.DType) byte {
	switch {
	case d == tensor.Bool:
		return 'b'
	case d.IsInt():
		return 'i'
	}
	return 'f'
}

// burnOpExists reports whether burn spells op for the kind.
func burnOpExists(op string, kind byte) bool {
	switch {
	case op == "floor_div" || op == "trunc_div":
		return false
	case isShift(op):
		return kind == 'i'
	case kind == 'b':
		return op == "eq" || op == "ne"
	case kind == 'f' && (op == "bitwise_and" || op == "bitwise_or" || op == "bitwise_xor"):
		return false
	case kind == 'i' && op == "fmod":
		return false
	}
	return true
}

// burnBinary evaluates the binary family; args are the converted inputs
// (nil for a scalar).
func (e *evaluation) burnBinary(args []*tensor.Tensor) tensor.Outcome {
	op := e.c.Op
	if e.c.Args[0].IsScalar() {
		return e.unsupported(burnKinds, "burn has no scalar-on-the-left %s", op)
	}
	x := args[0]
	if !burnOpExists(op, burnKind(x.DType)) {
		return e.unsupported(burnKinds, "burn has no %s for %s tensors", op, rustName(x.DType))
	}
	y := args[1]
	if y == nil {
		var out *tensor.Outcome
		if y, out = e.burnScalarTensor(e.c.Args[1].Scalar, x); out != nil {
			return *out
		}
	} else if burnKind(x.DType) != burnKind(y.DType) {
		return e.unsupported(burnKinds, "mismatched types: expected Tensor<B, D, %s>, found a %s tensor (E0308)", rustName(x.DType), rustName(y.DType))
	}
	xb, yb, bad := e.burnBroadcast(x, y)
	if bad != nil {
		return *bad
	}
	if x.DType != y.DType && e.c.Args[1].Tensor != nil {
		return e.burnMixedDTypes(x, y)
	}
	if isShift(op) {
		return e.burnShift(op, xb, yb)
	}
	return e.burnElementwise(op, xb, yb)
}

var (
	burnMixed = newRule("burn.binary.mixed-dtypes",
		"two tensors of one kind but different element types (only a program makes them: a cast, a creation dtype) meet in a binary op: ndarray dispatches on the pair of dtypes and panics \"Data type mismatch (lhs: U32, rhs: I64)\"; Flex only debug_asserts that they are equal, so a debug build panics (\"int_binary_op: dtype mismatch\", \"compare: dtype mismatch\", \"binary_op: dtype mismatch\")",
		"burn 2c06be35 crates/burn-ndarray/src/tensor.rs:121-138 (execute_with_dtype: the _ arm panics), crates/burn-ndarray/src/ops/int_tensor.rs:151-185, 489 (int ops through execute_with_int_dtype); crates/burn-flex/src/ops/binary.rs:41, :361 and comparison.rs:33 (debug_assert_eq! of the dtypes)")
	burnMixedRelease = newRule("burn.flex.mixed-dtypes-release",
		"in a release build Flex does not check the dtypes of a binary op's operands: it reads the rhs storage as the lhs element type; what that gives is not stated here",
		"burn 2c06be35 crates/burn-flex/src/ops/binary.rs:357-381 (int_binary_op: binary_op_typed over the lhs dtype); not modeled").silent()
)

// burnMixedDTypes is a binary op of two tensors whose dtypes differ.
func (e *evaluation) burnMixedDTypes(x, y *tensor.Tensor) tensor.Outcome {
	switch {
	case !e.burnFlex():
		e.use(burnMixed)
		return tensor.PanicOutcome("Data type mismatch (lhs: %s, rhs: %s)", rustName(x.DType), rustName(y.DType))
	case e.p.Debug:
		e.use(burnMixed)
		return tensor.PanicOutcome("assertion `left == right` failed: binary op: dtype mismatch (%s, %s)", rustName(x.DType), rustName(y.DType))
	}
	return e.unsupported(burnMixedRelease, "tfuzz: not modeled: Flex release reads a %s operand as %s", rustName(y.DType), rustName(x.DType))
}

// burnBroadcast broadcasts two tensors of the same rank.
func (e *evaluation) burnBroadcast(x, y *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Outcome) {
	if x.Rank() != y.Rank() {
		out := e.unsupported(burnBroadcast, "a Tensor<%d> and a Tensor<%d> do not type-check together", x.Rank(), y.Rank())
		return nil, nil, &out
	}
	shape, _, ok := broadcastShapes(x.Shape, y.Shape)
	if !ok {
		out := e.fail(burnBroadcast, tensor.ShapeMismatch, "Shapes %v and %v are not broadcastable", x.Shape, y.Shape)
		out = tensor.PanicOutcome("%s", out.Message())
		return nil, nil, &out
	}
	expand := func(t *tensor.Tensor) *tensor.Tensor {
		if sameShape(t.Shape, shape) {
			return t
		}
		e.use(burnBroadcast)
		o := tensor.New(t.DType, shape...)
		for i := 0; i < o.Len(); i++ {
			o.SetBits(i, t.Bits(broadcastIndex(shape, i, t.Shape)))
		}
		return o
	}
	return expand(x), expand(y), nil
}

// burnScalarTensor converts a scalar operand (Scalar::new) to x's dtype and
// broadcasts it to x's shape.
func (e *evaluation) burnScalarTensor(s *tensor.Scalar, x *tensor.Tensor) (*tensor.Tensor, *tensor.Outcome) {
	e.use(burnScalar)
	d := x.DType
	one := tensor.New(d, 1)
	switch {
	case s.Kind == tensor.ScalarInt && s.Host == "" && !burnFitsI32(s):
		out := e.rustLitCompileError("literal out of range for `i32` (overflowing_literals)")
		return nil, &out
	case d == tensor.Bool:
		e.use(burnBoolElem)
		one.SetBool(0, s.Kind == tensor.ScalarBool && s.Text == "true" || s.Kind != tensor.ScalarBool && s.Float() != 0)
	case s.Kind == tensor.ScalarBool:
		out := e.burnUnspecified("a bool scalar operand of a Float or Int tensor")
		return nil, &out
	case d.IsFloat():
		one.SetFloat(0, s.Float()) // Scalar::Float(f64), then `as` the element type
	case s.Kind == tensor.ScalarFloat:
		v := s.Float()
		if math.IsNaN(v) || v <= -math.Ldexp(1, 63)-1 || v >= math.Ldexp(1, 63) {
			p := tensor.PanicOutcome("Float cannot be represented in the target signed int type")
			return nil, &p
		}
		one.SetInt(0, int64(math.Trunc(v)))
	default:
		v := s.Int()
		if !v.IsInt64() {
			p := tensor.PanicOutcome("Element cannot be represented in the target type: %q(%s) => \"i64\"", s.Host, s.Text)
			return nil, &p
		}
		one.SetInt(0, v.Int64()) // Flex: `scalar as i32` keeps the low bits
	}
	full := tensor.New(d, x.Shape...)
	for i := 0; i < full.Len(); i++ {
		full.SetBits(i, one.Bits(0))
	}
	return full, nil
}

// burnElementwise computes x op y for tensors of equal shape and dtype.
func (e *evaluation) burnElementwise(op string, x, y *tensor.Tensor) tensor.Outcome {
	outD := x.DType
	if candleIsCmp(op) {
		outD = tensor.Bool
	}
	out := tensor.New(outD, x.Shape...)
	for i := 0; i < x.Len(); i++ {
		var p *tensor.Outcome
		switch {
		case candleIsCmp(op):
			e.use(burnFloatIEEE)
			e.burnCompare(op, x, y, out, i)
		case x.DType.IsInt():
			p = e.burnIntElement(op, x.Uint(i), y.Uint(i), out, i)
		default:
			e.burnFloatElement(op, x.Float(i), y.Float(i), out, i)
		}
		if p != nil {
			return *p
		}
	}
	return tensor.ValueOutcome(out)
}

// burnCompare stores a comparison as a bool.
func (e *evaluation) burnCompare(op string, x, y, out *tensor.Tensor, i int) {
	var lt, eq, unordered bool
	switch {
	case x.DType.IsFloat():
		a, b := x.Float(i), y.Float(i)
		lt, eq, unordered = a < b, a == b, math.IsNaN(a) || math.IsNaN(b)
	default:
		lt, eq = intLess(x.Uint(i), y.Uint(i), x.DType), x.Bits(i) == y.Bits(i)
	}
	gt := !lt && !eq && !unordered
	out.SetBool(i, comparison(op, lt, eq, gt))
}

// burnIntElement stores x op y of integers; a panic is returned.
func (e *evaluation) burnIntElement(op string, a, b uint64, out *tensor.Tensor, i int) *tensor.Outcome {
	d := out.DType
	switch op {
	case "maximum", "minimum":
		pick := a
		if intLess(a, b, d) == (op == "maximum") {
			pick = b
		}
		out.SetUint(i, pick)
		return nil
	case "bitwise_and":
		out.SetUint(i, a&b)
		return nil
	case "bitwise_or":
		out.SetUint(i, a|b)
		return nil
	case "bitwise_xor":
		out.SetUint(i, a^b)
		return nil
	case "pow":
		if !e.burnFlex() {
			out.SetUnspecified(i)
			e.use(burnUnspecified)
			return nil
		}
		e.use(burnFlexIntArith)
		v, _ := intPow(a, uint64(uint32(b)), tensor.I64) // wrapping_pow(b as u32)
		out.SetUint(i, v)
		return nil
	}
	if e.burnFlex() && d != tensor.I64 && d != tensor.U64 {
		return e.burnWidened(op, a, b, out, i)
	}
	return e.burnNativeI64(op, a, b, out, i)
}

// burnWidened is Flex's op(a as i64, b as i64) as T.
func (e *evaluation) burnWidened(op string, a, b uint64, out *tensor.Tensor, i int) *tensor.Outcome {
	e.use(burnFlexIntArith)
	if op == "rem" {
		e.use(burnRemSign)
		op = "remsign"
	}
	r := burnI64Op(op, a, b)
	if r.panics(e.p.Debug) { // a zero divisor; i64 overflow only for u32 * u32
		if r.debugOnly {
			e.use(rustOverflow)
		}
		p := tensor.PanicOutcome("%s", r.panicMsg)
		return &p
	}
	out.SetUint(i, r.v)
	return nil
}

// burnI64Op is an i64 operation of the widened path (rem with the divisor's sign as "remsign").
func burnI64Op(op string, a, b uint64) rustIntResult {
	if op != "remsign" {
		return rustIntBinary(op, a, b, tensor.I64)
	}
	r1 := rustIntBinary("rem", a, b, tensor.I64)
	if r1.panicMsg != "" {
		return r1
	}
	r2 := rustIntBinary("add", r1.v, b, tensor.I64)
	r3 := rustIntBinary("rem", r2.v, b, tensor.I64)
	if r2.panicMsg != "" {
		r3.panicMsg, r3.debugOnly = r2.panicMsg, true
	}
	return r3
}

// burnNativeI64 is I64 arithmetic: Flex native Rust, ndarray's own rules.
func (e *evaluation) burnNativeI64(op string, a, b uint64, out *tensor.Tensor, i int) *tensor.Outcome {
	e.use(burnI64Native)
	if op == "rem" && !e.burnFlex() {
		return e.burnNdarrayRem(a, b, out, i)
	}
	if op == "rem" {
		e.use(burnRemSign)
		op = "remsign"
	}
	r := burnI64Op(op, a, b)
	switch {
	case r.panicMsg == "":
	case !r.debugOnly:
		p := tensor.PanicOutcome("%s", r.panicMsg)
		return &p
	case !e.burnFlex():
		out.SetUnspecified(i)
	case e.p.Debug:
		e.use(rustOverflow)
		p := tensor.PanicOutcome("%s", r.panicMsg)
		return &p
	}
	out.SetUint(i, r.v)
	return nil
}

// burnNdarrayRem is ndarray's a - b * floor(a / b) in f64, converted back.
func (e *evaluation) burnNdarrayRem(a, b uint64, out *tensor.Tensor, i int) *tensor.Outcome {
	e.use(burnRemSign)
	af, bf := float64(int64(a)), float64(int64(b))
	r := af - bf*math.Floor(af/bf)
	if math.IsNaN(r) || r <= -math.Ldexp(1, 63)-1 || r >= math.Ldexp(1, 63) {
		p := tensor.PanicOutcome("Float cannot be represented in the target signed int type")
		return &p
	}
	out.SetInt(i, int64(r))
	return nil
}

// burnFloatElement stores x op y of floats.
func (e *evaluation) burnFloatElement(op string, a, b float64, out *tensor.Tensor, i int) {
	d := out.DType
	e.use(burnFloatIEEE)
	switch op {
	case "add", "sub", "mul", "div":
		out.SetFloat(i, rustFloatOp(op, a, b, d))
	case "fmod":
		out.SetFloat(i, math.Mod(a, b))
	case "rem":
		if !e.burnFlex() && !e.c.Args[1].IsScalar() {
			e.use(burnNdarrayFloatRem)
			q := math.Floor(a / b)
			out.SetFloat(i, a-float64(b*q)) // in f64 (the conversion forbids a fused multiply-add), then `as` the element type
			return
		}
		e.use(burnRemSign)
		out.SetFloat(i, math.Mod(rustFloatOp("add", math.Mod(a, b), b, d), b))
	case "maximum", "minimum":
		if !e.c.Args[1].IsScalar() {
			// max_pair: mask_where(a < b, b); min_pair: mask_where(b < a, b)
			e.use(burnMaxPair)
			v := a
			if op == "maximum" && a < b || op == "minimum" && b < a {
				v = b
			}
			out.SetFloat(i, v)
			return
		}
		v := math.Max(a, b)
		if op == "minimum" {
			v = math.Min(a, b)
		}
		switch {
		case e.burnFlex() && (math.IsNaN(a) || math.IsNaN(b)):
			e.use(burnClampNaN) // Rust f32::max / min return the other operand
			v = a
			if math.IsNaN(a) {
				v = b
			}
		case math.IsNaN(a) || math.IsNaN(b) || a == 0 && b == 0:
			e.use(burnUnspecified)
			out.SetUnspecified(i)
		}
		out.SetFloat(i, v)
	default: // pow: powf through the platform's pow
		e.use(burnUnspecified)
		out.SetUnspecified(i)
	}
}

// burnFitsI32 reports whether an unsuffixed integer literal (type i32) compiles.
func burnFitsI32(s *tensor.Scalar) bool {
	v := s.Int()
	return v.IsInt64() && v.Int64() >= math.MinInt32 && v.Int64() <= math.MaxInt32
}
