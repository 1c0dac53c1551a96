package model

import "github.com/tfuzz/tfuzz/tensor"

// XLA's algebraic simplifier rewrites a multiply by a converted bool array
// into a select, and a converted bool array divided by a broadcast scalar
// into a multiply by the reciprocal (and so into the same select): JAX's
// answers for bool arrays there are not IEEE products.

var (
	jaxPredMulSelect = newRule("jax.mul.bool-array-select",
		"XLA rewrites Mul(Convert(pred), x) into select(pred, x, 0): a JAX bool array of the output's shape times a float or complex x gives +0 where the bool is false, whatever x is (no -0 from a negative x, no NaN from inf or NaN), and x where it is true; a Python bool or a broadcast bool array multiplies as IEEE numbers",
		"xla 289dd9a1 xla/hlo/transforms/simplifiers/algebraic_simplifier.cc HandleMultiply (\"Mul(Convert(Pred), operand) => select(pred, operand, 0)\"); oracle2-01326 (f64 [.., -2.5, ..] * Python False gives -0.0: the broadcast scalar is not matched)")
	jaxPredDivRecip = newRule("jax.div.bool-array-reciprocal",
		"XLA rewrites Convert(pred) / Broadcast(scalar y) into Broadcast(1/y) * Convert(pred), then the select of jax.mul.bool-array-select: a JAX bool array divided by a Python scalar or a 0-dim array (on the CPU by any real divisor broadcast to its shape, which jax.cpu.div-by-scalar's rewrite turns into the same multiply) gives +0 where the bool is false (also for y = 0 or a y whose reciprocal overflows) and 1/y rounded once where it is true",
		"xla 289dd9a1 xla/hlo/transforms/simplifiers/algebraic_simplifier.cc HandleDivide (\"If X is a convert from pred, then X / broadcast(Y) => broadcast(1/Y) * X\"), HandleMultiply (select); xla 0057bb15 the same file, HandleDivide (\"A / broadcast(B) => A * broadcast(1 / B)\" on the CPU)")
)

// jaxPredOperand finds the bool operand that XLA's algebraic simplifier
// rewrites with a select: in mul, a bool array of the output's shape (its
// convert(pred) is an operand of the multiply, not of a broadcast); in div, a
// bool numerator of rank >= 1 over a divisor that is broadcast from a scalar
// (a Python scalar or a 0-dim array), which becomes broadcast(1/y) *
// convert(pred) and then the same select; on the CPU any broadcast real
// divisor, through A / broadcast(B) => A * broadcast(1/B). -1 when neither
// applies.
func (b *pyBin) jaxPredOperand() int {
	isPred := func(k int) bool {
		a := b.args[k]
		return !a.isScalar() && a.t.DType == tensor.Bool && sameShape(a.t.Shape, b.shape)
	}
	switch {
	case b.op == "mul" && isPred(0):
		return 0
	case b.op == "mul" && isPred(1):
		return 1
	case b.op == "div" && isPred(0) && len(b.shape) > 0 && (b.args[1].isScalar() || b.args[1].t.Rank() == 0):
		return 0
	case b.op == "div" && isPred(0) && b.e.p.Device == CPU && b.divisorBroadcast() && !b.compute.IsComplex():
		return 0 // the CPU's A / broadcast(B) rewrite (jax.cpu.div-by-scalar) makes the same multiply
	}
	return -1
}

// predSelectElem is XLA's select(pred, v, 0) for element i: +0 where the
// bool is false; where it is true, the other operand (mul) or the reciprocal
// of the divisor, 1/y rounded once in the dtype (div).
func (b *pyBin) predSelectElem(out *tensor.Tensor, i int) {
	k := b.predSelect
	pred := b.args[k].t.Bool(broadcastIndex(b.shape, i, b.args[k].t.Shape))
	if b.op == "div" {
		b.e.use(jaxPredDivRecip)
	} else {
		b.e.use(jaxPredMulSelect)
	}
	other := b.ops[1-k].t
	j := b.at(1-k, i)
	switch {
	case !pred && out.DType.IsComplex():
		out.SetComplex(i, 0)
	case !pred:
		out.SetFloat(i, 0)
	case b.op == "mul" && out.DType.IsComplex():
		out.SetComplex(i, other.Complex(j))
	case b.op == "mul":
		out.SetFloat(i, other.Float(j))
	case out.DType.IsComplex():
		v, unspec := b.complexDiv(1, other.Complex(j))
		out.SetComplex(i, v)
		if unspec {
			out.SetUnspecified(i)
		}
	default:
		v, unspec := b.floatArith(1, other.Float(j))
		out.SetFloat(i, v)
		if unspec {
			out.SetUnspecified(i)
		}
	}
}
