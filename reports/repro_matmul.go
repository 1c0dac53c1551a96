package reports

import (
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Repro spellings of matmul and cat (issue 16, second half): torch.matmul /
// np.matmul / jnp.matmul, torch.cat / np.concatenate / jnp.concatenate,
// candle's a.matmul(&b) and Tensor::cat(&[..], dim), burn's a.matmul(b) and
// Tensor::cat(vec![..], dim). cat takes a list, so its arguments are named
// a, b, c, ... (argName).

// argName is the variable of a program's k-th tensor argument: a, b, c, ...
func argName(k int) string {
	if k < 26 {
		return string(rune('a' + k))
	}
	return "t" + strconv.Itoa(k)
}

// pyMatmulCat spells matmul and cat in PyTorch, NumPy or JAX; ok is false
// for the other ops.
func (w *pyWriter) pyMatmulCat(c *tensor.Case, args []string) (expr string, ok bool) {
	m := w.mod()
	switch c.Op {
	case "matmul":
		return m + ".matmul(" + args[0] + ", " + args[1] + ")", true
	case "cat":
		fn, kw := "concatenate", "axis"
		if w.fw == "pytorch" {
			fn, kw = "cat", "dim"
		}
		return m + "." + fn + "([" + strings.Join(args, ", ") + "], " + kw + "=" + strconv.Itoa(*c.Attrs.Dim) + ")", true
	}
	return "", false
}

// candleMatmulCat spells matmul and cat in candle; ok is false for the others.
func candleMatmulCat(c *tensor.Case, args []string) (expr string, ok bool) {
	switch c.Op {
	case "matmul":
		return strings.TrimPrefix(args[0], "&") + ".matmul(" + args[1] + ")?", true
	case "cat":
		return "Tensor::cat(&[" + strings.Join(args, ", ") + "], " + rustDim(*c.Attrs.Dim) + ")?", true
	}
	return "", false
}

// burnMatmulCat spells matmul and cat in burn; ok is false for the others.
func burnMatmulCat(c *tensor.Case, args []string) (expr string, ok bool) {
	switch c.Op {
	case "matmul":
		return args[0] + ".matmul(" + args[1] + ")", true
	case "cat":
		return "Tensor::cat(vec![" + strings.Join(args, ", ") + "], " + strconv.Itoa(*c.Attrs.Dim) + ")", true
	}
	return "", false
}

// matmulCatKind is what an atlas class of matmul or cat adds to its input
// kinds: a matmul's operand shapes (vector, matrix, batch: where frameworks
// part ways), a cat's number of dtypes (one, or a list to promote).
func matmulCatKind(c *tensor.Case) string {
	if c.Op == "cat" {
		seen := map[tensor.DType]bool{}
		for _, a := range c.Args {
			if a.Tensor != nil {
				seen[a.Tensor.DType] = true
			}
		}
		if len(seen) > 1 {
			return "mixed dtypes"
		}
		return "one dtype"
	}
	shape := func(t *tensor.Tensor) string {
		switch {
		case t == nil:
			return "?"
		case t.Rank() == 0:
			return "scalar"
		case t.Rank() == 1:
			return "vector"
		case t.Rank() == 2:
			return "matrix"
		}
		return "batch"
	}
	if len(c.Args) != 2 {
		return ""
	}
	return shape(c.Args[0].Tensor) + " @ " + shape(c.Args[1].Tensor)
}
