package cpu

import "github.com/tfuzz/tfuzz/tensor"

// candle's t.clamp(min, max) (policy candle.clamp): t.maximum(min)? then
// .minimum(max), each bound a tensor of t's shape and dtype or a scalar of
// the element type, both required (the method takes no Option). The engine
// runs its candle binary family twice, as candle does.

func init() {
	candleAttach(tensor.ClassClamp, candleClampSupports, candleClamp)
}

// candleClampSupports accepts a tensor input and bounds that are tensors,
// scalars the binary family reads, or absent.
func candleClampSupports(_ *profile, c *tensor.Case) bool {
	if len(c.Args) != 3 || !validArg(c.Args[0], false) {
		return false
	}
	for _, a := range c.Args[1:] {
		if !a.IsNull() && !validArg(a, true) {
			return false
		}
	}
	return true
}

func candleClamp(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	lo, hi := c.Args[1], c.Args[2]
	if lo.IsNull() || hi.IsNull() { // policy candle.no-such-op.2026-12
		return tensor.UnsupportedOutcome("does not compile: candle's clamp takes both bounds (no Option)")
	}
	for _, b := range []tensor.Arg{lo, hi} { // a bound that does not compile fails the program before any step runs
		if b.Scalar != nil {
			if _, bad := candleScalarTensor(e, b.Scalar, c.Args[0].Tensor); bad != nil {
				return *bad
			}
		}
	}
	first := candleBinary(e, p, &tensor.Case{Op: "maximum", Args: []tensor.Arg{c.Args[0], lo}})
	if first.Form != tensor.FormValue {
		return first
	}
	return candleBinary(e, p, &tensor.Case{Op: "minimum", Args: []tensor.Arg{{Tensor: first.Value}, hi}})
}
