package cpu

import (
	"math"
	"math/big"
	"strconv"

	"github.com/tfuzz/tfuzz/tensor"
)

// Rust literals, as from_literal, arange and candle's typed scalar operands
// write them: "[1.0, 2.0]", "[1i64, 2]", "[[1f32, 2.], [3., 4.]]", "3.5f32",
// "vec![vec![1f32, 2.], vec![3.]]", "0u32". rustc fixes one element type for
// the whole literal (policy rust.literal.typing): a suffix on any element
// types all of them, otherwise a float literal is f64 and an integer i32;
// floats and integers do not mix (E0308), and a literal outside its type
// does not compile (overflowing_literals, E0600 for a negative unsigned).

// The syntax is tensor.ParseRustLiteral's; rustc's typing of the elements
// is this file's rule.
type (
	rlNode = tensor.LiteralNode
	rlElem = tensor.LiteralScalar
)

// rustLit is a parsed literal with its shape and resolved type.
type rustLit struct {
	root   *rlNode
	shape  []int // the nesting of the first elements
	ragged bool  // some level holds lists of different shapes
	elems  []rlElem
	typ    string // the element type ("" when it does not compile)
	// compile is why rustc rejects the literal ("" when it compiles).
	compile string
}

// parseRustLit parses text; ok is false when it is not a Rust literal at all.
func parseRustLit(text string) (*rustLit, bool) {
	root, err := tensor.ParseRustLiteral(text)
	if err != nil {
		return nil, false
	}
	lit := &rustLit{root: root, elems: root.Scalars()}
	lit.shape, lit.ragged = root.Shape()
	lit.typ, lit.compile = rlType(lit.elems, "")
	if lit.compile == "" && root.List && root.MixedNesting() {
		lit.typ, lit.compile = "", "arrays and vec! mixed in one literal"
	}
	return lit, true
}

// rlType resolves the element type of elems as rustc does, hint being the
// type the context expects ("" for none).
func rlType(elems []rlElem, hint string) (typ, compile string) {
	nBool, suffix := 0, hint
	for _, el := range elems {
		if el.IsBool {
			nBool++
			continue
		}
		if el.Suffix != "" {
			if suffix != "" && suffix != el.Suffix {
				return "", "mismatched types: expected `" + suffix + "`, found `" + el.Suffix + "` (E0308)"
			}
			suffix = el.Suffix
		}
	}
	switch {
	case len(elems) > 0 && nBool == len(elems):
		return "bool", ""
	case nBool > 0:
		return "", "mismatched types: expected `bool`, found integer (E0308)"
	}
	anyFloat, anyInt := false, false
	for _, el := range elems {
		anyFloat = anyFloat || el.Float
		anyInt = anyInt || !el.Float
	}
	typ = suffix
	isFloatType := typ == "f32" || typ == "f64"
	switch {
	case typ == "" && anyFloat && anyInt:
		return "", "mismatched types: expected floating-point number, found integer (E0308)"
	case typ == "" && anyFloat:
		typ = "f64"
	case typ == "":
		typ = "i32"
	case isFloatType && anyInt:
		return "", "mismatched types: expected `" + typ + "`, found integer (E0308)"
	case !isFloatType && anyFloat:
		return "", "mismatched types: expected `" + typ + "`, found floating-point number (E0308)"
	}
	for _, el := range elems {
		if !rlFits(el, typ) {
			if el.Neg && typ[0] == 'u' {
				return "", "cannot apply unary operator `-` to type `" + typ + "` (E0600)"
			}
			return "", "literal out of range for `" + typ + "` (overflowing_literals)"
		}
	}
	return typ, ""
}

// rlFits reports whether the literal el compiles as a value of typ.
func rlFits(el rlElem, typ string) bool {
	switch typ {
	case "f32", "f64":
		size := 64
		if typ == "f32" {
			size = 32
		}
		v, err := strconv.ParseFloat(el.Digits, size)
		return err == nil && !math.IsInf(v, 0)
	}
	if el.Neg && typ[0] == 'u' {
		return false
	}
	d, err := tensor.ParseDType(typ)
	if err != nil {
		return true // i128, isize, usize: no dtype, no range to check here
	}
	v := rlInt(el)
	lo, hi := big.NewInt(d.MinInt()), new(big.Int).SetUint64(d.MaxUint())
	return v.Cmp(lo) >= 0 && v.Cmp(hi) <= 0
}

// rlInt is the integer value of el.
func rlInt(el rlElem) *big.Int {
	v, ok := new(big.Int).SetString(el.Digits, 10)
	if !ok {
		v = new(big.Int)
	}
	if el.Neg {
		v.Neg(v)
	}
	return v
}

// rlDType maps a Rust element type to a dtype.
func rlDType(typ string) (tensor.DType, bool) {
	d, err := tensor.ParseDType(typ)
	return d, err == nil
}

// rlTensor builds the tensor of elems (type typ, mapped to dtype d) with
// the given shape: integers exactly, floats parsed once at d's precision.
func rlTensor(elems []rlElem, shape []int, d tensor.DType) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, el := range elems {
		switch {
		case el.IsBool:
			t.SetBool(i, el.BoolValue)
		case d.IsFloat():
			size := 64
			if d == tensor.F32 {
				size = 32
			}
			v, _ := strconv.ParseFloat(el.Digits, size)
			if el.Neg {
				v = -v
			}
			t.SetFloat(i, v)
		default:
			if v := rlInt(el); v.IsInt64() {
				t.SetInt(i, v.Int64())
			} else {
				t.SetUint(i, v.Uint64())
			}
		}
	}
	return t
}
