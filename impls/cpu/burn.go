package cpu

import (
	"math"
	"strconv"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn 0.22: the Flex backend (debug and release builds) and the ndarray
// backend. A burn tensor has a kind (Float, Int, Bool) fixed in its Rust
// type, and host data becomes the device's default dtype of that kind (Flex:
// F32 and I32, ndarray: F32 and I64), so every input is converted first.
// Flex computes I32 arithmetic in i64 and truncates (no overflow panic even
// in debug); I64 is native Rust. This file holds the input conversion and
// the binary family; burn_ops.go the other op families, burn_create.go the
// creation ops and to_host.

func init() {
	burnAttach(tensor.ClassBinary, burnBinarySupports, burnBinary)
}

// burnFlex reports the Flex backend (else ndarray).
func burnFlex(p *profile) bool { return p != burnNdarray }

// burnIntDType is the device's default Int dtype.
func burnIntDType(p *profile) tensor.DType {
	if burnFlex(p) {
		return tensor.I32
	}
	return tensor.I64
}

// burnAttach attaches a family to the burn profiles whose eval first turns
// every tensor argument into the tensor burn makes of that host data.
func burnAttach(cl tensor.OpClass, supports func(*profile, *tensor.Case) bool,
	eval func(*Engine, *profile, *tensor.Case, []*tensor.Tensor) tensor.Outcome) {
	supported := func(p *profile, c *tensor.Case) bool {
		return (cl == tensor.ClassCast || burnDefaultDTypes(p, c)) && supports(p, c)
	}
	attach(burnProfiles, cl, &family{supports: supported, eval: func(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
		args := make([]*tensor.Tensor, len(c.Args))
		for k, a := range c.Args {
			if a.Tensor == nil {
				continue
			}
			if a.Result { // a program's earlier result is a burn tensor already
				args[k] = a.Tensor
				continue
			}
			t, bad := burnInput(e, p, a.Tensor)
			if bad != nil {
				return *bad
			}
			args[k] = t
		}
		return eval(e, p, c, args)
	}})
}

// burnDefaultDTypes reports whether every earlier result a program step
// reads has a dtype the engine's burn kernels are written for (F32, I32,
// I64, Bool: what host data becomes on either device); a cast or a
// creation dtype makes others, which it declines (only cast takes any).
func burnDefaultDTypes(_ *profile, c *tensor.Case) bool {
	for _, a := range c.Args {
		switch {
		case !a.Result:
		case a.Tensor.DType == tensor.F32, a.Tensor.DType == tensor.Bool, a.Tensor.DType == tensor.I32, a.Tensor.DType == tensor.I64:
		default:
			return false
		}
	}
	return true
}

// burnTensorDType is the dtype argument a has as a burn tensor: an earlier
// result's own, host data's the device default of its kind.
func burnTensorDType(p *profile, a tensor.Arg) tensor.DType {
	switch d := a.Tensor.DType; {
	case a.Result, d == tensor.Bool:
		return d
	case d.IsInt():
		return burnIntDType(p)
	}
	return tensor.F32
}

// burnInput is Tensor::from_data(host data, &device) (policy
// burn.create.device-default-dtype): Float data becomes F32 (rounded), Int
// data the device's Int dtype, where a value that does not fit panics;
// burn has no rank-0 tensors (burn.create.rank-at-least-1) and no complex
// dtype.
func burnInput(e *Engine, p *profile, t *tensor.Tensor) (*tensor.Tensor, *tensor.Outcome) {
	fail := func(o tensor.Outcome) (*tensor.Tensor, *tensor.Outcome) { return nil, &o }
	switch {
	case t.DType.IsComplex():
		return fail(tensor.UnsupportedOutcome("burn has no complex dtype"))
	case t.Rank() == 0:
		return fail(tensor.UnsupportedOutcome("burn has no rank-0 tensors"))
	case t.DType == tensor.Bool:
		return t, nil
	}
	to := tensor.F32
	if t.DType.IsInt() {
		to = burnIntDType(p)
		if i, ok := burnFits(t, to); !ok {
			return fail(tensor.PanicOutcome("Element cannot be represented in the target type: %q(%s) => %q",
				t.DType.String(), t.ElementString(i), to.String()))
		}
	}
	if t.DType == to {
		return t, nil
	}
	return rustCast(e, t, to), nil
}

// burnFits reports whether every element of the integer tensor t is a value
// of the signed dtype to, or the first element that is not.
func burnFits(t *tensor.Tensor, to tensor.DType) (int, bool) {
	lo, hi := to.MinInt(), to.MaxInt()
	for i, w := range rustWords(t) {
		v := int64(w)
		switch {
		case t.DType.IsSigned():
			sh := 64 - t.DType.Bits()
			v = int64(w<<sh) >> sh
		case w > math.MaxInt64:
			return i, false
		}
		if v < lo || v > hi {
			return i, false
		}
	}
	return 0, true
}

// burnKind is a dtype's burn kind: 'f' Float, 'i' Int, 'b' Bool.
func burnKind(d tensor.DType) byte {
	switch {
	case d == tensor.Bool:
		return 'b'
	case d.IsInt():
		return 'i'
	}
	return 'f'
}

// burnOpExists reports whether burn spells op for the kind (policy
// burn.binary.kinds): no //, no trunc_div, Bool only ==, !=, Float no
// bitwise ops and no shifts, Int no fmod.
func burnOpExists(op opID, kind byte) bool {
	switch {
	case op == opFloorDiv || op == opTruncDiv:
		return false
	case op.isShift(): // policy burn.flex.shift-wrapping: Int only
		return kind == 'i'
	case kind == 'b':
		return op == opEq || op == opNe
	case kind == 'f':
		return !op.isBitwise()
	}
	return op != opFmod
}

// burnBinarySupports declines what the model leaves unspecified for burn: a
// bool scalar operand of a Float or Int tensor, and ndarray's integer pow;
// and a complex scalar (no Rust literal: the case reaches the engine only
// for a bitwise op or a shift).
func burnBinarySupports(p *profile, c *tensor.Case) bool {
	if x, y := c.Args[0], c.Args[1]; burnFlex(p) && !p.debug && x.Tensor != nil && y.Tensor != nil &&
		burnTensorDType(p, x) != burnTensorDType(p, y) {
		return false // Flex release reads one dtype's storage as the other's: not stated
	}
	boolTensor := c.Args[0].Tensor != nil && c.Args[0].Tensor.DType == tensor.Bool
	for _, a := range c.Args {
		if a.Scalar != nil && a.Scalar.Kind == tensor.ScalarComplex {
			return false // Rust has no complex literal: the program does not compile
		}
		if a.Scalar != nil && a.Scalar.Kind == tensor.ScalarBool && !boolTensor {
			return false
		}
		if a.Tensor != nil && !burnFlex(p) && c.Op == "pow" && a.Tensor.DType.IsInt() {
			return false
		}
	}
	return true
}

// burnBinary is the binary family over the converted inputs (nil for a
// scalar): tensor op tensor of one kind and rank, broadcasting dims of size
// 1 (policy burn.binary.broadcast), and tensor op scalar.
func burnBinary(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	op := parseOp(c.Op)
	if c.Args[0].Scalar != nil {
		return tensor.UnsupportedOutcome("burn has no scalar-on-the-left %s", c.Op)
	}
	x, y := args[0], args[1]
	if !burnOpExists(op, burnKind(x.DType)) {
		return tensor.UnsupportedOutcome("burn has no %s for %s tensors", c.Op, rustName(x.DType))
	}
	shape := x.Shape
	yv := scalarView
	if y == nil {
		var bad *tensor.Outcome
		if y, bad = burnScalar(c.Args[1].Scalar, x.DType); bad != nil {
			return *bad
		}
	} else {
		if burnKind(x.DType) != burnKind(y.DType) {
			return tensor.UnsupportedOutcome("mismatched types: expected Tensor<B, D, %s>, found a %s tensor (E0308)", rustName(x.DType), rustName(y.DType))
		}
		if x.Rank() != y.Rank() {
			return tensor.UnsupportedOutcome("a Tensor<%d> and a Tensor<%d> do not type-check together", x.Rank(), y.Rank())
		}
		s, ok := broadcastShapes(x.Shape, y.Shape)
		if !ok {
			return tensor.PanicOutcome("Shapes %v and %v are not broadcastable", x.Shape, y.Shape)
		}
		if x.DType != y.DType { // policy burn.binary.mixed-dtypes: ndarray's dtype dispatch, Flex's debug_assert
			return tensor.PanicOutcome("Data type mismatch (lhs: %s, rhs: %s)", rustName(x.DType), rustName(y.DType))
		}
		shape, yv = s, viewOf(y)
	}
	l := newLayout(shape, viewOf(x), yv)
	switch x.DType {
	case tensor.Bool:
		return burnCompare[uint8](e, op, x, y, &l, shape)
	case tensor.I32:
		return burnIntBinary[int32](e, p, op, x, y, &l, shape)
	case tensor.I64:
		return burnIntBinary[int64](e, p, op, x, y, &l, shape)
	}
	return burnFloatBinary(e, p, op, x, y, &l, shape, c.Args[1].Scalar != nil)
}

// burnMaxMinKernel is max_pair / min_pair between tensors (policy
// burn.max-pair: the mask picks b only where a < b, resp. b < a) and
// clamp_min / clamp_max with a scalar (policy burn.flex.clamp-nan: Rust's
// f32::max / min, a NaN operand gives the other).
func burnMaxMinKernel(isMax, rhsScalar bool) binaryKernel[float32, float32] {
	return func(dst, a, b []float32) fault {
		a, b = a[:len(dst)], b[:len(dst)]
		for i := range dst {
			x, y := a[i], b[i]
			pickB := isMax && x < y || !isMax && y < x
			if rhsScalar && x != x {
				pickB = true
			}
			dst[i] = x
			if pickB {
				dst[i] = y
			}
		}
		return 0
	}
}

// burnScalar converts a scalar operand with Scalar::new (policy
// burn.scalar.elem) to a one-element tensor of dtype d: for a Float tensor
// the f64 value `as` f32; for an Int tensor a float truncates (NaN or
// beyond i64 panics) and an integer keeps its low bits (Flex's `scalar as
// i32`); an unsuffixed integer literal outside i32 does not compile.
func burnScalar(s *tensor.Scalar, d tensor.DType) (*tensor.Tensor, *tensor.Outcome) {
	fail := func(o tensor.Outcome) (*tensor.Tensor, *tensor.Outcome) { return nil, &o }
	one := tensor.New(d, 1)
	i64, intErr := strconv.ParseInt(s.Text, 10, 64)
	if _, err := strconv.ParseInt(s.Text, 10, 32); s.Kind == tensor.ScalarInt && s.Host == "" && err != nil {
		return fail(rustCompileError("literal out of range for `i32` (overflowing_literals)"))
	}
	switch {
	case d == tensor.Bool: // policy burn.bool.equal-elem: the scalar as a C truth value
		one.SetBool(0, s.Text == "true" || s.Kind != tensor.ScalarBool && s.Float() != 0)
	case d.IsFloat():
		one.Data[0] = floatWord(s.Float(), d)
	case s.Kind == tensor.ScalarFloat:
		v := s.Float()
		if !(v > -0x1p63 && v < 0x1p63) { // NaN too
			return fail(tensor.PanicOutcome("%s", msgFloatToSigned))
		}
		one.Data[0] = uint64(int64(v)) & wordMask(d)
	case intErr != nil:
		return fail(tensor.PanicOutcome("Element cannot be represented in the target type: %q(%s) => \"i64\"", s.Host, s.Text))
	default:
		one.Data[0] = uint64(i64) & wordMask(d)
	}
	return one, nil
}

// burnCompare writes a comparison as a Bool tensor (IEEE for floats).
func burnCompare[T number](e *Engine, op opID, x, y *tensor.Tensor, l *layout, shape []int) tensor.Outcome {
	xs, ys := loadInput[T](x, x.DType), loadInput[T](y, y.DType)
	dst := make([]uint8, l.n)
	runBinary(e, l, dst, xs, ys, compareKernel[T](op))
	return tensor.ValueOutcome(encode(e, dst, tensor.Bool, shape))
}

// burnIntBinary is an Int op. Flex's I32 ops compute in i64 and truncate
// (policy burn.flex.int-arith-widened): + - * wrap, i32::MIN / -1 is MIN, a
// zero divisor panics, remainder has the divisor's sign (burn.int.
// remainder-divisor-sign), powi is wrapping_pow(b as u32). ndarray's I64 is
// native Rust (burn.int64-native): the model leaves an overflowing + - *
// open, MIN / -1 and a zero divisor panic, and remainder is computed in f64.
// Shifts compute in i64 by the count modulo 64 on both devices (ndarray's
// counts of 64 or more are left open, a negative one leaves the whole op
// open: burn.ndarray.shift).
func burnIntBinary[T integer](e *Engine, p *profile, op opID, x, y *tensor.Tensor, l *layout, shape []int) tensor.Outcome {
	if op.isComparison() {
		return burnCompare[T](e, op, x, y, l, shape)
	}
	xs, ys := loadInput[T](x, x.DType), loadInput[T](y, y.DType)
	native := !burnFlex(p) || x.DType == tensor.I64
	var k binaryKernel[T, T]
	switch op {
	case opMaximum:
		k = kMaxInt[T]
	case opMinimum:
		k = kMinInt[T]
	case opBitAnd:
		k = kAnd[T]
	case opBitOr:
		k = kOr[T]
	case opBitXor:
		k = kXor[T]
	case opPow:
		k = kPowU32[T]
	case opShl:
		k = kShlWrap64[T]
	case opShr:
		k = kShrWrap64[T]
	case opDiv:
		k = kTruncDiv[T]
	case opRem:
		k = kRem[T]
		if !burnFlex(p) {
			k = kRemNdarray[T]
		}
	default:
		k = rustArith[T](op, native && burnFlex(p) && p.debug)
	}
	dst := make([]T, l.n)
	f := runBinary(e, l, dst, xs, ys, k)
	switch {
	case f&faultNegShift != 0 && !burnFlex(p): // policy burn.ndarray.shift: b.elem::<u32>() of a negative count
		return tensor.UnsupportedOutcome("tfuzz: unspecified for burn: a negative shift count on ndarray")
	case f&faultZeroDiv != 0 && op == opRem:
		return tensor.PanicOutcome("%s", msgRemZero)
	case f&faultZeroDiv != 0:
		return tensor.PanicOutcome("%s", msgDivZero)
	case f&faultMinNeg1 != 0 && native:
		return tensor.PanicOutcome("%s", msgDivOverflow)
	case f&faultOverflow != 0 && op == opRem:
		return tensor.PanicOutcome("%s", msgFloatToSigned)
	case f&faultOverflow != 0:
		return tensor.PanicOutcome("%s", overflowMsg(op))
	}
	return tensor.ValueOutcome(encode(e, dst, x.DType, shape))
}

// burnFloatBinary is a Float (F32) op (policy burn.float.ieee): IEEE + - *
// /, fmod, the remainder ((a % b) + b) % b (ndarray's of two tensors in f64,
// policy burn.ndarray.float-remainder), maximum and minimum (max_pair /
// min_pair of two tensors, clamp_min / clamp_max with a scalar) and powf (the
// model leaves powf open).
func burnFloatBinary(e *Engine, p *profile, op opID, x, y *tensor.Tensor, l *layout, shape []int, rhsScalar bool) tensor.Outcome {
	if op.isComparison() {
		return burnCompare[float32](e, op, x, y, l, shape)
	}
	xs, ys := loadInput[float32](x, x.DType), loadInput[float32](y, y.DType)
	var k binaryKernel[float32, float32]
	switch op {
	case opAdd:
		k = kAdd[float32]
	case opSub:
		k = kSub[float32]
	case opMul:
		k = kMul[float32]
	case opDiv:
		k = kDiv[float32]
	case opFmod:
		k = kFmodFloat[float32]
	case opRem:
		k = kRemBurnFloat[float32]
		if !burnFlex(p) && !rhsScalar {
			k = kRemNdarrayFloat[float32]
		}
	case opMaximum, opMinimum:
		k = burnMaxMinKernel(op == opMaximum, rhsScalar)
	default:
		k = kPowf[float32]
	}
	dst := make([]float32, l.n)
	runBinary(e, l, dst, xs, ys, k)
	return tensor.ValueOutcome(encode(e, dst, x.DType, shape))
}
