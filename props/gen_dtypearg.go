package props

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The dtype argument of sum, prod, mean and cumsum (a.sum(dtype=D)), drawn
// in a quarter of their cases outside the Rust frameworks (which have no
// such argument). Half the draws cross kinds, where the frameworks differ
// most: an integer or bool input reduced in a float dtype, a float input in
// an integer or bool one; the rest take any dtype the profile casts the
// input to (f16/bf16 accumulation, 64-bit dtypes under JAX x32 included).

// takesDTypeArg reports the ops with a dtype argument.
func takesDTypeArg(op string) bool {
	return op == "sum" || op == "prod" || op == "mean" || op == "cumsum"
}

// dtypeArgTargets are the dtypes a dtype argument is drawn from when the
// draw is not aimed at a profile.
var dtypeArgTargets = []tensor.DType{
	tensor.Bool, tensor.U8, tensor.I8, tensor.I16, tensor.U16, tensor.I32, tensor.U32,
	tensor.I64, tensor.U64, tensor.F16, tensor.BF16, tensor.F32, tensor.F64,
}

// reduceDType draws the dtype argument of a reduction of dt.
func (s *scope) reduceDType(d *draw, dt tensor.DType) tensor.DType {
	targets := dtypeArgTargets
	if s.sup != nil && len(s.sup.casts[dt]) > 0 {
		targets = s.sup.casts[dt]
	}
	var real, cross []tensor.DType
	for _, t := range targets {
		if t.IsComplex() {
			continue
		}
		real = append(real, t)
		if t.IsFloat() != dt.IsFloat() {
			cross = append(cross, t)
		}
	}
	switch {
	case len(real) == 0:
		return dt
	case len(cross) > 0 && d.coin():
		return pick(d, cross)
	}
	return pick(d, real)
}

// literalDTypeArg draws the dtype argument of from_literal (torch.tensor(lit,
// dtype=D)), in a quarter of its Python cases. Half the draws cross kinds,
// where the frameworks' per-element conversions differ: a literal with
// floats into an integer or bool dtype (truncation, NaN and range checks),
// one of ints and bools into a narrow or unsigned integer dtype (out-of-range
// ints: PyTorch's unsigned wrap of negatives, NumPy 2's OverflowError) or
// f16/bf16 (one rounding or two); the rest take any dtype, complex ones and
// 64-bit ones under JAX x32 included.
func literalDTypeArg(d *draw, lit string) tensor.DType {
	if !d.coin() {
		return pick(d, creationDTypeTargets)
	}
	if strings.Contains(lit, ".") || strings.Contains(lit, "inf") || strings.Contains(lit, "nan") {
		return pick(d, []tensor.DType{tensor.Bool, tensor.U8, tensor.I8, tensor.I16, tensor.I32, tensor.U32, tensor.I64, tensor.U64})
	}
	return pick(d, []tensor.DType{tensor.U8, tensor.I8, tensor.U16, tensor.F16, tensor.BF16, tensor.Bool})
}

// arangeDTypeArg draws the dtype argument of arange (torch.arange(start,
// end, dtype=D)), in a quarter of its Python cases. Half the draws are the
// narrow dtypes where the frameworks part: u8/i8/i16 (PyTorch's wrap,
// NumPy 2's OverflowError at start or start + 1, JAX's iota past the range)
// and f16/bf16 (rounding past 2^11 and 2^8); the rest any dtype, complex
// ones included (u16/u32/u64, bool and complex lack a PyTorch kernel, bool
// has no NumPy fill past two elements and no JAX iota, 64-bit ones are
// truncated under JAX x32).
func arangeDTypeArg(d *draw) tensor.DType {
	if d.coin() {
		return pick(d, []tensor.DType{tensor.U8, tensor.I8, tensor.I16, tensor.F16, tensor.BF16})
	}
	return pick(d, creationDTypeTargets)
}

// creationDTypeTargets are the dtype arguments arange and from_literal draw
// beyond their special ones: every dtype, complex ones included.
var creationDTypeTargets = append(append([]tensor.DType{}, dtypeArgTargets...), tensor.C64, tensor.C128)

// arangeEdgeFloatBounds draws float bounds around an edge of dt: a start a
// half below the edge (an integer dtype truncates it, NumPy's next = start
// + 1 then crosses the edge), a start in (-1, 0) (truncated, it and its
// next are both 0: NumPy steps by 0), or for a float dtype a fractional
// start past the last exact integer or past the dtype's largest value (an
// f16 start of 70000.5 is inf).
func arangeEdgeFloatBounds(d *draw, dt tensor.DType) (start, end string) {
	if d.oneIn(4) {
		return pick(d, []string{"-0.5", "-0.25", "-0.75"}), pick(d, []string{"2", "3.0", "4.5"})
	}
	edge, _ := new(big.Int).SetString(pick(d, arangeEdgeValues(dt)), 10)
	from := new(big.Int).Sub(edge, big.NewInt(int64(d.between(1, 3))))
	to := new(big.Int).Add(edge, big.NewInt(int64(d.between(1, 4))))
	return from.String() + ".5", to.String() + pick(d, []string{"", ".0", ".5"})
}

// arangeEdgeValues are the integers an edge float range of dt crosses.
func arangeEdgeValues(dt tensor.DType) []string {
	switch {
	case dt == tensor.F16:
		return []string{"2048", "65504", "70000"}
	case dt == tensor.BF16:
		return []string{"256", "16777216"}
	case dt == tensor.F32 || dt == tensor.C64:
		return []string{"16777216", "8388608"}
	case dt == tensor.F64 || dt == tensor.C128:
		return []string{"4503599627370496", "9007199254740992"}
	case dt.IsSigned():
		return []string{strconv.FormatInt(dt.MaxInt(), 10), strconv.FormatInt(dt.MinInt()+2, 10)}
	case dt.IsUnsigned():
		return []string{strconv.FormatUint(dt.MaxUint(), 10), "1"}
	}
	return []string{"1", "2"}
}

// arangeEdgeBounds draws integer bounds around an edge of dt: a range
// crossing its maximum (wrap or overflow), one from just below its minimum,
// or, for a float dtype, one crossing the last integer every smaller one is
// exact below (2^11 for f16, 2^8 for bf16, 2^24 for f32). Other dtypes
// (bool, f64) get a range through 0.
func arangeEdgeBounds(d *draw, dt tensor.DType) (start, end string) {
	var edge *big.Int
	switch {
	case dt == tensor.F16:
		edge = big.NewInt(1 << 11)
	case dt == tensor.BF16:
		edge = big.NewInt(1 << 8)
	case dt == tensor.F32:
		edge = big.NewInt(1 << 24)
	case dt.IsSigned() && d.coin():
		edge = big.NewInt(dt.MinInt())
	case dt.IsSigned():
		edge = big.NewInt(dt.MaxInt())
	case dt.IsUnsigned():
		edge = new(big.Int).SetUint64(dt.MaxUint())
	default:
		edge = big.NewInt(0)
	}
	if d.oneIn(4) {
		edge.Neg(edge)
	}
	from := new(big.Int).Sub(edge, big.NewInt(int64(d.between(0, 4))))
	to := new(big.Int).Add(edge, big.NewInt(int64(d.between(1, 6))))
	return from.String(), to.String()
}
