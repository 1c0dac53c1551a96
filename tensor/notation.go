package tensor

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The case notation is the one-line form findings and reports print
// (Case.Describe), and what tfuzz try reads:
//
//	floor_div(i8[1] [-128], i8[1] [-1])        dtype, shape, then the elements row-major
//	floor_div(i8[-128], i8[-1])                dtype and a nested list: the shape is its nesting
//	add(f32[[1, 2], [3, 4]], 0.5)              a bare number is a host scalar (float with a point)
//	mul(i64 3, int scalar 300 (i32))           dtype and one element: 0-dim; a scalar with its host type
//	cast(f32[2] [nan, -0.0]) to=i32            attrs after the call, name=value
//	sum(u8[2 2] [200, 100, 7, 1]) dim=0 keepdim=true
//	from_literal() literal=[1, 2.5]            a literal runs to the next attr or the end ("..." quotes it)
//	add(c64[[1.0, -2.0]], c64 [0.5, 0.5])      complex elements are [re, im]
//
// Elements are written as in case files, without quotes: integers, floats
// (decimal, hex, nan, inf, -inf, -0.0), true/false. A tensor whose elements
// Describe elided ("... (9 more)") does not parse: Notation writes them all.

// ParseCase reads a case in notation. The case is then checked as a case
// file's would be, so errors name the field ("args[1].scalar") as well as
// the place in the text.
func ParseCase(text string) (*Case, error) {
	p := &notationParser{s: text}
	c, err := p.parseCase()
	if err != nil {
		return nil, err
	}
	back, err := DecodeCase(EncodeCase(c))
	var de *DecodeError
	switch {
	case errors.As(err, &de) && de.Field != "":
		return nil, fmt.Errorf("%s: %w", de.Field, de.Err) // "args: neg takes 1 args, got 2"
	case err != nil:
		return nil, err
	}
	return back, nil
}

// Notation writes c in full in the notation ParseCase reads (Describe
// elides the elements of large tensors).
func (c *Case) Notation() string { return c.describe(-1) }

// Notation writes t in full: "i64[2] [1, -3]".
func (t *Tensor) Notation() string { return t.format(-1) }

// literalAttrs are the attrs whose values are free text.
var literalAttrs = []string{"literal", "start", "end", "value"}

// attrText writes a free-text attr value so that it parses back: as is
// when that is unambiguous, else Go-quoted.
func attrText(s string, inStep bool) string {
	plain := s != "" && strings.TrimSpace(s) == s && s[0] != '"' && !(inStep && strings.Contains(s, ";"))
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			plain = false // line breaks, controls, invalid UTF-8
		}
	}
	for _, names := range attrKinds {
		for _, n := range names {
			if strings.Contains(s, " "+n+"=") {
				plain = false
			}
		}
	}
	if plain {
		return s
	}
	return strconv.Quote(s)
}

type notationParser struct {
	s      string
	pos    int
	inStep bool // parsing a program's step: ';' ends it
}

func (p *notationParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at column %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *notationParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n') {
		p.pos++
	}
}

func (p *notationParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *notationParser) expect(c byte) error {
	p.space()
	if p.peek() != c {
		if p.pos >= len(p.s) {
			return p.errorf("want %q, got the end", c)
		}
		return p.errorf("want %q, got %q", c, p.s[p.pos:min(len(p.s), p.pos+12)])
	}
	p.pos++
	return nil
}

// word reads a run of letters, digits and _ . + - (a name or a number).
func (p *notationParser) word() string {
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '_' || c == '.' || c == '+' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			p.pos++
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *notationParser) parseCase() (*Case, error) {
	p.space()
	name := p.word()
	if name == "" {
		return nil, p.errorf("want an op name, e.g. add(i8[1], i8[2])")
	}
	if name == "program" {
		return p.parseProgram()
	}
	op, ok := LookupOp(name)
	if !ok {
		return nil, fmt.Errorf("unknown op %q (%s)", name, Choices(name, OpNames(), "tfuzz ops"))
	}
	c := &Case{Op: op.Name, Args: []Arg{}}
	if err := p.expect('('); err != nil {
		return nil, err
	}
	p.space()
	for p.peek() != ')' {
		if len(c.Args) > 0 {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		a, err := p.parseArg()
		if err != nil {
			return nil, fmt.Errorf("%s argument %d: %w", op.Name, len(c.Args)+1, err)
		}
		c.Args = append(c.Args, a)
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.errorf("want ')' to close %s(", op.Name)
		}
	}
	p.pos++
	for {
		p.space()
		if p.pos >= len(p.s) {
			return c, nil
		}
		if err := p.parseAttr(op, &c.Attrs); err != nil {
			return nil, err
		}
	}
}

// parseArg reads a tensor ("i8[2] [1, 2]", "i8[1, 2]", "i8 3") or a host
// scalar ("float scalar 0.5 (f32)", "0.5", "3", "true").
func (p *notationParser) parseArg() (Arg, error) {
	p.space()
	start := p.pos
	w := p.word()
	afterWord := p.pos
	p.space()
	isScalar := w != "" && strings.HasPrefix(p.s[p.pos:], "scalar ")
	if w == "view" && p.peek() == '(' {
		t, err := p.parseView()
		return Arg{Tensor: t}, err
	}
	if d, err := ParseDType(w); err == nil && !isScalar {
		p.pos = afterWord
		t, err := p.parseTensor(d)
		return Arg{Tensor: t}, err
	}
	if isScalar {
		p.pos += len("scalar")
		p.space()
		s := &Scalar{Kind: ScalarKind(w), Text: p.word()}
		p.space()
		if p.peek() == '(' {
			p.pos++
			s.Host = p.word()
			if err := p.expect(')'); err != nil {
				return Arg{}, err
			}
		}
		return Arg{Scalar: s}, nil
	}
	p.pos = start
	text := p.word()
	switch {
	case text == "null":
		return Arg{}, nil
	case text == "":
		return Arg{}, p.errorf("want a tensor (i8[1, 2]) or a scalar (0.5)")
	case text == "true" || text == "false":
		return Arg{Scalar: &Scalar{Text: text, Kind: ScalarBool}}, nil
	case isIntText(text):
		return Arg{Scalar: &Scalar{Text: text, Kind: ScalarInt}}, nil
	}
	if _, err := ParseFloatText(text); err == nil {
		return Arg{Scalar: &Scalar{Text: text, Kind: ScalarFloat}}, nil
	}
	return Arg{}, fmt.Errorf("%q is neither a dtype (%s) nor a number", text, strings.Join(DTypeNames(), " "))
}

func isIntText(s string) bool {
	_, ok := parseBigInt(s)
	return ok
}

// node is a parsed bracket list: an element's text, or a list of nodes.
type node struct {
	text  string
	list  []node
	isLst bool
}

// maxNodeDepth bounds the nesting of a bracket list: a tensor of the
// largest rank, one more level for complex [re, im] pairs. Deeper text is
// refused as it is read, so that parsing stays linear in its length.
const maxNodeDepth = MaxRank + 1

func (p *notationParser) parseNode() (node, error) {
	return p.parseNodeAt(1)
}

func (p *notationParser) parseNodeAt(depth int) (node, error) {
	p.space()
	if p.peek() == '[' && depth > maxNodeDepth {
		return node{}, p.errorf("lists nested deeper than %d levels (the rank limit is %d)", maxNodeDepth, MaxRank)
	}
	if p.peek() != '[' {
		n := node{text: p.word()}
		if n.text == "" && p.peek() == '?' {
			p.pos++
			n.text = "?"
		}
		if n.text == "" {
			return n, p.errorf("want an element or '['")
		}
		return n, nil
	}
	n := node{isLst: true}
	p.pos++
	p.space()
	if strings.HasPrefix(p.s[p.pos:], "...") {
		return n, p.errorf("the elements are elided: write them all (Case.Notation does)")
	}
	for p.peek() != ']' {
		if len(n.list) > 0 && p.peek() == ',' {
			p.pos++
			p.space()
		}
		if strings.HasPrefix(p.s[p.pos:], "...") {
			return n, p.errorf("the elements are elided: write them all (Case.Notation does)")
		}
		if p.pos >= len(p.s) {
			return n, p.errorf("want ']'")
		}
		item, err := p.parseNodeAt(depth + 1)
		if err != nil {
			return n, err
		}
		n.list = append(n.list, item)
		p.space()
	}
	p.pos++
	return n, nil
}

// parseTensor reads what follows a dtype: [shape] [flat data], [nested
// data], or one element (a 0-dim tensor).
func (p *notationParser) parseTensor(d DType) (*Tensor, error) {
	p.space()
	if p.peek() != '[' {
		el, err := p.parseNode()
		if err != nil {
			return nil, err
		}
		return buildTensor(d, []int{}, []node{el})
	}
	first, err := p.parseNode()
	if err != nil {
		return nil, err
	}
	save := p.pos
	p.space()
	if p.peek() == '[' && isShape(first) {
		data, err := p.parseNode()
		if err != nil {
			return nil, err
		}
		shape := make([]int, len(first.list))
		for i, n := range first.list {
			shape[i], _ = strconv.Atoi(n.text)
		}
		if d.IsComplex() && len(data.list) > 0 && !data.list[0].isLst {
			data.list = []node{data} // c64[] [1.0, 2.0]: one element
		}
		return buildTensor(d, shape, data.list)
	}
	p.pos = save
	shape, flat, err := nested(first, d.IsComplex())
	if err != nil {
		return nil, err
	}
	return buildTensor(d, shape, flat)
}

// isShape reports whether n is a list of non-negative integers.
func isShape(n node) bool {
	for _, x := range n.list {
		if x.isLst {
			return false
		}
		if v, err := strconv.Atoi(x.text); err != nil || v < 0 {
			return false
		}
	}
	return n.isLst
}

// nested returns the shape of a nested list and its elements row-major;
// for a complex dtype, the innermost pairs are elements.
func nested(n node, complexElems bool) ([]int, []node, error) {
	isElem := func(x node) bool {
		return !x.isLst || (complexElems && len(x.list) == 2 && !x.list[0].isLst && !x.list[1].isLst)
	}
	if isElem(n) && (n.isLst || !complexElems) {
		return []int{}, []node{n}, nil
	}
	shape := []int{len(n.list)}
	var flat []node
	var inner []int
	for i, x := range n.list {
		if isElem(x) {
			if i > 0 && inner != nil {
				return nil, nil, fmt.Errorf("ragged list: a list and an element side by side")
			}
			flat = append(flat, x)
			continue
		}
		s, f, err := nested(x, complexElems)
		if err != nil {
			return nil, nil, err
		}
		if i > 0 && (inner == nil || !equalInts(s, inner)) {
			return nil, nil, fmt.Errorf("ragged list: shapes %v and %v", inner, s)
		}
		inner = s
		flat = append(flat, f...)
	}
	return append(shape, inner...), flat, nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func buildTensor(d DType, shape []int, elems []node) (*Tensor, error) {
	if len(shape) > MaxRank {
		return nil, fmt.Errorf("rank %d is over the limit of %d", len(shape), MaxRank)
	}
	n := 1
	for _, s := range shape {
		if s > 0 && n > MaxElements/s {
			return nil, fmt.Errorf("shape %v has more than 2^24 elements", shape)
		}
		n *= s
	}
	if len(elems) != n {
		return nil, fmt.Errorf("%d elements for shape %v, which has %d", len(elems), shape, n)
	}
	t := New(d, shape...)
	for i, e := range elems {
		if err := setNotationElement(t, i, e); err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
	}
	return t, nil
}

func setNotationElement(t *Tensor, i int, e node) error {
	d := t.DType
	if d.IsComplex() {
		if !e.isLst || len(e.list) != 2 {
			return fmt.Errorf("a %s element is [re, im]", d)
		}
		re, err1 := ParseFloatText(e.list[0].text)
		im, err2 := ParseFloatText(e.list[1].text)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("want [re, im] as two floats, got [%s, %s]", e.list[0].text, e.list[1].text)
		}
		t.SetComplex(i, complex(re, im))
		return nil
	}
	if e.isLst {
		return fmt.Errorf("a list where a %s element belongs", d)
	}
	raw := e.text
	if d.IsFloat() {
		raw = strconv.Quote(e.text)
	}
	if e.text == "?" {
		return fmt.Errorf(`"?" is allowed only in outcomes`)
	}
	return decodeElement(t, i, []byte(raw))
}

// parseAttr reads one name=value of an attr of op.
func (p *notationParser) parseAttr(op OpInfo, a *Attrs) error {
	start := p.pos
	name := p.word()
	if name == "" || p.peek() != '=' {
		p.pos = start
		return p.errorf("want an attr name=value after the call, got %q", p.s[p.pos:min(len(p.s), p.pos+20)])
	}
	if !op.takesAttr(name) {
		p.pos = start
		return p.errorf("%s", op.noAttr(name))
	}
	p.pos++
	switch {
	case contains(literalAttrs, name):
		v, err := p.literalValue()
		if err != nil {
			return err
		}
		switch name {
		case "literal":
			a.Literal = &v
		case "start":
			a.Start = &v
		case "value":
			a.Value = &v
		default:
			a.End = &v
		}
		return nil
	case name == "shape":
		p.space()
		n, err := p.parseNode()
		if err != nil {
			return err
		}
		if !isShape(n) {
			return p.errorf("shape: want a list of non-negative integers, e.g. shape=[2, 3]")
		}
		a.Shape = []int{}
		for _, x := range n.list {
			v, _ := strconv.Atoi(x.text)
			a.Shape = append(a.Shape, v)
		}
		return nil
	}
	v := p.word()
	bad := func(want string) error { return fmt.Errorf("attr %s: want %s, got %q", name, want, v) }
	switch name {
	case "dim", "rank", "tolerance_ulps":
		n, err := strconv.Atoi(v)
		if err != nil {
			return bad("an integer")
		}
		switch name {
		case "dim":
			a.Dim = &n
		case "rank":
			a.Rank = &n
		default:
			a.ToleranceULPs = n
		}
	case "keepdim", "descending", "stable":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return bad("true or false")
		}
		a.setBool(name, b)
	case "to", "dtype":
		d, err := ParseDType(v)
		if err != nil {
			return fmt.Errorf("attr %s: %w", name, err)
		}
		if name == "to" {
			a.To = d
		} else {
			a.DType = d
		}
	case "mode":
		a.Mode = v
	}
	return nil
}

// literalValue reads free text: a Go-quoted string, or everything up to the
// next " name=" of an attr, or the end.
func (p *notationParser) literalValue() (string, error) {
	if p.peek() == '"' {
		q, err := strconv.QuotedPrefix(p.s[p.pos:])
		if err != nil {
			return "", p.errorf("unterminated quoted literal")
		}
		p.pos += len(q)
		v, err := strconv.Unquote(q)
		return v, err
	}
	end := len(p.s)
	if i := strings.IndexByte(p.s[p.pos:], ';'); p.inStep && i >= 0 {
		end = p.pos + i
	}
	for _, n := range allAttrNames() {
		if i := strings.Index(p.s[p.pos:], " "+n+"="); i >= 0 && p.pos+i < end {
			end = p.pos + i
		}
	}
	v := strings.TrimSpace(p.s[p.pos:end])
	p.pos = end
	return v, nil
}

func allAttrNames() []string {
	var names []string
	for _, op := range Ops {
		for _, n := range attrKinds[op.Class] {
			if !contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}
