package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's creation ops (Tensor::new of a Rust literal, arange, zeros,
// from_vec) and reading back (to_scalar, to_vec1..3).

func init() {
	candleAttach(tensor.ClassFromLiteral, func(_ *profile, c *tensor.Case) bool { return c.Attrs.Literal != nil },
		func(e *Engine, p *profile, c *tensor.Case) tensor.Outcome { return candleFromLiteral(*c.Attrs.Literal) })
	candleAttach(tensor.ClassArange, func(_ *profile, c *tensor.Case) bool { return c.Attrs.End != nil }, candleArange)
	candleAttach(tensor.ClassZeros, func(_ *profile, c *tensor.Case) bool { return rustShapeOK(c.Attrs.Shape) }, candleZeros)
	candleAttach(tensor.ClassFromVec, func(_ *profile, c *tensor.Case) bool {
		return rustTensorArgs(c, 1) && rustShapeOK(c.Attrs.Shape)
	}, candleFromVec)
	candleAttach(tensor.ClassToHost, func(_ *profile, c *tensor.Case) bool { return rustTensorArgs(c, 1) }, candleToHost)
}

// rustCompileError is the outcome of a program rustc rejects.
func rustCompileError(msg string) tensor.Outcome {
	return tensor.UnsupportedOutcome("does not compile: %s", msg)
}

// candleFromLiteral is Tensor::new(&literal, &dev) (policies
// rust.literal.typing, candle.create.new): nested arrays up to rank 4,
// Vec up to rank 3 (a ragged Vec<Vec> is an Err), candle's dtypes only.
func candleFromLiteral(text string) tensor.Outcome {
	lit := compileRustLiteral(text)
	if lit.reject != "" {
		return rustCompileError(lit.reject)
	}
	// NdArray is implemented for arrays up to rank 4, Vecs up to rank 3
	if rank := len(lit.shape); rank > 4 || lit.vec && rank > 3 {
		return tensor.UnsupportedOutcome("the trait `NdArray` is not implemented for a rank-%d literal", rank)
	}
	d, ok := rustDTypes[lit.typ]
	if !ok || !candleDType(d) {
		return tensor.UnsupportedOutcome("the trait `WithDType` is not implemented for `%s`", lit.typ)
	}
	if lit.ragged { // only a Vec gets here: NdArray::shape checks it at run time
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "two elements have different shapes (a ragged Vec)")
	}
	return tensor.ValueOutcome(rustTokensTensor(lit.toks, d, lit.shape))
}

// rustArangeEnds reads arange's start (default "0") and end literals, each
// one scalar, resolves their common type (hint: the type the API fixes, ""
// for none) and returns them as a two-element tensor of it (nil when the
// type has no dtype).
func rustArangeEnds(c *tensor.Case, hint string) (ends *tensor.Tensor, typ string, bad *tensor.Outcome) {
	texts := []string{"0", *c.Attrs.End}
	if c.Attrs.Start != nil {
		texts[0] = *c.Attrs.Start
	}
	toks := make([]rustTok, 2)
	for i, text := range texts {
		lit, err := readRustLiteral(text)
		if err != nil || !lit.bare {
			o := rustCompileError(text + " is not a scalar Rust literal")
			return nil, "", &o
		}
		toks[i] = lit.toks[0]
	}
	typ, why := rustLiteralType(toks, hint)
	if why != "" {
		o := rustCompileError(why)
		return nil, "", &o
	}
	if d, ok := rustDTypes[typ]; ok {
		return rustTokensTensor(toks, d, []int{2}), typ, nil
	}
	return nil, typ, nil
}

// rustArange runs `while cur < end { push(cur); cur += 1 }` in the dtype of
// ends (floats round each step); ok is false past tensor.MaxElements
// elements, and for a float loop that would never end (cur+1 == cur).
func rustArange(ends *tensor.Tensor) (*tensor.Tensor, bool) {
	d := ends.DType
	var words []uint64
	switch {
	case d == tensor.F32:
		for cur, end := float32(ends.Float(0)), float32(ends.Float(1)); cur < end; cur++ {
			if len(words) == tensor.MaxElements || cur+1 == cur { // cur+1 == cur: an endless loop
				return nil, false
			}
			words = append(words, uint64(math.Float32bits(cur)))
		}
	case d == tensor.F64:
		for cur, end := ends.Float(0), ends.Float(1); cur < end; cur++ {
			if len(words) == tensor.MaxElements || cur+1 == cur {
				return nil, false
			}
			words = append(words, math.Float64bits(cur))
		}
	case d.IsSigned():
		for cur, end := ends.Int(0), ends.Int(1); cur < end; cur++ {
			if len(words) == tensor.MaxElements {
				return nil, false
			}
			words = append(words, uint64(cur))
		}
	default:
		for cur, end := ends.Uint(0), ends.Uint(1); cur < end; cur++ {
			if len(words) == tensor.MaxElements {
				return nil, false
			}
			words = append(words, cur)
		}
	}
	out := tensor.New(d, len(words))
	for i, w := range words {
		out.SetUint(i, w)
	}
	return out, true
}

// candleArange is Tensor::arange(start, end, &dev) (policy
// candle.create.arange): the literals' common type, steps of 1 in it.
func candleArange(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	ends, typ, bad := rustArangeEnds(c, "")
	if bad != nil {
		return *bad
	}
	if ends == nil || !candleDType(ends.DType) {
		return tensor.UnsupportedOutcome("the trait `WithDType` is not implemented for `%s`", typ)
	}
	out, ok := rustArange(ends)
	if !ok {
		return tensor.UnsupportedOutcome("arange of more than %d elements", tensor.MaxElements)
	}
	return tensor.ValueOutcome(out)
}

// candleZeros is Tensor::zeros(shape, dtype, &dev): candle has no default
// dtype (policy candle.create.no-default-dtype).
func candleZeros(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	if d := c.Attrs.DType; candleDType(d) {
		return tensor.ValueOutcome(tensor.New(d, c.Attrs.Shape...))
	}
	if c.Attrs.DType == tensor.Invalid {
		return tensor.UnsupportedOutcome("candle has no default dtype: Tensor::zeros needs an explicit DType")
	}
	return tensor.UnsupportedOutcome("candle has no %s dtype", c.Attrs.DType)
}

// candleFromVec is Tensor::from_vec(v, shape, &dev), which 0.11 does not
// check against the data's length (policy candle.create.from-vec-unchecked):
// too few elements panic at the first read on the CPU, extra ones are
// ignored.
func candleFromVec(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	data, shape := c.Args[0].Tensor, c.Attrs.Shape
	n, have := tensor.NumElements(shape), data.Len()
	if n > have {
		return tensor.PanicOutcome("range end index %d out of range for slice of length %d", n, have)
	}
	out := tensor.New(data.DType, shape...)
	copy(out.Data, rustWords(data)[:n])
	return tensor.ValueOutcome(out)
}

// candleToHost is to_scalar / to_vec1 / to_vec2 / to_vec3::<T>() (policy
// candle.to-host.checked): the rank, then the element type, are checked;
// nothing is converted.
func candleToHost(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	t, want := c.Args[0].Tensor, c.Attrs.DType
	rank := t.Rank()
	if c.Attrs.Rank != nil {
		rank = *c.Attrs.Rank
	}
	switch {
	case rank > 3:
		return tensor.UnsupportedOutcome("candle has no to_vec%d", rank)
	case !candleDType(want):
		return tensor.UnsupportedOutcome("the trait `WithDType` is not implemented for `%s`", want)
	case rank != t.Rank():
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "unexpected rank, expected: %d, got: %d (%s)", rank, t.Rank(), rustShape(t.Shape))
	case want != t.DType:
		return tensor.ErrorOutcome(tensor.DTypeMismatch, "unexpected dtype, expected: %s, got: %s", rustName(want), rustName(t.DType))
	}
	return tensor.ValueOutcome(t.Clone())
}
