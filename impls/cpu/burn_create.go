package cpu

import "github.com/tfuzz/tfuzz/tensor"

// burn's creation ops (from_data of a Rust literal or of a TensorData,
// arange, zeros) and reading back (into_data().to_vec::<T>()).

func init() {
	burnAttach(tensor.ClassFromLiteral, burnLiteralSupports,
		func(e *Engine, p *profile, c *tensor.Case, _ []*tensor.Tensor) tensor.Outcome {
			return burnFromLiteral(e, p, *c.Attrs.Literal)
		})
	burnAttach(tensor.ClassArange, func(_ *profile, c *tensor.Case) bool { return c.Attrs.End != nil }, burnArange)
	burnAttach(tensor.ClassZeros, func(_ *profile, c *tensor.Case) bool { return rustShapeOK(c.Attrs.Shape) }, burnZeros)
	burnAttach(tensor.ClassFromVec, func(_ *profile, c *tensor.Case) bool {
		return rustTensorArgs(c, 1) && rustShapeOK(c.Attrs.Shape)
	}, burnFromVec)
	burnAttach(tensor.ClassToHost, func(_ *profile, c *tensor.Case) bool { return rustTensorArgs(c, 1) }, burnToHost)
}

// burnLiteralSupports declines a vec! literal that compiles (burn takes
// arrays or TensorData; the model leaves vec! open).
func burnLiteralSupports(_ *profile, c *tensor.Case) bool {
	if c.Attrs.Literal == nil {
		return false
	}
	lit := compileRustLiteral(*c.Attrs.Literal)
	return lit.reject != "" || !lit.vec || lit.ragged
}

// burnFromLiteral is Tensor::<D, K>::from_data(literal, &device), the kind
// following the literal, then the device's default dtype of the kind.
func burnFromLiteral(e *Engine, p *profile, text string) tensor.Outcome {
	lit := compileRustLiteral(text)
	switch {
	case lit.reject != "":
		return rustCompileError(lit.reject)
	case lit.vec:
		return tensor.UnsupportedOutcome("cpu engine: burn's from_data of a vec! literal is unspecified")
	case lit.bare:
		return tensor.UnsupportedOutcome("burn has no rank-0 tensors")
	}
	d, ok := rustDTypes[lit.typ]
	if !ok {
		return tensor.UnsupportedOutcome("burn has no element type %s", lit.typ)
	}
	t, bad := burnInput(e, p, rustTokensTensor(lit.toks, d, lit.shape))
	if bad != nil {
		return *bad
	}
	return tensor.ValueOutcome(t)
}

// burnArange is Tensor::<1, Int>::arange(start..end, &device): a Range<i64>,
// stored as the device's Int dtype.
func burnArange(e *Engine, p *profile, c *tensor.Case, _ []*tensor.Tensor) tensor.Outcome {
	ends, _, bad := rustArangeEnds(c, "i64")
	if bad != nil {
		return tensor.UnsupportedOutcome("Tensor::arange takes a Range<i64>: %s", bad.Message())
	}
	vals, ok := rustArange(ends)
	if !ok {
		return tensor.UnsupportedOutcome("arange of more than %d elements", tensor.MaxElements)
	}
	t, out := burnInput(e, p, vals)
	if out != nil {
		return *out
	}
	return tensor.ValueOutcome(t)
}

// burnZeros is Tensor::zeros(shape, &device) (F32), or (&device, dtype).
func burnZeros(e *Engine, p *profile, c *tensor.Case, _ []*tensor.Tensor) tensor.Outcome {
	d := c.Attrs.DType
	if !d.Valid() {
		d = tensor.F32
	}
	if d.IsComplex() {
		return tensor.UnsupportedOutcome("burn has no complex dtype")
	}
	return burnValue(tensor.New(d, c.Attrs.Shape...))
}

// burnValue is t as the result of a creation op, which cannot be of rank 0
// in burn (policy burn.create.rank-at-least-1).
func burnValue(t *tensor.Tensor) tensor.Outcome {
	if t.Rank() == 0 {
		return tensor.UnsupportedOutcome("burn has no rank-0 tensors")
	}
	return tensor.ValueOutcome(t)
}

// burnFromVec is Tensor::from_data(TensorData::new(v, shape), &device):
// the element count must match the shape.
func burnFromVec(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	t, shape := args[0], c.Attrs.Shape
	if tensor.NumElements(shape) != t.Len() {
		return tensor.PanicOutcome("Shape %v is invalid for input of size %d", shape, t.Len())
	}
	return burnValue(rustReshape(t, shape))
}

// burnToHost is tensor.into_data().to_vec::<T>(): the rank is the tensor's
// own (a Rust type parameter), the element type is checked.
func burnToHost(e *Engine, p *profile, c *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	t := args[0]
	if r := c.Attrs.Rank; r != nil && *r != t.Rank() {
		return tensor.UnsupportedOutcome("a Tensor<%d> read back as rank %d does not type-check", t.Rank(), *r)
	}
	if c.Attrs.DType != t.DType {
		return tensor.ErrorOutcome(tensor.DTypeMismatch, "TypeMismatch(\"Invalid target element type (expected %s, got %s)\")", t.DType, c.Attrs.DType)
	}
	return tensor.ValueOutcome(t.Clone())
}
