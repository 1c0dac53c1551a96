package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// tenferro's complex dtypes, C32 (the case format's c64) and C64 (c128):
// + - == != of two tensors, neg, scale_real, and casts to, from and between
// them. The engine's kernels hold real elements only, so complex values run
// through this plain path: elements as (re, im) float64 pairs, each part
// rounded to the component type (f32 or f64) after every operation.

// tfComplexParts returns t's elements as the complex dtype d, interleaved
// (re, im) and rounded to d's component: a real element x is (x, 0), an
// integer first becomes the nearest float64.
func tfComplexParts(t *tensor.Tensor, d tensor.DType) []float64 {
	n := t.Len()
	out := make([]float64, 2*n)
	f32 := d.Component() == tensor.F32
	for i := 0; i < n; i++ {
		var re, im float64
		switch {
		case t.DType.IsComplex():
			z := t.Complex(i)
			re, im = real(z), imag(z)
		case t.DType.IsFloat():
			re = t.Float(i)
		case t.DType.IsUnsigned():
			re = float64(t.Uint(i))
		default:
			re = float64(t.Int(i))
		}
		if f32 {
			re, im = float64(float32(re)), float64(float32(im))
		}
		out[2*i], out[2*i+1] = re, im
	}
	return out
}

// tfComplexTensor stores interleaved parts as a tensor of the complex dtype d.
func tfComplexTensor(parts []float64, d tensor.DType, shape []int) *tensor.Tensor {
	out := tensor.New(d, shape...)
	c := d.Component()
	for i, p := range parts {
		out.Data[i] = floatWord(p, c)
	}
	return out
}

// tfComplexBinary is x op y in the complex dtype d: + and - per part in the
// component type, == and != of both parts.
func tfComplexBinary(op opID, x, y *tensor.Tensor, d tensor.DType) tensor.Outcome {
	a, b := tfComplexParts(x, d), tfComplexParts(y, d)
	if op == opEq || op == opNe {
		out := tensor.New(tensor.Bool, x.Shape...)
		for i := range out.Data {
			eq := a[2*i] == b[2*i] && a[2*i+1] == b[2*i+1]
			out.Data[i] = uint64(b2u(eq == (op == opEq)))
		}
		return tensor.ValueOutcome(out)
	}
	f32 := d.Component() == tensor.F32
	for i := range a {
		v := a[i] + b[i]
		if op == opSub {
			v = a[i] - b[i]
		}
		if f32 {
			v = float64(float32(v)) // one rounding: the f64 sum of two f32 is exact or rounds harmlessly
		}
		a[i] = v
	}
	return tensor.ValueOutcome(tfComplexTensor(a, d, x.Shape))
}

// tfComplexScale is scale_real of a complex tensor: both parts times the
// factor rounded to the component type.
func tfComplexScale(t *tensor.Tensor, f float64) tensor.Outcome {
	d := t.DType
	a := tfComplexParts(t, d)
	f32 := d.Component() == tensor.F32
	if f32 {
		k := float32(f)
		for i, v := range a {
			a[i] = float64(float32(v) * k)
		}
	} else {
		for i, v := range a {
			a[i] = v * f
		}
	}
	return tensor.ValueOutcome(tfComplexTensor(a, d, t.Shape))
}

// tfComplexNeg is -z.
func tfComplexNeg(t *tensor.Tensor) tensor.Outcome {
	a := tfComplexParts(t, t.DType)
	for i, v := range a {
		a[i] = -v
	}
	return tensor.ValueOutcome(tfComplexTensor(a, t.DType, t.Shape))
}

// tfComplexCast is cast or convert where a complex dtype takes part (the
// caller checked convert's direction and declined complex -> float): to a
// complex dtype each part rounds once; to Bool, re != 0 || im != 0; to an
// integer, the real part, checked like a float and truncated.
func tfComplexCast(e *Engine, t *tensor.Tensor, to tensor.DType, check bool) tensor.Outcome {
	if to.IsComplex() {
		return tensor.ValueOutcome(tfComplexTensor(tfComplexParts(t, to), to, t.Shape))
	}
	a := tfComplexParts(t, tensor.C128)
	if to == tensor.Bool {
		out := tensor.New(tensor.Bool, t.Shape...)
		for i := range out.Data {
			out.Data[i] = uint64(b2u(a[2*i] != 0 || a[2*i+1] != 0))
		}
		return tensor.ValueOutcome(out)
	}
	re := &tensor.Tensor{DType: tensor.F64, Shape: append([]int{}, t.Shape...), Data: make([]uint64, t.Len())}
	for i := range re.Data {
		re.Data[i] = math.Float64bits(a[2*i])
	}
	if check {
		if o, bad := tfCastRange(e, re, to); bad {
			return o
		}
	}
	return tensor.ValueOutcome(rustCast(e, re, to))
}
