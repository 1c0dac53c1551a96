package model

import "github.com/tfuzz/tfuzz/tensor"

// Shifts (shift_left, shift_right) in PyTorch, NumPy and JAX. They are binary
// ops of the catalog: promotion, scalars and broadcasting are the binary
// family's (pybinary.go); what is theirs is the dtypes they have kernels
// for and what a count that is negative or at least the bit width gives.

var (
	torchShiftRange = newRule("pytorch.shift.out-of-range",
		"a << b and a >> b (CPU and CUDA): a count that is negative (read as signed) or at least the bit width gives 0 for <<, and for >> the sign fill (a >> (width - 1): -1 or 0) for signed types, 0 for u8; in range, << shifts the unsigned bits and wraps, >> is arithmetic for signed types",
		"pytorch 00954a44 aten/src/ATen/native/cpu/BinaryOpsKernel.cpp lshift_kernel (max_shift = width; b < 0 || b >= max_shift -> 0) and rshift_kernel (max_shift = width - is_signed; -> a >> max_shift); pytorch 6e1ba79b aten/src/ATen/native/cuda/BinaryShiftOpsKernels.cu:14-39 (the same checks)")
	torchMPSShift = newOpenRule("pytorch.mps.shift-out-of-range",
		"on MPS the shift is a Metal shader's << / >>, for which the Metal Shading Language leaves a count that is negative or at least the bit width undefined: such elements are unspecified; in range as on CPU",
		"Metal Shading Language Specification §6.3 (shift operators, as C++: undefined for counts >= the width or negative); no MPS run")
	numpyShiftRange = newRule("numpy.shift.out-of-range",
		"np.left_shift / np.right_shift compare the count as size_t: a negative count or one of at least the bit width gives 0 for <<, and for >> -1 for a negative signed a, else 0; bool operands use the int8 loop; floats have no loop (TypeError)",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/npymath/npy_math_internal.h.src:685-708 (npy_lshift, npy_rshift), numpy/_core/src/umath/loops_autovec.dispatch.c.src:76-80, numpy/_core/code_generators/generate_umath.py:761-776 (TD(ints))")
	jaxShiftRange = newRule("jax.shift.out-of-range",
		"jnp.left_shift is lax.shift_left, jnp.right_shift lax.shift_right_arithmetic for signed and shift_right_logical for unsigned types, after promote_args_numeric (bool becomes i32); XLA reads the count as unsigned: at least the bit width (a negative count included) gives 0, or the sign fill for the arithmetic shift",
		"jax jax-v0.11.0 jax/_src/numpy/ufuncs.py:1427 (left_shift), :2301-2304 (right_shift); XLA operation semantics (ShiftLeft, ShiftRightArithmetic, ShiftRightLogical: counts >= the bit width saturate); xla/service/elemental_ir_emitter.cc EmitIntegerBinaryOp (kShiftLeft: select on the saturated count)")
)

func init() {
	// PyTorch dispatches the shifts with AT_DISPATCH_INTEGRAL_TYPES: u8, i8,
	// i16, i32, i64 only (pytorch.coverage.no-kernel).
	torchUnsignedKernels["shift_left"] = [2]string{"lshift_cpu", "lshift_cuda"}
	torchUnsignedKernels["shift_right"] = [2]string{"rshift_cpu", "rshift_cuda"}
	torchBoolKernels["shift_left"] = [2]string{"lshift_cpu", "lshift_cuda"}
	torchBoolKernels["shift_right"] = [2]string{"rshift_cpu", "rshift_cuda"}
	torchFloatKernels["shift_left"] = [2]string{"lshift_cpu", "lshift_cuda"}
	torchFloatKernels["shift_right"] = [2]string{"rshift_cpu", "rshift_cuda"}
}

func isShift(op string) bool { return op == "shift_left" || op == "shift_right" }

// shiftElem stores x op y of the integer compute dtype into out[i]. A count
// is out of range when it is negative as a signed number or at least the
// width as an unsigned one; every framework but MPS fixes what that gives.
func (b *pyBin) shiftElem(out *tensor.Tensor, i int, x *tensor.Tensor, xi int, y *tensor.Tensor, yi int) {
	d := b.compute
	w := uint64(d.Bits())
	count := y.Uint(yi) & bitMask(d)
	outside := count >= w // a negative count is a huge unsigned one
	switch b.e.p.Framework {
	case PyTorch:
		if b.e.p.Device == MPS && outside {
			b.e.use(torchMPSShift)
			out.SetUnspecified(i)
			return
		}
		b.e.use(torchShiftRange)
	case NumPy:
		b.e.use(numpyShiftRange)
	default:
		b.e.use(jaxShiftRange)
	}
	a := x.Int(xi)
	switch {
	case b.op == "shift_left" && outside:
		out.SetInt(i, 0)
	case b.op == "shift_left":
		out.SetUint(i, uint64(a)<<count)
	case outside && d.IsSigned() && a < 0:
		out.SetInt(i, -1)
	case outside:
		out.SetInt(i, 0)
	case d.IsSigned():
		out.SetInt(i, a>>count)
	default:
		out.SetUint(i, (x.Uint(xi)&bitMask(d))>>count)
	}
}

// bitMask is the mask of d's bits.
func bitMask(d tensor.DType) uint64 {
	if d.Bits() >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(d.Bits()) - 1
}
