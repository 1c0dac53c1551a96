package model

import (
	"fmt"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's broadcast_* methods, where_cond, clamp and Tensor::full (candle
// 0.11 at 2a13b0f3), and what candle lacks among the ops added 2026-12.

var (
	candleBroadcastOp = newRule("candle.broadcast-ops",
		"a.broadcast_mul(&b) (and add, sub, div, maximum, minimum) broadcasts the two shapes NumPy-style (an Err \"shape mismatch in broadcast_mul\" when they do not), broadcast_as's each side that differs, then runs the plain operator: its dtype check (\"dtype mismatch in mul\"), its zero-element shortcut and its kernels",
		"candle 2a13b0f3 candle-core/src/tensor.rs:137-153 (broadcast_binary_op!), :618-623, candle-core/src/shape.rs:191-225 (broadcast_shape_binary_op); seed 003 §没有类型提升 (broadcast_mul f32 by f64 [1]: dtype mismatch in mul; by f32 [1]: [0.5, 1.0, 1.5])")
	candleWhereCond = newRule("candle.where-cond",
		"cond.where_cond(&on_true, &on_false) takes tensors only, of the condition's shape (Err \"shape mismatch in where_cond\"), on_true and on_false of one dtype (Err \"dtype mismatch in where\"); the CPU accepts a U8, U32, I16, I32 or I64 condition (nonzero is true; a float condition is Err UnsupportedDTypeForOp where-cond); Metal names a kernel only for the (condition, value) pairs (u8, f32) (u32, f32) (u8, bf16) (u8, f16) (u8, i64) (u8, u32) (u8, u8), any other pair is an Err, and zero elements panic in linear_split",
		"candle 2a13b0f3 candle-core/src/tensor.rs:1591-1604 (where_cond), candle-core/src/storage.rs:601-612 (same_dtype \"where\"), candle-core/src/cpu_backend/mod.rs:2807-2822 (WCond over U8 U32 I16 I32 I64), candle-core/src/dtype.rs:239-290 (is_true: != 0), candle-core/src/metal_backend/mod.rs where_cond (the seven kernel names, bail otherwise), candle-metal-kernels/src/kernels/ternary.rs:59-61 (linear_split of the tiles)")
	candleClamp = newRule("candle.clamp",
		"t.clamp(min, max) is t.maximum(min)?.minimum(max): each bound a tensor of t's shape and dtype or a WithDType scalar converted with to_dtype (`as`), both required (no Option bound)",
		"candle 2a13b0f3 candle-core/src/tensor.rs:1177-1180 (clamp), binary_op_scalar! (:110-133); source-facts extra 3")
	candleFull = newRule("candle.full",
		"Tensor::full(value, shape, &dev) has the Rust type of value (a literal: f64 or i32 unless suffixed; the dtype attr is written as the suffix: 2f32, 7u8) and fills with const_set; on Metal const_set has kernels for u8 u32 i64 f16 bf16 f32 only: f64 is an Err \"unsupported const-set f64\", and an i16/i32 storage has no arm in the (dtype, Scalar) match, an Err \"dtype mismatch, expected I32, got I32(7)\" (the UnsupportedDTypeForOp arms of the inner match are unreachable); zero elements panic in linear_split",
		"candle 2a13b0f3 candle-core/src/tensor.rs:440-451 (full: alloc_uninit, const_set), candle-core/src/metal_backend/mod.rs:457-546 (const_set: the kernel per dtype, :481 and :512 the f64 bails, :536-545 the (dtype, Scalar) match without I16/I32 and its bail), candle-core/src/scalar.rs:7-19 (Scalar's Debug: I32(7)), candle-metal-kernels/src/kernels/unary.rs:79-104 (call_const_set_contiguous: linear_split of the tiles); seed 003 §从 Vec、切片、迭代器建 (full(7u8, 3) U8 [7, 7, 7])")
	candleNoNewOp = newRule("candle.no-such-op.2026-12",
		"candle has no dtype argument on Tensor::new, arange, sum, mean or cumsum, cumsum needs a dim, and clamp has no Option bound: such programs do not compile",
		"candle 2a13b0f3 candle-core/src/tensor.rs (new, arange, sum_keepdim, mean_keepdim, cumsum<D: Dim>, clamp<T1, T2: TensorOrScalar>)")
)

// evalCandleNew dispatches the ops added 2026-12; ok is false for the others.
func evalCandleNew(e *evaluation) (tensor.Outcome, bool) {
	class := e.op().Class
	switch class {
	case tensor.ClassBroadcast:
		return e.candleBroadcast(), true
	case tensor.ClassWhere:
		return e.candleWhere(), true
	case tensor.ClassClamp:
		return e.candleClampOp(), true
	case tensor.ClassFull:
		return e.candleFullOp(), true
	case tensor.ClassSort:
		return e.candleSort(), true // sortrust.go
	case tensor.ClassMaskSelect:
		return e.unsupported(candleNoMaskSelect, "candle has no mask selection (t[mask])"), true
	case tensor.ClassMatmul:
		return e.candleMatmulOp(), true // matmulrust.go
	case tensor.ClassCat:
		return e.candleCatOp(), true // cat.go
	case tensor.ClassFromLiteral, tensor.ClassArange, tensor.ClassReduce, tensor.ClassCumsum:
		if e.c.Attrs.DType.Valid() {
			return e.unsupported(candleNoNewOp, "candle's %s takes no dtype argument", e.c.Op), true
		}
		if class == tensor.ClassCumsum && e.c.Attrs.Dim == nil {
			return e.unsupported(candleNoNewOp, "candle's cumsum needs a dim"), true
		}
	}
	return tensor.Outcome{}, false
}

// candleBroadcast is a.broadcast_OP(&b).
func (e *evaluation) candleBroadcast() tensor.Outcome {
	e.use(candleBroadcastOp)
	x, y := e.c.Args[0].Tensor, e.c.Args[1].Tensor
	shape, _, ok := broadcastShapes(x.Shape, y.Shape)
	if !ok {
		return e.fail(candleBroadcastOp, tensor.ShapeMismatch, "shape mismatch in %s, lhs: %s, rhs: %s", e.c.Op, candleShape(x.Shape), candleShape(y.Shape))
	}
	return e.candleTensorBinary(tensor.BroadcastBase(e.c.Op), expandTo(x, shape), expandTo(y, shape))
}

// expandTo returns t broadcast to shape as candle's broadcast_as makes it
// (layout.rs:210-243): a view of t's storage with stride 0 along the added
// leading dims and every stretched dim of size 1, t's own stride where the
// dims agree (t itself when it has that shape). The layout decides which
// Metal binary kernel runs (candle.metal.binary-layout-variant).
func expandTo(t *tensor.Tensor, shape []int) *tensor.Tensor {
	if sameShape(t.Shape, shape) {
		return t
	}
	own := t.Strides
	if own == nil {
		own = tensor.ContiguousStrides(t.Shape)
	}
	added := len(shape) - t.Rank()
	strides := make([]int, len(shape))
	for k, n := range t.Shape {
		if n == shape[added+k] {
			strides[added+k] = own[k]
		}
	}
	return &tensor.Tensor{DType: t.DType, Shape: append([]int{}, shape...), Strides: strides, Offset: t.Offset, Data: t.Data, Unspecified: t.Unspecified}
}

// candleWhereMetal lists the (condition, value) dtype pairs the Metal host names a kernel for.
var candleWhereMetal = map[[2]tensor.DType]bool{
	{tensor.U8, tensor.F32}: true, {tensor.U32, tensor.F32}: true, {tensor.U8, tensor.BF16}: true,
	{tensor.U8, tensor.F16}: true, {tensor.U8, tensor.I64}: true, {tensor.U8, tensor.U32}: true, {tensor.U8, tensor.U8}: true,
}

// candleWhere is cond.where_cond(&on_true, &on_false).
func (e *evaluation) candleWhere() tensor.Outcome {
	e.use(candleWhereCond)
	for _, a := range e.c.Args {
		if a.IsScalar() {
			return e.unsupported(candleWhereCond, "where_cond takes &Tensor operands, not a %s scalar (E0308)", a.Scalar.Kind)
		}
	}
	c, t, f := e.c.Args[0].Tensor, e.c.Args[1].Tensor, e.c.Args[2].Tensor
	for _, v := range []*tensor.Tensor{t, f} {
		if !sameShape(c.Shape, v.Shape) {
			return e.fail(candleWhereCond, tensor.ShapeMismatch, "shape mismatch in where_cond, lhs: %s, rhs: %s", candleShape(c.Shape), candleShape(v.Shape))
		}
	}
	if t.DType != f.DType {
		return e.fail(candleWhereCond, tensor.DTypeMismatch, "dtype mismatch in where, lhs: %s, rhs: %s", rustName(t.DType), rustName(f.DType))
	}
	if e.candleOnMetal() {
		if !candleWhereMetal[[2]tensor.DType{c.DType, t.DType}] {
			return e.fail(candleMetalKernels, tensor.UnsupportedDType, "Metal where_cond %s %s not implemented", rustName(c.DType), rustName(t.DType))
		}
		if c.Len() == 0 {
			return e.candleMetalEmptyLaunch("where_cond")
		}
	} else if !c.DType.IsInt() {
		return e.fail(candleWhereCond, tensor.UnsupportedDType, "unsupported dtype %s for op where-cond", rustName(c.DType))
	}
	out := tensor.New(t.DType, c.Shape...)
	for i := range out.Len() {
		if isNonzero(c, i) {
			copyElem(out, i, t, i)
		} else {
			copyElem(out, i, f, i)
		}
	}
	return tensor.ValueOutcome(out)
}

// candleClampOp is t.clamp(min, max): maximum, then minimum.
func (e *evaluation) candleClampOp() tensor.Outcome {
	e.use(candleClamp)
	lo, hi := e.c.Args[1], e.c.Args[2]
	if lo.IsNull() || hi.IsNull() {
		return e.unsupported(candleNoNewOp, "candle's clamp takes both bounds (no Option)")
	}
	for _, b := range []tensor.Arg{lo, hi} { // a bound that does not compile fails the program before any step runs
		if b.IsScalar() {
			if _, bad := e.candleScalarTensor(b.Scalar, e.c.Args[0].Tensor); bad != nil {
				return *bad
			}
		}
	}
	first := e.sub(&tensor.Case{Op: "maximum", Args: []tensor.Arg{e.c.Args[0], lo}})
	if first.Form != tensor.FormValue {
		return first
	}
	return e.sub(&tensor.Case{Op: "minimum", Args: []tensor.Arg{{Tensor: first.Value}, hi}})
}

// candleFullOp is Tensor::full(value, shape, &dev).
func (e *evaluation) candleFullOp() tensor.Outcome {
	e.use(candleFull)
	text := *e.c.Attrs.Value
	if d := e.c.Attrs.DType; d.Valid() {
		if !candleHasDType(d) {
			return e.unsupported(candleDTypes, "candle has no %s dtype", d)
		}
		if d == tensor.F16 || d == tensor.BF16 {
			return e.unsupported(notModeled, "tfuzz: Tensor::full of a half value (half::%s::from_f64) is not modeled", d)
		}
		if !strings.ContainsAny(text, "iuf") || strings.HasSuffix(text, "inf") {
			text += d.String() // the value written with the dtype's suffix: 2f32, 7u8
		}
	}
	lit, err := parseRustLiteral(text)
	if err != nil || lit.root.List {
		return e.rustLitCompileError(fmt.Sprintf("%q is not a scalar Rust literal", text))
	}
	e.use(rustLiteralTyping)
	typ, msg := rustLitType(lit.elems, "")
	if msg != "" {
		return e.rustLitCompileError(msg)
	}
	d, ok := rustTypeDType(typ)
	if !ok || !candleHasDType(d) {
		return e.unsupported(candleDTypes, "the trait `WithDType` is not implemented for `%s`", typ)
	}
	shape := e.c.Attrs.Shape
	if e.candleOnMetal() {
		switch d {
		case tensor.F64:
			return e.fail(candleMetalKernels, tensor.UnsupportedDType, "unsupported const-set f64")
		case tensor.I16, tensor.I32: // no arm of the (dtype, Scalar) match
			return e.fail(candleFull, tensor.UnsupportedDType, "dtype mismatch, expected %s, got %s(%s)", rustName(d), rustName(d), rustLitBigInt(lit.elems[0]))
		}
		if tensor.NumElements(shape) == 0 {
			return e.candleMetalEmptyLaunch("const_set")
		}
	}
	one := rustLitTensor(lit.elems, []int{}, d)
	out := tensor.New(d, shape...)
	for i := range out.Len() {
		copyElem(out, i, one, 0)
	}
	return tensor.ValueOutcome(out)
}
