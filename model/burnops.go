package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn's unary ops, casts, reductions, cumsum and select.

var (
	burnUnaryRule = newOpenRule("burn.unary",
		"Float: neg, abs, floor, ceil, trunc, square exact; sqrt IEEE; round to nearest, ties to even; sign NaN -> NaN, ±0 -> +0, else ±1; exp unspecified except at exact points. Int: neg and abs are wrapping_neg / wrapping_abs on Flex (MIN stays MIN, no panic), sign -1/0/1, bitwise_not !x, square x*x with the Int multiplication rules; Int has no sqrt/exp/floor/ceil/round/trunc and Bool no numeric unary op",
		"source-facts extra 12 (wrapping_neg/wrapping_abs); burn-flex ops/unary.rs (round_ties_even), float.rs float_sign; burn-tensor api")
	burnCastRule = newRule("burn.cast",
		"tensor.cast(dtype) converts each element straight to the target dtype, across kinds too (Tensor::cast takes an IntDType for a Float tensor and a FloatDType for an Int one: float_into_int / int_into_float with the target, no device-default intermediate); Flex converts with Rust `as` (int -> int wraps, float -> int truncates and saturates with NaN -> 0, int -> f16/bf16 through f32, f32 -> f16/bf16 by from_f64 of the exact value); ndarray converts with elem(), burn's checked ToElement: an integer or a truncated float that the target cannot hold (NaN included) panics, and f16/bf16 targets are not implemented (a panic); anything -> Bool is x != 0",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/cast.rs:40-45, 77-82 (cross-kind Cast impls: float_into_int(p, dtype), int_into_float(p, dtype)), crates/burn-tensor/src/tensor/api/float.rs:312-314; crates/burn-flex/src/ops/float.rs:61-124 (float_into_int: x as f64 as int), :739-797 (float_cast through f64, f16::from_f64), crates/burn-flex/src/ops/int.rs:441-480 (int_into_float: x as f32, f16::from_f32(x as f32)), :673-700 (int_cast: x as T); crates/burn-ndarray/src/ops/tensor.rs:744-750 (float_into_int: a.elem::<I>()), :782-786 and crates/burn-ndarray/src/tensor.rs:59-84 (cast_to_dtype: a.elem(), no F16/BF16 arm: panic \"Unsupported dtype\"), :322-345 (execute_with_float_out_dtype: F64 and F32 only, unimplemented! otherwise), crates/burn-std/src/element/cast.rs:136-175 (int -> int panics \"Element cannot be represented in the target type\"), :316-390 (float -> int: panics outside (MIN-1, MAX+1) and for NaN)")
	burnHalfFromF64 = newOpenRule("burn.flex.half-from-f64-unpinned",
		"Flex casts f64 to f16/bf16 with the half crate's from_f64, whose rounding depends on the platform (a hardware conversion, or a software path): unspecified where one rounding and a rounding through f32 differ",
		"burn 2c06be35 crates/burn-flex/src/ops/float.rs:786-795 (f16::from_f64(v), bf16::from_f64(v)); half crate convert.rs (as candle.half-from-f64-unpinned)")
	burnSumRule = newOpenRule("burn.reduce.sum-widening",
		"Flex integer sum and prod of I8..U32 accumulate in i64 with wrapping arithmetic and truncate to the element type (no panic in any build); I64 uses plain + and * (a debug panic on overflow, wrap in release); the result keeps the dtype, shape [1] for all elements (keepdim shape with a dim); integer mean is the wrapped sum divided by n, truncating (n = 0 panics); float sums are exact only where every order agrees (SIMD, parallel chunks)",
		"seed 004 §搬到 burn 的现象 (I32 sum [-1294967296] in debug and release, rank 1); source-facts #11a, extra 12 (int_mean, mean_dim)")
	burnFlexProd = newRule("burn.flex.prod-sequential",
		"Flex's prod of all elements is Iterator::product over the elements in order, in the element type (f16/bf16 in f32): a sequential product with one rounding per step",
		"burn 2c06be35 crates/burn-flex/src/ops/reduce.rs:349-353 (prod dispatch), :367-387 (prod_impl: data[start..end].iter().copied().product()), reduce_scalar_half (|a, b| a * b from 1.0 in f32)")
	burnProdOrderFree = newRule("burn.reduce.prod-order-free",
		"where the order of a float product is not pinned (Flex prod_dim, ndarray), it is still fixed when a NaN takes part (NaN), when a zero meets an infinity (NaN), or when a zero takes part and no partial product can overflow (every |x| > 1 together stay below the largest power of two of the accumulation dtype): a zero whose sign is the parity of the negative factors",
		"IEEE 754 multiplication (the sign of a product is the xor of the signs; x * NaN and 0 * inf are NaN)")
	burnCumsumRule = newRule("burn.cumsum.plain-add",
		"Flex cumsum is cumulative_op with `acc + val` in the element type for every dtype: integer overflow panics in a debug build (\"attempt to add with overflow\") and wraps in release; floats add sequentially in the element type",
		"seed 004 §搬到 burn 的现象 (I32 cumsum: debug panic at cumulative.rs:19, release [1500000000, -1294967296]); source-facts #11b")
	burnNdarrayCumsum = newRule("burn.ndarray.cumsum-sequential",
		"ndarray's cumsum copies the tensor and adds each slice to the previous one in order along the dim (current + previous, in the element type): the first output is the first element itself (a -0 stays -0), later ones a sequential sum; integer overflow follows burn.int64-native",
		"burn 2c06be35 crates/burn-ndarray/src/ops/macros.rs:64-88 (cumulative_with_op: for i in 1..dim_size, Zip current with prev, *c = c.add(p.elem())), crates/burn-ndarray/src/ops/tensor.rs:467-471")
	burnSelectRule = newRule("burn.select",
		"index_select is select(dim, indices) with a rank-1 Int tensor of indices (Float or Bool indices do not type-check); the rows are copied; an index below 0 or at least the dim's size panics in the backend's bounds check (burn does not wrap negative indices)",
		"burn 2c06be35 crates/burn-tensor/src/tensor/api/base.rs:1621-1624 (select passes the indices on unchanged), crates/burn-flex/src/ops/gather_scatter.rs:141-152 (checked_index: \"index {raw} out of bounds for dimension of size {dim_size}\"), crates/burn-ndarray/src/ops/base.rs:990-1010 (i as usize into ndarray's select, which panics out of bounds)")
)

// burnUnary evaluates the unary family.
func (e *evaluation) burnUnary(t *tensor.Tensor) tensor.Outcome {
	op, kind := e.c.Op, burnKind(t.DType)
	floatOnly := map[string]bool{"sqrt": true, "exp": true, "floor": true, "ceil": true, "round": true, "trunc": true}
	if kind == 'b' || kind == 'f' && op == "bitwise_not" || kind == 'i' && floatOnly[op] {
		return e.unsupported(burnKinds, "burn has no %s for %s tensors", op, rustName(t.DType))
	}
	e.use(burnUnaryRule)
	out := tensor.New(t.DType, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		if kind == 'f' {
			v, ok := burnFloatUnary(op, t.Float(i), t.DType)
			out.SetFloat(i, v)
			if !ok {
				out.SetUnspecified(i)
			}
			continue
		}
		if p := e.burnIntUnary(op, t, out, i); p != nil {
			return *p
		}
	}
	return tensor.ValueOutcome(out)
}

// burnFloatUnary returns op(x) and whether it is specified.
func burnFloatUnary(op string, x float64, d tensor.DType) (float64, bool) {
	switch op {
	case "neg":
		return -x, true
	case "abs":
		return math.Abs(x), true
	case "floor":
		return math.Floor(x), true
	case "ceil":
		return math.Ceil(x), true
	case "trunc":
		return math.Trunc(x), true
	case "round":
		return math.RoundToEven(x), true
	case "square":
		return rustFloatOp("mul", x, x, d), true
	case "sqrt":
		return crSqrt(x, d), true
	case "sign":
		switch {
		case math.IsNaN(x):
			return x, true
		case x == 0:
			return 0, true
		}
		return math.Copysign(1, x), true
	}
	switch { // exp
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x, true
	case math.IsInf(x, -1):
		return 0, true
	case x == 0:
		return 1, true
	}
	return crExp(x, d), false
}

// burnIntUnary stores op of integer element i; a panic is returned.
func (e *evaluation) burnIntUnary(op string, t, out *tensor.Tensor, i int) *tensor.Outcome {
	d, v := t.DType, t.Int(i)
	switch op {
	case "sign":
		out.SetInt(i, signOf(v))
	case "bitwise_not":
		out.SetUint(i, ^t.Uint(i))
	case "square":
		return e.burnIntElement("mul", t.Uint(i), t.Uint(i), out, i)
	case "neg", "abs":
		if op == "abs" && (d.IsUnsigned() || v >= 0) {
			out.SetUint(i, t.Uint(i))
			return nil
		}
		out.SetUint(i, -t.Uint(i)) // wrapping_neg / wrapping_abs
		if !e.burnFlex() && d.IsSigned() && v == d.MinInt() {
			e.use(burnUnspecified)
			out.SetUnspecified(i)
		}
	}
	return nil
}

// burnCast is tensor.cast(dtype) (with .bool() for Bool).
func (e *evaluation) burnCast(t *tensor.Tensor) tensor.Outcome {
	to := e.c.Attrs.To
	switch {
	case e.c.Attrs.Mode == "convert":
		return e.unsupported(burnKinds, "burn has no checked convert; only cast")
	case to.IsComplex():
		return e.unsupported(burnDeviceDefault, "burn has no complex dtype")
	}
	e.use(burnCastRule)
	if !e.burnFlex() {
		if p, bad := burnNdarrayCastPanic(t, to); bad {
			return p
		}
	}
	path := rustHalfViaF32 // integers reach f16/bf16 through f32; f32 values convert exactly either way
	if t.DType == tensor.F64 && (to == tensor.F16 || to == tensor.BF16) {
		e.use(burnHalfFromF64)
		path = rustHalfEither
	}
	out := tensor.New(to, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		e.rustConvert(t, i, out, path)
	}
	return tensor.ValueOutcome(out)
}

// burnNdarrayCastPanic is ndarray's checked conversion: the panic of the
// first element elem() cannot convert, or of an f16/bf16 target.
func burnNdarrayCastPanic(t *tensor.Tensor, to tensor.DType) (tensor.Outcome, bool) {
	from := t.DType
	switch {
	case (to == tensor.F16 || to == tensor.BF16) && from.IsFloat():
		return tensor.PanicOutcome("Unsupported dtype: %s", rustName(to)), true
	case to == tensor.F16 || to == tensor.BF16:
		return tensor.PanicOutcome("not implemented: unsupported dtype: %s", rustName(to)), true
	case !to.IsInt() || from == tensor.Bool:
		return tensor.Outcome{}, false
	}
	lo, hi := new(big.Int).SetInt64(to.MinInt()), new(big.Int).SetUint64(to.MaxUint())
	for i := 0; i < t.Len(); i++ {
		var v *big.Int
		if from.IsFloat() {
			x := t.Float(i)
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return burnFloatToIntPanic(to), true
			}
			v, _ = new(big.Float).SetFloat64(math.Trunc(x)).Int(nil)
		} else {
			v = exactIntValue(t, i)
		}
		if v.Cmp(lo) >= 0 && v.Cmp(hi) <= 0 {
			continue
		}
		if from.IsFloat() {
			return burnFloatToIntPanic(to), true
		}
		return tensor.PanicOutcome("Element cannot be represented in the target type: %q(%s) => %q", from.String(), v, to.String()), true
	}
	return tensor.Outcome{}, false
}

func burnFloatToIntPanic(to tensor.DType) tensor.Outcome {
	if to.IsUnsigned() {
		return tensor.PanicOutcome("Float cannot be represented in the target unsigned int type")
	}
	return tensor.PanicOutcome("Float cannot be represented in the target signed int type")
}

// burnReduce evaluates sum, prod, mean, max, min, argmax, argmin.
func (e *evaluation) burnReduce(t *tensor.Tensor) tensor.Outcome {
	op, a := e.c.Op, e.c.Attrs
	if burnKind(t.DType) == 'b' {
		return e.unsupported(burnKinds, "burn has no %s for Bool tensors", op)
	}
	reduce := make([]bool, t.Rank())
	if a.Dim != nil {
		d, ok := normalizeDim(*a.Dim, t.Rank())
		if !ok {
			return tensor.PanicOutcome("dim %d out of bounds for %d dimensions", *a.Dim, t.Rank())
		}
		reduce[d] = true
	} else if op == "argmax" || op == "argmin" {
		return e.unsupported(burnKinds, "burn's %s takes a dim", op)
	} else {
		for k := range reduce {
			reduce[k] = true
		}
	}
	outShape, groups := rustReducedGroups(t.Shape, reduce)
	shape := rustSqueeze(outShape, reduce, a.KeepDim())
	if a.Dim == nil && !a.KeepDim() {
		shape = []int{1}
	}
	if len(shape) == 0 {
		shape = []int{1} // burn has no rank 0: sum_dims_squeeze of everything is [1]
	}
	switch op {
	case "max", "min", "argmax", "argmin":
		return e.burnExtremum(op, t, reduce, groups, outShape, shape)
	}
	e.use(burnSumRule)
	out := tensor.New(t.DType, outShape...)
	for o, g := range groups {
		if p := e.burnAccumulate(op, t, g, out, o); p != nil {
			return *p
		}
	}
	return tensor.ValueOutcome(rustWithShape(out, shape))
}

// burnAccumulate stores the sum, prod or mean of the group g.
func (e *evaluation) burnAccumulate(op string, t *tensor.Tensor, g []int, out *tensor.Tensor, o int) *tensor.Outcome {
	d := t.DType
	if d.IsFloat() {
		xs := make([]float64, len(g))
		for k, i := range g {
			xs[k] = t.Float(i)
		}
		v, ok := e.burnFloatFold(op, xs, d)
		out.SetFloat(o, v)
		if !ok {
			out.SetUnspecified(o)
		}
		return nil
	}
	if op == "mean" && len(g) == 0 {
		p := tensor.PanicOutcome("mean_dim: cannot take mean of an empty dimension for the integer type %s", rustName(d))
		return &p
	}
	arith := map[string]string{"sum": "add", "mean": "add", "prod": "mul"}[op]
	acc := uint64(0)
	if op == "prod" {
		acc = 1
	}
	widened := e.burnFlex() && d != tensor.I64 && d != tensor.U64
	for _, i := range g {
		if widened {
			acc, _ = intArith(arith, acc, t.Uint(i), tensor.I64) // wrapping_add / wrapping_mul in i64
			continue
		}
		r := rustIntBinary(arith, acc, t.Uint(i), d)
		if r.panicMsg != "" && !e.burnFlex() {
			e.use(burnUnspecified)
			out.SetUnspecified(o)
		} else if r.panicMsg != "" && e.p.Debug {
			e.use(rustOverflow)
			p := tensor.PanicOutcome("%s", r.panicMsg)
			return &p
		}
		acc = r.v
	}
	out.SetUint(o, acc) // truncate_i64_to_pod: keep the low bytes
	if op == "mean" {
		q, _ := intTruncDiv(out.Uint(o), uint64(len(g)), tensor.I64)
		out.SetUint(o, q)
	}
	return nil
}

// burnFloatFold is a float sum, prod or mean; ok is false where the order
// of a parallel or SIMD reduction could change the bits.
func (e *evaluation) burnFloatFold(op string, xs []float64, d tensor.DType) (float64, bool) {
	switch op {
	case "sum":
		return rustExactSum(xs, d)
	case "mean":
		s, ok := rustExactSum(xs, d)
		return rustFloatOp("div", s, float64(len(xs)), d), ok
	}
	acc := tensor.F32 // f16/bf16 products accumulate in f32
	if d == tensor.F64 {
		acc = tensor.F64
	}
	if e.burnFlex() && e.c.Attrs.Dim == nil {
		e.use(burnFlexProd)
		p := 1.0
		for _, x := range xs {
			p = rustFloatOp("mul", p, x, acc)
		}
		return p, true
	}
	if v, ok := orderFreeProduct(xs, acc); ok {
		e.use(burnProdOrderFree)
		return v, true
	}
	p := 1.0
	for _, x := range xs {
		if x != math.Trunc(x) || math.Abs(x) > math.Ldexp(1, 24) {
			return math.NaN(), false
		}
		p *= x
	}
	return p, math.Abs(p) <= math.Ldexp(1, 24) && p != 0
}

// burnCumsum is tensor.cumsum(dim).
func (e *evaluation) burnCumsum(t *tensor.Tensor) tensor.Outcome {
	if burnKind(t.DType) == 'b' || e.c.Attrs.Dim == nil {
		return e.unsupported(burnKinds, "burn's cumsum takes a dim of a Float or Int tensor")
	}
	dim, ok := normalizeDim(*e.c.Attrs.Dim, t.Rank())
	if !ok {
		return tensor.PanicOutcome("dim %d out of bounds for %d dimensions", *e.c.Attrs.Dim, t.Rank())
	}
	e.use(burnCumsumRule)
	reduce := make([]bool, t.Rank())
	reduce[dim] = true
	_, rows := rustReducedGroups(t.Shape, reduce)
	out := tensor.New(t.DType, t.Shape...)
	for _, row := range rows {
		acc, facc := uint64(0), 0.0
		for k, i := range row {
			if t.DType.IsFloat() {
				if k == 0 && !e.burnFlex() {
					e.use(burnNdarrayCumsum)
					facc = t.Float(i) // ndarray's scan starts from the first element, not from 0
				} else {
					facc = rustFloatOp("add", facc, t.Float(i), t.DType)
				}
				out.SetFloat(i, facc)
				continue
			}
			r := rustIntBinary("add", acc, t.Uint(i), t.DType)
			acc = r.v
			out.SetUint(i, acc)
			if r.panicMsg == "" {
				continue
			}
			switch {
			case !e.burnFlex():
				e.use(burnUnspecified)
				out.SetUnspecified(i)
			case e.p.Debug:
				e.use(rustOverflow)
				return tensor.PanicOutcome("%s", r.panicMsg)
			}
		}
	}
	return tensor.ValueOutcome(out)
}

// burnSelect is tensor.select(dim, indices).
func (e *evaluation) burnSelect(src, ids *tensor.Tensor) tensor.Outcome {
	if burnKind(ids.DType) != 'i' || ids.Rank() != 1 {
		return e.unsupported(burnSelectRule, "select takes a Tensor<1, Int> of indices, not a rank-%d %s tensor", ids.Rank(), rustName(ids.DType))
	}
	dim := 0
	if e.c.Attrs.Dim != nil {
		dim = *e.c.Attrs.Dim
	}
	d, ok := normalizeDim(dim, src.Rank())
	if !ok {
		return tensor.PanicOutcome("dim %d out of bounds for %d dimensions", dim, src.Rank())
	}
	e.use(burnSelectRule)
	n := src.Shape[d]
	for k := 0; k < ids.Len(); k++ {
		if v := ids.Int(k); v < 0 || v >= int64(n) {
			return tensor.PanicOutcome("index %d out of bounds for dimension of size %d", v, n)
		}
	}
	left, right := tensor.NumElements(src.Shape[:d]), tensor.NumElements(src.Shape[d+1:])
	outShape := append([]int{}, src.Shape...)
	outShape[d] = ids.Len()
	out := tensor.New(src.DType, outShape...)
	for l := 0; l < left; l++ {
		for k := 0; k < ids.Len(); k++ {
			for r := 0; r < right; r++ {
				out.SetBits((l*ids.Len()+k)*right+r, src.Bits((l*n+int(ids.Int(k)))*right+r))
			}
		}
	}
	return tensor.ValueOutcome(out)
}

// orderFreeProduct is the product of xs (in the accumulation dtype acc)
// where every order of multiplication gives the same bits: a NaN, a zero
// with an infinity, or a zero with no partial product able to overflow.
func orderFreeProduct(xs []float64, acc tensor.DType) (float64, bool) {
	zero, inf, neg, exp := false, false, false, 0
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
			return math.NaN(), true
		case x == 0:
			zero = true
		case math.IsInf(x, 0):
			inf = true
		case math.Abs(x) > 1:
			_, e := math.Frexp(x) // |x| < 2^e
			exp += e
		}
		neg = neg != math.Signbit(x)
	}
	switch {
	case zero && inf:
		return math.NaN(), true
	case !zero || exp > maxExponent(acc):
		return 0, false
	case neg:
		return math.Copysign(0, -1), true
	}
	return 0, true
}

// maxExponent is the largest e with 2^e a finite value of the float dtype d.
func maxExponent(d tensor.DType) int {
	if d == tensor.F64 {
		return 1023
	}
	return 127
}
