package model

import "github.com/tfuzz/tfuzz/tensor"

// The Python frameworks: PyTorch, NumPy and JAX share one interpreter whose
// differences are the Profile fields (Framework, Device, Arch, X64) read by
// the rules of each op family.

func init() {
	register(&Profile{Name: "pytorch/cpu", Framework: PyTorch, Device: CPU, Arch: X86,
		Doc:      "PyTorch 2.x eager on an x86-64 CPU",
		Evidence: "oracle: torch 2.11.0 CPU, x86-64, one thread; seeds 000, 001, 003, 004"})
	register(&Profile{Name: "pytorch/cpu-arm64", Framework: PyTorch, Device: CPU, Arch: Arm64,
		Doc:      "PyTorch 2.x eager on an Arm64 CPU (the seeds' M2 Max runs)",
		Evidence: "seeds 000, 001, 003, 004 (PyTorch on an M2 Max); Arm64 fcvtzs/sdiv semantics where they differ from x86"})
	register(&Profile{Name: "pytorch/cuda", Framework: PyTorch, Device: CUDA, Arch: X86,
		Doc:      "PyTorch 2.x eager on an NVIDIA GPU",
		Evidence: "oracle: torch 2.11.0 on an H200"})
	register(&Profile{Name: "pytorch/mps", Framework: PyTorch, Device: MPS, Arch: Arm64,
		Doc:      "PyTorch 2.x eager on Apple MPS",
		Evidence: "seed 000 (PyTorch MPS rows); otherwise as PyTorch CUDA where the seeds say MPS and CPU agree"})
	register(&Profile{Name: "numpy", Framework: NumPy, Device: CPU, Arch: X86,
		Doc:      "NumPy 2.x",
		Evidence: "oracle: numpy 2.5.2 (bf16 through ml_dtypes), x86-64"})
	register(&Profile{Name: "numpy/cpu-arm64", Framework: NumPy, Device: CPU, Arch: Arm64,
		Doc:      "NumPy 2.x on an Arm64 CPU (the seeds' M2 Max runs)",
		Evidence: "seed 001 (NumPy on an M2 Max: promotion table, astype prose); NumPy's aarch64 code paths (fmax/fmin, fcvtzs) where they differ from x86"})
	register(&Profile{Name: "jax/cpu-x32", Framework: JAX, Device: CPU, Arch: X86,
		Doc:      "JAX eager on CPU, jax_enable_x64 off",
		Evidence: "oracle: jax 0.11.2, JAX_PLATFORMS=cpu, JAX_ENABLE_X64=0; seed 001"})
	register(&Profile{Name: "jax/cpu-x64", Framework: JAX, Device: CPU, Arch: X86, X64: true,
		Doc:      "JAX eager on CPU, jax_enable_x64 on",
		Evidence: "oracle: jax 0.11.2, JAX_PLATFORMS=cpu, JAX_ENABLE_X64=1; seed 001"})
	register(&Profile{Name: "jax/gpu-x32", Framework: JAX, Device: GPU, Arch: X86,
		Doc:      "JAX eager on an NVIDIA GPU, jax_enable_x64 off",
		Evidence: "oracle: jax 0.11.2 on an H200, JAX_ENABLE_X64=0"})
	register(&Profile{Name: "jax/gpu-x64", Framework: JAX, Device: GPU, Arch: X86, X64: true,
		Doc:      "JAX eager on an NVIDIA GPU, jax_enable_x64 on",
		Evidence: "oracle: jax 0.11.2 on an H200, JAX_ENABLE_X64=1"})
	for _, p := range profileRegistry {
		if p.Framework == PyTorch || p.Framework == NumPy || p.Framework == JAX {
			p.eval = evalPython
		}
	}
}

// evalPython dispatches a case of a Python framework to its op family.
func evalPython(e *evaluation) tensor.Outcome {
	if out, ok := evalPythonNew(e); ok {
		return out
	}
	switch e.op().Class {
	case tensor.ClassBinary:
		return e.pyBinary()
	case tensor.ClassUnary:
		return e.pyUnary()
	case tensor.ClassCast:
		return e.pyCast()
	case tensor.ClassReduce:
		return e.pyReduce()
	case tensor.ClassCumsum:
		return e.pyCumsum()
	case tensor.ClassIndexSelect:
		return e.pyIndexSelect()
	case tensor.ClassFromLiteral, tensor.ClassArange, tensor.ClassZeros:
		return e.pyCreate()
	case tensor.ClassFromVec:
		return e.pyFromVec()
	case tensor.ClassToHost:
		return e.pyToHost()
	}
	return e.unsupported(noSuchOp, "%s has no %s", e.p.Framework, e.c.Op)
}

var noSuchOp = newRule("catalog.no-such-op",
	"the framework has no spelling of this op of the catalog",
	"spec/case-format.md op catalog; framework documentation")

// unsupported returns an unsupported outcome decided by rule r.
func (e *evaluation) unsupported(r *Rule, format string, args ...any) tensor.Outcome {
	e.use(r)
	return tensor.UnsupportedOutcome(format, args...)
}

// fail returns an error outcome decided by rule r.
func (e *evaluation) fail(r *Rule, class tensor.ErrorClass, format string, args ...any) tensor.Outcome {
	e.use(r)
	return tensor.ErrorOutcome(class, format, args...)
}

// x32Narrow is JAX's creation rule with x64 off: 64-bit host data is stored
// in the 32-bit type of its kind.
var x32Narrow = newRule("jax.x32.narrow-inputs",
	"with jax_enable_x64 off, jnp.asarray stores i64/u64 host data as i32/u32 keeping the low 32 bits, f64 as f32 (rounded to nearest even) and c128 as c64, silently",
	"oracle-00901, oracle-00911, oracle-00930, oracle2-00659; seed 001 §默认 dtype")

// narrow32 returns the 32-bit dtype JAX x32 uses for d.
func narrow32(d tensor.DType) tensor.DType {
	switch d {
	case tensor.I64:
		return tensor.I32
	case tensor.U64:
		return tensor.U32
	case tensor.F64:
		return tensor.F32
	case tensor.C128:
		return tensor.C64
	}
	return d
}

// input returns argument tensor t as the framework holds it after creation
// from host data (JAX x32 narrows 64-bit data; everyone else keeps it).
func (e *evaluation) input(t *tensor.Tensor) *tensor.Tensor {
	if e.p.Framework != JAX || e.p.X64 || narrow32(t.DType) == t.DType {
		return t
	}
	e.use(x32Narrow)
	return convertTensor(t, narrow32(t.DType))
}

// convertTensor converts every element of t to d by the conversions all
// frameworks share: integers wrap, floats round to nearest even, bool is
// x != 0, complex keeps its parts. Float to integer is not one of them.
func convertTensor(t *tensor.Tensor, d tensor.DType) *tensor.Tensor {
	out := tensor.New(d, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		switch {
		case d == tensor.Bool:
			out.SetBool(i, isNonzero(t, i))
		case d.IsComplex():
			out.SetComplex(i, complexOf(t, i))
		case d.IsFloat():
			out.SetFloat(i, floatOf(t, i))
		case t.DType.IsFloat() || t.DType.IsComplex():
			panic("model: convertTensor from float to integer needs a profile's rule")
		default:
			out.SetInt(i, t.Int(i))
		}
	}
	return out
}

// isNonzero is the truth value of element i (NaN and -0: as C's x != 0).
func isNonzero(t *tensor.Tensor, i int) bool {
	switch {
	case t.DType.IsComplex():
		c := t.Complex(i)
		return real(c) != 0 || imag(c) != 0
	case t.DType.IsFloat():
		return t.Float(i) != 0
	}
	return t.Bits(i) != 0
}

// floatOf returns element i exactly as float64 when it is a float, and as the
// nearest float64 when it is an integer (exact below 2^53).
func floatOf(t *tensor.Tensor, i int) float64 {
	switch {
	case t.DType.IsFloat() || t.DType.IsComplex():
		return t.Float(i)
	case t.DType.IsUnsigned():
		return float64(t.Uint(i))
	}
	return float64(t.Int(i))
}

func complexOf(t *tensor.Tensor, i int) complex128 {
	if t.DType.IsComplex() {
		return t.Complex(i)
	}
	return complex(floatOf(t, i), 0)
}

var notModeled = newRule("tfuzz.not-modeled",
	"the model does not state this op for this profile yet",
	"tfuzz").silent()
