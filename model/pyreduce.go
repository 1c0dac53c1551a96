package model

import "github.com/tfuzz/tfuzz/tensor"

// pyReduce evaluates the reduce family for PyTorch, NumPy and JAX (not modeled yet).
func (e *evaluation) pyReduce() tensor.Outcome {
	return e.unsupported(notModeled, "tfuzz: %s is not modeled yet for %s", e.c.Op, e.p.Name)
}
