package tensor

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatFloat writes x as the shortest decimal that parses back to the same
// float64, in Python's repr style ("1.0", "-0.0", "1e+20", "1e-05", "nan",
// "inf"), which is how the oracle files are written and diffs cleanly with them.
func FormatFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // "-1.2345e+06"
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsRune(s, '.') {
		s += ".0"
	}
	return s
}

// ParseFloatText parses a float element of the case format: a decimal, a hex
// float ("0x1.8p+1"), "nan", "inf" or "-inf", as float64. Decimals beyond the
// float64 range become ±inf, as Python's float() makes them.
func ParseFloatText(s string) (float64, error) {
	if len(s) <= len("+infinity") { // no lowercased copy of a long text
		switch strings.ToLower(s) {
		case "nan", "+nan", "-nan":
			return math.NaN(), nil
		case "inf", "+inf", "infinity", "+infinity":
			return math.Inf(1), nil
		case "-inf", "-infinity":
			return math.Inf(-1), nil
		}
	}
	if s == "" || strings.ContainsAny(s, "_ ") || strings.EqualFold(strings.TrimLeft(s, "+-"), "nan") {
		return 0, fmt.Errorf("%s is not a float", Quote(s))
	}
	if v, ok := parseTinyDecimal(s); ok {
		return v, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return v, nil
		}
		return 0, fmt.Errorf("%s is not a float", Quote(s))
	}
	return v, nil
}
