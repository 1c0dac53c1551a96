package reports

import (
	"fmt"
	"strconv"

	"github.com/tfuzz/tfuzz/tensor"
)

// Repro spellings of sort, argsort and mask_select: torch.sort(..).values /
// .indices, np.sort / np.argsort, jnp.sort / jnp.argsort with axis, stable
// and descending, t[mask] in the three; candle's sort_last_dim /
// arg_sort_last_dim (the last dim only); burn's sort, sort_descending,
// argsort, argsort_descending and mask_select.

// sortOpExpr spells sort, argsort or mask_select in PyTorch, NumPy or JAX;
// ok is false for other ops.
func (w *pyWriter) sortOpExpr(c *tensor.Case, args []string) (expr, why string, ok bool) {
	op, _ := tensor.LookupOp(c.Op)
	switch op.Class {
	case tensor.ClassMaskSelect:
		return args[0] + "[" + args[1] + "]", "", true
	case tensor.ClassSort:
	default:
		return "", "", false
	}
	at := c.Attrs
	dim := strconv.Itoa(at.SortDim())
	if w.fw == "pytorch" {
		field := map[string]string{"sort": "values", "argsort": "indices"}[c.Op]
		return fmt.Sprintf("torch.sort(%s, dim=%s, descending=%s, stable=%s).%s", args[0], dim, pyBool(at.IsDescending()), pyBool(at.IsStable()), field), "", true
	}
	kw := fmt.Sprintf("axis=%s, stable=%s", dim, pyBool(at.IsStable()))
	if at.IsDescending() || w.fw == "jax" {
		kw += ", descending=" + pyBool(at.IsDescending()) // NumPy 2.5 added it
	}
	return fmt.Sprintf("%s.%s(%s, %s)", w.mod(), c.Op, args[0], kw), "", true
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// candleSortOp spells sort and argsort in candle (mask_select has no
// spelling); ok is false for other ops.
func candleSortOp(c *tensor.Case, args []string) (expr, why string, ok bool) {
	op, _ := tensor.LookupOp(c.Op)
	switch op.Class {
	case tensor.ClassMaskSelect:
		return "", "candle has no mask selection (t[mask])", true
	case tensor.ClassSort:
	default:
		return "", "", false
	}
	x := c.Args[0].Tensor
	if d := c.Attrs.SortDim(); d != -1 && d != max(x.Rank()-1, 0) {
		return "", fmt.Sprintf("candle sorts along the last dim only (sort_last_dim), not dim %d", d), true
	}
	asc := strconv.FormatBool(!c.Attrs.IsDescending())
	recv := args[0]
	if len(recv) > 0 && recv[0] == '&' {
		recv = recv[1:]
	}
	if c.Op == "sort" {
		return recv + ".sort_last_dim(" + asc + ")?.0", "", true
	}
	return recv + ".arg_sort_last_dim(" + asc + ")?", "", true
}

// burnSortOp spells sort, argsort and mask_select in burn; ok is false for
// other ops.
func burnSortOp(c *tensor.Case, args []string, dim int) (expr, why string, ok bool) {
	op, _ := tensor.LookupOp(c.Op)
	switch op.Class {
	case tensor.ClassMaskSelect:
		return args[0] + ".mask_select(" + args[1] + ")", "", true
	case tensor.ClassSort:
		if c.Attrs.Dim == nil && len(c.Args) > 0 && c.Args[0].Tensor != nil {
			dim = c.Args[0].Tensor.Rank() - 1
		}
		fn := c.Op
		if c.Attrs.IsDescending() {
			fn += "_descending"
		}
		return fmt.Sprintf("%s.%s(%d)", args[0], fn, dim), "", true
	}
	return "", "", false
}

// maskKind names a mask_select index in an atlas class: "mask bool",
// "mask u8" (a mask in PyTorch, indices in NumPy), "mask signed", a
// 0-dim one as such.
func maskKind(m *tensor.Tensor) string {
	k := "mask " + m.DType.Kind().String()
	if m.DType == tensor.U8 { // PyTorch's mask, NumPy's indices
		k = "mask u8"
	}
	if m.Rank() == 0 {
		k += " 0-dim"
	}
	return k
}

// sortAttrKinds names the sort attrs that change the order in an atlas
// class: descending, stable.
func sortAttrKinds(at tensor.Attrs) []string {
	var out []string
	if at.IsDescending() {
		out = append(out, "descending")
	}
	if at.IsStable() {
		out = append(out, "stable")
	}
	return out
}
