package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// The unary family of PyTorch, NumPy and JAX: neg abs sign sqrt exp floor
// ceil round trunc square bitwise_not.

func init() {
	attach(pythonProfiles(), tensor.ClassUnary, &family{supports: pyUnarySupports, eval: pyUnaryEval})
}

func pyUnarySupports(p *profile, c *tensor.Case) bool {
	return !c.Args[0].Tensor.DType.IsComplex()
}

func pyUnaryEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	x := pyInput(p, c.Args[0].Tensor)
	op := parseOp(c.Op)
	d := x.DType
	if o, failed := pyUnaryDTypeError(p, op, d); failed {
		return o
	}
	l := newLayout(x.Shape, viewOf(x))
	switch {
	case op == opExp || op == opSqrt:
		return tensor.ValueOutcome(transcendental(e, p, op, x, &l))
	case d == tensor.Bool:
		return tensor.ValueOutcome(unaryBool(e, p, op, x, &l))
	}
	return tensor.ValueOutcome(unaryNumber(e, p, op, x, d, &l))
}

// pyUnaryDTypeError returns the error of a profile that has no (op, dtype).
func pyUnaryDTypeError(p *profile, op opID, d tensor.DType) (tensor.Outcome, bool) {
	switch p.fw {
	case fwPyTorch:
		if op == opNeg && d == tensor.Bool { // policy pytorch.neg.bool
			return tensor.ErrorOutcome(tensor.UnsupportedDType,
				"RuntimeError: Negation, the `-` operator, on a bool tensor is not supported."), true
		}
		if k := torchUnaryKernelMissing(op, d); k != "" {
			return torchNoKernel(k, d), true
		}
	case fwNumPy: // policy numpy.unary.no-loop
		if op == opSign && d == tensor.Bool || op == opBitNot && d.IsFloat() || op == opNeg && d == tensor.Bool {
			return tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: ufunc not supported for the input types"), true
		}
	case fwJAX: // policy jax.unary.dtype-check
		if op == opSign && d == tensor.Bool || op == opBitNot && d.IsFloat() ||
			op == opNeg && d == tensor.Bool || op == opRound && d == tensor.Bool {
			return tensor.ErrorOutcome(tensor.UnsupportedDType, "TypeError: %s does not accept dtype %s", opName(op), pyName(d)), true
		}
	}
	return tensor.Outcome{}, false
}

// transcendentalDType is the result dtype of exp and sqrt of dtype d.
func transcendentalDType(p *profile, d tensor.DType) tensor.DType {
	if d.IsFloat() {
		return d
	}
	return intTranscendental[p.fw][d.Bits()]
}

// intTranscendental is the float dtype exp and sqrt give an integer (or
// bool) dtype of each width: PyTorch's default float (policy
// pytorch.exp-sqrt.int-to-default-float); NumPy's first float loop that
// holds the type safely (numpy.exp-sqrt.int-loop); JAX's inexact type of
// the width's class (jax.exp-sqrt.to-inexact).
var intTranscendental = map[framework]map[int]tensor.DType{
	fwPyTorch: {8: tensor.F32, 16: tensor.F32, 32: tensor.F32, 64: tensor.F32},
	fwNumPy:   {8: tensor.F16, 16: tensor.F32, 32: tensor.F64, 64: tensor.F64},
	fwJAX:     {8: tensor.F32, 16: tensor.F32, 32: tensor.F32, 64: tensor.F64},
}

// transcendental evaluates exp or sqrt: the input converted to the result
// float dtype (integers rounded once), the function correctly rounded where
// the profile's library is (sqrt; f16/bf16 through a float64 result), else
// Go's math (where the model leaves the element unspecified).
func transcendental(e *Engine, p *profile, op opID, x *tensor.Tensor, l *layout) *tensor.Tensor {
	d := transcendentalDType(p, x.DType)
	fn := math.Exp
	if op == opSqrt {
		fn = math.Sqrt
	}
	if d == tensor.F64 {
		src := loadInput[float64](x, d)
		dst := make([]float64, l.n)
		if op == opSqrt {
			runUnary(e, l, dst, src, kSqrt[float64])
		} else {
			runUnary(e, l, dst, src, kExp[float64])
		}
		return encode(e, dst, d, x.Shape)
	}
	src := loadInput[float32](x, d)
	dst := make([]float32, l.n)
	switch {
	case d == tensor.F16:
		runUnary(e, l, dst, src, kHalfFn(fn, roundF16From64))
	case d == tensor.BF16:
		runUnary(e, l, dst, src, kHalfFn(fn, roundBF16From64))
	case op == opSqrt:
		runUnary(e, l, dst, src, kSqrt[float32])
	default:
		runUnary(e, l, dst, src, kExp[float32])
	}
	return encode(e, dst, d, x.Shape)
}

// unaryBool applies op to a bool tensor (errors already handled).
func unaryBool(e *Engine, p *profile, op opID, x *tensor.Tensor, l *layout) *tensor.Tensor {
	switch {
	case op == opSquare:
		// policies pytorch.square.bool (i64), numpy.square.bool (i8),
		// jax.square.bool (i32): 0 and 1 squared
		d := map3(p.fw, tensor.I64, tensor.I8, tensor.I32)
		return unaryNumber(e, p, op, x, d, l)
	case op == opRound && p.fw == fwNumPy: // policy numpy.round.bool: rint's f16 loop
		src := loadInput[float32](x, tensor.F16)
		dst := make([]float32, l.n)
		runUnary(e, l, dst, src, kCopy[float32])
		return encode(e, dst, tensor.F16, x.Shape)
	}
	// policy python.unary.bool
	src := loadInput[uint8](x, tensor.Bool)
	dst := make([]uint8, l.n)
	if op == opBitNot {
		runUnary(e, l, dst, src, kNotBool)
	} else {
		runUnary(e, l, dst, src, kCopy[uint8])
	}
	return encode(e, dst, tensor.Bool, x.Shape)
}

// map3 picks a value per Python framework.
func map3[V any](f framework, torch, numpy, jax V) V {
	switch f {
	case fwPyTorch:
		return torch
	case fwNumPy:
		return numpy
	}
	return jax
}

// unaryNumber applies op to x converted to the integer or float dtype d.
func unaryNumber(e *Engine, p *profile, op opID, x *tensor.Tensor, d tensor.DType, l *layout) *tensor.Tensor {
	switch kindOf(d) {
	case kU8:
		return unaryInt[uint8](e, op, x, d, l)
	case kI8:
		return unaryInt[int8](e, op, x, d, l)
	case kU16:
		return unaryInt[uint16](e, op, x, d, l)
	case kI16:
		return unaryInt[int16](e, op, x, d, l)
	case kU32:
		return unaryInt[uint32](e, op, x, d, l)
	case kI32:
		return unaryInt[int32](e, op, x, d, l)
	case kU64:
		return unaryInt[uint64](e, op, x, d, l)
	case kI64:
		return unaryInt[int64](e, op, x, d, l)
	case kF32:
		return unaryFloat[float32](e, p, op, x, d, l)
	}
	return unaryFloat[float64](e, p, op, x, d, l)
}

// unaryInt is policy python.unary.int-wrap.
func unaryInt[T integer](e *Engine, op opID, x *tensor.Tensor, d tensor.DType, l *layout) *tensor.Tensor {
	src := loadInput[T](x, d)
	dst := make([]T, l.n)
	var k unaryKernel[T, T]
	switch op {
	case opNeg:
		k = kNeg[T]
	case opAbs:
		k = kAbsInt[T]
	case opSign:
		k = kSignInt[T]
	case opSquare:
		k = kSquare[T]
	case opBitNot:
		k = kBitNot[T]
	default: // floor, ceil, round, trunc
		k = kCopy[T]
	}
	runUnary(e, l, dst, src, k)
	return encode(e, dst, d, x.Shape)
}

// unaryFloat is policy python.unary.float-exact and the sign policies.
func unaryFloat[T floating](e *Engine, p *profile, op opID, x *tensor.Tensor, d tensor.DType, l *layout) *tensor.Tensor {
	src := loadInput[T](x, d)
	dst := make([]T, l.n)
	var k unaryKernel[T, T]
	switch op {
	case opNeg:
		k = kNeg[T]
	case opAbs:
		k = kAbsFloat[T]
	case opSquare:
		k = kSquare[T]
	case opFloor:
		k = kFloor[T]
	case opCeil:
		k = kCeil[T]
	case opTrunc:
		k = kTrunc[T]
	case opRound:
		k = kRound[T]
	default: // sign
		switch {
		case p.fw == fwPyTorch: // policy pytorch.sign.float
			k = kSignTorch[T]
		case p.fw == fwNumPy && d != tensor.BF16: // policy numpy.sign.float
			k = kSignNumPy[T]
		default: // policy jax.sign.float; ml_dtypes' bf16 sign
			k = kSignKeep[T]
		}
	}
	runUnary(e, l, dst, src, k)
	return encode(e, dst, d, x.Shape)
}
