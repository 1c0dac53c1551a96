package tensor

import (
	"math"
	"testing"
)

// bf16Reference rounds through the bit pattern: the textbook f32 -> bf16
// conversion (add 0x7FFF plus the lowest kept bit, then truncate).
func bf16Reference(x float32) float64 {
	b := math.Float32bits(x)
	lsb := (b >> 16) & 1
	b += 0x7FFF + lsb
	return float64(math.Float32frombits(b &^ 0xFFFF))
}

func TestRoundBF16EveryTie(t *testing.T) {
	// Every bf16 value v and its upper neighbour: the midpoint between them
	// is an f32 tie, and must round to whichever has an even last bit.
	for hi := uint32(0); hi < 0x7F80; hi++ {
		for _, sign := range []uint32{0, 0x8000} {
			lo := math.Float32frombits((hi | sign) << 16)
			tie := math.Float32frombits(((hi|sign)<<16 | 0x8000))
			got := RoundFloat(float64(tie), BF16)
			want := float64(lo)
			if hi&1 == 1 { // odd: round away to the next value
				want = float64(math.Float32frombits(((hi + 1) | sign) << 16))
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("tie %g (bits %#x): got %g, want %g", tie, math.Float32bits(tie), got, want)
			}
			if ref := bf16Reference(tie); math.Float64bits(ref) != math.Float64bits(want) {
				t.Fatalf("reference disagrees at %g", tie)
			}
		}
	}
}

func TestRoundBF16MatchesBitReference(t *testing.T) {
	// A sweep over f32 bit patterns (stride keeps it fast) against the bit trick.
	for b := uint32(0); b < 0x7F7F0000; b += 0x1F3 {
		x := math.Float32frombits(b)
		if got, want := RoundFloat(float64(x), BF16), bf16Reference(x); got != want {
			t.Fatalf("%g: got %g, want %g", x, got, want)
		}
	}
}

func TestRoundF16EveryTie(t *testing.T) {
	for h := uint64(0); h < 0x7C00; h++ { // every finite non-negative f16
		lo := FloatFromBits(h, F16)
		hi := FloatFromBits(h+1, F16)
		tie := (lo + hi) / 2 // exact in float64
		want := lo
		if h&1 == 1 {
			want = hi
		}
		if h+1 == 0x7C00 { // the tie above the largest finite value overflows
			want = math.Inf(1)
		}
		if got := RoundFloat(tie, F16); got != want {
			t.Fatalf("tie %g: got %g, want %g", tie, got, want)
		}
		if got := RoundFloat(-tie, F16); got != -want {
			t.Fatalf("tie %g: got %g, want %g", -tie, got, -want)
		}
	}
}

func TestRoundFloat(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		d    DType
		want float64
	}{
		{"f16 max", 65504, F16, 65504},
		{"f16 just under overflow tie", 65519.99, F16, 65504},
		{"f16 overflow tie", 65520, F16, math.Inf(1)},
		{"f16 smallest subnormal", 5.960464477539063e-08, F16, 5.960464477539063e-08},
		{"f16 half the smallest subnormal ties to 0", 2.980232238769531e-08, F16, 0},
		{"f16 negative underflow keeps sign", -1e-10, F16, math.Copysign(0, -1)},
		{"f16 0.1", 0.1, F16, 0.0999755859375},
		{"bf16 1/3", 0.3333333432674408, BF16, 0.333984375},
		{"bf16 65504", 65504, BF16, 65536},
		{"bf16 70000", 70000, BF16, 70144},
		{"bf16 max", 3.3895313892515355e+38, BF16, 3.3895313892515355e+38},
		{"bf16 f32 max overflows", math.MaxFloat32, BF16, math.Inf(1)},
		{"f32 1e300 overflows", 1e300, F32, math.Inf(1)},
		{"f64 direct, no double rounding", 1.00048828125 + 1e-12, F16, 1.0009765625},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RoundFloat(tt.x, tt.d)
			if math.Float64bits(got) != math.Float64bits(tt.want) {
				t.Errorf("RoundFloat(%v, %s) = %v, want %v", tt.x, tt.d, got, tt.want)
			}
		})
	}
}

func TestFormatFloat(t *testing.T) {
	tests := []struct {
		x    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {-3.5, "-3.5"},
		{0.1, "0.1"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {1e-4, "0.0001"},
		{1e-5, "1e-05"}, {1.5e300, "1.5e+300"}, {5e-324, "5e-324"},
		{math.NaN(), "nan"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
		{9223372036854775807, "9.223372036854776e+18"}, {16777217, "16777217.0"},
	}
	for _, tt := range tests {
		if got := FormatFloat(tt.x); got != tt.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tt.x, got, tt.want)
		}
		back, err := ParseFloatText(tt.want)
		if err != nil || (math.Float64bits(back) != math.Float64bits(tt.x) && !math.IsNaN(tt.x)) {
			t.Errorf("ParseFloatText(%q) = %v, %v; want %v", tt.want, back, err, tt.x)
		}
	}
}

func TestParseFloatText(t *testing.T) {
	good := map[string]float64{"0x1.8p+1": 3, "1e400": math.Inf(1), "-1e400": math.Inf(-1), "-inf": math.Inf(-1), "+1.5": 1.5}
	for s, want := range good {
		if got, err := ParseFloatText(s); err != nil || got != want {
			t.Errorf("ParseFloatText(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "abc", "1_0", "1.0.0", " 1"} {
		if _, err := ParseFloatText(s); err == nil {
			t.Errorf("ParseFloatText(%q) succeeded, want an error", s)
		}
	}
}

func TestULPDistance(t *testing.T) {
	one := 1.0
	next := math.Nextafter32(1, 2)
	if d := ULPDistance(one, float64(next), F32); d != 1 {
		t.Errorf("1 and its f32 successor: %d ulps", d)
	}
	if d := ULPDistance(0, math.Copysign(0, -1), F32); d != 0 {
		t.Errorf("±0: %d ulps", d)
	}
	if d := ULPDistance(-FloatFromBits(1, F16), FloatFromBits(1, F16), F16); d != 2 {
		t.Errorf("±smallest f16 subnormal: %d ulps", d)
	}
}
