package metal

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Host scalars of a Rust program: `t.maximum(s)` and `t.lt(s)` take any
// WithDType value s, which candle makes into a CPU tensor of s's type and
// converts to t's dtype with the CPU's to_dtype (Rust `as`) before moving
// it to the device.

// rustScalar is a typed Rust scalar value.
type rustScalar struct {
	typ tensor.DType // its Rust type as a candle dtype
	i   *big.Int     // an integer's value
	f   float64      // a float's value
}

var (
	rustIntLit   = regexp.MustCompile(`^-?[0-9][0-9_]*$`)
	rustFloatLit = regexp.MustCompile(`^-?[0-9][0-9_]*(\.[0-9_]*)?([eE][+-]?[0-9_]+)?$`)
)

// rustScalarType is the Rust type of s as a compiler would name it.
func rustScalarType(s *tensor.Scalar) string {
	typ := s.Host
	if typ == "" {
		typ = "f64" // a float literal where candle takes an f64
		switch s.Kind {
		case tensor.ScalarBool:
			typ = "bool"
		case tensor.ScalarInt:
			typ = "{integer}"
		}
	}
	return typ
}

// parseRustScalar types the scalar as Rust does: a literal is i32 (integer)
// or f64 (float) unless a host type is given; bool is not a candle type; a
// literal out of its type's range, or text that is no literal ("nan",
// "inf"), does not compile.
func parseRustScalar(s *tensor.Scalar) (rustScalar, error) {
	if s.Kind == tensor.ScalarBool {
		return rustScalar{}, unsupported("the trait `WithDType` is not implemented for `bool`")
	}
	host := s.Host
	if host == "" {
		host = map[tensor.ScalarKind]string{tensor.ScalarInt: "i32", tensor.ScalarFloat: "f64"}[s.Kind]
	}
	d, err := tensor.ParseDType(host)
	if _, ok := candleType(d); err != nil || !ok {
		return rustScalar{}, unsupported("the trait `WithDType` is not implemented for `%s`", host)
	}
	text := strings.ReplaceAll(s.Text, "_", "")
	if d.IsInt() {
		if !rustIntLit.MatchString(s.Text) {
			return rustScalar{}, unsupported("mismatched types: expected `%s`, found %q", host, s.Text)
		}
		v, _ := new(big.Int).SetString(text, 10)
		lo, hi := big.NewInt(d.MinInt()), new(big.Int).SetUint64(d.MaxUint())
		if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
			return rustScalar{}, unsupported("literal out of range for `%s` (overflowing_literals)", host)
		}
		return rustScalar{typ: d, i: v}, nil
	}
	if !rustFloatLit.MatchString(s.Text) || rustIntLit.MatchString(s.Text) {
		return rustScalar{}, unsupported("%q is not a float literal of type `%s`", s.Text, host)
	}
	// rustc reads the literal in its type's precision: an f32 is rounded
	// once from the decimal text, not through f64
	bits := 64
	if d == tensor.F32 {
		bits = 32
	}
	f, err := strconv.ParseFloat(text, bits)
	if err != nil || math.IsInf(f, 0) {
		return rustScalar{}, unsupported("literal out of range for `%s`", host)
	}
	return rustScalar{typ: d, f: f}, nil
}

// as is Tensor::new(s).to_dtype(d) on the CPU: a one-element tensor of d,
// converted with Rust `as` (floats to integers saturate, NaN -> 0; integers
// wrap; integers reach f16/bf16 through f32; floats round once).
func (s rustScalar) as(d tensor.DType) *tensor.Tensor {
	out := tensor.New(d, 1)
	switch {
	case s.i != nil && d.IsInt():
		out.SetUint(0, new(big.Int).And(s.i, new(big.Int).SetUint64(math.MaxUint64)).Uint64())
	case s.i != nil:
		via := tFloat // `v as f32`, then f16/bf16::from_f32
		if d == tensor.F64 {
			via = tDouble
		}
		mag := new(big.Int).Abs(s.i).Uint64()
		out.SetFloat(0, intToFloat(mag, s.i.Sign() < 0, via))
	case d.IsInt():
		t, _ := mslTypeOf(d)
		out.SetUint(0, floatToInt(s.f, t))
	default:
		out.SetFloat(0, s.f)
	}
	return out
}
