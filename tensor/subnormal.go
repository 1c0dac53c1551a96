package tensor

import (
	"math"
	"math/big"
	"sync"
)

// Decimal texts of subnormal floats ("5e-324", "3e-310") take strconv's
// slow path, about 26 µs each: a line of 2^23 of them took minutes to
// decode. parseTinyDecimal reads them exactly in about 1 µs:
// a subnormal float64 is q·2^-1074 with q < 2^52, so for a decimal
// m·10^e the float is round(m·2^1074 / 10^-e) ulps of 2^-1074, ties to
// even, one integer division.

// tinyExp10 is the decimal magnitude below which texts take this path: a
// value under 10^-308 is below the smallest normal float64 (2.2e-308), at
// most 0.45·2^52 ulps of 2^-1074, so q stays exact in a float64.
const tinyExp10 = -308

// maxTinyDigits bounds the mantissa digits this path reads: strconv's slow
// path keeps 800, and 10^-e then stays under 10^1200.
const maxTinyDigits = 800

// parseTinyDecimal returns the float64 nearest to s, ties to even, when s
// is a plain decimal ([+-]digits[.digits][e[+-]digits]) whose value is
// below 10^-308 in magnitude; ok is false for every other text, which
// strconv reads.
func parseTinyDecimal(s string) (v float64, ok bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	w := tinyScratch.Get().(*tinyWork)
	defer tinyScratch.Put(w)
	// the mantissa's digits without leading zeros, and the exponent of its
	// last digit
	digits := w.digits[:0]
	defer func() { w.digits = digits[:0] }()
	exp, i, seen, point := 0, 0, false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seen = true
			if point {
				exp--
			}
			if c != '0' || len(digits) > 0 {
				if len(digits) == maxTinyDigits {
					return 0, false // strconv truncates such texts (and the division would grow)
				}
				digits = append(digits, c)
			}
		case c == '.' && !point:
			point = true
		default:
			goto exponent
		}
	}
exponent:
	if !seen {
		return 0, false
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return 0, false
		}
		e, ok := smallExponent(s[i+1:])
		if !ok {
			return 0, false
		}
		exp += e
	}
	signed := func(x float64) float64 {
		if neg {
			return -x
		}
		return x
	}
	if len(digits) == 0 {
		return signed(0), true
	}
	// the value is in [10^top, 10^(top+1)) with top = exp + len(digits) - 1
	top := exp + len(digits) - 1
	switch {
	case top >= tinyExp10:
		return 0, false
	case top < -325: // below 10^-325, under half of the smallest subnormal (4.9e-324)
		return signed(0), true
	}
	num := w.num.SetUint64(0)
	for rest := digits; len(rest) > 0; { // 19 digits at a time
		k := min(len(rest), 19)
		var chunk uint64
		for _, c := range rest[:k] {
			chunk = chunk*10 + uint64(c-'0')
		}
		num.Mul(num, pow10(k)).Add(num, w.chunk.SetUint64(chunk))
		rest = rest[k:]
	}
	num.Lsh(num, 1074)
	den := pow10(-exp) // exp < 0: top < -308 and digits are integers
	q, r := w.q.QuoRem(num, den, &w.r)
	qu := q.Uint64() // q <= 2^52: the float is exact (2^52 ulps is the smallest normal)
	switch r.Lsh(r, 1).Cmp(den) {
	case 1:
		qu++
	case 0:
		qu += qu & 1
	}
	return signed(math.Ldexp(float64(qu), -1074)), true
}

// tinyWork is the scratch space of one parseTinyDecimal call: a case file
// holds millions of elements, and each would otherwise allocate its own.
type tinyWork struct {
	digits           []byte
	num, chunk, q, r big.Int
}

var tinyScratch = sync.Pool{New: func() any { return new(tinyWork) }}

// smallExponent reads an exponent's text; ok is false when it is not one or
// lies beyond ±100000, where strconv's own handling is fast.
func smallExponent(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || len(s) > 6 {
		return 0, false
	}
	e := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		e = e*10 + int(c-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// pow10Cache holds 10^n for the n this path divides by (below 1200: at
// most 1200 numbers of at most 500 bytes).
var pow10Cache sync.Map // int -> *big.Int

// pow10 is 10^n, cached (a case file's subnormals share a few exponents).
// The result must not be modified.
func pow10(n int) *big.Int {
	if p, ok := pow10Cache.Load(n); ok {
		return p.(*big.Int)
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
	pow10Cache.Store(n, p)
	return p
}
