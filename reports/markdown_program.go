package reports

import (
	"fmt"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The Markdown of views and programs: the inputs table lists a view's
// elements (what the op sees); below it each view is shown as it is built,
// its storage and steps; a program's steps follow as a numbered list.

// opWords names what a finding ran: "`neg`", or "the program `abs > neg`".
func opWords(c *tensor.Case) string {
	if c.IsProgram() {
		return "the program " + code(strings.Join(c.Ops(), " > "))
	}
	return code(c.Op)
}

// writeViews says how each view input is built.
func writeViews(b *strings.Builder, c *tensor.Case) {
	first := true
	for i, a := range c.Args {
		if a.Tensor == nil || a.Tensor.View == nil {
			continue
		}
		if first {
			b.WriteString("\nViews (the elements above are what the op reads; each is built from its storage):\n\n")
			first = false
		}
		name := string(rune('a' + i))
		if c.IsProgram() {
			name = fmt.Sprintf("arg%d", i)
		}
		fmt.Fprintf(b, "- %s: %s\n", name, viewWords(a.Tensor))
	}
}

// viewWords describes a view: its storage, then its steps in order.
func viewWords(t *tensor.Tensor) string {
	v := t.View
	st := t.Storage()
	s := fmt.Sprintf("storage %s %v %s", t.DType, v.Base, code("["+elements(st, nil)+"]"))
	if v.Permute != nil {
		s += fmt.Sprintf(", permuted to dims %v", v.Permute)
	}
	if v.Slice != nil {
		s += ", sliced " + code(sliceText(v))
	}
	if v.Expand != nil {
		s += fmt.Sprintf(", broadcast to %v", v.Expand)
	}
	if t.IsContiguous() {
		return s + " (its elements are contiguous in the storage)"
	}
	return s + fmt.Sprintf(" (strides %v, offset %d)", t.Strides, t.Offset)
}

// writeSteps lists a program's steps.
func writeSteps(b *strings.Builder, c *tensor.Case) {
	b.WriteString("\nSteps, in order (a step that does not give a value ends the program):\n\n")
	for j, s := range c.Steps {
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i] = a.String()
		}
		line := fmt.Sprintf("step%d = %s(%s)", j, s.Op, strings.Join(args, ", "))
		if at := s.Attrs.String(); at != "" {
			line += " " + at
		}
		fmt.Fprintf(b, "%d. %s\n", j, code(line))
	}
}
