package tensor

import (
	"math"
	"strings"
	"testing"
)

// The expected values are what CPython 3.11's complex() returns for the same
// strings (checked by hand with the interpreter).
func TestParseComplexText(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name, text string
		re, im     float64
	}{
		{"real and imaginary", "1.5+2j", 1.5, 2},
		{"negative zero imaginary keeps +0 real", "-0j", 0, negZero},
		{"positive zero", "0j", 0, 0},
		{"lone minus j", "-j", 0, -1},
		{"lone j", "j", 0, 1},
		{"parentheses", "(1-2j)", 1, -2},
		{"surrounding whitespace", " 3 ", 3, 0},
		{"exponents and capital J", "1e3-4.5e-2J", 1000, -0.045},
		{"implicit coefficient", "1+j", 1, 1},
		{"both zeros negative", "-0-0j", negZero, negZero},
		{"underscore between digits", "1_0j", 0, 10},
		{"leading dot", ".5j", 0, 0.5},
		{"trailing dot", "5.j", 0, 5},
		{"real only", "1e5", 1e5, 0},
		{"infinity word", "-Infinity+0j", math.Inf(-1), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseComplexText(tt.text)
			if err != nil {
				t.Fatalf("%q: %v", tt.text, err)
			}
			if !sameBits(real(got), tt.re) || !sameBits(imag(got), tt.im) {
				t.Errorf("%q = %v, want (%v, %v)", tt.text, got, tt.re, tt.im)
			}
		})
	}
	nan, err := ParseComplexText("inf-nanj")
	if err != nil || !math.IsInf(real(nan), 1) || !math.IsNaN(imag(nan)) {
		t.Errorf("inf-nanj = %v, %v", nan, err)
	}
	for _, bad := range []string{"", "0x1p3j", "1 + 2j", "1+2", "j1", "1__0j", "_1j", "1_j", "()", "1+2jj", "abc"} {
		if v, err := ParseComplexText(bad); err == nil {
			t.Errorf("%q parsed as %v, want an error (complex() rejects it)", bad, v)
		}
	}
}

func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b)
}

func TestComplexScalarCodec(t *testing.T) {
	line := `{"op": "mul", "args": [{"dtype": "c64", "shape": [1], "data": [["1.0", "2.0"]]}, {"scalar": "-0j", "kind": "complex"}]}`
	c, err := DecodeCase([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Args[1].Scalar
	if s.Kind != ScalarComplex || !sameBits(imag(s.Complex()), math.Copysign(0, -1)) {
		t.Errorf("decoded %+v, Complex() = %v", s, s.Complex())
	}
	if back := string(EncodeCase(c)); !strings.Contains(back, `{"scalar": "-0j", "kind": "complex"}`) {
		t.Errorf("re-encoded as %s", back)
	}
	_, err = DecodeCase([]byte(`{"op": "mul", "args": [{"dtype": "c64", "shape": [1], "data": [["1.0", "2.0"]]}, {"scalar": "1 + 2j", "kind": "complex"}]}`))
	if err == nil || !strings.Contains(err.Error(), "args[1].scalar") {
		t.Errorf("a malformed complex text gives %v, want an error naming args[1].scalar", err)
	}
}
