package model

import "github.com/tfuzz/tfuzz/tensor"

// pyBinary evaluates the binary family for PyTorch, NumPy and JAX (not modeled yet).
func (e *evaluation) pyBinary() tensor.Outcome {
	return e.unsupported(notModeled, "tfuzz: %s is not modeled yet for %s", e.c.Op, e.p.Name)
}
