package model

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/tfuzz/tfuzz/tensor"
)

// Rust literals as the catalog's from_literal and arange cases write them
// for the Rust frameworks: "[1.0, 2.0]", "[1i64, 2]", "[[1f32, 2.], [3., 4.]]",
// "3.5f32", "vec![vec![1f32, 2.], vec![3.]]", "0u32". The type of every
// element is decided as rustc decides it (rust.literal.typing); what a
// framework then does with the nested arrays is its own rule.

// The syntax is litsyntax.go's; rustc's typing of the elements is this
// file's rule.

// rustLiteral is a literal with its resolved element type and shape.
type rustLiteral struct {
	root    *rustLitNode
	typ     string // "i32", "f64", "bool", "u8", ...
	shape   []int
	elems   []rustLitElem
	vec     bool   // the outermost list is a vec!
	ragged  bool   // lists of one level differ in length
	compile string // why rustc rejects the literal ("" when it compiles)
}

// parseRustLiteral parses the literal text; err means the text is not a Rust
// literal at all (a Python literal such as "[True]"), which does not compile.
func parseRustLiteral(text string) (*rustLiteral, error) {
	root, err := readRustSyntax(text)
	if err != nil {
		return nil, err
	}
	lit := &rustLiteral{root: root, vec: root.List && root.Vec, elems: root.Scalars()}
	lit.shape, lit.ragged = root.Shape()
	lit.typ, lit.compile = rustLitType(lit.elems, "")
	if lit.compile == "" && root.MixedNesting() {
		lit.compile = "arrays and vec! mixed in one literal"
	}
	return lit, nil
}

// rustLitType resolves the common type of elems as rustc would; hint is the
// type the context expects ("" for none). compile says why it does not
// compile.
func rustLitType(elems []rustLitElem, hint string) (typ, compile string) {
	nBool := 0
	suffix := hint
	for _, el := range elems {
		if el.IsBool {
			nBool++
			continue
		}
		if el.Suffix != "" {
			if suffix != "" && suffix != el.Suffix {
				return "", fmt.Sprintf("mismatched types: expected `%s`, found `%s` (E0308)", suffix, el.Suffix)
			}
			suffix = el.Suffix
		}
	}
	if nBool == len(elems) && len(elems) > 0 {
		return "bool", ""
	}
	if nBool > 0 {
		return "", "mismatched types: expected `bool`, found integer (E0308)"
	}
	anyFloat, anyInt := false, false
	for _, el := range elems {
		if el.Float {
			anyFloat = true
		} else {
			anyInt = true
		}
	}
	typ = suffix
	switch {
	case typ == "" && anyFloat && anyInt:
		return "", "mismatched types: expected floating-point number, found integer (E0308)"
	case typ == "" && anyFloat:
		typ = "f64"
	case typ == "":
		typ = "i32"
	case (typ == "f32" || typ == "f64") && anyInt:
		return "", fmt.Sprintf("mismatched types: expected `%s`, found integer (E0308)", typ)
	case rustIntType(typ) && anyFloat:
		return "", fmt.Sprintf("mismatched types: expected `%s`, found floating-point number (E0308)", typ)
	}
	for _, el := range elems {
		if msg := rustLitRange(el, typ); msg != "" {
			return "", msg
		}
	}
	return typ, ""
}

// rustLitRange says why the element does not fit typ ("" when it does).
func rustLitRange(el rustLitElem, typ string) string {
	if typ == "f32" || typ == "f64" {
		bits := map[string]int{"f32": 32, "f64": 64}[typ]
		if v, err := strconv.ParseFloat(el.Digits, bits); err != nil || math.IsInf(v, 0) {
			return fmt.Sprintf("literal out of range for `%s` (overflowing_literals)", typ)
		}
		return ""
	}
	if el.Neg && typ[0] == 'u' {
		return fmt.Sprintf("cannot apply unary operator `-` to type `%s` (E0600)", typ)
	}
	d, ok := rustTypeDType(typ)
	v := rustLitBigInt(el)
	if ok && (v.Cmp(big.NewInt(d.MinInt())) < 0 || v.Cmp(new(big.Int).SetUint64(d.MaxUint())) > 0) {
		return fmt.Sprintf("literal out of range for `%s` (overflowing_literals)", typ)
	}
	return ""
}

func rustLitBigInt(el rustLitElem) *big.Int {
	v, _ := new(big.Int).SetString(el.Digits, 10)
	if v == nil {
		v = new(big.Int)
	}
	if el.Neg {
		v.Neg(v)
	}
	return v
}

// rustTypeDType maps a Rust element type to a case-format dtype.
func rustTypeDType(typ string) (tensor.DType, bool) {
	d, err := tensor.ParseDType(typ)
	return d, err == nil
}

// rustLitTensor builds the tensor of a literal whose type maps to dtype d
// (ints exactly, floats parsed once into d's precision as rustc does).
func rustLitTensor(elems []rustLitElem, shape []int, d tensor.DType) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, el := range elems {
		switch {
		case el.IsBool:
			t.SetBool(i, el.BoolValue)
		case d.IsFloat():
			bits := 64
			if d == tensor.F32 {
				bits = 32
			}
			v, _ := strconv.ParseFloat(el.Digits, bits)
			if el.Neg {
				v = -v
			}
			t.SetFloat(i, v)
		default:
			v := rustLitBigInt(el)
			if v.IsInt64() {
				t.SetInt(i, v.Int64())
			} else {
				t.SetUint(i, v.Uint64())
			}
		}
	}
	return t
}
