package cpu

import (
	"math"
	"slices"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's broadcast_add ... broadcast_minimum (case format, added 2026-12)
// in the frameworks that always broadcast: PyTorch, NumPy and JAX spell
// them as +, -, *, /, maximum and minimum of the same operands, so the
// engine runs its binary family on them. candle's own methods expand each
// side to the broadcast shape (a stride-0 view, no copy) and run candle's
// binary family; burn and tenferro decline them (the model states none).

// asBroadcastBase returns c as the binary op a Python profile runs for a
// broadcast_* case, or c itself.
func asBroadcastBase(p *profile, c *tensor.Case) *tensor.Case {
	base := tensor.BroadcastBase(c.Op)
	if base == "" || p == nil || (p.fw != fwPyTorch && p.fw != fwNumPy && p.fw != fwJAX) {
		return c
	}
	b := *c
	b.Op = base
	return &b
}

func init() {
	candleAttach(tensor.ClassBroadcast, func(*profile, *tensor.Case) bool { return true }, candleBroadcast)
	candleAttach(tensor.ClassFull, candleFullSupports, candleFull)
}

// candleBroadcast is a.broadcast_OP(&b): the shapes broadcast (an Err
// otherwise), each side that differs is expanded, then the plain operator
// runs (policy candle.broadcast-ops).
func candleBroadcast(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	x, y := c.Args[0].Tensor, c.Args[1].Tensor
	n := max(len(x.Shape), len(y.Shape))
	shape := make([]int, n)
	for k := 1; k <= n; k++ {
		a, b := dimAt(x.Shape, k), dimAt(y.Shape, k)
		switch {
		case a == b || b == 1:
			shape[n-k] = a
		case a == 1:
			shape[n-k] = b
		default:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "shape mismatch in %s, lhs: %v, rhs: %v", c.Op, x.Shape, y.Shape)
		}
	}
	b := *c
	b.Op = tensor.BroadcastBase(c.Op)
	b.Args = []tensor.Arg{{Tensor: expanded(x, shape)}, {Tensor: expanded(y, shape)}}
	return candleBinary(e, p, &b)
}

// dimAt is the k-th dim from the right (1 when the rank is below k).
func dimAt(shape []int, k int) int {
	if k > len(shape) {
		return 1
	}
	return shape[len(shape)-k]
}

// expanded is t broadcast to shape as a view of t's storage: broadcast
// dims (t's size-1 dims and the new leading ones) get stride 0, the others
// keep t's strides. Nothing is copied; the binary family's layout walks it.
func expanded(t *tensor.Tensor, shape []int) *tensor.Tensor {
	if slices.Equal(t.Shape, shape) {
		return t
	}
	own := t.Strides
	if own == nil {
		own = tensor.ContiguousStrides(t.Shape)
	}
	strides := make([]int, len(shape))
	off := len(shape) - len(t.Shape)
	for k := off; k < len(shape); k++ {
		if t.Shape[k-off] != 1 {
			strides[k] = own[k-off]
		}
	}
	return &tensor.Tensor{DType: t.DType, Shape: slices.Clone(shape), Strides: strides, Offset: t.Offset, Data: t.Data}
}

// candleFullSupports declines the half dtypes (half::from_f64 of the value
// is left open by the model).
func candleFullSupports(_ *profile, c *tensor.Case) bool {
	return c.Attrs.Value != nil && c.Attrs.DType != tensor.F16 && c.Attrs.DType != tensor.BF16 && rustShapeOK(c.Attrs.Shape)
}

// candleFull is Tensor::full(value, shape, &dev): the value as the Rust
// literal it is (suffixed with the dtype attr's type when it has none),
// repeated (policy candle.full).
func candleFull(_ *Engine, _ *profile, c *tensor.Case) tensor.Outcome {
	text := *c.Attrs.Value
	if d := c.Attrs.DType; d.Valid() {
		if !candleDType(d) {
			return tensor.UnsupportedOutcome("candle has no %s dtype", d)
		}
		if !strings.ContainsAny(text, "iuf") || strings.HasSuffix(text, "inf") {
			text += d.String()
		}
	}
	one := candleFromLiteral(text)
	if one.Form != tensor.FormValue || one.Value.Rank() != 0 {
		return tensor.UnsupportedOutcome("does not compile: %q is not a scalar Rust literal of a candle type", text)
	}
	out := tensor.New(one.Value.DType, c.Attrs.Shape...)
	for i := 0; i < out.Len(); i++ {
		out.SetBits(i, one.Value.Bits(0))
	}
	return tensor.ValueOutcome(out)
}

// newOpClass returns the class of an op added 2026-12 that the engine
// implements with a family of its own (broadcast_*, where, clamp, full;
// sort, argsort and mask_select; matmul and cat; the shifts are binary ops
// of ops.go).
func newOpClass(name string) (tensor.OpClass, bool) {
	info, ok := tensor.LookupOp(name)
	switch {
	case !ok:
	case info.Class == tensor.ClassBroadcast || info.Class == tensor.ClassFull || info.Class == tensor.ClassWhere,
		info.Class == tensor.ClassClamp,
		info.Class == tensor.ClassSort || info.Class == tensor.ClassMaskSelect,
		info.Class == tensor.ClassMatmul || info.Class == tensor.ClassCat:
		return info.Class, true
	}
	return 0, false
}

// laterAttrs reports the attrs added 2026-12 that the engine does not
// implement: a dtype argument of arange and of from_literal outside PyTorch,
// NumPy and JAX (pyarange_dtype.go and pyliteral_dtype.go implement theirs), a dtype argument of a reduction or cumsum outside PyTorch,
// NumPy and JAX (pydtypearg.go implements theirs), and cumsum without a dim
// outside them (the Rust families read an absent dim as 0; the model states
// no Rust cumsum without one).
func laterAttrs(p *profile, cl tensor.OpClass, c *tensor.Case) bool {
	python := p.fw == fwPyTorch || p.fw == fwNumPy || p.fw == fwJAX
	switch cl {
	case tensor.ClassFromLiteral:
		return c.Attrs.DType.Valid() && !python
	case tensor.ClassArange:
		return c.Attrs.DType.Valid() && !python
	case tensor.ClassReduce:
		return c.Attrs.DType.Valid() && !python
	case tensor.ClassCumsum:
		return c.Attrs.DType.Valid() && !python || c.Attrs.Dim == nil && !python
	}
	return false
}

func init() {
	candleAttach(tensor.ClassWhere, candleWhereSupports, candleWhere)
}

// candleWhereSupports: where_cond takes tensors only; the rest compiles.
func candleWhereSupports(_ *profile, c *tensor.Case) bool {
	if len(c.Args) != 3 {
		return false
	}
	for _, a := range c.Args {
		if a.Tensor == nil || !validTensor(a.Tensor) {
			return false
		}
	}
	return true
}

// candleWhere is cond.where_cond(&on_true, &on_false) on the CPU: equal
// shapes, one value dtype, an integer condition (nonzero is true), then a
// select of the values' words (policy candle.where-cond).
func candleWhere(e *Engine, _ *profile, c *tensor.Case) tensor.Outcome {
	cond, t, f := c.Args[0].Tensor, c.Args[1].Tensor, c.Args[2].Tensor
	for _, v := range []*tensor.Tensor{t, f} {
		if !slices.Equal(cond.Shape, v.Shape) {
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "shape mismatch in where_cond, lhs: %v, rhs: %v", cond.Shape, v.Shape)
		}
	}
	if t.DType != f.DType {
		return tensor.ErrorOutcome(tensor.DTypeMismatch, "dtype mismatch in where, lhs: %s, rhs: %s", rustName(t.DType), rustName(f.DType))
	}
	switch cond.DType {
	case tensor.U8, tensor.U32, tensor.I16, tensor.I32, tensor.I64:
	default:
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "unsupported dtype %s for op where-cond", rustName(cond.DType))
	}
	cw, tw, fw := cond.Contiguous().Data, t.Contiguous().Data, f.Contiguous().Data
	out := &tensor.Tensor{DType: t.DType, Shape: slices.Clone(t.Shape), Data: make([]uint64, len(tw))}
	selectRun(e, out.Data, cw, tw, fw, math.MaxUint64) // integer words: nonzero is true (selectnt.go)
	return tensor.ValueOutcome(out)
}
