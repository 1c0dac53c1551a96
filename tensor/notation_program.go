package tensor

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The case notation of views and programs (added 2026-12):
//
//	view(f32[2 3] [1, 2, 3, 4, 5, 6], permute=[1 0], slice=[0:3:2 0:2:1])
//	    a view: its storage (shape base), then the steps of the view object
//	program(u8[2] [200, 100]): cast(arg0) to=i64; sum(step0)
//	    a program: its inputs, then the steps, each reading program
//	    inputs (argN), earlier steps (stepN) or literal tensors and scalars

// viewNotation writes a view as view(storage, steps).
func (t *Tensor) viewNotation(limit int) string {
	var b strings.Builder
	b.WriteString("view(")
	b.WriteString(t.Storage().format(limit))
	v := t.View
	if v.Permute != nil {
		b.WriteString(", permute=" + intsText(v.Permute))
	}
	if v.Slice != nil {
		s := make([]string, len(v.Slice))
		for i, x := range v.Slice {
			s[i] = fmt.Sprintf("%d:%d:%d", x[0], x[1], x[2])
		}
		b.WriteString(", slice=[" + strings.Join(s, " ") + "]")
	}
	if v.Expand != nil {
		b.WriteString(", expand=" + intsText(v.Expand))
	}
	b.WriteByte(')')
	return b.String()
}

// parseView reads what follows "view": (storage, name=value, ...).
func (p *notationParser) parseView() (*Tensor, error) {
	if err := p.expect('('); err != nil {
		return nil, err
	}
	p.space()
	w := p.word()
	d, err := ParseDType(w)
	if err != nil {
		return nil, fmt.Errorf("view: the storage first, a tensor such as f32[2 3] [...]: %w", err)
	}
	storage, err := p.parseTensor(d)
	if err != nil {
		return nil, err
	}
	v := View{Base: storage.Shape}
	for {
		p.space()
		if p.peek() == ')' {
			p.pos++
			break
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
		p.space()
		name := p.word()
		if err := p.expect('='); err != nil {
			return nil, err
		}
		p.space()
		switch name {
		case "permute", "expand":
			n, err := p.parseNode()
			if err != nil {
				return nil, err
			}
			xs, err := nodeInts(n)
			if err != nil {
				return nil, fmt.Errorf("view %s: %w", name, err)
			}
			if name == "permute" {
				v.Permute = xs
			} else {
				v.Expand = xs
			}
		case "slice":
			if v.Slice, err = p.parseSlices(); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("view: unknown step %q (permute, slice, expand)", name)
		}
	}
	return NewView(storage, v)
}

// nodeInts reads a list of integers (negative allowed: the checks come later).
func nodeInts(n node) ([]int, error) {
	if !n.isLst {
		return nil, fmt.Errorf("want a list of integers, got %q", n.text)
	}
	xs := make([]int, len(n.list))
	for i, x := range n.list {
		v, err := strconv.Atoi(x.text)
		if x.isLst || err != nil {
			return nil, fmt.Errorf("want a list of integers")
		}
		xs[i] = v
	}
	return xs, nil
}

// parseSlices reads [start:stop:step ...].
func (p *notationParser) parseSlices() ([][3]int, error) {
	if err := p.expect('['); err != nil {
		return nil, err
	}
	out := [][3]int{}
	for {
		p.space()
		if p.peek() == ']' {
			p.pos++
			return out, nil
		}
		if p.peek() == ',' {
			p.pos++
			continue
		}
		var s [3]int
		for k := 0; k < 3; k++ {
			if k > 0 {
				if err := p.expect(':'); err != nil {
					return nil, fmt.Errorf("view slice: want start:stop:step: %w", err)
				}
			}
			v, err := strconv.Atoi(p.word())
			if err != nil {
				return nil, p.errorf("view slice: want start:stop:step with integers")
			}
			s[k] = v
		}
		out = append(out, s)
	}
}

var refPattern = regexp.MustCompile(`^(arg|step)([0-9]+)$`)

// parseProgram reads what follows "program": (inputs): step; step ...
func (p *notationParser) parseProgram() (*Case, error) {
	c := &Case{Format: ProgramFormat, Args: []Arg{}}
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
			return nil, fmt.Errorf("program input %d: %w", len(c.Args), err)
		}
		c.Args = append(c.Args, a)
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.errorf("want ')' to close program(")
		}
	}
	p.pos++
	if err := p.expect(':'); err != nil {
		return nil, err
	}
	p.inStep = true
	for {
		s, err := p.parseStep(len(c.Steps))
		if err != nil {
			return nil, err
		}
		c.Steps = append(c.Steps, s)
		p.space()
		if p.pos >= len(p.s) {
			return c, nil
		}
		if err := p.expect(';'); err != nil {
			return nil, err
		}
	}
}

// parseStep reads op(args) attrs up to ';' or the end.
func (p *notationParser) parseStep(j int) (Step, error) {
	p.space()
	name := p.word()
	op, ok := LookupOp(name)
	if !ok {
		return Step{}, fmt.Errorf("step %d: unknown op %q (%s)", j, name, Choices(name, OpNames(), "tfuzz ops"))
	}
	s := Step{Op: op.Name, Args: []StepArg{}}
	if err := p.expect('('); err != nil {
		return s, err
	}
	p.space()
	for p.peek() != ')' {
		if len(s.Args) > 0 {
			if err := p.expect(','); err != nil {
				return s, err
			}
		}
		p.space()
		start := p.pos
		if m := refPattern.FindStringSubmatch(p.word()); m != nil {
			if p.space(); p.peek() == ',' || p.peek() == ')' {
				k, _ := strconv.Atoi(m[2])
				ref := InputArg(k)
				if m[1] == "step" {
					ref = StepResult(k)
				}
				s.Args = append(s.Args, ref)
				continue
			}
		}
		p.pos = start
		a, err := p.parseArg()
		if err != nil {
			return s, fmt.Errorf("step %d (%s) argument %d: %w", j, op.Name, len(s.Args)+1, err)
		}
		s.Args = append(s.Args, LiteralArg(a))
		p.space()
		if p.pos >= len(p.s) {
			return s, p.errorf("want ')' to close %s(", op.Name)
		}
	}
	p.pos++
	for {
		p.space()
		if p.pos >= len(p.s) || p.peek() == ';' {
			return s, nil
		}
		if err := p.parseAttr(op, &s.Attrs); err != nil {
			return s, err
		}
	}
}
