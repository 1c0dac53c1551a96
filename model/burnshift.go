package model

import "github.com/tfuzz/tfuzz/tensor"

var (
	burnFlexShift = newRule("burn.flex.shift-wrapping",
		"bitwise_left_shift / bitwise_right_shift exist for Int tensors only; Flex computes them in i64 as a.wrapping_shl(b as u32) / a.wrapping_shr(b as u32), which take the count modulo 64, and casts back with `as` (a count of 32 on I32 gives 0 for << of a small value; 64 shifts by 0); >> is arithmetic on signed types",
		"burn 2c06be35 crates/burn-flex/src/ops/int.rs:656-671 (bitwise_left_shift, _scalar, bitwise_right_shift, _scalar); source-facts extra 12 (shifts use wrapping_shl/shr); Rust core i64::wrapping_shl (the count masked to the type's width)")
	burnNdarrayShift = newOpenRule("burn.ndarray.shift",
		"ndarray computes a.elem::<i64>() << b.elem::<u32>() (and >>) in i64: a count of 64 or more overflows a Rust shift (a panic in a debug build, masked in release; the build is not fixed), a negative count fails the u32 conversion: those elements are left unspecified",
		"burn 2c06be35 crates/burn-ndarray/src/ops/int_tensor.rs:509-536")
)

// burnShift is x << y or x >> y of two Int tensors of equal shape and dtype.
func (e *evaluation) burnShift(op string, x, y *tensor.Tensor) tensor.Outcome {
	out := tensor.New(x.DType, x.Shape...)
	for i := 0; i < x.Len(); i++ {
		a, n := x.Int(i), y.Int(i)
		if x.DType.IsUnsigned() {
			a = int64(x.Uint(i) & bitMask(x.DType))
		}
		if !e.burnFlex() {
			e.use(burnNdarrayShift)
			if n < 0 || n >= 64 {
				if n < 0 {
					return e.burnUnspecified("a negative shift count on ndarray (u32 conversion of %d)", n)
				}
				out.SetUnspecified(i)
				continue
			}
		} else {
			e.use(burnFlexShift)
		}
		c := uint64(uint32(n)) & 63
		if op == "shift_left" {
			out.SetInt(i, int64(uint64(a)<<c))
		} else {
			out.SetInt(i, a>>c)
		}
	}
	return tensor.ValueOutcome(out)
}

// evalBurnNew answers the ops and attrs added 2026-12 that the model does
// not state for burn yet (broadcasting binaries are burn's ordinary ones;
// where is mask_where, clamp is clamp/clamp_min/clamp_max, full is
// Tensor::full); ok is false for the others.
func evalBurnNew(e *evaluation) (tensor.Outcome, bool) {
	switch class := e.op().Class; class {
	case tensor.ClassBroadcast, tensor.ClassWhere, tensor.ClassClamp, tensor.ClassFull:
		return e.burnUnspecified("%s", e.c.Op), true
	case tensor.ClassFromLiteral, tensor.ClassArange, tensor.ClassReduce, tensor.ClassCumsum:
		if e.c.Attrs.DType.Valid() || class == tensor.ClassCumsum && e.c.Attrs.Dim == nil {
			return e.burnUnspecified("%s with a dtype argument or without a dim", e.c.Op), true
		}
	}
	return tensor.Outcome{}, false
}
