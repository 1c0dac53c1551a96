package reports

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Repro programs write every float so that it denotes the element exactly:
// as a decimal when the shortest decimal of the value is the value itself
// (0.5, -2.5, 16777217.0, 1e+20), and otherwise as a hex float or raw bits
// (0.1 is not a binary fraction; the program must not depend on how its
// language rounds the decimal).

// exactDecimal returns the shortest decimal that parses back to x ("0.5",
// "1e+20") and whether it denotes x exactly. NaN and infinities are not
// decimals.
func exactDecimal(x float64) (string, bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "", false
	}
	s := tensor.FormatFloat(x)
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return s, false
	}
	return s, r.Cmp(new(big.Rat).SetFloat64(x)) == 0
}

// hexFloat writes x as a C99 / Python hex float: "0x1.999999999999ap-4".
func hexFloat(x float64) string {
	s := strconv.FormatFloat(x, 'x', -1, 64) // "0x1.999999999999ap-04"
	mant, exp, _ := strings.Cut(s, "p")
	sign := exp[:1]
	digits := strings.TrimLeft(exp[1:], "0")
	if digits == "" {
		digits = "0"
	}
	return mant + "p" + sign + digits
}
