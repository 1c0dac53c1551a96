package props

import (
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestCatPromotionEveryTriple: the engine's promotion of a cat's list (a
// fold in PyTorch, PyArray_PromoteDTypeSequence in NumPy, the lattice's
// join in JAX) agrees with the model's for every ordered triple of real
// dtypes, each tensor holding a value every dtype holds.
func TestCatPromotionEveryTriple(t *testing.T) {
	eng := cpu.New(cpu.WithWorkers(1))
	var real []tensor.DType
	for _, d := range tensor.AllDTypes {
		if !d.IsComplex() {
			real = append(real, d)
		}
	}
	one := func(d tensor.DType) tensor.Arg {
		x := tensor.New(d, 1)
		if d.IsFloat() {
			x.SetFloat(0, 1)
		} else {
			x.SetInt(0, 1)
		}
		return tensor.Arg{Tensor: x}
	}
	checked := 0
	for _, profile := range []string{"pytorch/cpu", "numpy", "jax/cpu-x32", "jax/cpu-x64"} {
		for _, a := range real {
			for _, b := range real {
				for _, c := range real {
					zero := 0
					cs := &tensor.Case{Op: "cat", Args: []tensor.Arg{one(a), one(b), one(c)}, Attrs: tensor.Attrs{Dim: &zero}}
					if !eng.Supports(profile, cs) {
						continue
					}
					checked++
					if f := Differential(eng, profile, cs); f != nil {
						t.Errorf("%v", f)
					}
				}
			}
		}
	}
	if checked < 8000 { // 4 profiles x 13^3 triples, less NumPy's bf16 among three dtypes
		t.Errorf("only %d triples checked", checked)
	}
}
