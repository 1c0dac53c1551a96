package model

import (
	"fmt"
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// Semantics the three Rust frameworks (candle, burn, tenferro) share because
// they are Rust: integer arithmetic with overflow checks in debug builds,
// `as` conversions, and the names of dtypes in their messages. Each
// framework's file decides when these apply; the rules here say what they
// compute.

var (
	rustOverflow = newRule("rust.int.overflow-debug-panics",
		"Rust integer + - * (and unary -, abs) panic in a debug build (\"attempt to add with overflow\"; Cargo's dev profile turns overflow checks on for dependencies too) and wrap in two's complement in a release build",
		"seed 000 §溢出：debug 下 panic，release 下回绕 (u8 200+100, u32 3-5, i64 MAX+1); seed 004 §搬到 burn 的现象 (cumsum); source-facts #1")
	rustDivPanic = newRule("rust.int.div-panics",
		"Rust integer / and % panic on a zero divisor (\"attempt to divide by zero\", \"attempt to calculate the remainder with a divisor of zero\") and on MIN / -1, MIN % -1 (\"attempt to divide with overflow\") in debug AND release builds: the check is part of the language, not of overflow checking",
		"seed 000 §除以 0 和 MIN / -1 (candle CPU panics in debug and release); source-facts #1 (correction)")
	rustAsF2I = newRule("rust.as.float-to-int",
		"Rust `as` from float to integer truncates toward zero and saturates at the integer's range; NaN gives 0 (defined by the language)",
		"seed 003 §to_dtype：浮点转整数是饱和的 (-1.7 -> -1, 300 -> u8 255, inf -> u32 4294967295, NaN -> 0); source-facts #3, #8")
	rustAsI2I = newRule("rust.as.int-to-int",
		"Rust `as` between integer types keeps the low bits (two's complement): i64 -1 -> u32 4294967295, 16777217 -> u8 1",
		"seed 003 §to_dtype：浮点转整数是饱和的 (i64 -> u32, i64 -> u8 rows); source-facts #8")
	rustAsI2F = newRule("rust.as.int-to-float",
		"Rust `as` from integer to f32/f64 rounds to nearest, ties to even (16777217 -> f32 16777216); f16/bf16 values built from an integer go through f32 first (`from_f32(v as f32)`), a double rounding",
		"seed 003 §to_dtype (i64 16777217 -> F32 16777216); source-facts #8 (int -> F16/BF16 through f32)")
	rustAsF2F = newRule("rust.as.float-to-float",
		"float -> float in Rust (`as`, half's from_f32) rounds once to nearest, ties to even, overflowing to ±inf (f32 70000 -> f16 inf, -> bf16 70144); widening is exact",
		"seed 003 §半精度舍入两边逐位相同 (20018 values bit-identical to PyTorch); seed 001 §astype (f64 1e300 -> f32 inf)")
	rustLiteralTyping = newRule("rust.literal.typing",
		"a Rust literal's type is fixed at compile time: an unsuffixed float literal is f64, an unsuffixed integer literal i32, a suffix (1f32, 1_i64) fixes the type of the whole array; integer and float literals cannot share an array (E0308), a literal outside its type's range does not compile (overflowing_literals), nor does a negative unsigned literal",
		"seed 003 §字面量决定 dtype (&[1.0, 2.0] F64, &[1, 2] I32, &[1f32, 2.0] F32); seed 001 §默认 dtype (vec![1, 2] I32, vec![1_i64, 2] I64); Rust reference (literal expressions)")
)

// rustName is the Debug name of a dtype in the Rust frameworks' messages
// (candle's and burn's DType enums: "F32", "U8", "BF16").
func rustName(d tensor.DType) string {
	switch d {
	case tensor.C64:
		return "C32" // tenferro's names: C32/C64 are complex of f32/f64
	case tensor.C128:
		return "C64"
	}
	name := d.String()
	if d == tensor.Bool {
		return "Bool"
	}
	out := []byte(name)
	for i := range out {
		if out[i] >= 'a' && out[i] <= 'z' {
			out[i] -= 'a' - 'A'
		}
	}
	return string(out)
}

// rustOpVerb is the verb of Rust's overflow panic messages.
var rustOpVerb = map[string]string{"add": "add", "sub": "subtract", "mul": "multiply", "neg": "negate"}

// rustIntResult is one element of Rust integer arithmetic: the value a
// release build computes, and the panic message when the operation panics
// (in a debug build only, when debugOnly is set).
type rustIntResult struct {
	v         uint64
	panicMsg  string
	debugOnly bool
}

// rustIntBinary computes a op b in the integer dtype d as Rust's operators
// do: + - * report overflow (a debug-build panic), / and % panic on a zero
// divisor and on MIN / -1 in every build.
func rustIntBinary(op string, a, b uint64, d tensor.DType) rustIntResult {
	switch op {
	case "add", "sub", "mul":
		v, f := intArith(op, a, b, d)
		if f != noFault {
			return rustIntResult{v, "attempt to " + rustOpVerb[op] + " with overflow", true}
		}
		return rustIntResult{v: v}
	case "div":
		v, f := intTruncDiv(a, b, d)
		switch f {
		case faultZeroDivisor:
			return rustIntResult{0, "attempt to divide by zero", false}
		case faultMinByNegOne:
			return rustIntResult{v, "attempt to divide with overflow", false}
		}
		return rustIntResult{v: v}
	case "rem":
		if b == 0 {
			return rustIntResult{0, "attempt to calculate the remainder with a divisor of zero", false}
		}
		if d.IsSigned() && int64(a) == d.MinInt() && int64(b) == -1 {
			return rustIntResult{0, "attempt to calculate the remainder with overflow", false}
		}
		v, _ := intFmod(a, b, d)
		return rustIntResult{v: v}
	}
	panic("model: rustIntBinary of " + op)
}

// panics reports whether r panics in a build with (debug) or without
// overflow checks.
func (r rustIntResult) panics(debug bool) bool {
	return r.panicMsg != "" && (debug || !r.debugOnly)
}

// rustAsInt converts the exact value x of a float element to the integer
// dtype d with Rust's `as` (saturating, NaN -> 0).
func rustAsInt(x float64, d tensor.DType) uint64 {
	v, _ := saturateNaN0(x, d)
	return v
}

// rustHalfPath says how a framework builds an f16/bf16 value from an f64 or
// an integer.
type rustHalfPath uint8

const (
	rustHalfDirect rustHalfPath = iota // one rounding
	rustHalfViaF32                     // from_f32(v as f32): two roundings
	rustHalfEither                     // not pinned: unspecified where the paths differ
)

// rustConvert stores element i of src, converted to out's dtype with Rust's
// `as` semantics, into element i of out. path says how integers and f64 reach
// f16/bf16. It reports the rules it used.
func (e *evaluation) rustConvert(src *tensor.Tensor, i int, out *tensor.Tensor, path rustHalfPath) {
	from, to := src.DType, out.DType
	switch {
	case to == tensor.Bool:
		out.SetBool(i, isNonzero(src, i))
	case from == tensor.Bool:
		out.SetInt(i, int64(src.Bits(i)))
		if to.IsFloat() {
			out.SetFloat(i, float64(src.Bits(i)))
		}
	case from.IsFloat() && to.IsInt():
		e.use(rustAsF2I)
		out.SetUint(i, rustAsInt(src.Float(i), to))
	case from.IsInt() && to.IsInt():
		e.use(rustAsI2I)
		out.SetUint(i, src.Uint(i))
	case from.IsInt() && to.IsFloat():
		e.use(rustAsI2F)
		e.rustSetHalf(out, i, path, func(p rustHalfPath) float64 {
			if (to == tensor.F16 || to == tensor.BF16) && p == rustHalfViaF32 {
				v, _ := intToFloatVia(src.Uint(i), from, tensor.F32, to)
				return v
			}
			v, _ := intToFloatRNE(src.Uint(i), from, to)
			return v
		})
	case from.IsFloat() && to.IsFloat():
		e.use(rustAsF2F)
		x := src.Float(i)
		e.rustSetHalf(out, i, path, func(p rustHalfPath) float64 {
			if from == tensor.F64 && (to == tensor.F16 || to == tensor.BF16) && p == rustHalfViaF32 {
				v, _ := floatToFloatVia(x, tensor.F32, to)
				return v
			}
			v, _ := floatToFloat(x, to)
			return v
		})
	default:
		panic(fmt.Sprintf("model: rustConvert %s -> %s", from, to))
	}
}

// rustSetHalf stores the value conv computes on path; with rustHalfEither the
// element is unspecified where the single and the double rounding differ.
func (e *evaluation) rustSetHalf(out *tensor.Tensor, i int, path rustHalfPath, conv func(rustHalfPath) float64) {
	if path != rustHalfEither {
		out.SetFloat(i, conv(path))
		return
	}
	a, b := conv(rustHalfDirect), conv(rustHalfViaF32)
	out.SetFloat(i, a)
	if !sameFloat(a, b) {
		out.SetUnspecified(i)
	}
}

// rustFloatOp computes a op b (add, sub, mul, div) for the float dtype d as
// Rust code does: f32 and f64 in their own IEEE arithmetic; f16 and bf16
// (the half crate) in f32 and rounded back, which equals one correct
// rounding because f32 carries more than twice their precision plus two.
func rustFloatOp(op string, a, b float64, d tensor.DType) float64 {
	if d == tensor.F64 {
		return floatArith(op, a, b, tensor.F64)
	}
	return roundTo(floatArith(op, a, b, tensor.F32), d)
}

// rustExactSum returns the sum of xs (values of the float dtype d) when
// every order of summation gives the same result: no NaN or opposite
// infinities cancel unpredictably, and all partial sums are exact in d
// (every value is a multiple of the smallest quantum q among them, and the
// sum of magnitudes stays below 2^p q). ok is false where the order of a
// parallel or SIMD reduction could change the bits. A zero sum is +0 (the
// accumulators start at +0).
func rustExactSum(xs []float64, d tensor.DType) (float64, bool) {
	var s exactSum
	for _, x := range xs {
		s.add(x)
	}
	return s.value(d)
}

// exactSum is rustExactSum's running state, so that a prefix sum (cumsum)
// costs one add per element.
type exactSum struct {
	posInf, negInf, nan bool
	q, abs, sum         float64 // q: the smallest quantum seen (0: none yet)
	nonzero             int
}

func (s *exactSum) add(x float64) {
	switch {
	case math.IsNaN(x):
		s.nan = true
	case math.IsInf(x, 1):
		s.posInf = true
	case math.IsInf(x, -1):
		s.negInf = true
	case x != 0:
		s.nonzero++
		if q := quantumOf(x); s.q == 0 || q < s.q {
			s.q = q
		}
		s.abs += math.Abs(x)
		s.sum += x
	}
}

func (s *exactSum) value(d tensor.DType) (float64, bool) {
	prec := formatOf(d).prec
	switch {
	case s.nan || (s.posInf && s.negInf):
		return math.NaN(), true
	case s.posInf || s.negInf:
		if s.abs < tensor.MaxFloat(d)/2 {
			return math.Inf(map[bool]int{true: 1, false: -1}[s.posInf]), true
		}
		return 0, false
	case s.abs == 0:
		return 0, true
	case s.nonzero <= 2: // one rounding, the same in every order
		return roundTo(s.sum, d), true
	}
	// abs and sum are exact in float64 when abs < 2^prec q (prec <= 53).
	if s.abs >= math.Ldexp(s.q, prec) || s.abs > tensor.MaxFloat(d) {
		return 0, false
	}
	return s.sum + 0, true
}

// quantumOf returns the value of the lowest set bit of the nonzero finite x.
func quantumOf(x float64) float64 {
	frac, exp := math.Frexp(math.Abs(x))
	m := uint64(math.Ldexp(frac, 53))
	shift := 0
	for m&1 == 0 {
		m >>= 1
		shift++
	}
	return math.Ldexp(1, exp-53+shift)
}

// rustReducedGroups lists, for a reduction of shape over the dims marked in
// reduce, the row-major indices of the input elements of each output element
// (in row-major order of the input: the order sequential kernels add them).
func rustReducedGroups(shape []int, reduce []bool) (outShape []int, groups [][]int) {
	outShape = make([]int, len(shape))
	for k, n := range shape {
		outShape[k] = n
		if reduce[k] {
			outShape[k] = 1
		}
	}
	groups = make([][]int, tensor.NumElements(outShape))
	n := tensor.NumElements(shape)
	if len(groups) > 0 { // every group holds n / len(groups) elements: one backing array
		per := n / len(groups)
		backing := make([]int, 0, n)
		for o := range groups {
			groups[o] = backing[o*per : o*per : (o+1)*per]
		}
	}
	for i := 0; i < n; i++ {
		rem, o, stride := i, 0, 1
		for k := len(shape) - 1; k >= 0; k-- {
			c := rem % shape[k]
			rem /= shape[k]
			if !reduce[k] {
				o += c * stride
			}
			stride *= outShape[k]
		}
		groups[o] = append(groups[o], i)
	}
	return outShape, groups
}

// rustSqueeze removes the reduced dims from outShape unless keepdim.
func rustSqueeze(outShape []int, reduce []bool, keepdim bool) []int {
	if keepdim {
		return outShape
	}
	s := []int{}
	for k, n := range outShape {
		if !reduce[k] {
			s = append(s, n)
		}
	}
	return s
}

// rustWithShape returns t's elements in a tensor of the given shape.
func rustWithShape(t *tensor.Tensor, shape []int) *tensor.Tensor {
	c := t.Clone()
	c.Shape = append([]int{}, shape...)
	return c
}

// comparison is the result of comparison op ("eq", "ne", "lt", "le", "gt",
// "ge") of two values whose order is lt, eq or gt (none: unordered, a NaN).
func comparison(op string, lt, eq, gt bool) bool {
	switch op {
	case "eq":
		return eq
	case "ne":
		return !eq
	case "lt":
		return lt
	case "le":
		return lt || eq
	case "gt":
		return gt
	case "ge":
		return gt || eq
	}
	return false
}

// signOf is -1, 0 or 1 as v is negative, zero or positive.
func signOf(v int64) int64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
