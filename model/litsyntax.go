package model

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The syntax of the literals of from_literal, arange and typed scalar
// operands: what rustc and Python accept, before any typing rule. The CPU
// engine reads literals with its own code: one that called this could not
// disagree with the model.
//
// Both readers refuse a literal that nests lists deeper than tensor.MaxRank
// or holds more than tensor.MaxElements scalars (or items in one list): no
// tensor could hold it, and the limits keep reading linear in the text and
// memory bounded by the case limits, whatever the input. Each caller turns
// the error into an outcome as for any other malformed literal.

// maxLiteralElements is tensor.MaxElements, a variable only so that a test
// reaches the limit with a small literal.
var maxLiteralElements = tensor.MaxElements

// errLiteralSize is the error of a literal beyond those limits.
var errLiteralSize = fmt.Errorf("literal nested deeper than %d or with more than %d elements", tensor.MaxRank, tensor.MaxElements)

// Rust literal syntax, as from_literal and arange write literals for the
// Rust frameworks: "[1.0, 2.0]", "[1i64, 2]", "[[1f32, 2.], [3., 4.]]",
// "3.5f32", "&[1, 2]", "vec![vec![1f32, 2.], vec![3.]]", "0u32". What type
// rustc gives the elements is rustliteral.go's rule.

// rustLitNode is a parsed literal: a list (an array or vec!) or one scalar.
type rustLitNode struct {
	List   bool
	Vec    bool // vec![..] rather than [..]
	Items  []*rustLitNode
	Scalar rustLitElem // when !List
}

// rustLitElem is one scalar token of a literal.
type rustLitElem struct {
	IsBool, BoolValue bool
	Neg               bool   // a leading minus sign
	Float             bool   // has '.', an exponent or an f32/f64 suffix
	Digits            string // the number without sign, underscores and suffix
	Suffix            string // "i64", "f32", ... or ""
}

// rustIntType reports whether s names a Rust integer type.
func rustIntType(s string) bool {
	switch s {
	case "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize":
		return true
	}
	return false
}

// readRustSyntax parses a Rust literal; an error means text is not one at
// all (a Python literal such as "[True]", scalars and lists side by side in
// one list, which is E0308), which does not compile, or that it is beyond
// the size limits.
func readRustSyntax(text string) (*rustLitNode, error) {
	p := &rustLitParser{s: text}
	root, err := p.value(0)
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
// (then the shape follows the first items). It costs the size of n times
// its depth, which the reader caps at tensor.MaxRank.
func (n *rustLitNode) Shape() (shape []int, ragged bool) {
	if !n.List {
		return []int{}, false
	}
	if len(n.Items) == 0 {
		return []int{0}, false
	}
	first, ragged := n.Items[0].Shape()
	for _, it := range n.Items[1:] {
		s, r := it.Shape()
		ragged = ragged || r || !sameShape(s, first)
	}
	return append([]int{len(n.Items)}, first...), ragged
}

// Scalars returns the scalar tokens in row-major order.
func (n *rustLitNode) Scalars() []rustLitElem {
	if !n.List {
		return []rustLitElem{n.Scalar}
	}
	var out []rustLitElem
	for _, it := range n.Items {
		out = append(out, it.Scalars()...)
	}
	return out
}

// MixedNesting reports lists of another kind (array vs vec!) than their
// parent anywhere below n: a type (Vec<[T; N]>, [Vec<T>; N]) no constructor takes.
func (n *rustLitNode) MixedNesting() bool {
	for _, it := range n.Items {
		if it.List && (it.Vec != n.Vec || it.MixedNesting()) {
			return true
		}
	}
	return false
}

type rustLitParser struct {
	s       string
	i       int
	scalars int
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

// value parses a list or a scalar inside depth lists.
func (p *rustLitParser) value(depth int) (*rustLitNode, error) {
	p.eat("&")
	if p.eat("vec!") {
		if !p.eat("[") {
			return nil, fmt.Errorf("vec! without [")
		}
		return p.list(true, depth)
	}
	if p.eat("[") {
		return p.list(false, depth)
	}
	if p.scalars++; p.scalars > maxLiteralElements {
		return nil, errLiteralSize
	}
	s, err := p.scalar()
	if err != nil {
		return nil, err
	}
	return &rustLitNode{Scalar: s}, nil
}

// list parses the items of a list inside depth lists: all scalars or all
// lists (rustc gives an array or Vec one element type).
func (p *rustLitParser) list(vec bool, depth int) (*rustLitNode, error) {
	if depth >= tensor.MaxRank {
		return nil, errLiteralSize
	}
	n := &rustLitNode{List: true, Vec: vec}
	for {
		if p.eat("]") {
			return n, nil
		}
		item, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		switch {
		case len(n.Items) == maxLiteralElements:
			return nil, errLiteralSize
		case len(n.Items) > 0 && item.List != n.Items[0].List:
			return nil, errors.New("mismatched types: scalars and lists in one list (E0308)")
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
func (p *rustLitParser) scalar() (rustLitElem, error) {
	var el rustLitElem
	for _, b := range []bool{true, false} {
		if p.eat(strconv.FormatBool(b)) {
			return rustLitElem{IsBool: true, BoolValue: b}, nil
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
		case rustIntType(el.Suffix) && !el.Float:
		default:
			return el, fmt.Errorf("bad literal suffix %q", el.Suffix)
		}
	}
	return el, nil
}

// Python literal syntax, as from_literal writes literals for PyTorch, NumPy
// and JAX: "[1.0, 2.0]", "[[1, 2], [3, 4.0]]", "3.5", "[true, False]",
// "[1e+20, nan]". The dtype a framework infers is pycreate.go's rule.

// literalKind is the Python type of one element of a Python literal.
type literalKind uint8

const (
	litBool literalKind = iota
	litInt
	litFloat
)

// literalElem is one element of a Python literal: its kind and its text
// ("true"/"false" for bools, the number as written otherwise).
type literalElem struct {
	Kind literalKind
	Text string
}

// readPythonSyntax reads nested lists of numbers, true and false (also True
// and False) and returns the elements in row-major order and the shape.
// Lists of one level must have the same shape (torch.tensor and np.array
// reject ragged literals).
func readPythonSyntax(text string) ([]literalElem, []int, error) {
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
	elems []literalElem
}

func (p *pyLitParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
}

// value parses a list or a scalar inside depth lists and returns its shape.
func (p *pyLitParser) value(depth int) ([]int, error) {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '[' {
		return p.list(depth)
	}
	if len(p.elems) == maxLiteralElements {
		return nil, errLiteralSize
	}
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune("[], \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
	word := p.s[start:p.i]
	switch {
	case word == "true" || word == "True" || word == "false" || word == "False":
		p.elems = append(p.elems, literalElem{litBool, strings.ToLower(word)})
	case word == "":
		return nil, fmt.Errorf("missing value at offset %d", start)
	case strings.ContainsAny(word, ".eEnN"): // decimals, exponents, inf, nan
		if _, err := tensor.ParseFloatText(word); err != nil {
			return nil, err
		}
		p.elems = append(p.elems, literalElem{litFloat, word})
	default:
		if _, ok := new(big.Int).SetString(word, 10); !ok {
			return nil, fmt.Errorf("%q is not a number", word)
		}
		p.elems = append(p.elems, literalElem{litInt, word})
	}
	return []int{}, nil
}

// list parses [v, v, ...] inside depth lists; every item must have the
// same shape.
func (p *pyLitParser) list(depth int) ([]int, error) {
	if depth >= tensor.MaxRank {
		return nil, errLiteralSize
	}
	p.i++ // '['
	var item []int
	for n := 0; ; n++ {
		if n == maxLiteralElements {
			return nil, errLiteralSize
		}
		p.space()
		if n == 0 && p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return []int{0}, nil
		}
		shape, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if n > 0 && !sameShape(shape, item) {
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
