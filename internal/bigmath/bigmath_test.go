package bigmath

import (
	"math"
	"math/big"
	"testing"
)

// within reports whether b is within 2^-300 relative of want.
func within(b *big.Float, want string) bool {
	w, _, _ := big.ParseFloat(want, 10, Prec, big.ToNearestEven)
	d := new(big.Float).SetPrec(Prec).Sub(b, w)
	d.Abs(d)
	return d.Cmp(new(big.Float).SetMantExp(new(big.Float).Abs(w), -300)) < 0
}

func TestConstantsAndFunctions(t *testing.T) {
	tests := []struct {
		name string
		got  *big.Float
		want string
	}{
		// digits from the defining series, to 120 places
		{"ln 2", Ln2(), "0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863326996418687542001481021"},
		{"ln 10", Log(10), "2.302585092994045684017991454684364207601101488628772976033327900967572609677352480235997205089598298341967784043"},
		{"e", Exp(big.NewFloat(1)), "2.718281828459045235360287471352662497757247093699959574966967627724076630353547594571382178525166427427466391932"},
		{"2^10 exactly", Pow(2, 10), "1024"},
		{"2^-3 exactly", Pow(2, -3), "0.125"},
		{"sqrt 2 as 2^0.5", Pow(2, 0.5), "1.414213562373095048801688724209698078569671875376948073176679737990732478462107038850387534327641572735013846231"},
	}
	for _, tt := range tests {
		if !within(tt.got, tt.want) {
			t.Errorf("%s = %s, want %s", tt.name, tt.got.Text('g', 60), tt.want)
		}
	}
	if v, _ := Pow(3, 0.5).Float64(); v != math.Sqrt(3) {
		t.Errorf("3^0.5 rounds to %v, want the correctly rounded sqrt(3) %v", v, math.Sqrt(3))
	}
}
