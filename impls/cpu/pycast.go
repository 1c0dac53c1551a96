package cpu

import "github.com/tfuzz/tfuzz/tensor"

// The cast op of PyTorch, NumPy and JAX: a.to(dtype), a.astype(dtype).

func init() {
	attach(pythonProfiles(), tensor.ClassCast, &family{supports: pyCastSupports, eval: pyCastEval})
}

func pyCastSupports(p *profile, c *tensor.Case) bool {
	t := c.Args[0].Tensor
	return !t.DType.IsComplex() && !c.Attrs.To.IsComplex()
}

// castKind is which kernel a cast runs.
type castKind uint8

const (
	castConvert castKind = iota // Go's exact conversion (kConvert)
	castBool                    // x != 0
	castF2I                     // float -> integer by a policy
	castF64F16                  // f64 -> f16 in one rounding
)

// castPlan is a cast decided from dtypes: the kernel and, for x86 u32, the
// element count from which the scalar tail starts.
type castPlan struct {
	kind castKind
	pol  f2iPolicy
	tail int // x86 f2iX86Split32: first element converted by scalar code
}

func pyCastEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	if c.Attrs.Mode == "convert" {
		// policy cast.python.no-checked-convert
		return tensor.UnsupportedOutcome("%s has no checked convert (mode=convert)", fwName(p.fw))
	}
	src := pyInput(p, c.Args[0].Tensor)
	to := c.Attrs.To
	if p.fw == fwJAX && !p.x64 {
		to = narrow32(to) // policy jax.x32.cast-target-narrowed
	}
	plan := planCast(p, src.DType, to, src.Len())
	return tensor.ValueOutcome(runCast(e, src, to, plan))
}

// planCast picks the conversion of one element of dtype from to dtype to.
func planCast(p *profile, from, to tensor.DType, n int) castPlan {
	switch {
	case to == tensor.Bool:
		return castPlan{kind: castBool}
	case !from.IsFloat() || to.IsFloat() && (from != tensor.F64 || to != tensor.F16):
		// int/bool -> anything, float -> float: Go's conversion into the
		// compute representation; f16/bf16 results round when encoded, so
		// f64 -> bf16 and int -> f16/bf16 go through f32 (policies
		// pytorch.cast.half-via-f32, numpy.cast.bf16-via-f32)
		return castPlan{kind: castConvert}
	case to.IsFloat(): // f64 -> f16
		if p.fw == fwPyTorch {
			return castPlan{kind: castConvert} // through f32: a double rounding
		}
		// policy numpy.cast.f64-to-f16-single; JAX's path is unpinned
		// (jax.cast.half-path-unpinned): one rounding is one of its values
		return castPlan{kind: castF64F16}
	}
	return castPlan{kind: castF2I, pol: f2iFor(p, from, to), tail: u32Tail(p, from, n)}
}

// f2iFor returns how the profile converts a float of dtype from to the
// integer dtype to.
func f2iFor(p *profile, from, to tensor.DType) f2iPolicy {
	if p.fw == fwJAX {
		return f2iSatDst // policy jax.cast.f2i-saturate-nan0
	}
	if p.arch == archArm64 { // policy cast.f2i.arm64.fcvtz-saturate
		switch {
		case p.fw == fwPyTorch && to == tensor.U8:
			return f2iArmSat64Low // policy pytorch.cast.f2i-u8-via-i64
		case to.Bits() == 64:
			return f2iArmSat64
		case to == tensor.U32:
			return f2iArmSat32u
		}
		return f2iArmSat32s
	}
	switch {
	case to == tensor.I64 || p.fw == fwPyTorch && to == tensor.U8:
		return f2iX86Cvtt64 // policy cast.f2i.x86.cvtt64, pytorch.cast.f2i-u8-via-i64
	case to == tensor.U64:
		return f2iX86Split64
	case to == tensor.U32 && from == tensor.F16:
		return f2iX86Low32of64 // f16 loops are never vectorized
	case to == tensor.U32:
		return f2iX86Split32
	}
	return f2iX86Low32 // policy cast.f2i.x86.cvtt32-lowbits
}

// u32Tail returns where the scalar tail of gcc's vectorized float -> u32
// loop starts: the last n mod 4 elements (f32, f64 sources) or n mod 8
// (bf16, converted through f32). (policy cast.f2i.x86.u32-tail-unspecified
// leaves tail elements unspecified where the two sequences differ; the
// engine computes the scalar sequence's value there.)
func u32Tail(p *profile, from tensor.DType, n int) int {
	switch from {
	case tensor.F32, tensor.F64:
		return n - n%4
	case tensor.BF16:
		return n - n%8
	}
	return n
}

// runCast converts t (decoded as its own dtype) to dtype to by plan.
func runCast(e *Engine, t *tensor.Tensor, to tensor.DType, plan castPlan) *tensor.Tensor {
	switch kindOf(t.DType) {
	case kU8:
		return castFrom[uint8](e, t, to, plan)
	case kI8:
		return castFrom[int8](e, t, to, plan)
	case kU16:
		return castFrom[uint16](e, t, to, plan)
	case kI16:
		return castFrom[int16](e, t, to, plan)
	case kU32:
		return castFrom[uint32](e, t, to, plan)
	case kI32:
		return castFrom[int32](e, t, to, plan)
	case kU64:
		return castFrom[uint64](e, t, to, plan)
	case kI64:
		return castFrom[int64](e, t, to, plan)
	case kF32:
		return castFrom[float32](e, t, to, plan)
	}
	return castFrom[float64](e, t, to, plan)
}

func castFrom[S number](e *Engine, t *tensor.Tensor, to tensor.DType, plan castPlan) *tensor.Tensor {
	src := loadInput[S](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	switch kindOf(to) {
	case kU8:
		return castTo[S, uint8](e, &l, src, t.Shape, to, plan)
	case kI8:
		return castTo[S, int8](e, &l, src, t.Shape, to, plan)
	case kU16:
		return castTo[S, uint16](e, &l, src, t.Shape, to, plan)
	case kI16:
		return castTo[S, int16](e, &l, src, t.Shape, to, plan)
	case kU32:
		return castTo[S, uint32](e, &l, src, t.Shape, to, plan)
	case kI32:
		return castTo[S, int32](e, &l, src, t.Shape, to, plan)
	case kU64:
		return castTo[S, uint64](e, &l, src, t.Shape, to, plan)
	case kI64:
		return castTo[S, int64](e, &l, src, t.Shape, to, plan)
	case kF32:
		return castTo[S, float32](e, &l, src, t.Shape, to, plan)
	}
	return castTo[S, float64](e, &l, src, t.Shape, to, plan)
}

func castTo[S, D number](e *Engine, l *layout, src []S, shape []int, to tensor.DType, plan castPlan) *tensor.Tensor {
	dst := make([]D, l.n)
	var k unaryKernel[S, D]
	switch plan.kind {
	case castBool:
		k = any(unaryKernel[S, uint8](kToBool[S])).(unaryKernel[S, D])
	case castF64F16:
		k = any(unaryKernel[float64, float32](kF64ToF16)).(unaryKernel[S, D])
	case castF2I:
		k = kCastF2I[S, D](plan.pol)
	default:
		k = kConvert[S, D]
		if zooBuild && zoo("u8-cast-saturate") && to == tensor.U8 {
			k = func(dst []D, a []S) fault { // zoo: clamps instead of wrapping
				for i := range dst {
					dst[i] = D(min(max(float64(a[i]), 0), 255))
				}
				return 0
			}
		}
	}
	runUnary(e, l, dst, src, k)
	if plan.kind == castF2I && plan.pol == f2iX86Split32 && plan.tail < l.n {
		// the scalar tail of the vectorized loop (policy cast.f2i.x86.u32-scalar-low32)
		unaryRange(l, dst, src, kCastF2I[S, D](f2iX86Low32of64), plan.tail, l.n)
	}
	return encode(e, dst, to, shape)
}
