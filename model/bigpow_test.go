package model

import (
	"math"
	"math/big"
	"testing"
)

// TestBigPow checks the model's big-float functions against published digits
// (110 places) and math/big's correctly rounded square root.
func TestBigPow(t *testing.T) {
	sqrt3 := new(big.Float).SetPrec(powPrec).Sqrt(big.NewFloat(3))
	tests := []struct {
		name string
		got  *big.Float
		want string
		bits int // relative accuracy required
	}{
		{"ln 2", ln2(powPrec), "0.69314718055994530941723212145817656807550013436025525412068000949339362196969471560586332699641868754200148102", 350},
		{"ln 10", bigLog(10, powPrec), "2.30258509299404568401799145468436420760110148862877297603332790096757260967735248023599720508959829834196778404", 350},
		{"e", bigExp(big.NewFloat(1), powPrec), "2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457138217852516642742746639193", 350},
		{"2^10 exactly", bigPow(2, 10), "1024", powPrec},
		{"2^-3 exactly", bigPow(2, -3), "0.125", powPrec},
		{"sqrt 3 as 3^0.5", bigPow(3, 0.5), sqrt3.Text('g', 150), 390},
	}
	for _, tt := range tests {
		want, _, err := big.ParseFloat(tt.want, 10, powPrec+64, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		d := new(big.Float).SetPrec(powPrec+64).Sub(tt.got, want)
		if d.Abs(d).Cmp(new(big.Float).SetMantExp(new(big.Float).Abs(want), -tt.bits)) > 0 {
			t.Errorf("%s = %s, want %s", tt.name, tt.got.Text('g', 60), tt.want)
		}
	}
	if v, _ := bigPow(3, 0.5).Float64(); v != math.Sqrt(3) {
		t.Errorf("3^0.5 rounds to %v, want the correctly rounded sqrt(3) %v", v, math.Sqrt(3))
	}
}
