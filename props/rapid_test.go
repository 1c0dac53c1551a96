package props

import (
	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// Test generators that draw pieces of cases from rapid (the Metal test's
// focused generator builds its own cases from them).

// genElements draws a tensor of dtype d and the given shape.
func genElements(t *rapid.T, d tensor.DType, shape []int, _ string) *tensor.Tensor {
	x := tensor.New(d, shape...)
	(&draw{src: RapidSource(t)}).fillElements(x, bias{})
	return x
}

// genScalar draws a host scalar of any kind.
func genScalar(t *rapid.T) *tensor.Scalar {
	d := &draw{src: RapidSource(t)}
	return drawScalar(d, pick(d, scalarKinds), "", 0)
}
