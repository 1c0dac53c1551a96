package tensor

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Programs (case format 2, added 2026-12): a short chain of catalog ops.
// A program case has Format 2 and Steps instead of Op and Attrs; its Args
// are the program's inputs. Each step reads program inputs, the results of
// earlier steps, or literal tensors and scalars. The program's outcome is
// the last step's; the first step whose outcome is not a value ends it.

// ProgramFormat is the case format of programs.
const ProgramFormat = 2

// MaxSteps bounds the steps of a program (each step's result is held
// until the program ends).
const MaxSteps = 64

// Step is one op of a program.
type Step struct {
	Op    string
	Args  []StepArg
	Attrs Attrs
}

// ArgFrom says where a step argument comes from.
type ArgFrom uint8

const (
	FromLiteral ArgFrom = iota // a tensor or scalar written in the step
	FromInput                  // program input Index ({"arg": i})
	FromStep                   // the result of earlier step Index ({"step": j})
)

// StepArg is one argument of a step.
type StepArg struct {
	From  ArgFrom
	Index int // FromInput, FromStep
	Arg   Arg // FromLiteral
}

// InputArg returns a step argument reading program input i.
func InputArg(i int) StepArg { return StepArg{From: FromInput, Index: i} }

// StepResult returns a step argument reading the result of step j.
func StepResult(j int) StepArg { return StepArg{From: FromStep, Index: j} }

// LiteralArg returns a step argument holding a tensor or scalar.
func LiteralArg(a Arg) StepArg { return StepArg{Arg: a} }

// IsProgram reports whether c is a program (format 2) rather than one op.
func (c *Case) IsProgram() bool { return c.Format == ProgramFormat || len(c.Steps) > 0 }

// StepCase returns step j of the program c as a single-op case: its
// references replaced by the program's inputs and by results[k], the value
// of earlier step k (marked Arg.Result: a framework tensor, which no
// host-data conversion applies to). The tensors are shared, not copied.
func (c *Case) StepCase(j int, results []*Tensor) *Case {
	s := c.Steps[j]
	sc := &Case{Op: s.Op, Attrs: s.Attrs, Args: make([]Arg, len(s.Args))}
	for i, a := range s.Args {
		switch a.From {
		case FromInput:
			sc.Args[i] = c.Args[a.Index]
		case FromStep:
			sc.Args[i] = Arg{Tensor: results[a.Index], Result: true}
		default:
			sc.Args[i] = a.Arg
		}
	}
	return sc
}

// Ops returns the op of a single-op case, or every step's op of a program.
func (c *Case) Ops() []string {
	if !c.IsProgram() {
		return []string{c.Op}
	}
	ops := make([]string, len(c.Steps))
	for i, s := range c.Steps {
		ops[i] = s.Op
	}
	return ops
}

// Tolerance is the tolerance_ulps the outcome is compared with: the
// case's, or for a program its last step's.
func (c *Case) Tolerance() int {
	if c.IsProgram() && len(c.Steps) > 0 {
		return c.Steps[len(c.Steps)-1].Attrs.ToleranceULPs
	}
	return c.Attrs.ToleranceULPs
}

// decodeFormat reads the "format" field: 1 or 2.
func decodeFormat(data json.RawMessage) (int, error) {
	v, err := rawInt(data, "format")
	if err != nil {
		return 0, err
	}
	if v != 1 && v != ProgramFormat {
		return 0, errAt("format", "unknown case format %d (this tfuzz reads 1 and 2)", v)
	}
	return v, nil
}

// decodeProgram reads the inputs and steps of a program case; c already
// holds the other fields.
func decodeProgram(c *Case, rawArgs, rawSteps json.RawMessage, hasOp, hasAttrs bool) error {
	switch {
	case c.Format != ProgramFormat:
		return errAt("format", `a case with steps is a program and needs "format": 2`)
	case hasOp:
		return errAt("op", "a program (format 2) has steps instead of op")
	case hasAttrs:
		return errAt("attrs", "a program (format 2) has attrs on its steps, not on the case")
	case rawSteps == nil:
		return errAt("steps", "missing (a format 2 case is a program of steps)")
	case rawArgs == nil:
		return errAt("args", "missing (the program's inputs; [] for none)")
	}
	inputs, err := rawArray(rawArgs, "args")
	if err != nil {
		return err
	}
	c.Args = make([]Arg, len(inputs))
	for i, item := range inputs {
		if c.Args[i], err = decodeInput(item, fmt.Sprintf("args[%d]", i)); err != nil {
			return err
		}
	}
	items, err := rawArray(rawSteps, "steps")
	if err != nil {
		return err
	}
	switch {
	case len(items) == 0:
		return errAt("steps", "a program has at least one step")
	case len(items) > MaxSteps:
		return errAt("steps", "%d steps are over the limit of %d", len(items), MaxSteps)
	}
	c.Steps = make([]Step, len(items))
	for j, item := range items {
		if c.Steps[j], err = decodeStep(c, inputs, item, j); err != nil {
			return err
		}
	}
	return nil
}

// decodeInput reads a tensor or a scalar.
func decodeInput(item json.RawMessage, field string) (Arg, error) {
	fields, err := rawObject(item, field)
	if err != nil {
		return Arg{}, err
	}
	if hasField(fields, "scalar") {
		s, err := decodeScalar(fields, field)
		return Arg{Scalar: s}, err
	}
	t, err := decodeTensor(fields, field, false)
	return Arg{Tensor: t}, err
}

// decodeStep reads step j. Its args are checked as a single op's would be
// (arity, scalars where tensors belong) with every reference replaced by
// what it reads: a program input by the input itself, an earlier step's
// result by a placeholder tensor.
func decodeStep(c *Case, inputs []json.RawMessage, item json.RawMessage, j int) (Step, error) {
	var s Step
	field := fmt.Sprintf("steps[%d]", j)
	fields, err := rawObject(item, field)
	if err != nil {
		return s, err
	}
	var rawArgs, rawAttrs json.RawMessage
	for _, f := range fields {
		switch f.Name {
		case "op":
			s.Op, err = rawString(f.Value, join(field, "op"))
		case "args":
			rawArgs = f.Value
		case "attrs":
			rawAttrs = f.Value
		default:
			err = errAt(join(field, f.Name), "unknown step field (a step has op, args and attrs)")
		}
		if err != nil {
			return s, err
		}
	}
	if s.Op == "" {
		return s, errAt(join(field, "op"), "missing")
	}
	op, ok := LookupOp(s.Op)
	if !ok {
		return s, errAt(join(field, "op"), "unknown op %s (%s)", Quote(s.Op), Choices(s.Op, OpNames(), "tfuzz ops"))
	}
	if rawArgs == nil {
		return s, errAt(join(field, "args"), "missing")
	}
	items, err := rawArray(rawArgs, join(field, "args"))
	if err != nil {
		return s, err
	}
	s.Args = make([]StepArg, len(items))
	bound := make([]string, len(items))
	for i, it := range items {
		af := fmt.Sprintf("%s.args[%d]", field, i)
		ref, isRef, err := decodeRef(it, af)
		if err != nil {
			return s, err
		}
		bound[i] = string(it)
		if !isRef {
			continue
		}
		s.Args[i] = ref
		switch ref.From {
		case FromInput:
			if ref.Index < 0 || ref.Index >= len(inputs) {
				return s, errAt(af+".arg", "program input %d does not exist (the program has %d args)", ref.Index, len(inputs))
			}
			bound[i] = string(inputs[ref.Index])
		case FromStep:
			if ref.Index < 0 || ref.Index >= j {
				return s, errAt(af+".step", "step %d is not an earlier step (step %d reads only steps 0 to %d)", ref.Index, j, j-1)
			}
			if c.Steps[ref.Index].Op == "to_host" {
				return s, errAt(af+".step", "step %d is to_host, whose result is host data, not a tensor", ref.Index)
			}
			bound[i] = `{"dtype": "i64", "shape": [0], "data": []}`
		}
	}
	args, err := decodeArgs(json.RawMessage("["+strings.Join(bound, ",")+"]"), op)
	if err != nil {
		return s, prefixField(err, field)
	}
	for i := range s.Args {
		if s.Args[i].From == FromLiteral {
			s.Args[i].Arg = args[i]
		}
	}
	if rawAttrs != nil {
		if s.Attrs, err = decodeAttrs(rawAttrs, op); err != nil {
			return s, prefixField(err, field)
		}
	}
	if err := checkRequiredAttrs(s.Attrs, op); err != nil {
		return s, prefixField(err, field)
	}
	return s, nil
}

// decodeRef reads {"arg": i} or {"step": j}; isRef is false for anything else.
func decodeRef(item json.RawMessage, field string) (StepArg, bool, error) {
	if !isJSON(item, '{') {
		return StepArg{}, false, nil
	}
	fields, err := rawObject(item, field)
	if err != nil || len(fields) == 0 {
		return StepArg{}, false, err
	}
	name := fields[0].Name
	if name != "arg" && name != "step" {
		if hasField(fields, "arg") || hasField(fields, "step") {
			return StepArg{}, false, errAt(field, `a reference is {"arg": i} or {"step": j} alone`)
		}
		return StepArg{}, false, nil
	}
	if len(fields) != 1 {
		return StepArg{}, false, errAt(field, `a reference is {"arg": i} or {"step": j} alone`)
	}
	v, err := rawInt(fields[0].Value, join(field, name))
	if err != nil {
		return StepArg{}, false, err
	}
	if name == "arg" {
		return InputArg(v), true, nil
	}
	return StepResult(v), true, nil
}

// prefixField puts parent before the field of a decoding error.
func prefixField(err error, parent string) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		return &fieldError{join(parent, fe.field), fe.err}
	}
	return err
}

// writeProgramHead writes the inputs and steps of a program.
func writeProgramHead(b writer, c *Case) {
	b.WriteString(`"args": [`)
	writeArgs(b, c.Args)
	b.WriteString(`], "steps": [`)
	for j, s := range c.Steps {
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`{"op": `)
		writeString(b, s.Op)
		b.WriteString(`, "args": [`)
		for i, a := range s.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			switch a.From {
			case FromInput:
				b.WriteString(`{"arg": ` + strconv.Itoa(a.Index) + "}")
			case FromStep:
				b.WriteString(`{"step": ` + strconv.Itoa(a.Index) + "}")
			default:
				writeArg(b, a.Arg)
			}
		}
		b.WriteByte(']')
		if s.Attrs.String() != "" {
			b.WriteString(`, "attrs": `)
			writeAttrs(b, s.Attrs)
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
}

func writeArgs(b writer, args []Arg) {
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeArg(b, a)
	}
}

func writeArg(b writer, a Arg) {
	switch {
	case a.IsNull():
		b.WriteString("null")
	case a.Scalar != nil:
		writeScalar(b, a.Scalar)
	default:
		writeTensor(b, a.Tensor)
	}
}

// StepRef names a reference in the case notation: "arg0", "step1".
func (a StepArg) String() string {
	switch a.From {
	case FromInput:
		return "arg" + strconv.Itoa(a.Index)
	case FromStep:
		return "step" + strconv.Itoa(a.Index)
	}
	return a.Arg.String()
}

// describeProgram writes a program in the case notation:
// "program(u8[2] [200, 100]): cast(arg0) to=i64; sum(step0)".
func (c *Case) describeProgram(limit int) string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.format(limit)
	}
	steps := make([]string, len(c.Steps))
	for j, s := range c.Steps {
		sa := make([]string, len(s.Args))
		for i, a := range s.Args {
			if a.From == FromLiteral {
				sa[i] = a.Arg.format(limit)
			} else {
				sa[i] = a.String()
			}
		}
		steps[j] = s.Op + "(" + strings.Join(sa, ", ") + ")"
		if at := s.Attrs.string(true); at != "" {
			steps[j] += " " + at
		}
	}
	return "program(" + strings.Join(args, ", ") + "): " + strings.Join(steps, "; ")
}
