package model

import (
	"math"
	"math/big"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Host-data ops of the Python frameworks: from_vec (a constructor taking the
// data plus a shape) and to_host (reading the values back into the host
// language). Both are plain data movement: the only rules are the shape
// check and the exactness of Python's own number objects.

var (
	pyFromVecReshape = newRule("python.from_vec.reshape",
		"host data plus a shape is torch.tensor(v).reshape(shape) / np.array(v).reshape(shape) / jnp.asarray(v).reshape(shape): the data keeps its dtype (after the framework's creation rule) and a shape of another element count is an error",
		"spec/case-format.md op catalog (from_vec: torch.tensor(v).reshape(shape)); seed 004 §PyTorch 的写法 (int32 data stays int32); seed 001 §默认 dtype (jnp.asarray of f64 data)")
	pyToHostExact = newRule("python.to_host.exact",
		"reading values back (t.tolist(), .item()) gives Python bool/int/float objects that hold every element exactly; read as the requested host type they keep their value, and the rank is the tensor's own",
		"spec/case-format.md op catalog (to_host: t.tolist() always converts); seed 003 §读回主机")
	pyToHostInexact = newRule("python.to_host.not-representable",
		"a value that the requested host type cannot hold exactly (an integer beyond its range, a float read as an integer type) is a conversion error on the host side",
		"Python semantics of int()/float() on the values tolist() returns; no recorded case")
)

func (e *evaluation) pyFromVec() tensor.Outcome {
	v := e.input(e.c.Args[0].Tensor)
	shape := e.c.Attrs.Shape
	e.use(pyFromVecReshape)
	if n := tensor.NumElements(shape); n != v.Len() {
		switch e.p.Framework {
		case PyTorch:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: shape '%s' is invalid for input of size %d", torchShape(shape), v.Len())
		case NumPy:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: cannot reshape array of size %d into shape %s", v.Len(), shapeTupleCompact(shape))
		}
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "TypeError: cannot reshape array of shape %s (size %d) into shape %s (size %d)",
			shapeTuple(v.Shape), v.Len(), shapeTuple(shape), n)
	}
	return tensor.ValueOutcome(v.Reshape(shape...))
}

// torchShape renders a shape as PyTorch's messages do: [2, 3].
func torchShape(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = itoa(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (e *evaluation) pyToHost() tensor.Outcome {
	t := e.input(e.c.Args[0].Tensor)
	to := e.c.Attrs.DType
	out := tensor.New(to, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		if !hostExact(t, i, out) {
			return e.fail(pyToHostInexact, tensor.OutOfRange, "OverflowError: element %s of a %s tensor is not representable as %s",
				t.ElementString(i), pyName(t.DType), pyName(to))
		}
	}
	e.use(pyToHostExact)
	return tensor.ValueOutcome(out)
}

// hostExact stores element i of t into out when out's dtype holds it exactly.
func hostExact(t *tensor.Tensor, i int, out *tensor.Tensor) bool {
	src, d := t.DType, out.DType
	switch {
	case src.IsComplex() || d.IsComplex():
		if !d.IsComplex() {
			return false
		}
		v := complexOf(t, i)
		out.SetComplex(i, v)
		return sameFloatBits(real(out.Complex(i)), real(v)) && sameFloatBits(imag(out.Complex(i)), imag(v))
	case src.IsFloat():
		if !d.IsFloat() {
			return false // a Python float read as an integer or bool type
		}
		v := t.Float(i)
		out.SetFloat(i, v)
		return sameFloatBits(out.Float(i), v)
	}
	x := new(big.Int) // the exact integer (bool: 0 or 1)
	if src.IsSigned() {
		x.SetInt64(t.Int(i))
	} else {
		x.SetUint64(t.Uint(i))
	}
	if d.IsFloat() {
		v := intToFloat(t.Uint(i), src, d)
		if math.IsInf(v, 0) {
			return false
		}
		back, _ := new(big.Float).SetFloat64(v).Int(nil)
		out.SetFloat(i, v)
		return back.Cmp(x) == 0
	}
	lo, hi := big.NewInt(d.MinInt()), new(big.Int).SetUint64(d.MaxUint())
	if x.Cmp(lo) < 0 || x.Cmp(hi) > 0 {
		return false
	}
	if x.Sign() < 0 {
		out.SetInt(i, x.Int64())
	} else {
		out.SetUint(i, x.Uint64())
	}
	return true
}

// sameFloatBits reports whether two floats are the same value, NaN included.
func sameFloatBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}
