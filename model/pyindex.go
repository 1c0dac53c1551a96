package model

import "github.com/tfuzz/tfuzz/tensor"

// pyIndexSelect evaluates the index family for PyTorch, NumPy and JAX (not modeled yet).
func (e *evaluation) pyIndexSelect() tensor.Outcome {
	return e.unsupported(notModeled, "tfuzz: %s is not modeled yet for %s", e.c.Op, e.p.Name)
}
