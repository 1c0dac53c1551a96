package model

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Expected values: Python's decimal module at 90 digits, rounded to the
// dtype by exact rational arithmetic (model/evidence/sim/uic_fp.py exact_exp), an
// independent computation.
func TestCrExpKnownValues(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name string
		x    float64
		d    tensor.DType
		want float64
	}{
		{"1", 1.0, tensor.F64, 2.718281828459045},
		{"-1", -1.0, tensor.F32, 0.3678794503211975},
		{"-85", -85.0, tensor.F32, 1.2160992719555806e-37},
		{"48", 48.0, tensor.F32, 7.016735586870194e+20},
		{"1.3331f", 1.3330999612808228, tensor.F32, 3.7927825450897217},
		{"-0.0004f", -0.00039999998989515007, tensor.F32, 0.9996000528335571},
		{"f16 double-rounding input 1", 0.007297515869140625, tensor.F16, 1.0068359375},
		{"f16 double-rounding input 2", 0.0226898193359375, tensor.F16, 1.0224609375},
		{"709.78 below overflow", 709.78, tensor.F64, 1.7928227943945155e+308},
		{"709.79 overflows", 709.79, tensor.F64, inf},
		{"-745.1 smallest subnormal", -745.1, tensor.F64, 5e-324},
		{"-745.2 underflows", -745.2, tensor.F64, 0.0},
		{"-2^-54 just above the midpoint below 1", -5.551115123125783e-17, tensor.F64, 1.0},
		{"-103.5 f32 subnormal", -103.5, tensor.F32, 1.401298464324817e-45},
		{"11.0859375 f16", 11.0859375, tensor.F16, 65248.0},
		{"-5", -5.0, tensor.F32, 0.0067379469983279705},
		{"200", 200.0, tensor.F64, 7.225973768125749e+86},
		{"0.5 bf16", 0.5, tensor.BF16, 1.6484375},
		{"-17.3 f16 subnormal", -17.3, tensor.F16, 5.960464477539063e-08},
		{"88.7", 88.7, tensor.F32, 3.325987005611487e+38},
		{"-700.5", -700.5, tensor.F64, 5.980196118639791e-305},
		{"1e-300", 1e-300, tensor.F64, 1.0},
		{"0.1", 0.1, tensor.F64, 1.1051709180756477},
		{"-0.1", -0.1, tensor.F64, 0.9048374180359595},
		{"10 bf16", 10.0, tensor.BF16, 22016.0},
		{"nan", math.NaN(), tensor.F32, math.NaN()},
		{"-inf", math.Inf(-1), tensor.F32, 0},
		{"-0", math.Copysign(0, -1), tensor.F16, 1},
	} {
		got := crExp(c.x, c.d)
		if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s: crExp(%v, %s) = %v, want %v", c.name, c.x, c.d, got, c.want)
		}
	}
}

// math.Exp is accurate to within an ulp (on amd64 its assembly version is
// one ulp off on about 9% of inputs): the correctly rounded result must never
// be farther than that. (6000 random inputs in f64/f32/f16/bf16 were also
// checked against Python's decimal once, all equal.)
func TestCrExpAgainstMathExp(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		x := (rng.Float64()*2 - 1) * 700
		if i%3 == 0 {
			x = (rng.Float64()*2 - 1) * 1e-3
		}
		got, ref := crExp(x, tensor.F64), math.Exp(x)
		if d := tensor.ULPDistance(got, ref, tensor.F64); d > 1 {
			t.Fatalf("crExp(%v) = %v, math.Exp = %v: %d ulps apart", x, got, ref, d)
		}
	}
}

func TestCrSqrt(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		name string
		x    float64
		d    tensor.DType
		want float64
	}{
		{"sqrt(0.5) f64 (MKL gives ...475)", 0.5, tensor.F64, 0.7071067811865476},
		{"sqrt(5) f32 (jax/gpu gives one ulp low)", 5, tensor.F32, 2.2360680103302},
		{"sqrt(30) f32", 30, tensor.F32, 5.4772257804870605},
		{"sqrt(2^24) f32", 16777216, tensor.F32, 4096},
		{"sqrt(2^64) f32", 18446744073709551616, tensor.F32, 4294967296},
		{"sqrt(-0) = -0", negZero, tensor.F32, negZero},
		{"sqrt(inf)", math.Inf(1), tensor.F64, math.Inf(1)},
		{"sqrt(smallest subnormal)", 5e-324, tensor.F64, 2.2227587494850775e-162},
		{"sqrt(2) bf16", 2, tensor.BF16, 1.4140625},
	} {
		got := crSqrt(c.x, c.d)
		if got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("%s: crSqrt(%v, %s) = %v, want %v", c.name, c.x, c.d, got, c.want)
		}
	}
	if !math.IsNaN(crSqrt(-1, tensor.F32)) || !math.IsNaN(crSqrt(math.NaN(), tensor.F64)) {
		t.Error("sqrt of a negative or NaN must be NaN")
	}
	// math.Sqrt is correctly rounded, and so is its f32 rounding (53 >= 2*24+2).
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 5000; i++ {
		x := math.Float64frombits(rng.Uint64() &^ (1 << 63))
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		if got := crSqrt(x, tensor.F64); got != math.Sqrt(x) {
			t.Fatalf("crSqrt(%v) = %v, math.Sqrt = %v", x, got, math.Sqrt(x))
		}
		x32 := roundTo(x, tensor.F32)
		if got, want := crSqrt(x32, tensor.F32), roundTo(math.Sqrt(x32), tensor.F32); x32 != 0 && !math.IsInf(x32, 0) && got != want {
			t.Fatalf("crSqrt(%v, f32) = %v, want %v", x32, got, want)
		}
	}
}

func TestRoundBigTo(t *testing.T) {
	for _, c := range []struct {
		name string
		x    float64
		d    tensor.DType
		want float64
	}{
		{"f16 tie to even down", 2049, tensor.F16, 2048},
		{"f16 tie to even up", 2051, tensor.F16, 2052},
		{"f16 overflow threshold is a tie to inf", 65520, tensor.F16, math.Inf(1)},
		{"f16 below the threshold", 65519.99, tensor.F16, 65504},
		{"f16 half the smallest subnormal ties to 0", math.Ldexp(1, -25), tensor.F16, 0},
		{"f16 above half the smallest subnormal", math.Ldexp(1.0000001, -25), tensor.F16, math.Ldexp(1, -24)},
		{"bf16 -128922.5969", -128922.5969, tensor.BF16, -129024},
		{"f64 smallest subnormal is exact", 5e-324, tensor.F64, 5e-324},
		{"f32 negative", -0.1, tensor.F32, float64(float32(-0.1))},
	} {
		if got := roundBigTo(big.NewFloat(c.x), c.d); got != c.want {
			t.Errorf("%s: roundBigTo(%v, %s) = %v, want %v", c.name, c.x, c.d, got, c.want)
		}
	}
}

// The two f16 inputs whose exp changes with an f32 intermediate must be
// flagged; ordinary ones must not.
func TestNearRoundingBoundary(t *testing.T) {
	for _, x := range []float64{0.007297515869140625, 0.0226898193359375} {
		if !nearRoundingBoundary(exactExpBig(x), tensor.F16, 4) {
			t.Errorf("exp(%v) in f16 should be near a rounding boundary", x)
		}
	}
	for _, x := range []float64{1, -1, 0.5, 2.5} {
		if nearRoundingBoundary(exactExpBig(x), tensor.F16, 4) {
			t.Errorf("exp(%v) in f16 should not be near a rounding boundary", x)
		}
	}
}

// TestFastPathsAgreeWithExact checks the float64 fast paths of exp, sqrt
// and pow against the big-float evaluation they shortcut, on values drawn
// across the ranges where each target format is finite, near its rounding
// boundaries included (inputs whose results are f32 midpoints neighbours).
func TestFastPathsAgreeWithExact(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for range 5000 {
		d := []tensor.DType{tensor.F16, tensor.BF16, tensor.F32}[rng.Intn(3)]
		x := roundTo((rng.Float64()*2-1)*math.Ldexp(1, rng.Intn(8)), d)
		want := roundBigTo(expApproxCorrect(x), d)
		if got := crExp(x, d); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("crExp(%v, %s) = %v, the exact path gives %v", x, d, got, want)
		}
		y := roundTo((rng.Float64()*2-1)*math.Ldexp(1, rng.Intn(6)), d)
		b := math.Abs(x) + 0.25
		rn, other := powCandidates(b, y, tensor.F32)
		wr, exact, above := roundBig(bigPow(b, y), tensor.F32)
		wo := wr
		if !exact {
			wo = nextToward(wr, above, tensor.F32)
		}
		if rn != wr || other != wo {
			t.Fatalf("powCandidates(%v, %v) = %v, %v; the exact path gives %v, %v", b, y, rn, other, wr, wo)
		}
		if r64, o64, ok := powAtLowPrecision(b, y, tensor.F64); ok {
			w64, exact, above := roundBig(bigPow(b, y), tensor.F64)
			if r64 != w64 || exact || o64 != nextToward(w64, above, tensor.F64) {
				t.Fatalf("powAtLowPrecision(%v, %v, f64) = %v, %v; the exact path gives %v (exact %t)", b, y, r64, o64, w64, exact)
			}
		}
	}
}

// expApproxCorrect is crExp's exact path alone: exp(x) to 256 bits, which
// rounds correctly wherever it is not within 2^-200 of a boundary (never,
// for the inputs above).
func expApproxCorrect(x float64) *big.Float { return expApprox(x, 256) }
