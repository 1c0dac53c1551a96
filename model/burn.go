package model

import (
	"fmt"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn 0.22: the Flex backend (debug and release builds) and the ndarray
// backend. A burn tensor is of a kind (Float, Int, Bool) fixed in its Rust
// type; host data becomes the device's default dtype of that kind (Flex:
// F32 and I32, ndarray: F32 and I64), so every input is converted first.
// Flex computes I8..U32 arithmetic in i64 and truncates (no overflow panic
// even in debug), I64 natively. Sources: seed 004; source-facts rows 11a-11e
// and "burn-flex" 11-12, read at burn 2c06be35.

func init() {
	for _, p := range []*Profile{
		{Name: "burn/flex-debug", Framework: Burn, Device: CPU, Arch: Arm64, Debug: true,
			Doc:      "burn 0.22 Flex backend, debug build",
			Evidence: "seed 004 (Flex, debug); source-facts.md (burn-flex rows)"},
		{Name: "burn/flex-release", Framework: Burn, Device: CPU, Arch: Arm64,
			Doc:      "burn 0.22 Flex backend, release build",
			Evidence: "seed 004 (Flex, release); source-facts.md (burn-flex rows)"},
		{Name: "burn/ndarray", Framework: Burn, Device: CPU, Arch: Arm64,
			Doc:      "burn 0.22 ndarray backend (build not fixed: integer overflow is unspecified)",
			Evidence: "source-facts.md rows 11c, 11e, 12 (ndarray notes); seed 004 prose (Int default I64)"},
	} {
		p.eval = evalBurn
		register(p)
	}
}

var (
	burnDeviceDefault = newRule("burn.create.device-default-dtype",
		"from_data without a dtype stores host data as the device default of the tensor's kind: Float -> F32 (f64 rounds to nearest, overflowing to inf), Int -> I32 on Flex and I64 on ndarray, Bool -> Bool; an integer that does not fit panics \"Element cannot be represented in the target type\" (debug and release)",
		"seed 004 §搬到 burn 的现象 (i64 data -> I32), §怎么检查 (3000000000 panics); source-facts #11c, #11d; burn-std element/cast.rs")
	burnNoRank0 = newRule("burn.create.rank-at-least-1",
		"burn tensors have a rank D >= 1 fixed in their type; a 0-dim tensor has no burn spelling, and full reductions return shape [1]",
		"seed 004 (sum returns [..] of rank 1); burn-tensor Tensor<B, D, K>")
	burnKinds = newRule("burn.binary.kinds",
		"a binary op needs two tensors of the same kind (Float, Int, Bool are different Rust types: mixing them does not compile); arithmetic and bitwise ops do not exist for Bool, bitwise ops not for Float, fmod not for Int; there is no //, no trunc_div and no scalar on the left",
		"burn-tensor api (numeric.rs, int.rs, float.rs, fmod.rs); source-facts #11e")
	burnBroadcast = newRule("burn.binary.broadcast",
		"binary ops broadcast dims of size 1 between tensors of the same rank (different ranks do not compile); incompatible shapes panic in burn's tensor checks",
		"burn-flex ops/expand.rs broadcast_binary; burn-tensor check.rs (panics)")
	burnFlexIntArith = newRule("burn.flex.int-arith-widened",
		"Flex computes I8..U32 (the default I32 included) + - * / % in i64 and casts back with `as`: overflow wraps silently in debug and release, i32::MIN / -1 = i32::MIN; a zero divisor panics (Rust i64 / and %)",
		"source-facts extra 11; seed 004 (I32 sum wraps in debug and release); burn-flex ops/binary.rs int_binary_op")
	burnI64Native = newOpenRule("burn.int64-native",
		"I64 arithmetic is native Rust: overflow panics in a debug build and wraps in release (Flex); MIN / -1 and a zero divisor panic in every build; burn/ndarray does not fix the build, so an overflowing element is unspecified there",
		"source-facts extra 11, #11a; source-facts #1")
	burnRemSign = newRule("burn.int.remainder-divisor-sign",
		"remainder on Flex is ((a % b) + b) % b, the divisor's sign (U64: a % b); ndarray computes a - b * floor(a / b) in f64 and converts back with a range check (a zero divisor gives NaN and panics \"Float cannot be represented in the target signed int type\"; above 2^53 precision is lost)",
		"source-facts #11e")
	burnNdarrayFloatRem = newRule("burn.ndarray.float-remainder",
		"ndarray's Float remainder of two tensors computes r = a - b * floor(a / b) in f64 (each step rounded to f64, no fused multiply-add) and converts r to the element type with `as`: a zero divisor gives NaN; with a scalar divisor it is ((x % rhs) + rhs) % rhs in the element type, as on Flex",
		"burn 2c06be35 crates/burn-ndarray/src/ops/base.rs:910-921 (remainder), :924-929 (remainder_scalar), crates/burn-ndarray/src/ops/tensor.rs:126-134; crates/burn-std/src/element/cast.rs:305-313 (f64 -> f32 is `as`)")
	burnMaxPair = newRule("burn.max-pair",
		"maximum and minimum of two Float tensors are max_pair / min_pair, built in the tensor API as mask_where(a.lower(b), b) and mask_where(b.lower(a), b): a NaN in a gives a, a NaN in b gives a, and of +0 and -0 the first operand wins, on every backend",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/orderable.rs:708-711 (max_pair), :936-939 (min_pair)")
	burnClampNaN = newRule("burn.flex.clamp-nan",
		"maximum / minimum with a scalar are clamp_min / clamp_max, on Flex x.max(s) / x.min(s) (Rust f32::max/min): a NaN operand gives the other one; which of +0 and -0 comes out Rust leaves open",
		"burn 2c06be35 crates/burn-flex/src/ops/float.rs:538-556 (float_clamp_min / float_clamp_max); Rust core f32::max documentation (NaN: the other argument; ±0: either)")
	burnBoolElem = newRule("burn.bool.equal-elem",
		"equal_elem / not_equal_elem on a Bool tensor compare each element with the scalar converted to bool with C semantics (Scalar::new for the Native bool store, then elem::<bool>(): x != 0, NaN is true), giving a Bool tensor",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/base.rs:2451-2458 (equal_elem = equal_scalar, Scalar::new(other, &self.dtype())), crates/burn-std/src/element/scalar.rs:34, crates/burn-std/src/element/cast.rs:207-209, 409-411 (to_bool: != 0), crates/burn-flex/src/ops/bool.rs:293-311 (v == rhs as u8), crates/burn-backend/src/backend/ops/bool_tensor.rs:383-386 (not_equal_elem = not(equal_elem)), crates/burn-ndarray/src/ops/base.rs:1642-1650")
	burnScalar = newRule("burn.scalar.elem",
		"a scalar operand is converted with Scalar::new: for a Float tensor to f64 and then to the element type (`as`); for an Int tensor to i64 by ToElement (a float truncates; NaN or out of range panics \"Float cannot be represented in the target signed int type\"), then Flex truncates it with `as i32` (wrap); ndarray keeps the range-checked value",
		"source-facts extra 12 (scalar as i32; div_scalar(2.5) -> 2); burn-std element/scalar.rs, cast.rs")
	burnFloatIEEE = newRule("burn.float.ieee",
		"F32 + - * / are IEEE f32 operations; comparisons give a Bool tensor with IEEE semantics",
		"burn-flex ops/binary.rs, comparison.rs")
	burnUnspecified = newOpenRule("burn.unspecified",
		"neither the seeds nor the source facts state this behaviour of burn: the model leaves it unspecified rather than guess",
		"seeds 004, source-facts.md (silent)").silent()
)

// evalBurn dispatches a case to the burn op families.
func evalBurn(e *evaluation) tensor.Outcome {
	class := e.op().Class
	if out, ok := evalBurnNew(e); ok {
		return out
	}
	if class == tensor.ClassFromLiteral {
		return e.burnFromLiteral(*e.c.Attrs.Literal)
	}
	if class == tensor.ClassArange || class == tensor.ClassZeros {
		return e.burnCreate(class)
	}
	var args []*tensor.Tensor
	for k, a := range e.c.Args {
		if a.IsScalar() {
			args = append(args, nil)
			continue
		}
		if class == tensor.ClassFromVec || class == tensor.ClassToHost && k == 0 {
			if out, bad := e.burnHostCheck(a.Tensor); bad {
				return out
			}
		}
		if a.Result { // an earlier step's tensor: already burn's (program.eager)
			args = append(args, a.Tensor)
			continue
		}
		t, out := e.burnInput(a.Tensor)
		if out != nil {
			return *out
		}
		args = append(args, t)
	}
	switch class {
	case tensor.ClassBinary:
		return e.burnBinary(args)
	case tensor.ClassUnary:
		return e.burnUnary(args[0])
	case tensor.ClassCast:
		return e.burnCast(args[0])
	case tensor.ClassReduce:
		return e.burnReduce(args[0])
	case tensor.ClassCumsum:
		return e.burnCumsum(args[0])
	case tensor.ClassIndexSelect:
		return e.burnSelect(args[0], args[1])
	case tensor.ClassFromVec:
		return e.burnFromVec(args[0])
	case tensor.ClassToHost:
		return e.burnToHost(args[0])
	case tensor.ClassSort:
		return e.burnSort(args[0]) // sortrust.go
	case tensor.ClassMaskSelect:
		return e.burnMaskSelectOp(args[0], args[1]) // maskselect.go
	case tensor.ClassMatmul:
		return e.burnMatmulOp(args[0], args[1]) // matmulrust.go
	case tensor.ClassCat:
		return e.burnCatOp(args) // cat.go
	}
	return e.unsupported(noSuchOp, "burn has no %s", e.c.Op)
}

// burnFlex reports the Flex backend (else ndarray).
func (e *evaluation) burnFlex() bool { return e.p.Name != "burn/ndarray" }

// burnIntDType is the device's default Int dtype.
func (e *evaluation) burnIntDType() tensor.DType {
	if e.burnFlex() {
		return tensor.I32
	}
	return tensor.I64
}

// burnHostCheck rejects host data burn cannot hold at all.
func (e *evaluation) burnHostCheck(t *tensor.Tensor) (tensor.Outcome, bool) {
	if t.DType.IsComplex() {
		return e.unsupported(burnDeviceDefault, "burn has no complex dtype"), true
	}
	return tensor.Outcome{}, false
}

// burnInput is Tensor::from_data(host data, &device): the device default
// dtype of the data's kind.
func (e *evaluation) burnInput(t *tensor.Tensor) (*tensor.Tensor, *tensor.Outcome) {
	if out, bad := e.burnHostCheck(t); bad {
		return nil, &out
	}
	if t.Rank() == 0 {
		out := e.unsupported(burnNoRank0, "burn has no rank-0 tensors")
		return nil, &out
	}
	e.use(burnDeviceDefault)
	to := tensor.F32
	switch {
	case t.DType == tensor.Bool:
		return t, nil
	case t.DType.IsInt():
		to = e.burnIntDType()
		for i := 0; i < t.Len(); i++ {
			if !candleIntFits(t, i, to) {
				p := tensor.PanicOutcome("Element cannot be represented in the target type: %q(%s) => %q", t.DType.String(), t.ElementString(i), to.String())
				return nil, &p
			}
		}
	}
	if t.DType == to {
		return t, nil
	}
	out := tensor.New(to, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		e.rustConvert(t, i, out, rustHalfDirect)
	}
	return out, nil
}

// burnUnspecified is the outcome of a behaviour the evidence does not state.
func (e *evaluation) burnUnspecified(format string, args ...any) tensor.Outcome {
	return e.unsupported(burnUnspecified, "tfuzz: unspecified for burn: "+format, args...)
}

// burnFromLiteral is Tensor::<D, K>::from_data(literal, &device), the kind
// following the literal (Float for floats, Int for integers, Bool for bools).
func (e *evaluation) burnFromLiteral(text string) tensor.Outcome {
	lit, err := parseRustLiteral(text)
	if err != nil {
		return e.rustLitCompileError(fmt.Sprintf("%q is not a Rust literal (%v)", text, err))
	}
	e.use(rustLiteralTyping)
	switch {
	case lit.compile != "":
		return e.rustLitCompileError(lit.compile)
	case len(lit.elems) == 0:
		return e.rustLitCompileError("type annotations needed for an empty literal (E0282)")
	case lit.ragged && !lit.vec:
		return e.rustLitCompileError("mismatched types: arrays of different lengths (E0308)")
	case lit.vec:
		return e.burnUnspecified("from_data of a vec! literal (burn takes arrays or TensorData)")
	case len(lit.shape) == 0:
		return e.unsupported(burnNoRank0, "burn has no rank-0 tensors")
	}
	d, ok := rustTypeDType(lit.typ)
	if !ok {
		return e.unsupported(burnDeviceDefault, "burn has no element type %s", lit.typ)
	}
	host := rustLitTensor(lit.elems, lit.shape, d)
	t, out := e.burnInput(host)
	if out != nil {
		return *out
	}
	return tensor.ValueOutcome(t)
}

// burnCreate is Tensor::<1, Int>::arange(start..end, &device) and
// Tensor::zeros(shape, &device) (with a dtype: (&device, dtype)).
func (e *evaluation) burnCreate(class tensor.OpClass) tensor.Outcome {
	e.use(burnDeviceDefault)
	if class == tensor.ClassZeros {
		d := e.c.Attrs.DType
		if !d.Valid() {
			d = tensor.F32
		}
		if d.IsComplex() {
			return e.unsupported(burnDeviceDefault, "burn has no complex dtype")
		}
		if len(e.c.Attrs.Shape) == 0 {
			return e.unsupported(burnNoRank0, "burn has no rank-0 tensors")
		}
		return tensor.ValueOutcome(tensor.New(d, e.c.Attrs.Shape...))
	}
	start := "0"
	if e.c.Attrs.Start != nil {
		start = *e.c.Attrs.Start
	}
	var elems []rustLitElem
	for _, text := range []string{start, *e.c.Attrs.End} {
		lit, err := parseRustLiteral(text)
		if err != nil || lit.root.List {
			return e.rustLitCompileError(fmt.Sprintf("%q is not a scalar Rust literal", text))
		}
		elems = append(elems, lit.elems[0])
	}
	if _, msg := rustLitType(elems, "i64"); msg != "" {
		return e.unsupported(burnKinds, "Tensor::arange takes a Range<i64>: %s", msg)
	}
	ends := rustLitTensor(elems, []int{2}, tensor.I64)
	vals, ok := rustArangeValues(ends, tensor.I64)
	if !ok {
		return e.unsupported(notModeled, "tfuzz: arange of more than %d elements is not modeled", tensor.MaxElements)
	}
	t, out := e.burnInput(vals)
	if out != nil {
		return *out
	}
	return tensor.ValueOutcome(t)
}

// burnFromVec is Tensor::from_data(TensorData::new(v, shape), &device).
func (e *evaluation) burnFromVec(t *tensor.Tensor) tensor.Outcome {
	shape := e.c.Attrs.Shape
	if tensor.NumElements(shape) != t.Len() {
		return tensor.PanicOutcome("Shape %v is invalid for input of size %d", shape, t.Len())
	}
	if len(shape) == 0 {
		return e.unsupported(burnNoRank0, "burn has no rank-0 tensors")
	}
	return tensor.ValueOutcome(rustWithShape(t, shape))
}

// burnToHost is tensor.into_data().to_vec::<T>(): the element type is
// checked, the rank is the tensor's (a Rust type parameter).
func (e *evaluation) burnToHost(t *tensor.Tensor) tensor.Outcome {
	if r := e.c.Attrs.Rank; r != nil && *r != t.Rank() {
		return e.unsupported(burnNoRank0, "a Tensor<%d> read back as rank %d does not type-check", t.Rank(), *r)
	}
	if e.c.Attrs.DType != t.DType {
		return e.fail(burnUnspecified, tensor.DTypeMismatch, "TypeMismatch(\"Invalid target element type (expected %s, got %s)\")", t.DType, e.c.Attrs.DType)
	}
	return tensor.ValueOutcome(t.Clone())
}
