package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// Kernel selection for the binary family, once per op, and what faults mean
// per profile.

// runInt evaluates an op computed in the integer type T.
func runInt[T integer](e *Engine, b *binPlan) tensor.Outcome {
	x, y := operand[T](b, 0, b.compute), operand[T](b, 1, b.compute)
	l := b.layout()
	if b.op.isComparison() {
		return runCompare(e, b, &l, x, y)
	}
	var k binaryKernel[T, T]
	switch b.op {
	case opAdd:
		k = addKernel[T](l.n)
	case opSub:
		k = kSub[T]
	case opMul:
		k = kMul[T]
	case opBitAnd:
		k = kAnd[T]
	case opBitOr:
		k = kOr[T]
	case opBitXor:
		k = kXor[T]
	case opShl: // policies pytorch.shift.out-of-range, numpy.shift.out-of-range, jax.shift.out-of-range
		k = kShl[T]
	case opShr:
		k = kShr[T]
	case opMaximum:
		k = kMaxInt[T]
	case opMinimum:
		k = kMinInt[T]
	case opPow:
		k = map3(b.p.fw, kPowIntTorch[T], kPowIntNumPy[T], kPowIntXLA[T]) // policies pytorch.int.pow, numpy.int.pow, jax.int.pow
	case opFloorDiv:
		k = kFloorDiv[T]
	case opTruncDiv:
		k = kTruncDiv[T]
	case opRem:
		k = kRem[T]
	default:
		k = kFmod[T]
	}
	dst := make([]T, l.n)
	if f := runBinary(e, &l, dst, x, y, k); f != 0 {
		if o := b.intFaults(e, &l, f, dst, x, y); o != nil {
			return *o
		}
	}
	return tensor.ValueOutcome(encode(e, dst, b.result, b.shape))
}

// intFaults turns an integer kernel's faults into the profile's outcome, or
// fixes up the faulting elements' values; nil means dst holds the result.
func (b *binPlan) intFaults(e *Engine, l *layout, f fault, dst, x, y any) *tensor.Outcome {
	switch b.p.fw {
	case fwPyTorch:
		return b.torchFirstFault(l, f, x, y)
	case fwNumPy:
		if f&faultNegExp != 0 { // policy numpy.int.pow
			return outcome(tensor.ErrorOutcome(tensor.Other, "ValueError: Integers to negative integer powers are not allowed."))
		}
		return nil // policy numpy.int.zero-divisor: x // 0 = x % 0 = 0, as written
	}
	// policy jax.int.division: x % 0 becomes x % 1 = 0 as written, except
	// for jnp.fmod of bools; x // 0 follows XLA's x / 0 = -1
	if f&faultZeroDiv != 0 {
		switch {
		case b.op == opFloorDiv:
			fixZeroDiv(e, l, dst, x, y, true)
		case b.op == opFmod && b.jaxFmodRaw:
			fixZeroDiv(e, l, dst, x, y, false)
		}
	}
	return nil
}

// fixZeroDiv rewrites the elements with a zero divisor: jnp.floor_divide's
// value (floor) or the dividend (XLA's x % 0 = x).
func fixZeroDiv(e *Engine, l *layout, dst, x, y any, floor bool) {
	switch d := dst.(type) {
	case []uint8:
		fixZeroDivT(e, l, d, x.([]uint8), y.([]uint8), floor)
	case []int8:
		fixZeroDivT(e, l, d, x.([]int8), y.([]int8), floor)
	case []uint16:
		fixZeroDivT(e, l, d, x.([]uint16), y.([]uint16), floor)
	case []int16:
		fixZeroDivT(e, l, d, x.([]int16), y.([]int16), floor)
	case []uint32:
		fixZeroDivT(e, l, d, x.([]uint32), y.([]uint32), floor)
	case []int32:
		fixZeroDivT(e, l, d, x.([]int32), y.([]int32), floor)
	case []uint64:
		fixZeroDivT(e, l, d, x.([]uint64), y.([]uint64), floor)
	case []int64:
		fixZeroDivT(e, l, d, x.([]int64), y.([]int64), floor)
	}
}

func fixZeroDivT[T integer](e *Engine, l *layout, dst, x, y []T, floor bool) {
	if floor {
		runBinary(e, l, dst, x, y, kXLAFloorDivByZero[T])
		return
	}
	runBinary(e, l, dst, x, y, func(dst, a, b []T) fault {
		b = b[:len(dst)]
		a = a[:len(dst)]
		for i := range dst {
			if b[i] == 0 {
				dst[i] = a[i]
			}
		}
		return 0
	})
}

// torchFirstFault finds the first faulting element in output order: a zero
// divisor is ZeroDivisionError (policy pytorch.cpu.int-zero-divisor), a
// MIN / -1 of trunc_div in 32 or 64 bits on x86 a SIGFPE (policy
// pytorch.cpu.x86.trunc-div-min-by-minus-one); any other MIN / -1 wraps.
func (b *binPlan) torchFirstFault(l *layout, f fault, x, y any) *tensor.Outcome {
	trap := b.op == opTruncDiv && b.p.arch == archX86 && b.compute.Bits() >= 32
	if f&faultZeroDiv == 0 && !(trap && f&faultMinNeg1 != 0) {
		return nil
	}
	if !trap { // only zero divisors matter
		return outcome(tensor.ErrorOutcome(tensor.ZeroDivision, "RuntimeError: ZeroDivisionError"))
	}
	var first fault
	switch xs := x.(type) {
	case []int32:
		first = firstFault(l, xs, y.([]int32))
	case []int64:
		first = firstFault(l, xs, y.([]int64))
	case []uint32:
		first = faultZeroDiv
	case []uint64:
		first = faultZeroDiv
	}
	if first == faultMinNeg1 {
		return outcome(tensor.CrashOutcome("SIGFPE"))
	}
	return outcome(tensor.ErrorOutcome(tensor.ZeroDivision, "RuntimeError: ZeroDivisionError"))
}

// firstFault scans the output in order and returns the fault of the first
// element that has one.
func firstFault[T signedInt](l *layout, x, y []T) fault {
	var first fault
	mn := minOf[T]()
	binaryRange(l, nil, x, y, func(_ []struct{}, a, b []T) fault {
		if first != 0 {
			return 0
		}
		b = b[:len(a)]
		for i := range a {
			switch {
			case b[i] == 0:
				first = faultZeroDiv
			case b[i] == -1 && a[i] == mn:
				first = faultMinNeg1
			default:
				continue
			}
			return 0
		}
		return 0
	}, 0, l.n)
	return first
}

// runFloat evaluates an op computed in the float dtype b.compute, held in T.
func runFloat[T floating](e *Engine, b *binPlan) tensor.Outcome {
	x, y := b.floatOperand(0), b.floatOperand(1)
	xs, ys := x.([]T), y.([]T)
	l := b.layout()
	if b.op.isComparison() {
		return runCompare(e, b, &l, xs, ys)
	}
	dst := make([]T, l.n)
	k := floatKernel[T](b)
	switch {
	case b.predSelect == 0 && b.op == opDiv:
		k = kSelectRecip[T]
	case b.predSelect >= 0:
		k = kSelectMul[T](b.predSelect == 0)
	}
	runBinary(e, &l, dst, xs, ys, k)
	return tensor.ValueOutcome(encode(e, dst, b.result, b.shape))
}

// floatOperand decodes operand k for a float computation: in the compute
// dtype, or at f32 from its original value where PyTorch's kernel reads it so.
func (b *binPlan) floatOperand(k int) any {
	d := b.compute
	if k == b.opmath {
		d = tensor.F32
	}
	if b.compute == tensor.F64 {
		return operand[float64](b, k, d)
	}
	return operand[float32](b, k, d)
}

// floatKernel selects the kernel of a float op for the profile.
func floatKernel[T floating](b *binPlan) binaryKernel[T, T] {
	step := halfStep[T](b.compute)
	fw := b.p.fw
	pos := b.scalarArg()
	switch b.op {
	case opAdd:
		return addKernel[T](tensor.NumElements(b.shape))
	case opSub:
		return kSub[T]
	case opMul:
		return kMul[T]
	case opDiv:
		switch {
		case fw == fwPyTorch && pos == 0: // policy pytorch.div.scalar-left
			return kRecipMul(step)
		case fw == fwJAX && b.divisorSpread(): // policy jax.cpu.div-by-scalar
			return kMulRecip[T]
		}
		return kDiv[T]
	case opFloorDiv: // policy python.float.floor-div
		if fw == fwJAX {
			return kFloorDivXLA(step)
		}
		return kFloorDivFloat[T](nil)
	case opTruncDiv:
		if b.opmath == 1 {
			return kTruncDivFloat[T](nil) // trunc of the f32 quotient
		}
		return kTruncDivFloat(step)
	case opRem: // policy python.float.rem
		if fw == fwNumPy {
			return kRemFloatNumPy(step)
		}
		return kRemFloat(step)
	case opFmod:
		return kFmodFloat[T]
	case opMaximum, opMinimum: // policy python.float.max-min-signed-zero
		return maxMinKernel[T](b)
	}
	return powKernel[T](b, step)
}

// maxMinKernel picks how maximum/minimum break ±0 ties.
func maxMinKernel[T floating](b *binPlan) binaryKernel[T, T] {
	isMax := b.op == opMaximum
	switch {
	case b.p.fw == fwNumPy && b.compute == tensor.F16:
		return pick(isMax, kMaxFirst[T], kMinFirst[T])
	case b.p.fw == fwNumPy && b.p.arch == archArm64 && b.compute != tensor.BF16:
		return pick(isMax, kMaxIEEE[T], kMinIEEE[T]) // policy numpy.arm64.max-min-fmax: fmax/fmin
	case b.p.fw == fwNumPy || b.p.fw == fwPyTorch && b.p.arch == archX86:
		return pick(isMax, kMaxSecond[T], kMinSecond[T])
	}
	return pick(isMax, kMaxIEEE[T], kMinIEEE[T])
}

func pick[V any](c bool, a, b V) V {
	if c {
		return a
	}
	return b
}

// powKernel selects float pow (policy python.float.pow): PyTorch's and
// NumPy's special scalar exponents, else the correctly rounded power.
func powKernel[T floating](b *binPlan, step stepper[T]) binaryKernel[T, T] {
	pos := b.scalarArg()
	if pos == 1 {
		s := b.args[1].s
		switch b.p.fw {
		case fwPyTorch:
			return torchScalarPow[T](s.f, b.compute, step)
		case fwNumPy:
			if k := numpyFastPow[T](s, b.compute); k != nil {
				return k
			}
		}
	}
	return kPowCR[T]
}

// kPowCR computes the correctly rounded pow in T's precision (f16/bf16 are
// rounded from the f32 result when encoded).
func kPowCR[T floating](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	if x, ok := any(a).([]float32); ok {
		d, y := any(dst).([]float32), any(b).([]float32)
		for i := range d {
			d[i] = powF32(x[i], y[i])
		}
		return 0
	}
	d, x, y := any(dst).([]float64), any(a).([]float64), any(b).([]float64)
	for i := range d {
		d[i] = powF64(x[i], y[i])
	}
	return 0
}

// sqrtT is the correctly rounded square root in T.
func sqrtT[T floating](x T) T { return T(math.Sqrt(float64(x))) }

// torchScalarPow is PyTorch's CPU pow_tensor_scalar for a float tensor and a
// Python-number exponent: sqrt, 1/sqrt and reciprocal for 0.5, -0.5, -1 (not
// for f16); with the exponent rounded to f16/bf16, multiplications for 2, 3
// and -2 (not for f16), each rounded to the dtype; the correctly rounded pow
// otherwise.
func torchScalarPow[T floating](exp float64, d tensor.DType, step stepper[T]) binaryKernel[T, T] {
	unary := func(f func(T) T) binaryKernel[T, T] {
		return func(dst, a, _ []T) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = f(a[i])
			}
			return 0
		}
	}
	special := d != tensor.F16
	if special {
		switch exp {
		case 0.5:
			return unary(sqrtT[T])
		case -0.5:
			return unary(func(x T) T { return 1 / sqrtT(x) })
		case -1:
			return unary(func(x T) T { return 1 / x })
		}
	}
	if isHalf(d) {
		exp = roundTo(exp, d)
	}
	if special {
		switch exp {
		case 2:
			return unary(func(x T) T { return step.r(x * x) })
		case 3:
			return unary(func(x T) T { return step.r(step.r(x*x) * x) })
		case -2:
			return unary(func(x T) T { return step.r(1 / step.r(x*x)) })
		}
	}
	return unary(powByExp[T](exp))
}

// powByExp returns x -> x**exp correctly rounded to T's precision.
func powByExp[T floating](exp float64) func(T) T {
	if _, ok := any(T(0)).(float32); ok {
		return func(x T) T { return T(powTo32(float64(x), exp)) }
	}
	return func(x T) T { return T(powF64(float64(x), exp)) }
}

// numpyFastPow is NumPy's fast_scalar_power for float arrays (not ml_dtypes'
// bf16): ** -1 and ** 2 with a Python int, ** 0.5 with a Python float run
// reciprocal, square and sqrt; nil when the exponent takes the ordinary pow.
func numpyFastPow[T floating](s pyScalar, d tensor.DType) binaryKernel[T, T] {
	if d == tensor.BF16 || s.kind == tensor.ScalarBool {
		return nil
	}
	var f func(T) T
	switch {
	case s.kind == tensor.ScalarInt && s.i == -1:
		f = func(x T) T { return 1 / x }
	case s.kind == tensor.ScalarInt && s.i == 2:
		f = func(x T) T { return x * x }
	case s.kind == tensor.ScalarFloat && s.f == 0.5:
		f = sqrtT[T]
	default:
		return nil
	}
	return func(dst, a, _ []T) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = f(a[i])
		}
		return 0
	}
}
