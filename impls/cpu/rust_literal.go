package cpu

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Rust literals, as from_literal, arange and candle's typed scalar operands
// write them: "[1.0, 2.0]", "[1i64, 2]", "[[1f32, 2.], [3., 4.]]", "3.5f32",
// "&[1, 2]", "vec![vec![1f32, 2.], vec![3.]]", "0u32". The reader is one
// left-to-right pass (nesting.go); rustc's typing of the elements is
// rustLiteralType.

// rustTok is one scalar token of a Rust literal.
type rustTok struct {
	class  string // "bool", "{integer}", "{float}", or the suffix ("i64", "f32", ...)
	truth  bool   // a bool's value
	neg    bool   // a leading minus sign
	digits string // the number without sign, underscores and suffix
}

// rustLiteral is a Rust literal read from its text.
type rustLiteral struct {
	bare   bool  // one scalar, no brackets
	vec    bool  // the outermost list is a vec!
	shape  []int // the nesting along the first items
	ragged bool  // some list departs from that shape
	mixed  bool  // an array inside a vec! or a vec! inside an array
	toks   []rustTok
	// typ is the element type rustc gives the literal, and reject why rustc
	// rejects it ("" when it compiles); set by compileRustLiteral.
	typ, reject string
}

// errRustSyntax is the error of text that is not a Rust literal at all.
var errRustSyntax = errors.New("not a Rust literal")

// readRustLiteral reads text. Text that is not a Rust literal is an error,
// and so is one that nests lists deeper than tensor.MaxRank, holds more than
// tensor.MaxElements scalars or items in one list, or holds scalars and
// lists side by side in one list (E0308 in rustc).
func readRustLiteral(text string) (*rustLiteral, error) {
	sc := rustScanner{s: text}
	lit := &rustLiteral{}
	nest := newNesting()
items:
	for {
		// a value: [&] (vec![ | [ | scalar)
		sc.space()
		sc.skip("&")
		sc.space()
		isVec := sc.skip("vec!")
		if isVec {
			sc.space()
		}
		switch {
		case sc.skip("["):
			if nest.depth() == 0 {
				lit.vec = isVec
			} else if nest.top().vec != isVec {
				lit.mixed = true
			}
			if err := nest.openList(isVec); err != nil {
				return nil, err
			}
			if sc.space(); !sc.skip("]") {
				continue // the list's first item
			}
			nest.closeList()
		case isVec:
			return nil, errRustSyntax
		default:
			tok, ok := sc.scalar()
			if !ok {
				return nil, errRustSyntax
			}
			if err := nest.scalar(); err != nil {
				return nil, err
			}
			lit.toks = append(lit.toks, tok)
			lit.bare = nest.depth() == 0
		}
		// after a value: "]" closes a list, "," precedes the next item or
		// a closing "]"; at depth 0 the text ends
		for {
			sc.space()
			switch {
			case nest.depth() == 0:
				if sc.i != len(sc.s) {
					return nil, errRustSyntax
				}
				lit.shape, lit.ragged = nest.shape, nest.ragged
				return lit, nil
			case sc.skip(","):
				if sc.space(); !sc.skip("]") {
					continue items
				}
				nest.closeList()
			case sc.skip("]"):
				nest.closeList()
			default:
				return nil, errRustSyntax
			}
		}
	}
}

// rustScanner reads the text of a Rust literal.
type rustScanner struct {
	s string
	i int
}

func (sc *rustScanner) space() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// skip consumes word when the text continues with it.
func (sc *rustScanner) skip(word string) bool {
	if strings.HasPrefix(sc.s[sc.i:], word) {
		sc.i += len(word)
		return true
	}
	return false
}

func (sc *rustScanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

func asciiDigit(c byte) bool  { return '0' <= c && c <= '9' }
func asciiLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// scalar reads true, false, or [-] digits [. digits] [e[+-]digits] [suffix];
// digits may hold underscores after the first. A '.' followed by a letter is
// a method call, not a fraction.
func (sc *rustScanner) scalar() (rustTok, bool) {
	if sc.skip("true") {
		return rustTok{class: "bool", truth: true}, true
	}
	if sc.skip("false") {
		return rustTok{class: "bool"}, true
	}
	tok := rustTok{class: "{integer}"}
	if sc.skip("-") {
		tok.neg = true
		sc.space()
	}
	var digits []byte
	run := func() {
		for c := sc.peek(); asciiDigit(c) || c == '_'; c = sc.peek() {
			if c != '_' {
				digits = append(digits, c)
			}
			sc.i++
		}
	}
	if !asciiDigit(sc.peek()) {
		return tok, false
	}
	run()
	if sc.peek() == '.' && !(sc.i+1 < len(sc.s) && asciiLetter(sc.s[sc.i+1])) {
		tok.class = "{float}"
		digits = append(digits, '.')
		sc.i++
		run()
	}
	if c := sc.peek(); c == 'e' || c == 'E' {
		j := sc.i + 1
		if j < len(sc.s) && (sc.s[j] == '+' || sc.s[j] == '-') {
			j++
		}
		if j < len(sc.s) && asciiDigit(sc.s[j]) {
			tok.class = "{float}"
			digits = append(digits, sc.s[sc.i:j]...)
			sc.i = j
			run()
		}
	}
	tok.digits = string(digits)
	if !asciiLetter(sc.peek()) {
		return tok, true
	}
	start := sc.i
	for c := sc.peek(); asciiLetter(c) || asciiDigit(c); c = sc.peek() {
		sc.i++
	}
	suffix := sc.s[start:sc.i]
	switch rustTypeFamily(suffix) {
	case "float":
	case "int":
		if tok.class == "{float}" {
			return tok, false
		}
	default:
		return tok, false
	}
	tok.class = suffix
	return tok, true
}

// rustTypeFamily is "int" or "float" for Rust's primitive number types, ""
// for anything else.
func rustTypeFamily(typ string) string {
	switch typ {
	case "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "{integer}":
		return "int"
	case "f32", "f64", "{float}":
		return "float"
	}
	return ""
}

// rustUnify is rustc's inference for two elements of one literal (policy
// rust.literal.typing): equal types agree, an unsuffixed literal
// ("{integer}", "{float}") takes any type of its family, and nothing else
// mixes (E0308). "" on the left is no type yet.
func rustUnify(have, next string) (string, bool) {
	switch {
	case have == "" || have == next:
		return next, true
	case have[0] == '{' && rustTypeFamily(have) == rustTypeFamily(next):
		return next, true
	case next[0] == '{' && rustTypeFamily(next) == rustTypeFamily(have):
		return have, true
	}
	return "", false
}

// rustDefaults are the types of unsuffixed literals nothing else fixes.
var rustDefaults = map[string]string{"": "i32", "{integer}": "i32", "{float}": "f64"}

// rustLiteralType is the one element type rustc gives toks, when the
// context expects hint ("" for none); reject says why it does not compile.
func rustLiteralType(toks []rustTok, hint string) (typ, reject string) {
	typ = hint
	for _, tok := range toks {
		t, ok := rustUnify(typ, tok.class)
		if !ok {
			return "", "mismatched types: expected `" + typ + "`, found `" + tok.class + "` (E0308)"
		}
		typ = t
	}
	if d, ok := rustDefaults[typ]; ok {
		typ = d
	}
	for _, tok := range toks {
		if why := rustTokenRange(tok, typ); why != "" {
			return "", why
		}
	}
	return typ, ""
}

// rustTokenRange says why tok is not a value of typ ("" when it is):
// overflowing_literals, or E0600 for a minus on an unsigned type.
func rustTokenRange(tok rustTok, typ string) string {
	switch rustTypeFamily(typ) {
	case "float":
		if _, err := strconv.ParseFloat(tok.digits, rustFloatBits[typ]); err != nil {
			return "literal out of range for `" + typ + "` (overflowing_literals)"
		}
		return ""
	case "int":
		d, ok := rustDTypes[typ]
		switch {
		case tok.neg && typ[0] == 'u':
			return "cannot apply unary operator `-` to type `" + typ + "` (E0600)"
		case !ok: // i128, isize, usize: no dtype to hold them anyway
			return ""
		}
		mag, err := strconv.ParseUint(tok.digits, 10, 64)
		limit := d.MaxUint()
		if tok.neg {
			limit = uint64(-(d.MinInt() + 1)) + 1
		}
		if err != nil || mag > limit {
			return "literal out of range for `" + typ + "` (overflowing_literals)"
		}
	}
	return ""
}

// rustFloatBits is the precision strconv parses a float literal at.
var rustFloatBits = map[string]int{"f32": 32, "f64": 64}

// compileRustLiteral reads text and applies what rustc checks for every
// framework alike: the syntax, one element type, arrays and vec! not nested
// in each other, not empty (E0282), arrays of one length (E0308).
func compileRustLiteral(text string) *rustLiteral {
	lit, err := readRustLiteral(text)
	if err != nil {
		return &rustLiteral{reject: text + " is not a Rust literal"}
	}
	lit.typ, lit.reject = rustLiteralType(lit.toks, "")
	switch {
	case lit.reject != "":
	case lit.mixed:
		lit.reject = "arrays and vec! mixed in one literal"
	case len(lit.toks) == 0:
		lit.reject = "type annotations needed for an empty literal (E0282)"
	case lit.ragged && !lit.vec:
		lit.reject = "mismatched types: arrays of different lengths (E0308)"
	}
	return lit
}

// rustDTypes are the Rust element types that have a dtype.
var rustDTypes = map[string]tensor.DType{
	"bool": tensor.Bool, "i8": tensor.I8, "i16": tensor.I16, "i32": tensor.I32, "i64": tensor.I64,
	"u8": tensor.U8, "u16": tensor.U16, "u32": tensor.U32, "u64": tensor.U64, "f32": tensor.F32, "f64": tensor.F64,
}

// rustTokensTensor stores toks, whose Rust type maps to d, as a tensor of
// the given shape (which they fill): integers exactly, floats parsed once at
// their type's precision as rustc parses them.
func rustTokensTensor(toks []rustTok, d tensor.DType, shape []int) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, tok := range toks {
		var w uint64
		switch {
		case tok.class == "bool":
			if tok.truth {
				w = 1
			}
		case d == tensor.F32:
			v, _ := strconv.ParseFloat(tok.digits, 32)
			if tok.neg {
				v = -v
			}
			w = uint64(math.Float32bits(float32(v)))
		case d == tensor.F64:
			v, _ := strconv.ParseFloat(tok.digits, 64)
			if tok.neg {
				v = -v
			}
			w = math.Float64bits(v)
		default: // in range (rustTokenRange): the two's complement word
			w, _ = strconv.ParseUint(tok.digits, 10, 64)
			if tok.neg {
				w = -w
			}
			w &= wordMask(d)
		}
		t.Data[i] = w
	}
	return t
}
