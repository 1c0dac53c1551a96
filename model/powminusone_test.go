package model

import (
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestPowOfMinusOneByAHugeExponent: (-1)**y is ±1 for every integer y; the
// model once took it as exp(y ln 1) at finite precision, where ln 1 is not
// exactly 0, and a campaign hung on y = -2.4e279 (a program fed pow a
// sign()).
func TestPowOfMinusOneByAHugeExponent(t *testing.T) {
	c, err := tensor.ParseCase("pow(f64[-1.0, -1.0], f64[-2.4137404698425395e+279, 9007199254740991])")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"numpy", "pytorch/cpu", "jax/cpu-x64"} {
		out := Eval(p, c)
		if out.Form != tensor.FormValue || out.Value.Float(0) != 1 || out.Value.Float(1) != -1 {
			t.Errorf("%s: %s, want [1, -1]", p, out)
		}
	}
}
