package tensor

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTinyDecimalsAgreeWithStrconv: the fast path for subnormal decimals
// gives strconv.ParseFloat's float, bit for bit, for every form of text:
// shortest and long digit strings, exact halfway points between two
// subnormals (ties to even), values rounding to zero and to the smallest
// normal, signs, leading zeros, points, and texts it leaves to strconv.
func TestTinyDecimalsAgreeWithStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for range 3000 {
		q := r.Uint64() >> (12 + r.IntN(52)) // a subnormal of any size
		x := math.Float64frombits(q)
		texts = append(texts,
			strconv.FormatFloat(x, 'e', -1, 64),
			strconv.FormatFloat(x, 'e', 16+r.IntN(10), 64),
			strconv.FormatFloat(-x, 'g', 3+r.IntN(20), 64),
			strconv.FormatFloat(x, 'f', -1, 64),
			halfway(q),     // between q and q+1 ulps: ties to even
			halfway(q)+"1", // just above halfway
		)
	}
	texts = append(texts, "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-324", "1e-325", "9e-326",
		"-0e-400", "0.0", "+4.9E-324", "00000.00005e-319", "12.5e-312", "5.e-320", ".5e-320", "1e-308", "9.99e-309",
		"2.2250738585072011e-308", "2.2250738585072014e-308", "1e-99999999", "1e-", "e-320", ".e-320", "5e-32x", "0x1p-1074",
		"4.9406564584124654e-324", strings.Repeat("1", 900)+"e-1220")
	for _, s := range texts {
		want, wantErr := strconv.ParseFloat(s, 64)
		if ne, ok := wantErr.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			wantErr = nil // out of range is ±inf or ±0 here, as strconv returns it
		}
		got, err := ParseFloatText(s)
		if (err != nil) != (wantErr != nil) || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("ParseFloatText(%.60q) = %v (%x), %v; strconv gives %v (%x), %v", s, got, math.Float64bits(got), err, want, math.Float64bits(want), wantErr)
		}
	}
}

// halfway is the exact decimal of (q + 1/2) · 2^-1074.
func halfway(q uint64) string {
	num := new(big.Int).SetUint64(2*q + 1) // (2q + 1) · 2^-1075 = (2q + 1) · 5^1075 / 10^1075
	num.Mul(num, new(big.Int).Exp(big.NewInt(5), big.NewInt(1075), nil))
	return num.String() + "e-1075"
}

// TestTinyDecimalsAreFast: decoding a subnormal takes strconv about 26 µs;
// the fast path takes a few.
func TestTinyDecimalsAreFast(t *testing.T) {
	const n = 20000
	start := time.Now()
	for i := range n {
		if _, err := ParseFloatText([]string{"5e-324", "3e-310", "-1.2345678901234567e-315"}[i%3]); err != nil {
			t.Fatal(err)
		}
	}
	if per := time.Since(start) / n; per > 10*time.Microsecond {
		t.Errorf("%v per subnormal decimal, want a few µs", per)
	}
}
