package cpu

import (
	"fmt"
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn's unary ops, casts, reductions, cumsum and select, over the
// converted inputs (F32, the device's Int dtype, Bool).

func init() {
	all := func(*profile, *tensor.Case) bool { return true }
	burnAttach(tensor.ClassUnary, all, burnUnary)
	burnAttach(tensor.ClassCast, burnCastSupports, burnCast)
	burnAttach(tensor.ClassReduce, burnReduceSupports, burnReduce)
	burnAttach(tensor.ClassCumsum, all, burnCumsum)
	burnAttach(tensor.ClassIndexSelect, func(_ *profile, c *tensor.Case) bool { return rustTensorArgs(c, 2) }, burnSelect)
}

// burnUnary is the unary family (policy burn.unary): Float has every op
// but bitwise_not (round is half to even, sign keeps NaN); Int has neg and
// abs (wrapping), sign, bitwise_not and square; Bool none.
func burnUnary(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	t, op := args[0], parseOp(c.Op)
	kind := burnKind(t.DType)
	floatOnly := op == opSqrt || op == opExp || op == opFloor || op == opCeil || op == opRound || op == opTrunc
	if kind == 'b' || kind == 'f' && op == opBitNot || kind == 'i' && floatOnly {
		return tensor.UnsupportedOutcome("burn has no %s for %s tensors", c.Op, rustName(t.DType))
	}
	switch t.DType {
	case tensor.I32:
		return burnIntUnary[int32](e, op, t)
	case tensor.I64:
		if op == opSquare && burnFlex(p) && p.debug { // native i64 in a debug build: an overflow panics (burn.int64-native)
			return burnSquareChecked(e, t)
		}
		return burnIntUnary[int64](e, op, t)
	}
	var k unaryKernel[float32, float32]
	switch op {
	case opNeg:
		k = kNeg[float32]
	case opAbs:
		k = kAbsFloat[float32]
	case opFloor:
		k = kFloor[float32]
	case opCeil:
		k = kCeil[float32]
	case opTrunc:
		k = kTrunc[float32]
	case opRound:
		k = kRound[float32]
	case opSquare:
		k = kSquare[float32]
	case opSqrt:
		k = kSqrt[float32]
	case opSign:
		k = kSignNumPy[float32]
	default:
		k = kExp[float32]
	}
	return burnUnaryRun(e, t, k)
}

// burnIntUnary runs an Int unary op: neg and abs wrap (wrapping_neg,
// wrapping_abs; the model leaves ndarray's MIN open), square multiplies as
// the Int multiplication does (wrapping on Flex but for I64 in a debug
// build, burnSquareChecked; ndarray's overflow open).
func burnIntUnary[T integer](e *Engine, op opID, t *tensor.Tensor) tensor.Outcome {
	var k unaryKernel[T, T]
	switch op {
	case opSign:
		k = kSignInt[T]
	case opBitNot:
		k = kBitNot[T]
	case opSquare:
		k = kSquare[T]
	case opNeg:
		k = kNeg[T]
	default:
		k = kAbsInt[T]
	}
	return burnUnaryRun(e, t, k)
}

// burnSquareChecked is Flex's square of an I64 tensor in a debug build:
// x * x as native Rust i64, whose overflow panics.
func burnSquareChecked(e *Engine, t *tensor.Tensor) tensor.Outcome {
	src := loadInput[int64](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]int64, l.n)
	mul := kMulChecked[int64]
	if f := runUnary(e, &l, dst, src, func(dst, a []int64) fault { return mul(dst, a, a) }); f&faultOverflow != 0 {
		return tensor.PanicOutcome("%s", overflowMsg(opSquare))
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

func burnUnaryRun[T number](e *Engine, t *tensor.Tensor, k unaryKernel[T, T]) tensor.Outcome {
	src := loadInput[T](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]T, l.n)
	runUnary(e, &l, dst, src, k)
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// burnCastSupports accepts every cast: ndarray's unsupported f16/bf16
// targets are panics the engine states.
func burnCastSupports(p *profile, c *tensor.Case) bool { return true }

// burnCast is tensor.cast(dtype) (policy burn.cast): one conversion straight
// to the target, across kinds too; Flex uses Rust `as`, ndarray burn's
// checked elem() (ndarrayCastFault), which panics where `as` would wrap or
// saturate. burn has no checked convert and no complex dtype.
func burnCast(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	to := c.Attrs.To
	switch {
	case c.Attrs.Mode == "convert":
		return tensor.UnsupportedOutcome("burn has no checked convert; only cast")
	case to.IsComplex():
		return tensor.UnsupportedOutcome("burn has no complex dtype")
	}
	if !burnFlex(p) {
		if msg := ndarrayCastFault(args[0], to); msg != "" {
			return tensor.PanicOutcome("%s", msg)
		}
	}
	return tensor.ValueOutcome(rustCast(e, args[0], to))
}

// ndarrayCastFault is the panic message of ndarray's cast of t to dtype to,
// or "": its cast_to_dtype and out-dtype macros have no f16/bf16 arm, and
// ToElement refuses a value the target cannot hold (a float truncated
// first, NaN and infinities never held).
func ndarrayCastFault(t *tensor.Tensor, to tensor.DType) string {
	if to == tensor.F16 || to == tensor.BF16 {
		name := map[tensor.DType]string{tensor.F16: "F16", tensor.BF16: "BF16"}[to]
		if t.DType.IsFloat() {
			return "Unsupported dtype: " + name
		}
		return "not implemented: unsupported dtype: " + name
	}
	if !to.IsInt() || t.DType == tensor.Bool {
		return ""
	}
	bits := to.Bits()
	for i, n := 0, t.Len(); i < n; i++ {
		switch {
		case t.DType.IsFloat():
			w := math.Trunc(t.Float(i))
			var lo, hi float64 // the target holds lo <= w < hi
			if to.IsSigned() {
				lo, hi = -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)
			} else {
				hi = math.Ldexp(1, bits)
			}
			if !(w >= lo && w < hi) { // false for NaN too
				kind := "signed"
				if to.IsUnsigned() {
					kind = "unsigned"
				}
				return "Float cannot be represented in the target " + kind + " int type"
			}
		case !elemFits(t, i, to):
			return fmt.Sprintf("Element cannot be represented in the target type: %q(%d) => %q", t.DType, intValue(t, i), to)
		}
	}
	return ""
}

// elemFits reports whether integer element i of t lies in the range of to.
func elemFits(t *tensor.Tensor, i int, to tensor.DType) bool {
	if t.DType.IsUnsigned() {
		return t.Uint(i) <= to.MaxUint()
	}
	v := t.Int(i)
	if v < 0 {
		return to.IsSigned() && v >= to.MinInt()
	}
	return uint64(v) <= to.MaxUint()
}

// intValue is integer element i of t as Go prints it.
func intValue(t *tensor.Tensor, i int) any {
	if t.DType.IsUnsigned() {
		return t.Uint(i)
	}
	return t.Int(i)
}

// burnReduceShape returns the reduced dim (-1: all), the geometry and the
// output shape of a reduction (burn has no rank 0: a full reduction and a
// squeezed rank-1 reduction give [1]).
func burnReduceShape(t *tensor.Tensor, a tensor.Attrs) (int, rustGeom, []int, bool) {
	dim := -1
	if a.Dim != nil {
		d, ok := rustDim(*a.Dim, t.Rank())
		if !ok {
			return 0, rustGeom{}, nil, false
		}
		dim = d
	}
	g := rustGeomOf(t.Shape, dim)
	shape := g.squeezed(t.Shape, dim, a.KeepDim())
	if len(shape) == 0 {
		shape = []int{1}
	}
	return dim, g, shape, true
}

// burnReduceSupports accepts every reduction.
func burnReduceSupports(p *profile, c *tensor.Case) bool { return true }

// burnReduce is sum, prod, mean, max, min, argmax and argmin (policies
// burn.reduce.sum-widening, burn.reduce.extremum).
func burnReduce(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	t, op, a := args[0], parseOp(c.Op), c.Attrs
	if t.DType == tensor.Bool {
		return tensor.UnsupportedOutcome("burn has no %s for Bool tensors", c.Op)
	}
	isArg := op == opArgmax || op == opArgmin
	if a.Dim == nil && isArg {
		return tensor.UnsupportedOutcome("burn's %s takes a dim", c.Op)
	}
	dim, g, shape, ok := burnReduceShape(t, a)
	if !ok {
		return tensor.PanicOutcome("dim %d out of bounds for %d dimensions", *a.Dim, t.Rank())
	}
	if op == opSum || op == opProd || op == opMean {
		if burnFlex(p) && p.debug && t.DType == tensor.I64 {
			return burnAccumulateChecked(e, op, t, g, shape)
		}
		return burnAccumulate(e, op, t, g, shape)
	}
	if o, empty := burnEmptyExtremum(p, c.Op, t, dim); empty {
		return o
	}
	if g.groups() == 0 {
		d := t.DType
		if isArg {
			d = tensor.I64
			if t.DType.IsFloat() {
				d = burnIntDType(p)
			}
		}
		return tensor.ValueOutcome(tensor.New(d, shape...))
	}
	switch t.DType {
	case tensor.I32:
		return rustExtremum[int32](e, op, t, g, shape, tensor.I64)
	case tensor.I64:
		return rustExtremum[int64](e, op, t, g, shape, tensor.I64)
	}
	return burnFloatExtremum(e, p, op, t, dim, g, shape)
}

// burnAccumulate is sum, prod and mean. Flex's I32 accumulates in i64 with
// wrapping arithmetic and truncates, which is wrapping arithmetic in i32;
// ndarray's I64 overflow is open in the model. An integer mean is the sum
// divided by n, truncating (n = 0 panics); a float mean is sum / n in f32.
func burnAccumulate(e *Engine, op opID, t *tensor.Tensor, g rustGeom, shape []int) tensor.Outcome {
	if t.DType.IsInt() && op == opMean && g.n == 0 && g.groups() > 0 {
		return tensor.PanicOutcome("mean_dim: cannot take mean of an empty dimension for the integer type %s", rustName(t.DType))
	}
	switch t.DType {
	case tensor.I32:
		return burnAccumulateRun[int32](e, op, t, g, shape)
	case tensor.I64:
		return burnAccumulateRun[int64](e, op, t, g, shape)
	}
	return burnAccumulateRun[float32](e, op, t, g, shape)
}

// burnAccumulateChecked is sum, prod and mean of an I64 tensor (a cast's
// result) on Flex in a debug build: plain + and * in i64 (sum and
// Iterator::product, not the widening kernel of the narrower dtypes), whose
// overflow panics.
func burnAccumulateChecked(e *Engine, op opID, t *tensor.Tensor, g rustGeom, shape []int) tensor.Outcome {
	if op == opMean && g.n == 0 && g.groups() > 0 {
		return tensor.PanicOutcome("mean_dim: cannot take mean of an empty dimension for the integer type %s", rustName(t.DType))
	}
	src := rustDense[int64](e, t, t.DType)
	dst := make([]int64, g.groups())
	if op == opProd {
		if rustProdChecked(dst, src, g) != 0 {
			return tensor.PanicOutcome("%s", msgMulOverflow)
		}
		return tensor.ValueOutcome(encode(e, dst, t.DType, shape))
	}
	if rustSumChecked(dst, src, g) != 0 {
		return tensor.PanicOutcome("%s", msgAddOverflow)
	}
	if op == opMean {
		for i := range dst {
			dst[i] /= int64(g.n)
		}
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, shape))
}

func burnAccumulateRun[T number](e *Engine, op opID, t *tensor.Tensor, g rustGeom, shape []int) tensor.Outcome {
	src := rustDense[T](e, t, t.DType)
	dst := make([]T, g.groups())
	if op == opProd {
		rustProd(dst, src, g)
	} else {
		rustSum(dst, src, g)
	}
	if op == opMean {
		n := T(g.n)
		for i := range dst {
			dst[i] /= n
		}
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, shape))
}

// burnCumsum is tensor.cumsum(dim) (policy burn.cumsum.plain-add): `acc +
// val` in the element type, so Flex's I32 overflow panics in a debug build
// and wraps in release (unlike sum); ndarray's overflow is open.
func burnCumsum(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	t := args[0]
	if t.DType == tensor.Bool || c.Attrs.Dim == nil {
		return tensor.UnsupportedOutcome("burn's cumsum takes a dim of a Float or Int tensor")
	}
	dim, ok := rustDim(*c.Attrs.Dim, t.Rank())
	if !ok {
		return tensor.PanicOutcome("dim %d out of bounds for %d dimensions", *c.Attrs.Dim, t.Rank())
	}
	checked := burnFlex(p) && p.debug
	switch t.DType {
	case tensor.I32:
		return burnCumsumInt[int32](e, t, dim, checked)
	case tensor.I64:
		return burnCumsumInt[int64](e, t, dim, checked)
	}
	if !burnFlex(p) {
		return ndarrayCumsumFloat(e, t, dim)
	}
	return rustCumsumFloat[float32](e, t, dim)
}

// ndarrayCumsumFloat is burn-ndarray's float cumsum (policy
// burn.ndarray.cumsum-sequential): the tensor is copied, then each slice
// along dim becomes itself plus the slice before it, so the first slice is
// kept as it is (no +0 is added to it):
//
//	out = copy(src); for k in 1..n: out[k] = out[k] + out[k-1]
func ndarrayCumsumFloat(e *Engine, t *tensor.Tensor, dim int) tensor.Outcome {
	out := rustDense[float32](e, t, t.DType)
	g := rustGeomOf(t.Shape, dim)
	for o := 0; o < g.outer; o++ {
		block := out[o*g.n*g.inner : (o+1)*g.n*g.inner]
		for j := g.inner; j < len(block); j++ {
			block[j] += block[j-g.inner]
		}
	}
	return tensor.ValueOutcome(encode(e, out, t.DType, t.Shape))
}

func burnCumsumInt[T integer](e *Engine, t *tensor.Tensor, dim int, checked bool) tensor.Outcome {
	src := rustDense[T](e, t, t.DType)
	dst := make([]T, len(src))
	g := rustGeomOf(t.Shape, dim)
	if checked {
		if rustCumsumChecked(dst, src, g) != 0 {
			return tensor.PanicOutcome("%s", msgAddOverflow)
		}
	} else {
		rustCumsum(dst, src, g)
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, t.Shape))
}

// burnSelect is tensor.select(dim, indices) (policy burn.select): rank-1 Int
// indices; the rows are copied. An index outside the dim is left open by the
// model: the engine answers that it does not implement that case.
func burnSelect(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	src, ids := args[0], args[1]
	if burnKind(ids.DType) != 'i' || ids.Rank() != 1 {
		return tensor.UnsupportedOutcome("select takes a Tensor<1, Int> of indices, not a rank-%d %s tensor", ids.Rank(), rustName(ids.DType))
	}
	dim := 0
	if c.Attrs.Dim != nil {
		dim = *c.Attrs.Dim
	}
	d, ok := rustDim(dim, src.Rank())
	if !ok {
		return tensor.PanicOutcome("dim %d out of bounds for %d dimensions", dim, src.Rank())
	}
	g := rustGeomOf(src.Shape, d)
	idx := make([]uint64, ids.Len())
	for k := range idx {
		v := ids.Int(k)
		if v < 0 || v >= int64(g.n) { // policy burn.select: the kernels' bounds checks panic
			return tensor.PanicOutcome("index %d out of bounds for dimension of size %d", v, g.n)
		}
		idx[k] = uint64(v)
	}
	shape := append([]int{}, src.Shape...)
	shape[d] = len(idx)
	out := tensor.New(src.DType, shape...)
	rustGatherRows(out.Data, rustWords(src), idx, g, math.MaxUint64)
	return tensor.ValueOutcome(out)
}
