package cpu

import "github.com/tfuzz/tfuzz/tensor"

// PyTorch CPU kernel coverage: which (op, dispatch dtype) pairs have no
// kernel (policy pytorch.coverage.no-kernel). The dispatch dtype is the
// promoted computation dtype of a binary op and the input dtype of a unary
// op; the error names it.

// barebonesUnsigned reports whether d is one of PyTorch's u16/u32/u64, which
// have few kernels.
func barebonesUnsigned(d tensor.DType) bool {
	return d == tensor.U16 || d == tensor.U32 || d == tensor.U64
}

// torchMissingKernel returns the CPU kernel that rejects (op, d), or "".
func torchMissingKernel(op opID, d tensor.DType) string {
	switch {
	case barebonesUnsigned(d):
		switch op {
		case opAdd, opSub:
			return "add_stub"
		case opFloorDiv:
			return "div_floor_cpu"
		case opTruncDiv:
			return "div_trunc_cpu"
		case opRem:
			return "remainder_cpu"
		case opFmod:
			return "fmod_cpu"
		case opMaximum:
			return "maximum_cpu"
		case opMinimum:
			return "minimum_cpu"
		case opPow, opSquare:
			return "pow"
		case opLt:
			return "lt_cpu"
		case opLe:
			return "le_cpu"
		case opGt:
			return "gt_cpu"
		case opGe:
			return "ge_cpu"
		case opBitNot:
			return "bitwise_not_cpu"
		case opNeg:
			return "neg_cpu"
		case opAbs:
			return "abs_cpu"
		case opSign:
			return "sign_cpu"
		case opShl:
			return "lshift_cpu"
		case opShr:
			return "rshift_cpu"
		}
	case d == tensor.Bool:
		switch op {
		case opTrunc:
			return "trunc_vml_cpu"
		case opFloor:
			return "floor_vml_cpu"
		case opCeil:
			return "ceil_vml_cpu"
		case opRound:
			return "round_vml_cpu"
		case opAbs:
			return "abs_cpu"
		case opTruncDiv:
			return "div_trunc_cpu"
		case opPow:
			return "pow"
		case opShl:
			return "lshift_cpu"
		case opShr:
			return "rshift_cpu"
		}
	case d.IsFloat() || d.IsComplex():
		switch op {
		case opBitAnd:
			return "bitwise_and_cpu"
		case opBitOr:
			return "bitwise_or_cpu"
		case opBitXor:
			return "bitwise_xor_cpu"
		case opBitNot:
			return "bitwise_not_cpu"
		case opShl:
			return "lshift_cpu"
		case opShr:
			return "rshift_cpu"
		}
	}
	return ""
}

// torchUnaryKernelMissing is torchMissingKernel for unary ops: exp and sqrt
// of integers run the float kernel (the input is converted first), and
// square of bool is pow(x, 2) in int64.
func torchUnaryKernelMissing(op opID, d tensor.DType) string {
	if (op == opExp || op == opSqrt) && !d.IsFloat() || op == opSquare && d == tensor.Bool {
		return ""
	}
	return torchMissingKernel(op, d)
}

// torchNoKernel is the outcome of a missing kernel.
func torchNoKernel(kernel string, d tensor.DType) tensor.Outcome {
	return tensor.ErrorOutcome(tensor.UnsupportedDType, "NotImplementedError: %q not implemented for '%s'", kernel, torchName(d))
}
