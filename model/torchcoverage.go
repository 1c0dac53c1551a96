package model

import "github.com/tfuzz/tfuzz/tensor"

// PyTorch kernel coverage: which (op, dispatch dtype) pairs have no kernel on
// a device. The dispatch dtype is the dtype the kernel is selected by (the
// promoted computation dtype for binary ops; the input dtype for most unary
// ops and reductions), and it is the one the error message names.

var torchNoKernel = newRule("pytorch.coverage.no-kernel",
	"PyTorch has no kernel for this op and dtype on this device: NotImplementedError \"<kernel>\" not implemented for '<dtype>'",
	"oracle: 328 NotImplementedError outcomes, e.g. oracle2-00001 (le u16), oracle-00212.. (add u16/u32/u64); seed 000 §溢出 (u32 sub add_stub)")

// torchUnsignedKernels names, per op, the kernel that rejects the barebones
// unsigned types u16/u32/u64 on CPU and on CUDA ("" = a kernel exists).
var torchUnsignedKernels = map[string][2]string{
	"add":         {"add_stub", "ufunc_add_CUDA"},
	"sub":         {"add_stub", "ufunc_add_CUDA"}, // sub is add with alpha = -1
	"mul":         {"", "mul_cuda"},
	"floor_div":   {"div_floor_cpu", "div_floor_cuda"},
	"trunc_div":   {"div_trunc_cpu", "div_trunc_cuda"},
	"rem":         {"remainder_cpu", "remainder_cuda"},
	"fmod":        {"fmod_cpu", "fmod_cuda"},
	"maximum":     {"maximum_cpu", "max_elementwise_cuda"},
	"minimum":     {"minimum_cpu", "minimum_cuda"},
	"pow":         {"pow", "pow_cuda"},
	"square":      {"pow", "pow_cuda"}, // square is pow(x, 2)
	"lt":          {"lt_cpu", "compare_cuda"},
	"le":          {"le_cpu", "compare_cuda"},
	"gt":          {"gt_cpu", "compare_cuda"},
	"ge":          {"ge_cpu", "compare_cuda"},
	"bitwise_and": {"", "bitwise_and_cuda"},
	"bitwise_or":  {"", "bitwise_or_cuda"},
	"bitwise_xor": {"", "bitwise_xor_cuda"},
	"bitwise_not": {"bitwise_not_cpu", "bitwise_not_cuda"},
	"neg":         {"neg_cpu", "neg_cuda"},
	"abs":         {"abs_cpu", "abs_cuda"},
	"sign":        {"sign_cpu", "sign_cuda"},
	"argmax":      {"argmax_cpu", "argmax_cuda"},
	"argmin":      {"argmin_cpu", "argmin_cuda"},
	// max and min depend on whether a dim is given: see torchReduceKernel.
}

// torchBoolKernels names the kernels that have no bool instantiation.
var torchBoolKernels = map[string][2]string{
	"trunc":     {"trunc_vml_cpu", "trunc_cuda"},
	"floor":     {"floor_vml_cpu", "floor_cuda"},
	"ceil":      {"ceil_vml_cpu", "ceil_cuda"},
	"round":     {"round_vml_cpu", "round_cuda"},
	"abs":       {"abs_cpu", ""}, // ATen cpu abs dispatches no Bool; cuda/AbsKernel.cu does
	"trunc_div": {"div_trunc_cpu", "div_trunc_cuda"},
	"pow":       {"pow", "pow_cuda"},
}

// torchFloatKernels names the bitwise kernels, which have no float instantiation.
var torchFloatKernels = map[string][2]string{
	"bitwise_and": {"bitwise_and_cpu", "bitwise_and_cuda"},
	"bitwise_or":  {"bitwise_or_cpu", "bitwise_or_cuda"},
	"bitwise_xor": {"bitwise_xor_cpu", "bitwise_xor_cuda"},
	"bitwise_not": {"bitwise_not_cpu", "bitwise_not_cuda"},
}

func isBarebonesUnsigned(d tensor.DType) bool {
	return d == tensor.U16 || d == tensor.U32 || d == tensor.U64
}

// torchMissingKernel returns the name of the kernel that rejects (op, d) on
// the profile's device, or "" when a kernel exists. MPS is taken to follow
// CUDA's table (no oracle run; the seeds show the same gaps for u32 add/sub).
func (p *Profile) torchMissingKernel(op string, d tensor.DType) string {
	dev := 0
	if p.Device != CPU {
		dev = 1
	}
	var table map[string][2]string
	switch {
	case isBarebonesUnsigned(d):
		table = torchUnsignedKernels
	case d == tensor.Bool:
		table = torchBoolKernels
	case d.IsFloat() || d.IsComplex():
		table = torchFloatKernels
	default:
		return ""
	}
	return table[op][dev]
}

// torchReduceKernel returns the kernel that rejects a max/min reduction of a
// barebones unsigned dtype, which differs with and without a dim.
func (p *Profile) torchReduceKernel(op string, d tensor.DType, hasDim bool) string {
	if !isBarebonesUnsigned(d) || (op != "max" && op != "min") {
		return p.torchMissingKernel(op, d)
	}
	name := op + "_all"
	if hasDim {
		name = op + "_values"
		if p.Device == CPU {
			return name + "_cpu"
		}
	}
	if p.Device != CPU {
		name += "_cuda"
	}
	return name
}

// torchNoKernelError is the outcome of a missing kernel.
func (e *evaluation) torchNoKernelError(kernel string, d tensor.DType) tensor.Outcome {
	return e.fail(torchNoKernel, tensor.UnsupportedDType, "NotImplementedError: %q not implemented for '%s'", kernel, torchName(d))
}
