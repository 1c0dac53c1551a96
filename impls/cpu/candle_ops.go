package cpu

import "github.com/tfuzz/tfuzz/tensor"

// candle's unary ops and to_dtype on the CPU.

func init() {
	all := func(*profile, *tensor.Case) bool { return true }
	candleAttach(tensor.ClassUnary, all, candleUnary)
	candleAttach(tensor.ClassCast, all, candleCast)
}

// rustOpRecip stands for recip, which candle reaches internally (s / t) but
// the catalog has no op for.
const rustOpRecip opID = 0xff

// candleUnary evaluates neg, abs, sign, sqrt, exp, floor, ceil, round and
// square (candle's sqr); candle has no trunc and no bitwise not.
func candleUnary(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	op := parseOp(c.Op)
	if op == opTrunc || op == opBitNot {
		return tensor.UnsupportedOutcome("candle 0.11 has no %s on Tensor", c.Op)
	}
	t := c.Args[0].Tensor
	if t.Len() == 0 { // policy candle.binary.empty-returns-lhs
		return tensor.ValueOutcome(t.Clone())
	}
	if t.DType.IsInt() {
		return candleIntUnary(e, p, op, t)
	}
	return candleFloatUnary(e, t, op)
}

// candleIntUnary is a unary op of an integer tensor on the CPU (policies
// candle.cpu.int-unary, candle.cpu.int-unary-todo): floor, ceil and round
// are the identity, abs is v.abs() (MIN overflows), sign is -1/0/1 (min(v,
// 1) unsigned); neg, sqrt, exp and sqr have no integer function and panic.
func candleIntUnary(e *Engine, p *profile, op opID, t *tensor.Tensor) tensor.Outcome {
	switch op {
	case opFloor, opCeil, opRound, opAbs, opSign:
	default:
		return tensor.PanicOutcome("not yet implemented: no unary function for %s", t.DType)
	}
	if op == opAbs && t.DType.IsUnsigned() {
		op = opFloor
	}
	switch kindOf(t.DType) {
	case kU8:
		return candleIntUnaryRun[uint8](e, p, op, t)
	case kU32:
		return candleIntUnaryRun[uint32](e, p, op, t)
	case kI16:
		return candleIntUnaryRun[int16](e, p, op, t)
	case kI32:
		return candleIntUnaryRun[int32](e, p, op, t)
	}
	return candleIntUnaryRun[int64](e, p, op, t)
}

func candleIntUnaryRun[T integer](e *Engine, p *profile, op opID, t *tensor.Tensor) tensor.Outcome {
	k := kCopy[T]
	switch {
	case op == opSign:
		k = kSignInt[T]
	case op == opAbs && p.debug:
		k = kAbsChecked[T]
	case op == opAbs:
		k = kAbsInt[T]
	}
	src := loadInput[T](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]T, l.n)
	if runUnary(e, &l, dst, src, k)&faultOverflow != 0 {
		return tensor.PanicOutcome("%s", msgNegOverflow)
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// candleFloatUnary is a unary op (or recip) of a float tensor (policy
// candle.float.unary): round is half away from zero, sign is (x > 0) - (x <
// 0); f16 and bf16 compute in f32 and round back.
func candleFloatUnary(e *Engine, t *tensor.Tensor, op opID) tensor.Outcome {
	if kindOf(t.DType) == kF64 {
		return candleFloatUnaryRun[float64](e, t, op)
	}
	return candleFloatUnaryRun[float32](e, t, op)
}

func candleFloatUnaryRun[T floating](e *Engine, t *tensor.Tensor, op opID) tensor.Outcome {
	var k unaryKernel[T, T]
	switch op {
	case opNeg:
		k = kNeg[T]
	case opAbs:
		k = kAbsFloat[T]
	case opSign:
		k = kSignTorch[T]
	case opSqrt:
		k = kSqrt[T]
	case opExp:
		k = kExp[T]
	case opFloor:
		k = kFloor[T]
	case opCeil:
		k = kCeil[T]
	case opRound:
		k = kRoundAway[T]
	case opSquare:
		k = kSquare[T]
	default:
		k = kRecipFloat[T]
	}
	src := loadInput[T](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]T, l.n)
	runUnary(e, &l, dst, src, k)
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// candleCast is t.to_dtype(to) on the CPU (policy candle.cpu.to-dtype-as):
// Rust `as` for every pair, the identity to the same dtype. candle has no
// checked convert (candle.no-checked-convert).
func candleCast(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	t, to := c.Args[0].Tensor, c.Attrs.To
	switch {
	case c.Attrs.Mode == "convert":
		return tensor.UnsupportedOutcome("candle has no checked convert; only to_dtype")
	case !candleDType(to):
		return tensor.UnsupportedOutcome("candle has no DType for %s", to)
	case t.DType == to:
		return tensor.ValueOutcome(t.Clone())
	}
	return tensor.ValueOutcome(rustCast(e, t, to))
}
