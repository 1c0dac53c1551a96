package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn's unary ops, casts, reductions, cumsum and select.

var (
	burnUnaryRule = newOpenRule("burn.unary",
		"Float: neg, abs, floor, ceil, trunc, square exact; sqrt IEEE; round to nearest, ties to even; sign NaN -> NaN, ±0 -> +0, else ±1; exp unspecified except at exact points. Int: neg and abs are wrapping_neg / wrapping_abs on Flex (MIN stays MIN, no panic), sign -1/0/1, bitwise_not !x, square x*x with the Int multiplication rules; Int has no sqrt/exp/floor/ceil/round/trunc and Bool no numeric unary op",
		"source-facts extra 12 (wrapping_neg/wrapping_abs); burn-flex ops/unary.rs (round_ties_even), float.rs float_sign; burn-tensor api")
	burnCastRule = newOpenRule("burn.cast",
		"cast between kinds and dtypes is Rust `as`: int -> int wraps, float -> float rounds to nearest even, float -> int saturates with NaN -> 0, int -> f16/bf16 through f32, anything -> Bool is x != 0; a float <-> int cast is spelled through the device's default dtype of the other kind (.int(), .float()), so where that intermediate changes the value the element is unspecified",
		"source-facts extra 12 (int_cast `as`, float_into_int saturating, int -> f16/bf16 through f32); burn-tensor Tensor::int / float")
	burnSumRule = newOpenRule("burn.reduce.sum-widening",
		"Flex integer sum and prod of I8..U32 accumulate in i64 with wrapping arithmetic and truncate to the element type (no panic in any build); I64 uses plain + and * (a debug panic on overflow, wrap in release); the result keeps the dtype, shape [1] for all elements (keepdim shape with a dim); integer mean is the wrapped sum divided by n, truncating (n = 0 panics); float sums are exact only where every order agrees (SIMD, parallel chunks)",
		"seed 004 §搬到 burn 的现象 (I32 sum [-1294967296] in debug and release, rank 1); source-facts #11a, extra 12 (int_mean, mean_dim)")
	burnFlexProd = newRule("burn.flex.prod-sequential",
		"Flex's prod of all elements is Iterator::product over the elements in order, in the element type (f16/bf16 in f32): a sequential product with one rounding per step",
		"burn 2c06be35 crates/burn-flex/src/ops/reduce.rs:349-353 (prod dispatch), :367-387 (prod_impl: data[start..end].iter().copied().product()), reduce_scalar_half (|a, b| a * b from 1.0 in f32)")
	burnProdOrderFree = newRule("burn.reduce.prod-order-free",
		"where the order of a float product is not pinned (Flex prod_dim, ndarray), it is still fixed when a NaN takes part (NaN), when a zero meets an infinity (NaN), or when a zero takes part and no partial product can overflow (every |x| > 1 together stay below the largest power of two of the accumulation dtype): a zero whose sign is the parity of the negative factors",
		"IEEE 754 multiplication (the sign of a product is the xor of the signs; x * NaN and 0 * inf are NaN)")
	burnCumsumRule = newOpenRule("burn.cumsum.plain-add",
		"Flex cumsum is cumulative_op with `acc + val` in the element type for every dtype: integer overflow panics in a debug build (\"attempt to add with overflow\") and wraps in release; floats add sequentially in the element type",
		"seed 004 §搬到 burn 的现象 (I32 cumsum: debug panic at cumulative.rs:19, release [1500000000, -1294967296]); source-facts #11b")
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
		out.SetInt(i, int64(map[bool]int{true: 1}[v > 0]-map[bool]int{true: 1}[v < 0]))
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

// burnCast is tensor.cast(dtype) (with .int() / .float() / .bool() across kinds).
func (e *evaluation) burnCast(t *tensor.Tensor) tensor.Outcome {
	to := e.c.Attrs.To
	switch {
	case e.c.Attrs.Mode == "convert":
		return e.unsupported(burnKinds, "burn has no checked convert; only cast")
	case to.IsComplex():
		return e.unsupported(burnDeviceDefault, "burn has no complex dtype")
	case !e.burnFlex() && (to == tensor.F16 || to == tensor.BF16):
		return e.burnUnspecified("ndarray casts to %s", to)
	}
	e.use(burnCastRule)
	out := tensor.New(to, t.Shape...)
	via := tensor.Invalid // the other kind's device default the spelling passes through
	switch {
	case t.DType.IsFloat() && to.IsInt():
		via = e.burnIntDType()
	case t.DType.IsInt() && to.IsFloat():
		via = tensor.F32
	}
	for i := 0; i < t.Len(); i++ {
		e.rustConvert(t, i, out, rustHalfViaF32)
		if via == tensor.Invalid || via == to {
			continue
		}
		mid := tensor.New(via, 1)
		e.rustConvert(rustElement(t, i), 0, mid, rustHalfViaF32)
		alt := tensor.New(to, 1)
		e.rustConvert(mid, 0, alt, rustHalfViaF32)
		if alt.Bits(0) != out.Bits(i) {
			out.SetUnspecified(i)
		}
	}
	return tensor.ValueOutcome(out)
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
		var prefix exactSum
		for _, i := range row {
			if t.DType.IsFloat() {
				facc = rustFloatOp("add", facc, t.Float(i), t.DType)
				out.SetFloat(i, facc)
				prefix.add(t.Float(i))
				if _, exact := prefix.value(t.DType); !e.burnFlex() && !exact {
					out.SetUnspecified(i)
				}
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
