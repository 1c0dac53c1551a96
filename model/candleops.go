package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's unary ops and to_dtype.

var (
	candleUnaryInt = newRule("candle.cpu.int-unary",
		"on integer tensors abs is the identity on unsigned types and `v.abs()` on signed ones (MIN overflows: a debug panic, MIN in release), ceil/floor/round are the identity, sign is min(1, v) on unsigned and -1/0/1 on signed types",
		"source-facts extra 2; op.rs Abs, Ceil, Floor, Round, Sign")
	candleUnaryFloat = newOpenRule("candle.float.unary",
		"float unary ops: neg, abs, floor, ceil, sqr (x*x rounded once) are exact; round is half away from zero (Rust and Metal round); sqrt is IEEE-rounded on the CPU (Rust sqrt); CPU sign is (x > 0) - (x < 0), so NaN and -0 give +0; Metal sign is the MSL sign (NaN -> 0, ±0 kept); exp and log are unspecified except at exact points (Metal: see candle.metal.fast-math-functions)",
		"op.rs unary ops (Sign: f32::from(v > 0.) - f32::from(v < 0.)); Metal Shading Language spec (round, sign); exp/sqrt precision is not specified by accelerate's vForce or Metal fast math")
	candleCastCPU = newRule("candle.cpu.to-dtype-as",
		"CPU to_dtype converts every pair of candle dtypes with Rust `as` (float -> int saturates, NaN -> 0; int -> int wraps; int -> f16/bf16 through f32); to the same dtype it is the identity",
		"seed 003 §to_dtype：浮点转整数是饱和的; seed 000 §下标的 dtype ([-1.5, 2.7] -> I64 [-1, 2], -> U32 [0, 2]); source-facts #8")
	candleCastMetal = newOpenRule("candle.metal.to-dtype",
		"Metal casts (static_cast) among f32 f16 bf16 i64 u32 u8: float -> int truncates toward zero and a negative value gives 0 in an unsigned type (CPU and Metal agree); float -> float rounds to nearest even like the CPU; int -> float rounds to nearest (to f16/bf16 by an unpinned path); NaN, out-of-range float -> int and non-fitting int -> int are unspecified",
		"seed 000 §下标的 dtype (Metal [-1.5, 2.7] -> U32 [0, 2]); seed 003 §半精度舍入 (CPU and Metal bit-identical on 20018 values); source-facts #5b")
	candleMetalSignI64 = newRule("candle.metal.sign-i64-no-kernel",
		"sign of an i64 tensor on Metal is an Err at pipeline creation (\"Error while loading function: sign_i64\"): the host maps (usign, I64) to the kernel sign_i64, but unary.metal instantiates sign only for f32/f16/bf16 (init_unary_float); a zero-element tensor returns before any kernel",
		"candle 2a13b0f3: candle-core/src/metal_backend/mod.rs:742 ((\"usign\", DType::I64) => contiguous::sign::I64); candle-metal-kernels/src/metal_src/unary.metal:246 (init_unary_float(sign, usign), no init_unary for i64); metal/library.rs:35 (LoadFunctionError); tensor.rs:78-84 (unary_op! returns early on zero elements)")
	candleNoConvert = newRule("candle.no-checked-convert",
		"candle has only to_dtype (lossy, `as`); mode=convert (tenferro's checked widening convert) has no candle spelling",
		"spec/case-format.md op catalog; source-facts #8")
)

// candleUnaryKernel maps catalog unary ops to candle's (u-prefixed on Metal).
var candleUnaryKernel = map[string]string{"neg": "neg", "abs": "abs", "sign": "sign", "sqrt": "sqrt",
	"exp": "exp", "floor": "floor", "ceil": "ceil", "round": "round", "square": "sqr"}

// candleUnary evaluates the unary family.
func (e *evaluation) candleUnary() tensor.Outcome {
	name, ok := candleUnaryKernel[e.c.Op]
	if !ok {
		return e.unsupported(candleNoOp, "candle 0.11 has no %s on Tensor", e.c.Op)
	}
	return e.candleUnaryOp(name, e.c.Args[0].Tensor)
}

// candleUnaryOp applies candle's unary op called name (neg, abs, sign, sqrt,
// exp, floor, ceil, round, sqr, and internally recip, log).
func (e *evaluation) candleUnaryOp(name string, t *tensor.Tensor) tensor.Outcome {
	if t.Len() == 0 {
		e.use(candleEmptyBinary)
		return tensor.ValueOutcome(t.Clone())
	}
	d := t.DType
	if e.candleOnMetal() {
		if out, bad := e.candleMetalUnaryKernel(name, t); bad {
			return out
		}
	}
	out := tensor.New(d, t.Shape...)
	if d.IsInt() {
		return e.candleIntUnary(name, t, out)
	}
	e.use(candleUnaryFloat)
	for i := 0; i < t.Len(); i++ {
		v, exact := e.candleFloatUnary(name, t.Float(i), d)
		out.SetFloat(i, v)
		if !exact {
			out.SetUnspecified(i)
		}
	}
	return tensor.ValueOutcome(out)
}

// candleIntUnary is a unary op on an integer tensor.
func (e *evaluation) candleIntUnary(name string, t, out *tensor.Tensor) tensor.Outcome {
	d := t.DType
	switch name {
	case "floor", "ceil", "round", "abs", "sign":
	default:
		e.use(candleUnaryTodo)
		return tensor.PanicOutcome("not yet implemented: no unary function for %s", d)
	}
	e.use(candleUnaryInt)
	for i := 0; i < t.Len(); i++ {
		v := t.Int(i)
		switch {
		case name == "sign" && d.IsUnsigned():
			out.SetUint(i, min(t.Uint(i), 1))
		case name == "sign":
			out.SetInt(i, signOf(v))
		case name == "abs" && d.IsSigned() && v < 0:
			if v == d.MinInt() {
				e.use(rustOverflow)
				if e.p.Debug {
					return tensor.PanicOutcome("attempt to negate with overflow")
				}
			}
			out.SetInt(i, -v)
		default:
			out.SetUint(i, t.Uint(i))
		}
	}
	return tensor.ValueOutcome(out)
}

// candleFloatUnary returns name(x) in d and whether the value is specified.
func (e *evaluation) candleFloatUnary(name string, x float64, d tensor.DType) (float64, bool) {
	switch name {
	case "neg":
		return -x, true
	case "abs":
		return math.Abs(x), true
	case "floor":
		return math.Floor(x), true
	case "ceil":
		return math.Ceil(x), true
	case "round":
		return math.Round(x), true
	case "sqr":
		return rustFloatOp("mul", x, x, d), true
	case "sign":
		return candleSign(x, e.candleOnMetal()), true
	}
	if e.candleOnMetal() {
		return e.candleMetalFloatUnary(name, x, d)
	}
	switch name {
	case "sqrt":
		return crSqrt(x, d), true
	case "recip":
		return rustFloatOp("div", 1, x, d), true
	case "exp":
		switch {
		case math.IsNaN(x) || math.IsInf(x, 1):
			return x, true
		case math.IsInf(x, -1):
			return 0, true
		case x == 0:
			return 1, true
		}
		return crExp(x, d), false
	case "log":
		special := math.IsNaN(x) || math.IsInf(x, 0) || x == 0
		return math.Log(x), special || x < 0 || x == 1
	}
	panic("model: candle unary " + name)
}

// candleSign is the CPU's (x > 0) - (x < 0) or Metal's MSL sign.
func candleSign(x float64, metal bool) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case metal && !math.IsNaN(x):
		return x // ±0 kept
	}
	return 0
}

// candleCast is t.to_dtype(to).
func (e *evaluation) candleCast() tensor.Outcome {
	if e.c.Attrs.Mode == "convert" {
		return e.unsupported(candleNoConvert, "candle has no checked convert; only to_dtype")
	}
	t, to := e.c.Args[0].Tensor, e.c.Attrs.To
	if !candleHasDType(to) {
		return e.unsupported(candleDTypes, "candle has no DType for %s", to)
	}
	if t.DType == to {
		e.use(candleCastCPU)
		return tensor.ValueOutcome(t.Clone())
	}
	if e.candleOnMetal() {
		return e.candleMetalCast(t, to)
	}
	e.use(candleCastCPU)
	out := tensor.New(to, t.Shape...)
	path := candleHalfPath(t.DType)
	if path == rustHalfEither && (to == tensor.F16 || to == tensor.BF16) {
		e.use(candleHalfFromF64)
	}
	for i := 0; i < t.Len(); i++ {
		e.rustConvert(t, i, out, path)
	}
	return tensor.ValueOutcome(out)
}

// candleMetalCast is the Metal cast kernel.
func (e *evaluation) candleMetalCast(t *tensor.Tensor, to tensor.DType) tensor.Outcome {
	from := t.DType
	if !candleMetalCore(from) || !candleMetalCore(to) {
		return e.fail(candleMetalKernels, tensor.UnsupportedDType, "Metal %s to_dtype %s %s not implemented", candleMetalLayoutName(t), rustName(from), rustName(to))
	}
	if t.Len() == 0 {
		return e.candleMetalEmptyLaunch("to_dtype")
	}
	e.use(candleCastMetal)
	out := tensor.New(to, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		switch {
		case from.IsFloat():
			candleMetalStore(out, i, t.Float(i)) // float -> float rounds in SetFloat
		case to.IsInt():
			out.SetUint(i, t.Uint(i))
			if !candleIntFits(t, i, to) {
				out.SetUnspecified(i)
			}
		default:
			e.rustSetHalf(out, i, rustHalfEither, func(p rustHalfPath) float64 {
				if p == rustHalfViaF32 && to != tensor.F32 {
					v, _ := intToFloatVia(t.Uint(i), from, tensor.F32, to)
					return v
				}
				v, _ := intToFloatRNE(t.Uint(i), from, to)
				return v
			})
		}
	}
	return tensor.ValueOutcome(out)
}

// candleIntFits reports whether integer element i of t is a value of d.
func candleIntFits(t *tensor.Tensor, i int, d tensor.DType) bool {
	if t.DType.IsSigned() {
		v := t.Int(i)
		if d.IsSigned() {
			return v >= d.MinInt() && v <= d.MaxInt()
		}
		return v >= 0 && uint64(v) <= d.MaxUint()
	}
	v := t.Uint(i)
	if d.IsSigned() {
		return v <= uint64(d.MaxInt())
	}
	return v <= d.MaxUint()
}
