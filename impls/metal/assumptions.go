package metal

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// What the simulator cannot read from candle's source or the seeds, in
// one place. Two kinds:
//
// Values it leaves open: where nothing fixes the bits an Apple GPU
// computes, the twins compute a reference, mark it loose, and the device
// reports the element unspecified ("?"), as the model does:
//   - the fast-math functions (sqrt, exp, log of f32, f16 and bf16, recip,
//     float division, powf) away from the points of fast-math-specials:
//     their accuracy is given in ulps, and sqrt/exp/log of a half are the
//     GPU library's half-precision functions (fastmath.go);
//   - powf of a negative base, and pow(0, 0): a fast pow computed as
//     exp2(e * log2(x)) gives NaN where IEEE's pow gives (-2)^2 = 4;
//   - a simd_sum or simd_product of f32 or f16 lanes whose order matters,
//     and a simd_max or simd_min of float lanes with a NaN, or with zeros
//     of both signs when the result is zero: the hardware's order and NaN
//     handling are not documented (sim_reduce.go).
//
// Assumptions: where it states a value all the same, each listed in
// Assumptions below and named where the twins make it. A real GPU checks
// them: TestGPUMatchesSimulator (gpu_darwin_test.go) logs a difference on
// a case that Touches an assumption under the assumption's name, and fails
// on it with -metal.strict (scripts/mac-check.sh).

// Assumption is one thing the simulator takes an Apple GPU to do.
type Assumption struct {
	Name     string
	Says     string
	Evidence string
	// Touches reports whether the outcome of c may rest on the assumption;
	// sim is the simulator's outcome for c.
	Touches func(c *tensor.Case, sim tensor.Outcome) bool
}

// Assumptions are the simulator's assumptions about Apple GPUs.
var Assumptions = []Assumption{
	{"float-to-int", "static_cast from a float to an integer type truncates toward zero, saturates at the type's range and gives 0 for NaN (C++ leaves out-of-range and NaN undefined)",
		"seed 000: Metal u32 3 - 4.0 = 0 and [-1.5, 2.7] -> U32 [0, 2] (the negative case); Arm64 fcvtzs/fcvtzu saturate",
		touchesFloatToInt},
	{"u8-div-by-zero", "u8 division happens in int after promotion, where x / 0 is taken to be -1, stored as 255 (like u32's all ones)",
		"seed 000 shows u32 x / 0 = 2^32 - 1 and i64 x / 0 = 0; nothing for u8",
		func(c *tensor.Case, _ tensor.Outcome) bool { return c.Op == "div" && argHasZero(c, 1, tensor.U8) }},
	{"int-to-half-once", "an integer converts to f16 or bf16 with one rounding to nearest even, not through float",
		"none: seed 003 pins float -> half, not int -> half",
		func(c *tensor.Case, _ tensor.Outcome) bool {
			x := firstTensor(c)
			return c.Op == "cast" && x != nil && x.DType.IsInt() && (c.Attrs.To == tensor.F16 || c.Attrs.To == tensor.BF16) && anyInt(x, func(v int64) bool { return v > 256 || v < -256 })
		}},
	{"nan-inf-ieee", "NaN and infinite inputs behave as IEEE says although fast math lets the compiler assume there are none: comparisons with NaN are false (!= true), bmaximum/bminimum and the arg reductions select by those comparisons, sign(NaN) = 0, arithmetic propagates NaN and infinities",
		"the Metal Shading Language specification (IEEE semantics without fast math; sign); not pinned under fast math",
		func(c *tensor.Case, _ tensor.Outcome) bool {
			return anyFloat(c, func(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) })
		}},
	{"float-max-min-fmax", "the reductions' fast::max / fast::min (max / min for half) return the non-NaN operand, and of +0 and -0 the second",
		"the Metal Shading Language specification (fmax semantics); not pinned under fast math",
		func(c *tensor.Case, _ tensor.Outcome) bool {
			return (c.Op == "max" || c.Op == "min" || c.Op == "argmax" || c.Op == "argmin") &&
				anyFloat(c, func(f float64) bool { return math.IsNaN(f) || f == 0 })
		}},
	{"subnormals-kept", "f32, f16 and bf16 subnormal inputs and results are kept, not flushed to zero, under fast math",
		"none",
		touchesSubnormals},
	{"fast-math-specials", "the fast-math functions return IEEE's special values for NaN, ±inf and ±0 inputs (sqrt and log of a negative number are NaN, x / 0 is ±inf) and the exact result where it is representable (sqrt(4) = 2, exp(0) = 1, log(1) = 0, 6 / 3 = 2)",
		"none beyond the accuracy bounds in ulps, which allow an exact result only to be off by them",
		func(c *tensor.Case, _ tensor.Outcome) bool { return fastMathOp(c) }},
	{"half-arith-rounds-once", "half and bfloat + - * give the exact result rounded once to the type (as correctly rounded arithmetic, or float arithmetic rounded back, does)",
		"the Metal Shading Language specification (correctly rounded half arithmetic)",
		func(c *tensor.Case, _ tensor.Outcome) bool {
			x := firstTensor(c)
			switch c.Op {
			case "add", "sub", "mul", "square", "sum", "mean":
				return x != nil && (x.DType == tensor.F16 || x.DType == tensor.BF16)
			}
			return false
		}},
	{"fma-rounds-once", "affine's fma(float, float, float) rounds once, fast math or not",
		"seed 000: Metal i64 2^24 + 1 + 1.0 = 2^24 (a single f32 rounding)",
		func(c *tensor.Case, _ tensor.Outcome) bool { return hasScalar(c) || c.Op == "mean" }},
	{"float-literal", "the 1.0 of candle's recip (1.0 / x) is a float, so the recip of a half or bfloat divides in float and rounds back",
		"the Metal Shading Language has no double",
		func(c *tensor.Case, _ tensor.Outcome) bool {
			return c.Op == "div" && len(c.Args) == 2 && c.Args[0].Scalar != nil
		}},
	{"kernel-order-kept", "the compiler keeps the kernels' order of float operations in the reductions' folds and halvings, although fast math would let it reassociate them",
		"none",
		func(c *tensor.Case, _ tensor.Outcome) bool {
			x := firstTensor(c)
			return (c.Op == "sum" || c.Op == "mean") && x != nil && x.DType.IsFloat() && x.Len() > 2
		}},
	{"barrier-visibility", "candle separates the levels of its threadgroup-memory halving with threadgroup_barrier(mem_flags::mem_none), an execution barrier only; the simulator takes every write to be visible after it, as the mem_threadgroup barriers of tfuzz's kernels make it (so a Mac running tfuzz's kernels cannot show this one)",
		"candle 2a13b0f3 reduce.metal:519,525",
		func(c *tensor.Case, _ tensor.Outcome) bool { return reduceOver(c, 128) }},
	{"max-threads-1024", "every reduce pipeline allows 1024 threads per threadgroup, so a reduction's block is min(1024, next_power_of_two(n / 2)) (a smaller limit changes the order, and one that is not a power of two matches no case of candle's reduce_switch)",
		"Apple GPUs' documented maximum; the simulated pipelines report it for every kernel",
		func(c *tensor.Case, _ tensor.Outcome) bool { return reduceOver(c, 1025) }},
	{"simd-int-wraps", "simd_sum and simd_product of u8 and u32 lanes wrap as the lanes' own + and * do, so their order does not matter",
		"none",
		func(c *tensor.Case, _ tensor.Outcome) bool {
			x := firstTensor(c)
			return reduceOver(c, 4) && (x.DType == tensor.U8 || x.DType == tensor.U32)
		}},
}

// firstTensor returns the first tensor argument of c, or nil.
func firstTensor(c *tensor.Case) *tensor.Tensor {
	for _, a := range c.Args {
		if a.Tensor != nil {
			return a.Tensor
		}
	}
	return nil
}

func hasScalar(c *tensor.Case) bool {
	for _, a := range c.Args {
		if a.Scalar != nil {
			return true
		}
	}
	return false
}

// anyFloat reports whether a float element or float scalar of c satisfies f.
func anyFloat(c *tensor.Case, f func(float64) bool) bool {
	for _, a := range c.Args {
		if t := a.Tensor; t != nil && t.DType.IsFloat() && anyFloatIn(t, f) {
			return true
		}
		if s := a.Scalar; s != nil && s.Kind == tensor.ScalarFloat && f(s.Float()) {
			return true
		}
	}
	return false
}

func anyFloatIn(t *tensor.Tensor, f func(float64) bool) bool {
	for i := 0; i < t.Len(); i++ {
		if !t.IsUnspecified(i) && f(t.Float(i)) {
			return true
		}
	}
	return false
}

func anyInt(t *tensor.Tensor, f func(int64) bool) bool {
	for i := 0; i < t.Len(); i++ {
		if f(t.Int(i)) {
			return true
		}
	}
	return false
}

// argHasZero reports whether argument i of c is a d tensor holding a zero.
func argHasZero(c *tensor.Case, i int, d tensor.DType) bool {
	if i >= len(c.Args) || c.Args[i].Tensor == nil || c.Args[i].Tensor.DType != d {
		return false
	}
	return anyInt(c.Args[i].Tensor, func(v int64) bool { return v == 0 })
}

// touchesFloatToInt reports a float -> integer conversion that may leave
// the range: a cast from a float tensor to an integer type with a NaN or
// an element outside that type, or a scalar op (affine) or mean on an
// integer tensor.
func touchesFloatToInt(c *tensor.Case, _ tensor.Outcome) bool {
	x := firstTensor(c)
	switch {
	case x == nil:
		return false
	case c.Op == "cast" && x.DType.IsFloat() && c.Attrs.To.IsInt():
		lo, hi := float64(c.Attrs.To.MinInt()), float64(c.Attrs.To.MaxInt())
		if c.Attrs.To.IsUnsigned() {
			lo, hi = 0, float64(c.Attrs.To.MaxUint())
		}
		return anyFloatIn(x, func(f float64) bool { return math.IsNaN(f) || math.Trunc(f) < lo || math.Trunc(f) > hi })
	}
	return x.DType.IsInt() && (hasScalar(c) || c.Op == "mean")
}

// touchesSubnormals reports a subnormal float among the inputs (a scalar
// counts as the f32 affine passes it as) or in the simulator's result.
func touchesSubnormals(c *tensor.Case, sim tensor.Outcome) bool {
	sub := func(d tensor.DType) func(float64) bool {
		minNormal := math.Ldexp(1, -126)
		if d == tensor.F16 {
			minNormal = math.Ldexp(1, -14)
		}
		return func(f float64) bool { return f != 0 && math.Abs(f) < minNormal }
	}
	for _, a := range c.Args {
		if t := a.Tensor; t != nil && t.DType.IsFloat() && anyFloatIn(t, sub(t.DType)) {
			return true
		}
		if s := a.Scalar; s != nil && s.Kind == tensor.ScalarFloat && sub(tensor.F32)(float64(float32(s.Float()))) {
			return true
		}
	}
	return sim.Form == tensor.FormValue && sim.Value.DType.IsFloat() && anyFloatIn(sim.Value, sub(sim.Value.DType))
}

// fastMathOp reports an op that goes through a fast-math function.
func fastMathOp(c *tensor.Case) bool {
	x := firstTensor(c)
	if x == nil || !x.DType.IsFloat() {
		return false
	}
	switch c.Op {
	case "sqrt", "exp", "pow", "div":
		return true
	}
	return false
}

// reduceOver reports a reduction with more than n elements per output.
func reduceOver(c *tensor.Case, n int) bool {
	x := firstTensor(c)
	if x == nil {
		return false
	}
	switch c.Op {
	case "sum", "mean", "max", "min", "argmax", "argmin":
	default:
		return false
	}
	per := x.Len()
	if c.Attrs.Dim != nil && x.Rank() > 0 {
		d := *c.Attrs.Dim
		if d < 0 {
			d += x.Rank()
		}
		if d >= 0 && d < x.Rank() {
			per = x.Shape[d]
		}
	}
	return per >= n
}
