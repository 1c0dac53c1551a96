package model

import "github.com/tfuzz/tfuzz/tensor"

// pyCast evaluates the cast family for PyTorch, NumPy and JAX (not modeled yet).
func (e *evaluation) pyCast() tensor.Outcome {
	return e.unsupported(notModeled, "tfuzz: %s is not modeled yet for %s", e.c.Op, e.p.Name)
}
