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

// rlNode is a parsed literal: a list ([..] or vec![..]) or one element.
type rlNode struct {
	list, vec bool
	items     []*rlNode
	el        rlElem
}

// rlElem is one scalar literal token.
type rlElem struct {
	isBool, boolV bool
	neg, float    bool
	digits        string // the number without sign, underscores and suffix
	suffix        string
}

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
	p := rlParser{s: text}
	root, ok := p.value()
	p.skipSpace()
	if !ok || p.i != len(p.s) {
		return nil, false
	}
	lit := &rustLit{root: root}
	lit.shape, lit.ragged = rlShape(root)
	rlFlatten(root, &lit.elems)
	lit.typ, lit.compile = rlType(lit.elems, "")
	if lit.compile == "" && root.list && rlMixed(root) {
		lit.typ, lit.compile = "", "arrays and vec! mixed in one literal"
	}
	return lit, true
}

type rlParser struct {
	s string
	i int
}

func (p *rlParser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// accept consumes tok (after white space) if it comes next.
func (p *rlParser) accept(tok string) bool {
	p.skipSpace()
	if len(p.s)-p.i >= len(tok) && p.s[p.i:p.i+len(tok)] == tok {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *rlParser) value() (*rlNode, bool) {
	p.accept("&")
	switch {
	case p.accept("vec!"):
		if !p.accept("[") {
			return nil, false
		}
		return p.list(true)
	case p.accept("["):
		return p.list(false)
	}
	el, ok := p.element()
	return &rlNode{el: el}, ok
}

func (p *rlParser) list(vec bool) (*rlNode, bool) {
	n := &rlNode{list: true, vec: vec}
	for {
		if p.accept("]") {
			return n, true
		}
		item, ok := p.value()
		if !ok {
			return nil, false
		}
		n.items = append(n.items, item)
		if !p.accept(",") {
			return n, p.accept("]")
		}
	}
}

func rlDigit(c byte) bool  { return '0' <= c && c <= '9' }
func rlLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// element reads true, false, or a number with an optional sign and suffix.
func (p *rlParser) element() (rlElem, bool) {
	var el rlElem
	if p.accept("true") {
		return rlElem{isBool: true, boolV: true}, true
	}
	if p.accept("false") {
		return rlElem{isBool: true}, true
	}
	el.neg = p.accept("-")
	p.skipSpace()
	s := p.s
	start := p.i
	digits := func() {
		for p.i < len(s) && (rlDigit(s[p.i]) || s[p.i] == '_') {
			p.i++
		}
	}
	if p.i >= len(s) || !rlDigit(s[p.i]) {
		return el, false
	}
	digits()
	if p.i < len(s) && s[p.i] == '.' && !(p.i+1 < len(s) && rlLetter(s[p.i+1])) {
		el.float = true
		p.i++
		digits()
	}
	if p.i < len(s) && (s[p.i] == 'e' || s[p.i] == 'E') {
		j := p.i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && rlDigit(s[j]) {
			el.float = true
			p.i = j
			digits()
		}
	}
	raw := s[start:p.i]
	buf := make([]byte, 0, len(raw))
	for k := 0; k < len(raw); k++ {
		if raw[k] != '_' {
			buf = append(buf, raw[k])
		}
	}
	el.digits = string(buf)
	if p.i < len(s) && rlLetter(s[p.i]) {
		k := p.i
		for p.i < len(s) && (rlLetter(s[p.i]) || rlDigit(s[p.i])) {
			p.i++
		}
		el.suffix = s[k:p.i]
		switch {
		case el.suffix == "f32" || el.suffix == "f64":
			el.float = true
		case rustIntType(el.suffix) && !el.float:
		default:
			return el, false
		}
	}
	return el, true
}

// rustIntType reports Rust's integer type names.
func rustIntType(s string) bool {
	switch s {
	case "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize":
		return true
	}
	return false
}

// rlShape returns the nesting shape of n and whether a level is ragged.
func rlShape(n *rlNode) ([]int, bool) {
	if !n.list {
		return []int{}, false
	}
	if len(n.items) == 0 {
		return []int{0}, false
	}
	first, ragged := rlShape(n.items[0])
	for _, it := range n.items[1:] {
		s, r := rlShape(it)
		ragged = ragged || r || !rustSameShape(s, first)
	}
	return append([]int{len(n.items)}, first...), ragged
}

func rlFlatten(n *rlNode, out *[]rlElem) {
	if !n.list {
		*out = append(*out, n.el)
		return
	}
	for _, it := range n.items {
		rlFlatten(it, out)
	}
}

// rlMixed reports lists of another kind (array vs vec!) than their parent,
// anywhere below the list n.
func rlMixed(n *rlNode) bool {
	for _, it := range n.items {
		if it.list && (it.vec != n.vec || rlMixed(it)) {
			return true
		}
	}
	return false
}

// rlType resolves the element type of elems as rustc does, hint being the
// type the context expects ("" for none).
func rlType(elems []rlElem, hint string) (typ, compile string) {
	nBool, suffix := 0, hint
	for _, el := range elems {
		if el.isBool {
			nBool++
			continue
		}
		if el.suffix != "" {
			if suffix != "" && suffix != el.suffix {
				return "", "mismatched types: expected `" + suffix + "`, found `" + el.suffix + "` (E0308)"
			}
			suffix = el.suffix
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
		anyFloat = anyFloat || el.float
		anyInt = anyInt || !el.float
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
			if el.neg && typ[0] == 'u' {
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
		v, err := strconv.ParseFloat(el.digits, size)
		return err == nil && !math.IsInf(v, 0)
	}
	if el.neg && typ[0] == 'u' {
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
	v, ok := new(big.Int).SetString(el.digits, 10)
	if !ok {
		v = new(big.Int)
	}
	if el.neg {
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
		case el.isBool:
			t.SetBool(i, el.boolV)
		case d.IsFloat():
			size := 64
			if d == tensor.F32 {
				size = 32
			}
			v, _ := strconv.ParseFloat(el.digits, size)
			if el.neg {
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
