package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// Views and programs in the repro programs. A view input is built as the
// case format says: its storage as an ordinary input, then the view's
// steps with the framework's own view ops (PyTorch permute / slicing /
// expand, NumPy and JAX transpose / slicing / broadcast_to, candle permute
// / narrow / broadcast_as, burn permute / slice / expand). A program's
// steps are written in order, each result kept in a variable of the
// framework (arg0, arg1, ... are the inputs, step0, step1, ... the
// results), so the first step that fails ends the program as it does in
// the framework.

// opConst is the value of a program's OP constant, which its error
// classification reads: the op, or a program's ops joined by '>'.
func opConst(c *tensor.Case) string { return strings.Join(c.Ops(), ">") }

// stepCases returns every step of program c as a single-op case bound to
// the model's results under profile, for what the spelling of a later step
// needs to know of its inputs (a dtype, a rank). A step after one the model
// ends the program on reads, in place of the missing result, that step's
// first tensor input (its dtype and shape are the best guess; the step
// does not run where the model is right).
func stepCases(profile string, c *tensor.Case) []*tensor.Case {
	results := make([]*tensor.Tensor, len(c.Steps))
	out := make([]*tensor.Case, len(c.Steps))
	for j := range c.Steps {
		sc := c.StepCase(j, results)
		out[j] = sc
		if o := model.Eval(profile, sc); o.Form == tensor.FormValue {
			results[j] = o.Value
			continue
		}
		results[j] = tensor.New(tensor.I64, 0)
		for _, a := range sc.Args {
			if a.Tensor != nil {
				results[j] = a.Tensor
				break
			}
		}
	}
	return out
}

// stepArgName names what a step argument reads: "arg0", "step1", or for a
// literal the name given to it (lit<step>_<arg>).
func stepArgName(j, i int, a tensor.StepArg) string {
	switch a.From {
	case tensor.FromInput:
		return "arg" + strconv.Itoa(a.Index)
	case tensor.FromStep:
		return "step" + strconv.Itoa(a.Index)
	}
	return fmt.Sprintf("lit%d_%d", j, i)
}

// sliceText writes a view's slices as Python indexing: "[0:3:2, 1:2]".
func sliceText(v *tensor.View) string {
	parts := make([]string, len(v.Slice))
	for i, s := range v.Slice {
		parts[i] = fmt.Sprintf("%d:%d", s[0], s[1])
		if s[2] != 1 {
			parts[i] += ":" + strconv.Itoa(s[2])
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// --- Python --------------------------------------------------------------------------------

// inputLines build input name from t: the host data, or for a view its
// storage and then the view's steps.
func (w *pyWriter) inputLines(name string, t *tensor.Tensor) []string {
	if t.View == nil {
		return []string{name + " = " + w.tensorExpr(t)}
	}
	v := t.View
	lines := []string{name + " = " + w.tensorExpr(t.Storage()) + "  # the view's storage"}
	if len(v.Permute) > 0 {
		if w.fw == "pytorch" {
			lines = append(lines, name+" = "+name+".permute("+pyShape(v.Permute)+")")
		} else {
			lines = append(lines, name+" = "+w.mod()+".transpose("+name+", "+pyShape(v.Permute)+")")
		}
	}
	if len(v.Slice) > 0 {
		lines = append(lines, name+" = "+name+sliceText(v))
	}
	if v.Expand != nil {
		if w.fw == "pytorch" {
			lines = append(lines, name+" = "+name+".expand("+pyShape(v.Expand)+")")
		} else {
			lines = append(lines, name+" = "+w.mod()+".broadcast_to("+name+", "+pyShape(v.Expand)+")")
		}
	}
	return lines
}

// programBody writes the lines of case() for a program.
func (w *pyWriter) programBody(c *tensor.Case) string {
	var lines []string
	for i, a := range c.Args {
		name := "arg" + strconv.Itoa(i)
		if a.Scalar != nil {
			lines = append(lines, name+" = "+pyScalar(a.Scalar))
			continue
		}
		lines = append(lines, w.inputLines(name, a.Tensor)...)
	}
	steps := stepCases(w.profile, c)
	ended := false
	for j, s := range c.Steps {
		var args []string
		for i, a := range s.Args {
			name := stepArgName(j, i, a)
			switch {
			case a.From != tensor.FromLiteral:
			case a.Arg.Scalar != nil:
				name = pyScalar(a.Arg.Scalar)
			default:
				lines = append(lines, w.inputLines(name, a.Arg.Tensor)...)
			}
			args = append(args, name)
		}
		expr, unsupported := w.opExpr(steps[j], args)
		if unsupported != "" {
			lines = append(lines, fmt.Sprintf("raise Unsupported(%s)", strconv.Quote(fmt.Sprintf("step %d: %s", j, unsupported))))
			ended = true
			break
		}
		lines = append(lines, fmt.Sprintf("step%d = %s", j, expr))
	}
	if !ended {
		lines = append(lines, fmt.Sprintf("return step%d", len(c.Steps)-1))
	}
	return "    " + strings.Join(lines, "\n    ")
}

// --- Rust ----------------------------------------------------------------------------------

// rustProgramBody writes a program's body for a Rust framework: inputs
// (input builds one, with its view), then the steps (op spells one on the
// argument expressions), then the result (finish: the last step's name).
func rustProgramBody(c *tensor.Case, steps []*tensor.Case, input func(name string, t *tensor.Tensor) (string, string),
	arg func(name string) string, op func(c *tensor.Case, args []string) (string, string), finish func(last string) string) string {
	var b strings.Builder
	for i, a := range c.Args {
		if a.Scalar != nil {
			continue // written where a step uses it
		}
		lines, why := input("arg"+strconv.Itoa(i), a.Tensor)
		if why != "" {
			return b.String() + compileError(why)
		}
		b.WriteString(lines)
	}
	for j, s := range c.Steps {
		var args []string
		for i, a := range s.Args {
			name := stepArgName(j, i, a)
			lit := a.Arg
			if a.From == tensor.FromInput {
				lit = c.Args[a.Index]
			}
			switch {
			case a.From != tensor.FromStep && lit.Scalar != nil:
				args = append(args, rustScalar(lit.Scalar))
				continue
			case a.From == tensor.FromLiteral:
				lines, why := input(name, lit.Tensor)
				if why != "" {
					return b.String() + compileError(why)
				}
				b.WriteString(lines)
			}
			args = append(args, arg(name))
		}
		expr, why := op(steps[j], args)
		if why != "" {
			return b.String() + compileError(fmt.Sprintf("step %d: %s", j, why))
		}
		if j == len(c.Steps)-1 && s.Op == "to_host" {
			fmt.Fprintf(&b, "    %s\n", expr)
			return b.String()
		}
		fmt.Fprintf(&b, "    let step%d = %s;\n", j, expr)
	}
	return b.String() + finish(fmt.Sprintf("step%d", len(c.Steps)-1))
}

// candleInput builds a candle input: Tensor::new of the host data, or of a
// view's storage followed by permute, narrow (one per sliced dim) and
// broadcast_as; candle has no strided slice.
func candleInput(name string, t *tensor.Tensor) (string, string) {
	v := t.View
	base := t
	if v != nil {
		base = t.Storage()
	}
	expr, ok := candleTensor(base)
	if !ok {
		return "", "candle has no " + t.DType.String() + " dtype"
	}
	lines := fmt.Sprintf("    let %s = %s;\n", name, expr)
	if v == nil {
		return lines, ""
	}
	lines = lines[:len(lines)-1] + " // the view's storage\n"
	if len(v.Permute) > 0 {
		lines += fmt.Sprintf("    let %s = %s.permute(%s)?;\n", name, name, rustShape(v.Permute))
	}
	sizes := v.Permuted()
	for k, s := range v.Slice {
		if s[2] != 1 {
			return "", "candle has no strided slice: narrow takes a start and a length, not a step"
		}
		if s[0] != 0 || s[1] != sizes[k] {
			lines += fmt.Sprintf("    let %s = %s.narrow(%d, %d, %d)?;\n", name, name, k, s[0], s[1]-s[0])
		}
	}
	if v.Expand != nil {
		lines += fmt.Sprintf("    let %s = %s.broadcast_as(%s)?;\n", name, name, rustShape(v.Expand))
	}
	return lines, ""
}

// burnInput builds a burn input: from_data of the host data, or of a
// view's storage followed by permute, slice (s! with steps) and expand.
func burnInput(name string, t *tensor.Tensor) (string, string) {
	v := t.View
	base := t
	if v != nil {
		base = t.Storage()
	}
	expr, why := burnTensor(base)
	if why != "" {
		return "", why
	}
	lines := fmt.Sprintf("    let %s = %s;\n", name, expr)
	if v == nil {
		return lines, ""
	}
	lines = lines[:len(lines)-1] + " // the view's storage\n"
	if len(v.Permute) > 0 {
		lines += fmt.Sprintf("    let %s = %s.permute(%s);\n", name, name, rustArray(v.Permute))
	}
	if len(v.Slice) > 0 {
		parts := make([]string, len(v.Slice))
		for i, s := range v.Slice {
			parts[i] = fmt.Sprintf("%d..%d", s[0], s[1])
			if s[2] != 1 {
				parts[i] += ";" + strconv.Itoa(s[2])
			}
		}
		lines += fmt.Sprintf("    let %s = %s.slice(s![%s]);\n", name, name, strings.Join(parts, ", "))
	}
	if v.Expand != nil {
		lines += fmt.Sprintf("    let %s = %s.expand(%s);\n", name, name, rustArray(v.Expand))
	}
	return lines, ""
}

// rustArray writes ints as a Rust array: "[1, 0]".
func rustArray(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
