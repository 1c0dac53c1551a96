package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// torch.arange(start, end, dtype=D) on the CPU (policy
// pytorch.arange.dtype): the bounds in the accumulate type (int64 for an
// integer D, double for f32/f64, float for f16/bf16), its checks, the
// size, then start + idx in that type.

// torchAcc is the accumulate type of an arange: 'i' int64, 'd' double, 'f'
// float.
func torchAcc(d tensor.DType) byte {
	switch d {
	case tensor.F32, tensor.F64:
		return 'd'
	case tensor.F16, tensor.BF16:
		return 'f'
	}
	return 'i'
}

// torchAccBound is Scalar::to<acc>() of b, held as an int64 (acc 'i') or
// a float64 (a float accumulator's value is a float32); ok is false where
// PyTorch's releases convert the bound differently (the engine declines).
func torchAccBound(b arangeBound, acc byte) (n int64, x float64, ok bool) {
	switch {
	case acc == 'i' && !b.isFloat: // an int64 Scalar (a uint64 one is refused by the caller)
		return b.i.Int64(), 0, true
	case acc == 'i':
		if !(b.f >= -0x1p63 && b.f < 0x1p63) { // NaN fails too
			return 0, 0, false
		}
		return int64(b.f), 0, true // Go truncates toward zero, as the C++ cast does
	case acc == 'd':
		return 0, b.f, true
	case !b.isFloat && b.i.IsInt64():
		return 0, float64(float32(b.i.Int64())), true // one rounding from int64
	case !b.isFloat:
		return 0, float64(float32(b.i.Uint64())), true // a uint64 Scalar: one rounding
	case math.Abs(b.f) > math.MaxFloat32 && !math.IsInf(b.f, 0):
		return 0, 0, false
	}
	return 0, float64(float32(b.f)), true
}

// torchHasArangeKernel reports the dtypes of AT_DISPATCH_ALL_TYPES_AND2(kHalf,
// kBFloat16).
func torchHasArangeKernel(d tensor.DType) bool {
	switch d {
	case tensor.U8, tensor.I8, tensor.I16, tensor.I32, tensor.I64, tensor.F16, tensor.BF16, tensor.F32, tensor.F64:
		return true
	}
	return false
}

// torchArangeRun is arange_out up to the allocation.
func torchArangeRun(p *profile, ta typedArange) arangeRun {
	stop := func(class tensor.ErrorClass, format string, args ...any) arangeRun {
		return arangeRun{res: outcomeOf(tensor.ErrorOutcome(class, format, args...))}
	}
	unsigned, bad := torchScalarsOf(ta.lo, ta.hi)
	if bad != nil {
		return arangeRun{res: bad}
	}
	if !torchHasArangeKernel(ta.d) {
		return stop(tensor.UnsupportedDType, "NotImplementedError: %q not implemented for '%s'", "arange_cpu", torchName(ta.d))
	}
	acc := torchAcc(ta.d)
	n0, x0, ok0 := torchAccBound(ta.lo, acc)
	n1, x1, ok1 := torchAccBound(ta.hi, acc)
	switch {
	case !ok0 || !ok1:
		return arangeRun{declined: true}
	case unsigned && acc == 'i': // Scalar::to<int64_t>() of a uint64 Scalar
		return arangeRun{res: int64Refusal()}
	}
	finite := func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
	if acc != 'i' && !(finite(x0) && finite(x1)) {
		return stop(tensor.Other, "RuntimeError: unsupported range: %g -> %g", x0, x1)
	}
	backInAcc := x1 < x0
	if acc == 'i' {
		backInAcc = n1 < n0
	}
	backInDouble := ta.hi.f < ta.lo.f
	long := ta.d == tensor.I64
	count := math.Ceil(ta.hi.f - ta.lo.f)
	if backInAcc {
		if backInDouble || long {
			return stop(tensor.Other, "RuntimeError: upper bound and larger bound inconsistent with step sign")
		}
		return arangeRun{declined: true} // a later release checks in double: no error there
	}
	if backInDouble {
		if long || count > -1 {
			return arangeRun{declined: true} // this release: a value; a later one: an error
		}
		return stop(tensor.Other, "RuntimeError: invalid size, possible overflow?")
	}
	if long {
		span := n1 - n0
		if span < 0 || span > tensor.MaxElements { // span < 0: int64 overflow, far past the limit
			return arangeRun{declined: true}
		}
		return arangeRun{n: int(span)}
	}
	if count > 0x1p63 {
		return stop(tensor.Other, "RuntimeError: invalid size, possible overflow?")
	}
	if count > tensor.MaxElements {
		return arangeRun{declined: true}
	}
	return arangeRun{n: int(count)}
}

// torchArangeFill writes start + idx: wrapped for an integer D (the int64
// accumulator's overflow is "?"); for a float D element 0 is D(start + 0)
// and a later one is known only while every start + j is exactly a value
// of D (the vector path adds to a base rounded to D).
func torchArangeFill(ta typedArange, out *tensor.Tensor) {
	acc := torchAcc(ta.d)
	base, xbase, _ := torchAccBound(ta.lo, acc)
	if acc == 'i' {
		mask := wordMask(ta.d)
		for k := range out.Data {
			v := base + int64(k)
			if v < base {
				out.SetUnspecified(k)
				continue
			}
			out.Data[k] = uint64(v) & mask
		}
		return
	}
	known := true
	for k := range out.Data {
		s, exact := exactSumIn(xbase, k, ta.d)
		known = known && exact
		switch {
		case k == 0:
			out.Data[0] = floatWord(xbase+0, ta.d) // -0 + 0 is +0
		case known:
			out.Data[k] = floatWord(s, ta.d)
		default:
			out.SetUnspecified(k)
		}
	}
}
