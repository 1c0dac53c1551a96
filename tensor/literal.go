package tensor

import (
	"fmt"
	"strconv"
	"strings"
)

// Rust literal syntax, as from_literal and arange write literals for the
// Rust frameworks: "[1.0, 2.0]", "[1i64, 2]", "[[1f32, 2.], [3., 4.]]",
// "3.5f32", "&[1, 2]", "vec![vec![1f32, 2.], vec![3.]]", "0u32". This is
// syntax only: what type rustc gives the elements, and what a framework
// makes of them, is the reader's rule.

// LiteralNode is a parsed literal: a list (an array or vec!) or one scalar.
type LiteralNode struct {
	List   bool
	Vec    bool // vec![..] rather than [..]
	Items  []*LiteralNode
	Scalar LiteralScalar // when !List
}

// LiteralScalar is one scalar token of a literal.
type LiteralScalar struct {
	IsBool, BoolValue bool
	Neg               bool   // a leading minus sign
	Float             bool   // has '.', an exponent or an f32/f64 suffix
	Digits            string // the number without sign, underscores and suffix
	Suffix            string // "i64", "f32", ... or ""
}

// RustIntType reports whether s names a Rust integer type.
func RustIntType(s string) bool {
	switch s {
	case "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize":
		return true
	}
	return false
}

// ParseRustLiteral parses a Rust literal; an error means text is not one at
// all (a Python literal such as "[True]"), which does not compile.
func ParseRustLiteral(text string) (*LiteralNode, error) {
	p := &rustLitParser{s: text}
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q", p.s[p.i:])
	}
	return root, nil
}

// Shape returns the nesting shape of n, and whether some level is ragged
// (then the shape follows the first items).
func (n *LiteralNode) Shape() (shape []int, ragged bool) {
	if !n.List {
		return []int{}, false
	}
	if len(n.Items) == 0 {
		return []int{0}, false
	}
	first, ragged := n.Items[0].Shape()
	for _, it := range n.Items[1:] {
		s, r := it.Shape()
		ragged = ragged || r || !equalShapes(s, first)
	}
	return append([]int{len(n.Items)}, first...), ragged
}

// Scalars returns the scalar tokens in row-major order.
func (n *LiteralNode) Scalars() []LiteralScalar {
	if !n.List {
		return []LiteralScalar{n.Scalar}
	}
	var out []LiteralScalar
	for _, it := range n.Items {
		out = append(out, it.Scalars()...)
	}
	return out
}

// MixedNesting reports lists of another kind (array vs vec!) than their
// parent anywhere below n: a type (Vec<[T; N]>, [Vec<T>; N]) no constructor takes.
func (n *LiteralNode) MixedNesting() bool {
	for _, it := range n.Items {
		if it.List && (it.Vec != n.Vec || it.MixedNesting()) {
			return true
		}
	}
	return false
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

func (p *rustLitParser) value() (*LiteralNode, error) {
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
	s, err := p.scalar()
	if err != nil {
		return nil, err
	}
	return &LiteralNode{Scalar: s}, nil
}

func (p *rustLitParser) list(vec bool) (*LiteralNode, error) {
	n := &LiteralNode{List: true, Vec: vec}
	for {
		if p.eat("]") {
			return n, nil
		}
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, item)
		if !p.eat(",") {
			if !p.eat("]") {
				return nil, fmt.Errorf("missing ] or ,")
			}
			return n, nil
		}
	}
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// scalar reads true, false or a number with an optional sign and suffix.
func (p *rustLitParser) scalar() (LiteralScalar, error) {
	var el LiteralScalar
	for _, b := range []bool{true, false} {
		if p.eat(strconv.FormatBool(b)) {
			return LiteralScalar{IsBool: true, BoolValue: b}, nil
		}
	}
	el.Neg = p.eat("-")
	p.space()
	start := p.i
	digits := func() {
		for p.i < len(p.s) && (isDigit(p.s[p.i]) || p.s[p.i] == '_') {
			p.i++
		}
	}
	digits()
	if p.i == start || !isDigit(p.s[start]) {
		return el, fmt.Errorf("not a Rust number at %q", p.s[start:])
	}
	if p.i < len(p.s) && p.s[p.i] == '.' && !(p.i+1 < len(p.s) && isLetter(p.s[p.i+1])) {
		el.Float = true
		p.i++
		digits()
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		j := p.i + 1
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		if j < len(p.s) && isDigit(p.s[j]) {
			el.Float = true
			p.i = j
			digits()
		}
	}
	el.Digits = strings.ReplaceAll(p.s[start:p.i], "_", "")
	if p.i < len(p.s) && isLetter(p.s[p.i]) {
		s := p.i
		for p.i < len(p.s) && (isLetter(p.s[p.i]) || isDigit(p.s[p.i])) {
			p.i++
		}
		el.Suffix = p.s[s:p.i]
		switch {
		case el.Suffix == "f32" || el.Suffix == "f64":
			el.Float = true
		case RustIntType(el.Suffix) && !el.Float:
		default:
			return el, fmt.Errorf("bad literal suffix %q", el.Suffix)
		}
	}
	return el, nil
}

// Python literal syntax, as from_literal writes literals for PyTorch, NumPy
// and JAX: "[1.0, 2.0]", "[[1, 2], [3, 4.0]]", "3.5", "[true, False]",
// "[1e+20, nan]". Again syntax only: the dtype a framework infers is the
// reader's rule.

// LiteralKind is the Python type of one element of a Python literal.
type LiteralKind uint8

const (
	LiteralBool LiteralKind = iota
	LiteralInt
	LiteralFloat
)

// PythonLiteralElem is one element of a Python literal: its kind and its
// text ("true"/"false" for bools, the number as written otherwise).
type PythonLiteralElem struct {
	Kind LiteralKind
	Text string
}

// ParsePythonLiteral reads nested lists of numbers, true and false (also
// True and False) and returns the elements in row-major order and the shape.
// Lists of one level must have the same shape (torch.tensor and np.array
// reject ragged literals).
func ParsePythonLiteral(text string) ([]PythonLiteralElem, []int, error) {
	p := &pyLitParser{s: text}
	shape, err := p.value(0)
	if err != nil {
		return nil, nil, err
	}
	if p.space(); p.i != len(p.s) {
		return nil, nil, fmt.Errorf("unexpected %q after the literal", p.s[p.i:])
	}
	return p.elems, shape, nil
}

type pyLitParser struct {
	s     string
	i     int
	elems []PythonLiteralElem
}

func (p *pyLitParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
}

// value parses a list or a scalar at nesting depth and returns its shape.
func (p *pyLitParser) value(depth int) ([]int, error) {
	p.space()
	if depth > MaxRank {
		return nil, fmt.Errorf("nesting deeper than %d", MaxRank)
	}
	if p.i < len(p.s) && p.s[p.i] == '[' {
		return p.list(depth)
	}
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune("[], \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
	word := p.s[start:p.i]
	switch {
	case word == "true" || word == "True" || word == "false" || word == "False":
		p.elems = append(p.elems, PythonLiteralElem{LiteralBool, strings.ToLower(word)})
	case word == "":
		return nil, fmt.Errorf("missing value at offset %d", start)
	case strings.ContainsAny(word, ".eEnN"): // decimals, exponents, inf, nan
		if _, err := ParseFloatText(word); err != nil {
			return nil, err
		}
		p.elems = append(p.elems, PythonLiteralElem{LiteralFloat, word})
	default:
		if _, ok := parseBigInt(word); !ok {
			return nil, fmt.Errorf("%q is not a number", word)
		}
		p.elems = append(p.elems, PythonLiteralElem{LiteralInt, word})
	}
	return []int{}, nil
}

// list parses [v, v, ...]; every item must have the same shape.
func (p *pyLitParser) list(depth int) ([]int, error) {
	p.i++ // '['
	var item []int
	for n := 0; ; n++ {
		p.space()
		if n == 0 && p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return []int{0}, nil
		}
		shape, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if n > 0 && !equalShapes(shape, item) {
			return nil, fmt.Errorf("expected sequence of shape %v at dim %d (got %v)", item, depth+1, shape)
		}
		item = shape
		p.space()
		switch {
		case p.i < len(p.s) && p.s[p.i] == ',':
			p.i++
		case p.i < len(p.s) && p.s[p.i] == ']':
			p.i++
			return append([]int{n + 1}, item...), nil
		default:
			return nil, fmt.Errorf("expected , or ] at offset %d", p.i)
		}
	}
}
