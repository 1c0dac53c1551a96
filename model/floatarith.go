package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// roundTo rounds x to the float dtype d once (to nearest, ties to even).
func roundTo(x float64, d tensor.DType) float64 { return tensor.RoundFloat(x, d) }

// inPrecision evaluates f, whose result is exact in float64 arithmetic (a
// single IEEE operation on values of d), rounded as hardware computing in the
// float dtype prec would round it: f32 arithmetic is float32 arithmetic, and
// f16/bf16 values are computed in f32 ("opmath") unless prec says otherwise.
//
// Go's float32 arithmetic is correctly rounded IEEE single precision, and an
// explicit conversion prevents fused multiply-add, so a Go expression in
// float32 computes exactly what an f32 kernel computes.
func add32(a, b float64) float64 { return float64(float32(a) + float32(b)) }
func sub32(a, b float64) float64 { return float64(float32(a) - float32(b)) }
func mul32(a, b float64) float64 { return float64(float32(a) * float32(b)) }
func div32(a, b float64) float64 { return float64(float32(a) / float32(b)) }

// floatArith computes add, sub, mul or div rounded to the compute precision
// prec (f32 or f64).
func floatArith(op string, a, b float64, prec tensor.DType) float64 {
	if prec == tensor.F32 {
		switch op {
		case "add":
			return add32(a, b)
		case "sub":
			return sub32(a, b)
		case "mul":
			return mul32(a, b)
		case "div":
			return div32(a, b)
		}
	}
	switch op {
	case "add":
		return a + b
	case "sub":
		return a - b
	case "mul":
		return a * b
	case "div":
		return a / b
	}
	panic("model: floatArith of " + op)
}

// fmodFloat is C's fmod, exact in any precision (the result is a value of
// the operands' format).
func fmodFloat(a, b float64) float64 { return math.Mod(a, b) }

// isNeg reports whether x has its sign bit set (-0 included).
func isNeg(x float64) bool { return math.Signbit(x) }

// intToFloat rounds the integer v (of dtype from: signed or not) to the float
// dtype d exactly once, to nearest with ties to even, as a correctly rounded
// int-to-float conversion does (cvtsi2ss, Go's float32(int64)).
func intToFloat(v uint64, from, d tensor.DType) float64 {
	var b big.Float
	if from.IsSigned() {
		b.SetInt64(int64(v))
	} else {
		b.SetUint64(v)
	}
	prec := map[tensor.DType]uint{tensor.F16: 11, tensor.BF16: 8, tensor.F32: 24, tensor.F64: 53}[d]
	b.SetMode(big.ToNearestEven).SetPrec(prec)
	x, _ := b.Float64()  // exact: a value of at most 53 bits of precision
	return roundTo(x, d) // only f16 can overflow here
}
