package reports

import (
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Repro spellings of the ops and attrs added 2026-12 (issue 16, first
// half): broadcast_*, where, clamp, full, the dtype argument and cumsum
// without a dim. The shifts are binary operators (<<, >>; burn's
// bitwise_left_shift).

func init() {
	burnBinary["shift_left"], burnBinary["shift_right"] = "bitwise_left_shift", "bitwise_right_shift"
	burnScalarOps["shift_left"], burnScalarOps["shift_right"] = "bitwise_left_shift_scalar", "bitwise_right_shift_scalar"
}

// newOpExpr spells an op added 2026-12 in PyTorch, NumPy or JAX; ok is
// false for the others.
func (w *pyWriter) newOpExpr(c *tensor.Case, args []string) (expr, why string, ok bool) {
	if expr, ok := w.pyMatmulCat(c, args); ok { // repro_matmul.go
		return expr, "", true
	}
	op, _ := tensor.LookupOp(c.Op)
	m, at := w.mod(), c.Attrs
	switch op.Class {
	case tensor.ClassBroadcast:
		base := *c
		base.Op = tensor.BroadcastBase(c.Op)
		expr, why := w.opExpr(&base, args)
		return expr, why, true
	case tensor.ClassWhere:
		return m + ".where(" + strings.Join(args, ", ") + ")", "", true
	case tensor.ClassClamp:
		fn := map[string]string{"pytorch": "clamp", "numpy": "clip", "jax": "clip"}[w.fw]
		return m + "." + fn + "(" + strings.Join(args, ", ") + ")", "", true
	case tensor.ClassFull:
		value, lit := *at.Value, true
		switch value {
		case "true":
			value = "True"
		case "false":
			value = "False"
		default:
			_, lit = pyLiteral(value)
		}
		if !lit {
			return "", "not a Python literal: " + value, true
		}
		a := pyShape(at.Shape) + ", " + value
		if at.DType.Valid() {
			a += ", dtype=" + w.dtype(at.DType)
		}
		return w.create("full", "full", "full", a), "", true
	case tensor.ClassCumsum:
		if at.Dim == nil {
			return m + ".cumsum(" + args[0] + dtypeKw(w, at) + ")", "", true
		}
	}
	return "", "", false
}

func dtypeKw(w *pyWriter, at tensor.Attrs) string {
	if at.DType.Valid() {
		return ", dtype=" + w.dtype(at.DType)
	}
	return ""
}

// candleNewOp spells an op added 2026-12 in candle; ok is false for the others.
func candleNewOp(c *tensor.Case, args []string) (expr, why string, ok bool) {
	if expr, ok := candleMatmulCat(c, args); ok { // repro_matmul.go
		return expr, "", true
	}
	op, _ := tensor.LookupOp(c.Op)
	at := c.Attrs
	recv := func(i int) string { return strings.TrimPrefix(args[i], "&") }
	switch op.Class {
	case tensor.ClassBroadcast:
		return recv(0) + "." + c.Op + "(" + args[1] + ")?", "", true
	case tensor.ClassWhere:
		if c.Args[1].Scalar != nil || c.Args[2].Scalar != nil {
			return "", "where_cond takes tensors only", true
		}
		return recv(0) + ".where_cond(" + args[1] + ", " + args[2] + ")?", "", true
	case tensor.ClassClamp:
		if c.Args[1].IsNull() || c.Args[2].IsNull() {
			return "", "candle's clamp takes both bounds", true
		}
		return recv(0) + ".clamp(" + args[1] + ", " + args[2] + ")?", "", true
	case tensor.ClassFull:
		v := *at.Value
		if !rustLiteral(v) {
			return "", "not a Rust literal: " + v, true
		}
		if at.DType.Valid() {
			if t := rustType(at.DType); t != "" && !strings.ContainsAny(v, "iuf") {
				v += t
			}
		}
		return "Tensor::full(" + v + ", " + rustShape(at.Shape) + ", &dev)?", "", true
	}
	if at.DType.Valid() && (op.Class == tensor.ClassFromLiteral || op.Class == tensor.ClassArange) {
		return "", "candle's " + c.Op + " takes no dtype argument", true
	}
	if op.Class == tensor.ClassCumsum && at.Dim == nil {
		return "", "candle's cumsum needs a dim", true
	}
	return "", "", false
}
