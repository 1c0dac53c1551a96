package model

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestFma32RoundsOnce checks fma32's rounding to odd against the exact
// product and sum rounded once from a big.Float, on random f32 operands:
// any bits, normal values of spread exponents, small integers, subnormals,
// and addends that cancel the product to a few bits.
func TestFma32RoundsOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	f32 := func() float64 {
		switch r.IntN(5) {
		case 0:
			return float64(math.Float32frombits(r.Uint32()))
		case 1:
			return float64(float32(r.IntN(9) - 4))
		case 2:
			return float64(math.Float32frombits(r.Uint32() & 0x807fffff)) // subnormal
		}
		return float64(float32(r.NormFloat64() * math.Exp2(float64(r.IntN(40)-20))))
	}
	exact := func(a, b, c float64) float64 {
		s := new(big.Float).SetPrec(400).Mul(big.NewFloat(a), big.NewFloat(b))
		s.Add(s, big.NewFloat(c))
		if s.Sign() == 0 {
			return roundTo(a*b+c, tensor.F32) // an exact zero: the sign IEEE addition gives it
		}
		return roundBigTo(s, tensor.F32)
	}
	checked := 0
	for range 300_000 {
		a, b, c := f32(), f32(), f32()
		if r.IntN(3) == 0 { // cancellation: c is -a*b off by a few ulps
			c = float64(float32(-a * b * (1 + float64(r.IntN(5)-2)*math.Exp2(-float64(r.IntN(30))))))
		}
		if !isFinite(a) || !isFinite(b) || !isFinite(c) {
			continue
		}
		got, ok := fma32(a, b, c)
		if !ok {
			continue
		}
		checked++
		if want := exact(a, b, c); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("fma32(%g, %g, %g) = %g, exactly rounded %g", a, b, c, got, want)
		}
	}
	if checked < 200_000 {
		t.Fatalf("only %d of 300000 draws were checked", checked)
	}
}
