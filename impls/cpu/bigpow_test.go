package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// fixValue is the fixed-point v as a big.Float.
func fixValue(v *big.Int) *big.Float {
	f := new(big.Float).SetPrec(fixBits + 64).SetInt(v)
	return f.SetMantExp(f, -fixBits)
}

// TestBigPowConstants checks the fixed-point functions against published
// digits of ln 2, ln 10 and e (110 places: 2^-350 relative), and against
// math/big's correctly rounded square roots to 2^-powApproxBits.
func TestBigPowConstants(t *testing.T) {
	scaled := func(mant *big.Int, exp int) *big.Float {
		f := new(big.Float).SetPrec(fixBits + 64).SetInt(mant)
		return f.SetMantExp(f, exp)
	}
	mant, exp := expFix(fixOne)
	root := func(x float64) *big.Float {
		return new(big.Float).SetPrec(fixBits + 64).Sqrt(big.NewFloat(x))
	}
	pow := func(x, y float64) *big.Float {
		m, e, _ := bigPow(x, y)
		return scaled(m, e)
	}
	exact, eexp, isExact := bigPow(2, 10)
	tests := []struct {
		name string
		got  *big.Float
		want string
		bits int // relative accuracy required
	}{
		{"ln 2", fixValue(lnFix(2)), "0.69314718055994530941723212145817656807550013436025525412068000949339362196969471560586332699641868754200148102", 350},
		{"ln 0.5", fixValue(lnFix(0.5)), "-0.69314718055994530941723212145817656807550013436025525412068000949339362196969471560586332699641868754200148102", 350},
		{"ln 10", fixValue(lnFix(10)), "2.30258509299404568401799145468436420760110148862877297603332790096757260967735248023599720508959829834196778404", 350},
		{"e", scaled(mant, exp), "2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457138217852516642742746639193", 350},
		{"2^0.5", pow(2, 0.5), root(2).Text('g', 200), powApproxBits},
		{"3^-0.5", pow(3, -0.5), new(big.Float).Quo(big.NewFloat(1), root(3)).Text('g', 200), powApproxBits},
		{"1e300^0.5", pow(1e300, 0.5), root(1e300).Text('g', 200), powApproxBits},
		{"2^10 exactly", scaled(exact, eexp), "1024", fixBits},
	}
	for _, tt := range tests {
		want, _, err := big.ParseFloat(tt.want, 10, fixBits+64, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		diff := new(big.Float).Sub(tt.got, want)
		tol := new(big.Float).SetMantExp(new(big.Float).Abs(want), -tt.bits)
		if diff.Abs(diff).Cmp(tol) > 0 {
			t.Errorf("%s = %s, want %s", tt.name, tt.got.Text('g', 50), tt.want)
		}
	}
	if !isExact {
		t.Error("2^10 is not reported exact")
	}
}

// TestPowCorrectlyRounded compares the engine's pow with IEEE operations
// that are correctly rounded by definition (sqrt, division, multiplication)
// and with math/big's rounding of exact powers, ties included.
func TestPowCorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	t.Logf("seed 12")
	randF64 := func() float64 { return math.Ldexp(1+rng.Float64(), rng.IntN(400)-200) }
	// nearest returns the exact integer k rounded to prec bits, ties to even
	nearest := func(k *big.Int, prec uint) float64 {
		f, _ := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).SetInt(k).Float64()
		return f
	}
	odd := func(bits int) int64 { return 1<<(bits-1) | 2*rng.Int64N(1<<(bits-2)) | 1 }
	tests := []struct {
		name string
		draw func() (x, y float64, prec uint, want float64)
	}{
		{"x^0.5 is sqrt", func() (float64, float64, uint, float64) {
			x := randF64()
			return x, 0.5, 53, math.Sqrt(x)
		}},
		{"f32 x^0.5 is sqrt", func() (float64, float64, uint, float64) {
			x := float64(float32(randF64()))
			return x, 0.5, 24, float64(float32(math.Sqrt(x))) // exact double rounding: 53 >= 2·24+2
		}},
		{"x^-1 is 1/x", func() (float64, float64, uint, float64) {
			x := randF64()
			return x, -1, 53, 1 / x
		}},
		{"x^2 is x*x", func() (float64, float64, uint, float64) {
			x := randF64()
			return x, 2, 53, x * x
		}},
		{"(k^2)^1.5 = k^3, often an f64 tie", func() (float64, float64, uint, float64) {
			k := odd(18) // k^3 has 52 to 54 bits
			kk := big.NewInt(k)
			return float64(k * k), 1.5, 53, nearest(kk.Mul(kk, kk).Mul(kk, big.NewInt(k)), 53)
		}},
		{"(k^2)^0.5 = k, an f32 tie", func() (float64, float64, uint, float64) {
			k := odd(25)
			return float64(k * k), 0.5, 24, nearest(big.NewInt(k), 24)
		}},
		{"k^3 exactly, then rounded", func() (float64, float64, uint, float64) {
			k := odd(18)
			kk := big.NewInt(k)
			return float64(k), 3, 53, nearest(kk.Exp(kk, big.NewInt(3), nil), 53)
		}},
		{"2^(n/2) for even n is exact", func() (float64, float64, uint, float64) {
			n := 2 * (rng.IntN(400) - 200)
			return 2, float64(n) / 2, 53, math.Ldexp(1, n/2)
		}},
		{"x^-1 into f32's subnormals", func() (float64, float64, uint, float64) {
			x := math.Ldexp(1+rng.Float64(), 126+rng.IntN(2))
			q, _ := new(big.Float).SetPrec(2000).Quo(big.NewFloat(1), big.NewFloat(x)).Float32()
			return x, -1, 24, float64(q)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 300 {
				x, y, prec, want := tt.draw()
				if got := powRounded(x, y, prec); got != want {
					t.Fatalf("pow(%v, %v) to %d bits = %v, want %v", x, y, prec, got, want)
				}
			}
		})
	}
}
