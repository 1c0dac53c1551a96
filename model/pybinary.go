package model

import (
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// The binary family (arithmetic, comparisons, bitwise ops) of PyTorch, NumPy
// and JAX: promotion (pypromote.go), each framework's checks in the order it
// makes them, then the elementwise kernels, whose arithmetic lives in
// intarith.go and floatarith.go.

var (
	noTruncDiv = newRule("python.trunc-div.none",
		"NumPy and JAX have no truncating division (PyTorch's rounding_mode='trunc'): the program cannot be written",
		"oracle-00005 (numpy and jax unsupported); promotion.md §1")
	broadcastRule = newRule("python.broadcast",
		"operand shapes broadcast NumPy-style (aligned on the right, size-1 dims stretch); any other mismatch is an error",
		"oracle-01306 ([2]+[3]); oracle2-00003, oracle2-00093 (2-D broadcasts); promotion.md §1 (oracle-01305's pytorch record is a runner artifact)")
	torchSubBool = newRule("pytorch.sub.bool",
		"PyTorch refuses sub with a bool operand (a bool tensor or a Python bool), before broadcasting and promotion",
		"oracle2-01496, oracle2-01403, oracle2-00914; promotion.md §1")
	torchNegPow = newRule("pytorch.pow.negative-int-exponent",
		"an integral or bool tensor raised to a negative Python int raises RuntimeError: Integers to negative integer powers are not allowed.",
		"ATen pow Tensor_Scalar meta function (source; no oracle case)")
	torchPowShortcut = newRule("pytorch.pow.shortcut",
		"pow(t, 0 or False) fills ones and pow(t, 1 or True) copies t, and 1 ** t fills ones, without running a kernel (so dtypes without a pow kernel succeed)",
		"oracle2-00771 (u64 ** True), oracle2-00951 (u32 ** False), oracle2-01129; ATen pow_Tensor_Scalar_out, pow_Scalar_out")
	torchComplexHalfRule = newRule("pytorch.promote.complex-half",
		"an f16 tensor with a complex 0-dim tensor or a Python complex (and a 0-dim f16 with a Python complex) promotes to ComplexHalf (toComplexType(Half)): an error of class UnsupportedDType, as the ops without a ComplexHalf kernel raise NotImplementedError and the case format has no complex32 to hold the others' result",
		"c10/core/ScalarType.h toComplexType (Half -> ComplexHalf, BFloat16 -> ComplexFloat); aten/src/ATen/native/cpu/BinaryOpsKernel.cpp@00954a44 (div_true_kernel dispatches no ComplexHalf); issue 13 (recorded outcome: an error)")
	torchBoolDivKernel = newRule("pytorch.coverage.bool-division",
		"floor_div, rem and fmod have no bool kernel: a bool computation dtype goes to the float dispatch, NotImplementedError \"div_floor_cpu\" / \"remainder_cpu\" / \"fmod_cpu\" (…_cuda) not implemented for 'Bool'",
		"ATen BinaryOpsKernel.cpp div_floor_kernel, remainder_kernel, fmod_kernel (source; promotion.md §2.5)")
	torchIntParse = newRule("pytorch.scalar.int64-range",
		"a Python int operand outside int64 cannot be unpacked: RuntimeError: Overflow when unpacking long",
		"torch/csrc/utils/python_numbers.h THPUtils_unpackLong (source; promotion.md §2.4)")
	complexNotModeled = newRule("python.complex.not-modeled",
		"complex operands are modeled for add, sub, mul, div, eq and ne (and PyTorch's refusal of maximum/minimum) only",
		"tfuzz (floor_div, rem, fmod, pow and NumPy/JAX maximum/minimum of complex numbers are not stated yet)").silent()
	torchNoScalarOverload = newRule("pytorch.binary.tensor-only",
		"ops spelled as torch functions need a Tensor where they have no Scalar overload: torch.maximum/minimum take no Python number at all, torch.fmod and torch.div(..., rounding_mode=) take one only as `other`; elsewhere a Python number raises TypeError",
		"torch.maximum, torch.fmod, torch.div signatures (native_functions.yaml: fmod.Scalar and div.Scalar_mode have a Tensor self); spellings per corpus/oracle/README.md")
	numpyIntOverflow = newRule("numpy.scalar.int-out-of-bounds",
		"NEP 50: a Python int that does not fit the integer dtype of the ufunc loop raises OverflowError (not for true division, whose loop is float, nor for comparisons, which compare exactly)",
		"oracle-00704, oracle-00705, oracle-00782, oracle2-00071, oracle2-00623, oracle2-00785 (div ok)")
	numpyIntToFloatRange = newRule("numpy.scalar.int-to-float-overflow",
		"NEP 50: a Python int meeting an f16/f32/f64/c64/c128 loop is stored through a Python float (float(v)): an int that rounds to 2**1024 or more in magnitude (|v| >= 2**1024 - 2**970) raises OverflowError: int too large to convert to float; a smaller one rounds to the dtype (f16/f32 overflow to inf with a RuntimeWarning, not an error)",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/ufunc_object.c:4260 (npy_update_operand_for_scalar), numpy/_core/src/multiarray/abstractdtypes.c:430 (PyArray_SETITEM of the loop's descr), numpy/_core/src/multiarray/arraytypes.c.src:113 (MyPyFloat_AsDouble: PyNumber_Float) and :506 (complex: PyComplex_AsCComplex); CPython Objects/longobject.c PyLong_AsDouble")
	numpyBF16IntRange = newRule("numpy.scalar.bf16-int-c-long",
		"NEP 50 with ml_dtypes' bf16: a Python int is stored by CastToCustomFloat through a C long (PyLong_AsLong), then f32, then bf16: an int outside int64 fails, and NPyCustomFloat_SetItem replaces the OverflowError with TypeError: expected number, got int",
		"ml_dtypes v0.5.4 (9fd1a480) ml_dtypes/_src/custom_float.h:130-135 (PyLong_AsLong, T(static_cast<float>(l))), :436-437 (PyErr_Format TypeError)")
	numpyBoolSub = newRule("numpy.sub.bool",
		"np.subtract has no bool loop: TypeError: numpy boolean subtract, the `-` operator, is not supported",
		"NumPy ufunc type resolver (source; promotion.md §1)")
	numpyBoolAsInt8 = newRule("numpy.bool-as-int8",
		"floor_divide, remainder, fmod and power have no bool loop: bool operands use the int8 loop and give i8",
		"oracle2-00665 (bool ** bool -> i8); NumPy ufunc loops")
	jaxIntOverflow = newRule("jax.scalar.int-out-of-range",
		"a Python int operand outside int32 (x64 off) or int64 (x64 on) fails when the jitted op parses its arguments: OverflowError",
		"oracle2-00071, oracle2-00608, oracle2-00628, oracle2-00808")
	jaxBoolAsInt32 = newRule("jax.bool-as-int32",
		"floor_divide, remainder, fmod and power promote with promote_args_numeric: a bool result becomes i32, also with x64",
		"oracle2-00665 (bool ** bool -> i32); jax/_src/dtypes.py to_numeric_dtype")
	jaxBoolSub = newRule("jax.sub.bool",
		"lax.sub does not accept bool: TypeError: sub does not accept dtype bool",
		"jax/_src/lax/lax.py sub_p (source; promotion.md §1)")
	bitwiseFloat = newRule("python.bitwise.float",
		"NumPy and JAX have no bitwise and/or/xor on float or complex dtypes: TypeError",
		"oracle2-00939 and rand2 bitwise cases with a float operand; unary_index_coverage.md §4.4")
	divToFloat = newRule("python.div.int-to-float",
		"true division of integers or bools computes in a float: PyTorch the default f32, NumPy f64, JAX to_inexact_dtype (f32 up to 32-bit ints, f64 for 64-bit ints with x64)",
		"oracle-00132, oracle-00101, oracle-00124, oracle2-00312, oracle2-00591; promotion.md §5")
)

// pyBin is one binary op being evaluated.
type pyBin struct {
	e       *evaluation
	op      string
	args    []pyArg
	common  tensor.DType // the promoted dtype of the operands
	compute tensor.DType // the dtype the operands are converted to
	result  tensor.DType
	shape   []int
	ops     [2]operand
	// intPowExp is JAX's integer_pow exponent (nil when lax.pow runs).
	intPowExp *big.Int
	// jaxFmodRaw: jnp.fmod of bools keeps a zero divisor (XLA's x % 0 = x).
	jaxFmodRaw bool
	// mixedIntCmp: NumPy compares a signed with an unsigned integer array
	// exactly (its qQ/Qq loops) where promotion would give a float.
	mixedIntCmp bool
	// predSelect is the operand (0 or 1) of a JAX mul or div that XLA's
	// algebraic simplifier turns into select(pred, ..., 0); -1 for none.
	predSelect int
	argSpace   [2]pyArg // args' backing array: a binary op has two
}

func (e *evaluation) pyBinary() tensor.Outcome {
	if e.c.Op == "trunc_div" && e.p.Framework != PyTorch {
		return e.unsupported(noTruncDiv, "%s has no truncating division (torch.div rounding_mode='trunc')", e.p.Framework)
	}
	b := &pyBin{e: e, op: e.c.Op, predSelect: -1}
	b.args = b.argSpace[:0]
	for _, a := range e.c.Args {
		if a.IsScalar() {
			b.args = append(b.args, pyArg{s: a.Scalar})
		} else {
			b.args = append(b.args, pyArg{t: e.input(a.Tensor)})
		}
	}
	var o *tensor.Outcome
	switch e.p.Framework {
	case PyTorch:
		o = b.torchPrepare()
	case NumPy:
		o = b.numpyPrepare()
	default:
		o = b.jaxPrepare()
	}
	if o != nil {
		return *o
	}
	return b.run()
}

func outcomePtr(o tensor.Outcome) *tensor.Outcome { return &o }

func isComparison(op string) bool {
	switch op {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return true
	}
	return false
}

func isBitwise(op string) bool {
	return op == "bitwise_and" || op == "bitwise_or" || op == "bitwise_xor"
}

// usesIntLoopForBool lists the ops NumPy and JAX run on integers for bools.
func usesIntLoopForBool(op string) bool {
	return op == "floor_div" || op == "rem" || op == "fmod" || op == "pow" || isShift(op)
}

// broadcast sets b.shape or returns the framework's shape error.
func (b *pyBin) broadcast() *tensor.Outcome {
	var shapes [][]int
	for _, a := range b.args {
		if !a.isScalar() {
			shapes = append(shapes, a.t.Shape)
		}
	}
	b.shape = shapes[0]
	if len(shapes) == 1 {
		b.shape = append([]int{}, shapes[0]...)
		return nil
	}
	s, bad, ok := broadcastShapes(shapes[0], shapes[1])
	if ok {
		b.shape = s
		return nil
	}
	b.e.use(broadcastRule)
	x, y := shapes[0], shapes[1]
	n := max(len(x), len(y))
	da, db := dimFromRight(x, n-1-bad), dimFromRight(y, n-1-bad)
	switch b.e.p.Framework {
	case PyTorch:
		return outcomePtr(tensor.ErrorOutcome(tensor.ShapeMismatch,
			"RuntimeError: The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", da, db, bad))
	case NumPy:
		return outcomePtr(tensor.ErrorOutcome(tensor.ShapeMismatch,
			"ValueError: operands could not be broadcast together with shapes %s %s ", shapeTupleCompact(x), shapeTupleCompact(y)))
	}
	return outcomePtr(tensor.ErrorOutcome(tensor.ShapeMismatch,
		"TypeError: %s got incompatible shapes for broadcasting: %s, %s.", b.op, shapeTuple(x), shapeTuple(y)))
}

// scalarArg returns the scalar operand and its position, if any.
func (b *pyBin) scalarArg() (*tensor.Scalar, int) {
	for i, a := range b.args {
		if a.isScalar() {
			return a.s, i
		}
	}
	return nil, -1
}

// ---------------------------------------------------------------- PyTorch

// torchFunctionName is the torch function an op of the catalog is spelled
// with, where it is not an operator.
var torchFunctionName = map[string]string{"maximum": "maximum", "minimum": "minimum", "fmod": "fmod", "trunc_div": "div"}

// torchNeedsTensor reports whether a Python number at argument position pos
// has no overload in the torch function that spells op.
func torchNeedsTensor(op string, pos int) bool {
	switch op {
	case "maximum", "minimum":
		return true
	case "fmod", "trunc_div":
		return pos == 0
	}
	return false
}

func (b *pyBin) torchPrepare() *tensor.Outcome {
	e := b.e
	if e.p.Device == MPS {
		for _, a := range b.args {
			if !a.isScalar() && (a.t.DType == tensor.F64 || a.t.DType == tensor.C128) {
				return outcomePtr(e.fail(torchMPSNoF64, // shared with pycast.go
					tensor.UnsupportedDType,
					"TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead."))
			}
		}
	}
	if s, pos := b.scalarArg(); s != nil && torchNeedsTensor(b.op, pos) {
		name, arg := torchFunctionName[b.op], "other"
		if pos == 0 {
			arg = "input"
		}
		return outcomePtr(e.fail(torchNoScalarOverload, tensor.Other,
			"TypeError: %s(): argument '%s' (position %d) must be Tensor, not %s", name, arg, pos+1, s.Kind))
	}
	if s, _ := b.scalarArg(); s != nil && s.Kind == tensor.ScalarInt && !intFits(s.Int(), tensor.I64) {
		return outcomePtr(e.fail(torchIntParse, tensor.OutOfRange, "RuntimeError: Overflow when unpacking long"))
	}
	if b.op == "sub" {
		for _, a := range b.args {
			if (a.isScalar() && a.kind() == tensor.ScalarBool) || (!a.isScalar() && a.t.DType == tensor.Bool) {
				return outcomePtr(e.fail(torchSubBool, tensor.UnsupportedDType,
					"RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."))
			}
		}
	}
	if s, pos := b.scalarArg(); b.op == "pow" && pos == 1 && s.Kind == tensor.ScalarInt && s.Int().Sign() < 0 {
		if d := b.args[0].t.DType; d.IsInt() || d == tensor.Bool {
			return outcomePtr(e.fail(torchNegPow, tensor.Other, "RuntimeError: Integers to negative integer powers are not allowed."))
		}
	}
	if o := b.broadcast(); o != nil {
		return o
	}
	common, o := e.pyPromote(b.args)
	if o != nil {
		return o
	}
	if torchComplexHalf(b.args) {
		return outcomePtr(e.fail(torchComplexHalfRule, tensor.UnsupportedDType,
			"RuntimeError: the result dtype would be ComplexHalf (torch.complex32): %s has no ComplexHalf kernel, or its ComplexHalf result has no host conversion", b.op))
	}
	if common.IsComplex() && (b.op == "maximum" || b.op == "minimum") {
		return outcomePtr(e.fail(torchComplexMaxMin, tensor.UnsupportedDType, "RuntimeError: %s not implemented for complex tensors.", b.op))
	}
	b.setDTypes(common, tensor.F32)
	if o := b.torchPowShortcut(); o != nil {
		return o
	}
	if k := e.p.torchMissingKernel(b.op, b.compute); k != "" {
		return outcomePtr(e.torchNoKernelError(k, b.compute))
	}
	if b.compute == tensor.Bool && (b.op == "floor_div" || b.op == "rem" || b.op == "fmod") {
		e.use(torchBoolDivKernel)
		k := map[string]string{"floor_div": "div_floor", "rem": "remainder", "fmod": "fmod"}[b.op]
		if e.p.Device == CPU {
			k += "_cpu"
		} else {
			k += "_cuda"
		}
		return outcomePtr(e.torchNoKernelError(k, tensor.Bool))
	}
	return nil
}

// setDTypes sets the common, compute and result dtypes; intDiv is the float
// dtype true division of integers computes in.
func (b *pyBin) setDTypes(common, intDiv tensor.DType) {
	b.common, b.compute, b.result = common, common, common
	switch {
	case b.op == "div" && !common.IsFloat() && !common.IsComplex():
		b.e.use(divToFloat)
		b.compute, b.result = intDiv, intDiv
	case isComparison(b.op):
		b.result = tensor.Bool
	}
}

// torchPowShortcut answers pow(t, 0|1|False|True) and 1 ** t without a kernel.
func (b *pyBin) torchPowShortcut() *tensor.Outcome {
	s, pos := b.scalarArg()
	if b.op != "pow" || s == nil {
		return nil
	}
	var fill bool
	switch {
	case pos == 1 && scalarEquals(s, 0):
		fill = true
	case pos == 1 && scalarEquals(s, 1):
		fill = false
	case pos == 0 && s.Kind != tensor.ScalarBool && s.Float() == 1:
		fill = true
	default:
		return nil
	}
	b.e.use(torchPowShortcut)
	out := tensor.New(b.result, b.shape...)
	src := b.e.convertArg(b.args[1-pos], b.result)
	for i := range out.Len() {
		if fill {
			setOne(out, i)
		} else {
			copyElem(out, i, src, i)
		}
	}
	return outcomePtr(tensor.ValueOutcome(out))
}

// scalarEquals is c10::Scalar::equal against v (a bool equals only 0/1 as false/true).
func scalarEquals(s *tensor.Scalar, v float64) bool { return s.Float() == v }

func setOne(t *tensor.Tensor, i int) {
	switch {
	case t.DType.IsFloat() || t.DType.IsComplex():
		t.SetFloat(i, 1)
	default:
		t.SetInt(i, 1)
	}
}

func copyElem(dst *tensor.Tensor, i int, src *tensor.Tensor, j int) {
	if dst.DType.IsComplex() {
		dst.SetComplex(i, src.Complex(j))
		return
	}
	dst.SetBits(i, src.Bits(j))
}

// ---------------------------------------------------------------- NumPy

func (b *pyBin) numpyPrepare() *tensor.Outcome {
	e := b.e
	common, _ := e.pyPromote(b.args)
	b.setDTypes(common, tensor.F64)
	if isComparison(b.op) && !hasScalar(b.args) && b.args[0].t.DType.IsInt() && b.args[1].t.DType.IsInt() && !common.IsInt() {
		e.use(numpyCmpMixedInt)
		b.mixedIntCmp = true
	}
	if s, _ := b.scalarArg(); s != nil && s.Kind == tensor.ScalarInt && (b.compute.IsFloat() || b.compute.IsComplex()) {
		if o := b.numpyIntToInexact(s); o != nil {
			return o
		}
	}
	if s, _ := b.scalarArg(); s != nil && s.Kind == tensor.ScalarInt && common.IsInt() && b.op != "div" && !isComparison(b.op) {
		if !intFits(s.Int(), common) {
			return outcomePtr(e.fail(numpyIntOverflow, tensor.OutOfRange,
				"OverflowError: Python integer %s out of bounds for %s", s.Text, pyName(common)))
		}
	}
	switch {
	case b.op == "sub" && common == tensor.Bool:
		return outcomePtr(e.fail(numpyBoolSub, tensor.UnsupportedDType,
			"TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead."))
	case usesIntLoopForBool(b.op) && common == tensor.Bool:
		e.use(numpyBoolAsInt8)
		b.compute, b.result = tensor.I8, tensor.I8
	case (isBitwise(b.op) || isShift(b.op)) && (common.IsFloat() || common.IsComplex()):
		return outcomePtr(e.fail(bitwiseFloat, tensor.UnsupportedDType,
			"TypeError: ufunc '%s' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''", b.op))
	}
	return b.broadcast()
}

// numpyIntToInexact is how NumPy stores a weak Python int into the float or
// complex dtype of the loop (npy_update_operand_for_scalar, then the dtype's
// setitem): NumPy's own float and complex dtypes go through a Python float,
// ml_dtypes' bf16 through a C long.
func (b *pyBin) numpyIntToInexact(s *tensor.Scalar) *tensor.Outcome {
	v := s.Int()
	if b.compute == tensor.BF16 {
		if !v.IsInt64() {
			return outcomePtr(b.e.fail(numpyBF16IntRange, tensor.Other, "TypeError: expected number, got int"))
		}
		return nil
	}
	if !intFitsFloat64(v) {
		return outcomePtr(b.e.fail(numpyIntToFloatRange, tensor.OutOfRange, "OverflowError: int too large to convert to float"))
	}
	return nil
}

// intFitsFloat64 reports whether CPython's float(v) succeeds: v rounded to
// 53 bits (ties to even) stays below 2**1024, i.e. |v| < 2**1024 - 2**970.
func intFitsFloat64(v *big.Int) bool {
	limit := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 1024), new(big.Int).Lsh(big.NewInt(1), 970))
	return new(big.Int).Abs(v).Cmp(limit) < 0
}

// ---------------------------------------------------------------- JAX

func (b *pyBin) jaxPrepare() *tensor.Outcome {
	e := b.e
	s, pos := b.scalarArg()
	// a Python int exponent of ** is not parsed as a jitted argument
	if s != nil && s.Kind == tensor.ScalarInt && !(b.op == "pow" && pos == 1) {
		limit := tensor.I32
		if e.p.X64 {
			limit = tensor.I64
		}
		if !intFits(s.Int(), limit) {
			return outcomePtr(e.fail(jaxIntOverflow, tensor.OutOfRange,
				"OverflowError: An overflow was encountered while parsing an argument to a jitted computation, whose argument path is x%d. Got <class 'int'> with value %s", pos+1, s.Text))
		}
	}
	if b.op == "pow" {
		if o := b.jaxIntegerPow(); o != nil || b.intPowExp != nil {
			return o
		}
	}
	common, _ := e.pyPromote(b.args)
	b.setDTypes(common, jaxInexact(common))
	if o := b.broadcast(); o != nil {
		return o
	}
	switch {
	case b.op == "sub" && common == tensor.Bool:
		return outcomePtr(e.fail(jaxBoolSub, tensor.UnsupportedDType,
			"TypeError: sub does not accept dtype bool. Accepted dtypes are subtypes of number."))
	case usesIntLoopForBool(b.op) && common == tensor.Bool:
		e.use(jaxBoolAsInt32)
		b.compute, b.result = tensor.I32, tensor.I32
		b.jaxFmodRaw = true
	case (b.op == "mul" || b.op == "div") && (b.compute.IsFloat() || b.compute.IsComplex()):
		b.predSelect = b.jaxPredOperand()
	case (isBitwise(b.op) || isShift(b.op)) && (common.IsFloat() || common.IsComplex()):
		lax := map[string]string{"bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor",
			"shift_left": "shift_left", "shift_right": "shift_right_arithmetic"}[b.op]
		return outcomePtr(e.fail(bitwiseFloat, tensor.UnsupportedDType,
			"TypeError: %s does not accept dtype %s at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.", lax, pyName(common)))
	}
	return nil
}

// ---------------------------------------------------------------- elements

var (
	numpyIntPow = newRule("numpy.int.pow",
		"integer power by square-and-multiply with wrapping; any negative exponent element raises ValueError: Integers to negative integer powers are not allowed.",
		"oracle2-00170, oracle2-00487, oracle2-00477, oracle2-00937")
	numpyCmpMixedInt = newRule("numpy.compare.signed-unsigned",
		"NumPy 2 compares a signed integer array with a u64 array (the pairs whose promotion is f64) exactly, in its int64/uint64 comparison loops, with no detour through float64: 2**63-1 < 2**63 holds",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/ufunc_type_resolution.c:355-371 (PyUFunc_SimpleBinaryComparisonTypeResolver: integer inputs with a non-integer result type get LONGLONG/ULONGLONG), numpy/_core/code_generators/generate_umath.py:548-549 and the same qQ/Qq TypeDescriptions of every comparison")
	numpyCmpExact = newRule("numpy.compare.python-int",
		"NumPy 2 compares an integer array with a Python int exactly, even one outside the array's range",
		"NumPy 2 release notes, NEP 50 (source; not in the oracle)")
)

// run converts the operands and evaluates every output element.
func (b *pyBin) run() tensor.Outcome {
	if b.compute.IsComplex() && !complexModeled(b.op) {
		return b.e.unsupported(complexNotModeled, "tfuzz: %s of %s is not modeled for %s", b.op, b.compute, b.e.p.Name)
	}
	if b.intPowExp != nil {
		return b.runIntegerPow()
	}
	for k := range 2 {
		if b.mixedIntCmp {
			b.ops[k] = operand{t: b.args[k].t} // compared as they are
			continue
		}
		b.ops[k] = operand{t: b.e.convertArg(b.args[k], b.compute)}
	}
	b.setOpmath()
	out := tensor.New(b.result, b.shape...)
	if o := b.numpyNegativePow(out.Len()); o != nil {
		return *o
	}
	for i := range out.Len() {
		if o := b.elem(out, i); o != nil {
			return *o
		}
	}
	return tensor.ValueOutcome(out)
}

// complexModeled lists the ops the model states for complex operands.
func complexModeled(op string) bool {
	switch op {
	case "add", "sub", "mul", "div", "eq", "ne":
		return true
	}
	return false
}

// at returns the index of output element i in operand k.
func (b *pyBin) at(k, i int) int { return broadcastIndex(b.shape, i, b.ops[k].t.Shape) }

// numpyNegativePow is NumPy's integer power check over the output elements.
func (b *pyBin) numpyNegativePow(n int) *tensor.Outcome {
	if b.e.p.Framework != NumPy || b.op != "pow" || !b.compute.IsSigned() {
		return nil
	}
	for i := range n {
		if b.ops[1].t.Int(b.at(1, i)) < 0 {
			return outcomePtr(b.e.fail(numpyIntPow, tensor.Other, "ValueError: Integers to negative integer powers are not allowed."))
		}
	}
	return nil
}

// elem evaluates output element i.
func (b *pyBin) elem(out *tensor.Tensor, i int) *tensor.Outcome {
	x, y := b.ops[0].t, b.ops[1].t
	xi, yi := b.at(0, i), b.at(1, i)
	switch c := b.compute; {
	case b.predSelect >= 0:
		b.predSelectElem(out, i)
	case isComparison(b.op):
		out.SetBool(i, b.compare(x, xi, y, yi))
	case isShift(b.op):
		b.shiftElem(out, i, x, xi, y, yi)
	case c == tensor.Bool:
		out.SetBool(i, boolOp(b.op, x.Bool(xi), y.Bool(yi)))
	case c.IsComplex():
		v, unspec := b.complexElem(x.Complex(xi), y.Complex(yi))
		out.SetComplex(i, v)
		if unspec {
			out.SetUnspecified(i)
		}
	case c.IsInt():
		v, o := b.intElem(x.Uint(xi), y.Uint(yi))
		if o != nil {
			return o
		}
		if v.unspecified {
			out.SetUnspecified(i)
		}
		out.SetUint(i, v.v)
	default:
		v, unspec := b.floatElem(x.Float(xi), y.Float(yi))
		out.SetFloat(i, v)
		if unspec {
			out.SetUnspecified(i)
		}
	}
	return nil
}

func boolOp(op string, x, y bool) bool {
	switch op {
	case "add", "bitwise_or", "maximum":
		return x || y
	case "mul", "bitwise_and", "minimum":
		return x && y
	case "bitwise_xor":
		return x != y
	}
	panic("model: bool " + op)
}

// complexElem is a complex op on two elements of the compute dtype.
func (b *pyBin) complexElem(x, y complex128) (complex128, bool) {
	switch b.op {
	case "mul":
		return b.complexMul(x, y)
	case "div":
		return b.complexDiv(x, y)
	}
	return b.complexAddSub(x, y), false
}

// compare evaluates a comparison in the compute dtype.
func (b *pyBin) compare(x *tensor.Tensor, xi int, y *tensor.Tensor, yi int) bool {
	var c int
	switch d := b.compute; {
	case b.mixedIntCmp:
		c = exactIntValue(x, xi).Cmp(exactIntValue(y, yi))
	case d.IsComplex():
		c = 2
		if x.Complex(xi) == y.Complex(yi) {
			c = 0
		}
	case d.IsFloat():
		c = floatCmp(x.Float(xi), y.Float(yi))
	default:
		c = intCmp(x.Uint(xi), y.Uint(yi), d)
		if s, pos := b.scalarArg(); s != nil && s.Kind == tensor.ScalarInt && b.e.p.Framework == NumPy {
			b.e.use(numpyCmpExact)
			c = intCmpBig(x.Uint(xi), y.Uint(yi), d, s.Int(), pos)
		}
	}
	return cmpHolds(b.op, c)
}
