package cpu

import "github.com/tfuzz/tfuzz/tensor"

// Running a planned binary op: operands decoded into the compute
// representation, one dispatch on the compute dtype, one kernel, faults
// turned into the profile's outcome.

func (b *binPlan) run(e *Engine) tensor.Outcome {
	switch {
	case b.shortcut != noShortcut:
		return b.runShortcut(e)
	case b.intPowExp != nil:
		return b.runIntegerPow(e)
	case b.numpyCmpOutOfRange():
		return b.constCompare(e)
	case b.signedUnsigned:
		return b.runSignedUnsignedCompare(e)
	}
	switch kindOf(b.compute) {
	case kU8:
		if b.compute == tensor.Bool {
			return runBool(e, b)
		}
		return runInt[uint8](e, b)
	case kI8:
		return runInt[int8](e, b)
	case kU16:
		return runInt[uint16](e, b)
	case kI16:
		return runInt[int16](e, b)
	case kU32:
		return runInt[uint32](e, b)
	case kI32:
		return runInt[int32](e, b)
	case kU64:
		return runInt[uint64](e, b)
	case kI64:
		return runInt[int64](e, b)
	case kF32:
		return runFloat[float32](e, b)
	}
	return runFloat[float64](e, b)
}

// view returns operand k's geometry.
func (b *binPlan) view(k int) view { return b.args[k].view() }

// view returns the operand's geometry (a scalar is one element everywhere).
func (a *binArg) view() view {
	if a.isScalar() {
		return scalarView
	}
	return viewOf(a.t)
}

// layout returns the iteration space of the output over both operands.
func (b *binPlan) layout() layout { return newLayout(b.shape, b.view(0), b.view(1)) }

// operand returns operand k's storage converted to dtype d in
// representation T: a tensor's every word, or a scalar's one element.
func operand[T number](b *binPlan, k int, d tensor.DType) []T { return argAs[T](b.p, &b.args[k], d) }

// argAs returns a's storage converted to dtype d in representation T: a
// tensor's every word, or a scalar's one element.
func argAs[T number](p *profile, a *binArg, d tensor.DType) []T {
	if !a.isScalar() {
		return loadInput[T](a.t, d)
	}
	return []T{scalarAs[T](p, a.s, d)}
}

// scalarAs converts the Python scalar s to dtype d in representation T:
// a bool is 0 or 1, an int wraps to an integer dtype, and a number becomes
// a float dtype as scalarFloat says.
func scalarAs[T number](p *profile, s pyScalar, d tensor.DType) T {
	if s.kind == tensor.ScalarBool || !d.IsFloat() && s.kind == tensor.ScalarInt {
		return T(s.i) // ints wrap to the dtype
	}
	return T(scalarFloat(p, s, d))
}

// scalarFloat converts a Python int or float to the float dtype d as the
// framework does: PyTorch converts the wrapped int64 (to f16/bf16 through
// f32), JAX the weak int32/int64 it parsed, NumPy goes through a Python
// float (ml_dtypes' bf16 through a C long and f32); a float rounds once (JAX without x64 parses it as f32 first).
func scalarFloat(p *profile, s pyScalar, d tensor.DType) float64 {
	if s.kind == tensor.ScalarFloat {
		f := s.f
		if p.fw == fwJAX && !p.x64 { // policy jax.scalar.float-parsed-as-default
			f = float64(float32(f))
		}
		return roundTo(f, d)
	}
	switch {
	case p.fw == fwNumPy && d == tensor.BF16:
		return intToFloat(s.i, d) // ml_dtypes reads a C long, then builds bf16 from a float
	case p.fw == fwNumPy:
		return roundTo(float64(s.i), d)
	case p.fw == fwJAX && !p.x64:
		return intToFloat(int64(int32(s.i)), d)
	}
	return intToFloat(s.i, d)
}

// roundTo rounds x once to the float dtype d.
func roundTo(x float64, d tensor.DType) float64 {
	switch d {
	case tensor.F16:
		return float64(roundF16From64(x))
	case tensor.BF16:
		return float64(roundBF16From64(x))
	case tensor.F32:
		return float64(float32(x))
	}
	return x
}

// intToFloat converts v to the float dtype d: once for f32 and f64, through
// f32 for f16 and bf16 (policy python.convert.int-to-reduced-float).
func intToFloat(v int64, d tensor.DType) float64 {
	switch d {
	case tensor.F16:
		return float64(roundF16(float32(v)))
	case tensor.BF16:
		return float64(roundBF16(float32(v)))
	case tensor.F32:
		return float64(float32(v))
	}
	return float64(v)
}

// numpyCmpOutOfRange reports a NumPy comparison of an integer array with a
// Python int outside its dtype, which NumPy 2 compares exactly (policy
// numpy.compare.python-int): every element compares the same way.
func (b *binPlan) numpyCmpOutOfRange() bool {
	pos := b.scalarArg()
	return b.p.fw == fwNumPy && b.op.isComparison() && pos >= 0 && b.args[pos].s.kind == tensor.ScalarInt &&
		b.compute.IsInt() && !intFits(b.args[pos].s.i, b.compute)
}

// constCompare fills the output of numpyCmpOutOfRange's comparisons.
func (b *binPlan) constCompare(e *Engine) tensor.Outcome {
	pos := b.scalarArg()
	// c is the three-way comparison of left and right operand: the scalar
	// lies above every element when it is positive, below when negative
	c := -1
	if b.args[pos].s.i < 0 {
		c = 1
	}
	if pos == 0 {
		c = -c
	}
	var v uint8
	switch b.op {
	case opNe:
		v = 1
	case opLt, opLe:
		v = b2u(c < 0)
	case opGt, opGe:
		v = b2u(c > 0)
	}
	out := make([]uint8, tensor.NumElements(b.shape))
	for i := range out {
		out[i] = v
	}
	return tensor.ValueOutcome(encode(e, out, tensor.Bool, b.shape))
}

// runSignedUnsignedCompare compares a signed integer operand with an
// unsigned one without rounding either: both are decoded as 64-bit words
// (the signed one sign-extended) and the kernel knows which side is signed.
func (b *binPlan) runSignedUnsignedCompare(e *Engine) tensor.Outcome {
	x := loadInput[uint64](b.args[0].t, b.args[0].t.DType)
	y := loadInput[uint64](b.args[1].t, b.args[1].t.DType)
	l := b.layout()
	dst := make([]uint8, l.n)
	runBinary(e, &l, dst, x, y, signedUnsignedCompareKernel(b.op, b.args[0].t.DType.IsSigned()))
	return tensor.ValueOutcome(encode(e, dst, tensor.Bool, b.shape))
}

// runBool evaluates ops whose computation dtype is bool: logic and
// comparisons of 0/1 elements.
func runBool(e *Engine, b *binPlan) tensor.Outcome {
	x, y := operand[uint8](b, 0, tensor.Bool), operand[uint8](b, 1, tensor.Bool)
	l := b.layout()
	if b.op.isComparison() {
		return runCompare(e, b, &l, x, y)
	}
	var k binaryKernel[uint8, uint8]
	switch b.op {
	case opAdd, opBitOr, opMaximum:
		k = kOr[uint8]
	case opMul, opBitAnd, opMinimum:
		k = kAnd[uint8]
	default:
		k = kXor[uint8]
	}
	dst := make([]uint8, l.n)
	runBinary(e, &l, dst, x, y, k)
	return tensor.ValueOutcome(encode(e, dst, tensor.Bool, b.shape))
}

// runCompare evaluates a comparison in the computation dtype.
func runCompare[T number](e *Engine, b *binPlan, l *layout, x, y []T) tensor.Outcome {
	dst := make([]uint8, l.n)
	runBinary(e, l, dst, x, y, compareKernel[T](b.op))
	return tensor.ValueOutcome(encode(e, dst, tensor.Bool, b.shape))
}

// runShortcut is PyTorch's pow without a kernel: ones, or the base
// converted to the result dtype.
func (b *binPlan) runShortcut(e *Engine) tensor.Outcome {
	out := tensor.New(b.result, b.shape...)
	if b.shortcut == fillOnes {
		one := uint64(1)
		if b.result.IsFloat() {
			one = floatWord(1, b.result)
		}
		for i := range out.Data {
			out.Data[i] = one
		}
		return tensor.ValueOutcome(out)
	}
	l := b.layout()
	switch kindOf(b.result) {
	case kF32:
		return tensor.ValueOutcome(copyAs[float32](e, b, &l))
	case kF64:
		return tensor.ValueOutcome(copyAs[float64](e, b, &l))
	case kU64, kI64:
		return tensor.ValueOutcome(copyAs[uint64](e, b, &l))
	}
	return tensor.ValueOutcome(copyAs[int64](e, b, &l))
}

// copyAs converts the tensor operand of pow(t, 1) to the result dtype.
func copyAs[T number](e *Engine, b *binPlan, l *layout) *tensor.Tensor {
	src := operand[T](b, 0, b.result)
	dst := make([]T, l.n)
	ones := []T{1}
	runBinary(e, l, dst, src, ones, kMul[T])
	return encode(e, dst, b.result, b.shape)
}

// runIntegerPow is JAX's lax.integer_pow(base, n): square-and-multiply over
// the bits of n in the base's dtype, each product rounded to it; 1 / x**|n|
// for a negative n (floats only).
func (b *binPlan) runIntegerPow(e *Engine) tensor.Outcome {
	l := newLayout(b.shape, b.view(0))
	n := *b.intPowExp
	switch kindOf(b.compute) {
	case kU8:
		return intPowRun[uint8](e, b, &l, n)
	case kI8:
		return intPowRun[int8](e, b, &l, n)
	case kU16:
		return intPowRun[uint16](e, b, &l, n)
	case kI16:
		return intPowRun[int16](e, b, &l, n)
	case kU32:
		return intPowRun[uint32](e, b, &l, n)
	case kI32:
		return intPowRun[int32](e, b, &l, n)
	case kU64:
		return intPowRun[uint64](e, b, &l, n)
	case kI64:
		return intPowRun[int64](e, b, &l, n)
	case kF32:
		return floatPowRun[float32](e, b, &l, n)
	}
	return floatPowRun[float64](e, b, &l, n)
}

func intPowRun[T integer](e *Engine, b *binPlan, l *layout, n int64) tensor.Outcome {
	x := operand[T](b, 0, b.compute)
	dst := make([]T, l.n)
	runUnary(e, l, dst, x, func(dst, a []T) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = powSquare(a[i], uint64(n))
		}
		return 0
	})
	return tensor.ValueOutcome(encode(e, dst, b.result, b.shape))
}

func floatPowRun[T floating](e *Engine, b *binPlan, l *layout, n int64) tensor.Outcome {
	x := operand[T](b, 0, b.compute)
	dst := make([]T, l.n)
	step := halfStep[T](b.compute)
	runUnary(e, l, dst, x, func(dst, a []T) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = integerPowFloat(a[i], n, step)
		}
		return 0
	})
	return tensor.ValueOutcome(encode(e, dst, b.result, b.shape))
}

// integerPowFloat is lax.integer_pow on a float: the set bits of |n| from
// the lowest, acc = acc * x^(2^i), every product rounded by step.
func integerPowFloat[T floating](x T, n int64, step stepper[T]) T {
	if n == 0 {
		return 1
	}
	m := uint64(n)
	if n < 0 {
		m = -m
	}
	var acc T
	have := false
	for m != 0 {
		if m&1 == 1 {
			if have {
				acc = step.r(acc * x)
			} else {
				acc, have = x, true
			}
		}
		m >>= 1
		if m != 0 {
			x = step.r(x * x)
		}
	}
	if n < 0 {
		return step.r(1 / acc)
	}
	return acc
}

// halfStep returns the rounding of each step of a computation in the float
// dtype d held in T (nil when T is d's own type).
func halfStep[T floating](d tensor.DType) stepper[T] {
	var round func(float32) float32
	switch d {
	case tensor.F16:
		round = roundF16
	case tensor.BF16:
		round = roundBF16
	default:
		return nil
	}
	return func(x T) T { return T(round(float32(x))) }
}
