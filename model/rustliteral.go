package model

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Rust literals as the catalog's from_literal and arange cases write them
// for the Rust frameworks: "[1.0, 2.0]", "[1i64, 2]", "[[1f32, 2.], [3., 4.]]",
// "3.5f32", "vec![vec![1f32, 2.], vec![3.]]", "0u32". The type of every
// element is decided as rustc decides it (rust.literal.typing); what a
// framework then does with the nested arrays is its own rule.

// rustLitNode is a parsed literal: a list (array or vec!) or one element.
type rustLitNode struct {
	list  bool
	vec   bool // vec![..] rather than [..]
	items []*rustLitNode
	elem  rustLitElem
}

// rustLitElem is one scalar literal.
type rustLitElem struct {
	digits string // the number without sign, underscores and suffix
	neg    bool
	float  bool   // a float literal: has '.', an exponent or an f suffix
	boolV  *bool  // true / false
	suffix string // "i64", "f32", ... or ""
}

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

var rustIntTypes = map[string]bool{"i8": true, "i16": true, "i32": true, "i64": true, "i128": true, "isize": true,
	"u8": true, "u16": true, "u32": true, "u64": true, "u128": true, "usize": true}

// parseRustLiteral parses the literal text; err means the text is not a Rust
// literal at all (a Python literal such as "[True]"), which does not compile.
func parseRustLiteral(text string) (*rustLiteral, error) {
	p := &rustLitParser{s: text}
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q", p.s[p.i:])
	}
	lit := &rustLiteral{root: root, vec: root.list && root.vec}
	lit.shape, lit.ragged = rustLitShape(root)
	rustLitFlatten(root, &lit.elems)
	lit.typ, lit.compile = rustLitType(lit.elems, "")
	if lit.compile == "" && rustLitMixedNesting(root) {
		lit.compile = "arrays and vec! mixed in one literal"
	}
	return lit, nil
}

type rustLitParser struct {
	s string
	i int
}

func (p *rustLitParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *rustLitParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *rustLitParser) value() (*rustLitNode, error) {
	p.eat("&")
	if p.eat("vec!") {
		if !p.eat("[") {
			return nil, fmt.Errorf("vec! without [")
		}
		return p.list(true)
	}
	if p.eat("[") {
		return p.list(false)
	}
	el, err := p.scalar()
	if err != nil {
		return nil, err
	}
	return &rustLitNode{elem: el}, nil
}

func (p *rustLitParser) list(vec bool) (*rustLitNode, error) {
	n := &rustLitNode{list: true, vec: vec}
	for {
		if p.eat("]") {
			return n, nil
		}
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, item)
		if !p.eat(",") {
			if !p.eat("]") {
				return nil, fmt.Errorf("missing ] or ,")
			}
			return n, nil
		}
	}
}

// scalar reads true, false or a number with an optional sign and suffix.
func (p *rustLitParser) scalar() (rustLitElem, error) {
	var el rustLitElem
	for _, b := range []bool{true, false} {
		if p.eat(strconv.FormatBool(b)) {
			v := b
			el.boolV = &v
			return el, nil
		}
	}
	el.neg = p.eat("-")
	p.space()
	start := p.i
	digits := func() {
		for p.i < len(p.s) && (rustIsDigit(p.s[p.i]) || p.s[p.i] == '_') {
			p.i++
		}
	}
	digits()
	if p.i == start || !rustIsDigit(p.s[start]) {
		return el, fmt.Errorf("not a Rust number at %q", p.s[start:])
	}
	if p.i < len(p.s) && p.s[p.i] == '.' && !(p.i+1 < len(p.s) && rustIsLetter(p.s[p.i+1])) {
		el.float = true
		p.i++
		digits()
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		j := p.i + 1
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		if j < len(p.s) && rustIsDigit(p.s[j]) {
			el.float = true
			p.i = j
			digits()
		}
	}
	el.digits = strings.ReplaceAll(p.s[start:p.i], "_", "")
	if p.i < len(p.s) && rustIsLetter(p.s[p.i]) {
		s := p.i
		for p.i < len(p.s) && (rustIsLetter(p.s[p.i]) || rustIsDigit(p.s[p.i])) {
			p.i++
		}
		el.suffix = p.s[s:p.i]
		switch {
		case el.suffix == "f32" || el.suffix == "f64":
			el.float = true
		case rustIntTypes[el.suffix] && !el.float:
		default:
			return el, fmt.Errorf("bad literal suffix %q", el.suffix)
		}
	}
	return el, nil
}

func rustIsDigit(c byte) bool  { return c >= '0' && c <= '9' }
func rustIsLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rustLitShape returns the nesting shape, and whether some level is ragged
// (then the shape is the one of the first elements).
func rustLitShape(n *rustLitNode) ([]int, bool) {
	if !n.list {
		return []int{}, false
	}
	if len(n.items) == 0 {
		return []int{0}, false
	}
	first, ragged := rustLitShape(n.items[0])
	for _, it := range n.items[1:] {
		s, r := rustLitShape(it)
		ragged = ragged || r || !sameShape(s, first)
	}
	return append([]int{len(n.items)}, first...), ragged
}

func rustLitFlatten(n *rustLitNode, out *[]rustLitElem) {
	if !n.list {
		*out = append(*out, n.elem)
		return
	}
	for _, it := range n.items {
		rustLitFlatten(it, out)
	}
}

// rustLitMixedNesting reports arrays and vec! at different levels, a type
// (Vec<[T; N]>, [Vec<T>; N]) that no framework's constructor takes here.
func rustLitMixedNesting(n *rustLitNode) bool {
	var walk func(n *rustLitNode) bool
	walk = func(c *rustLitNode) bool {
		for _, it := range c.items {
			if it.list && (it.vec != n.vec || walk(it)) {
				return true
			}
		}
		return false
	}
	return n.list && walk(n)
}

// rustLitType resolves the common type of elems as rustc would; hint is the
// type the context expects ("" for none). compile says why it does not
// compile.
func rustLitType(elems []rustLitElem, hint string) (typ, compile string) {
	nBool := 0
	suffix := hint
	for _, el := range elems {
		if el.boolV != nil {
			nBool++
			continue
		}
		if el.suffix != "" {
			if suffix != "" && suffix != el.suffix {
				return "", fmt.Sprintf("mismatched types: expected `%s`, found `%s` (E0308)", suffix, el.suffix)
			}
			suffix = el.suffix
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
		if el.float {
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
	case rustIntTypes[typ] && anyFloat:
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
		if v, err := strconv.ParseFloat(el.digits, bits); err != nil || math.IsInf(v, 0) {
			return fmt.Sprintf("literal out of range for `%s` (overflowing_literals)", typ)
		}
		return ""
	}
	if el.neg && typ[0] == 'u' {
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
	v, _ := new(big.Int).SetString(el.digits, 10)
	if v == nil {
		v = new(big.Int)
	}
	if el.neg {
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
		case el.boolV != nil:
			t.SetBool(i, *el.boolV)
		case d.IsFloat():
			bits := 64
			if d == tensor.F32 {
				bits = 32
			}
			v, _ := strconv.ParseFloat(el.digits, bits)
			if el.neg {
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
