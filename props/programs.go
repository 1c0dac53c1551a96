package props

import (
	"slices"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// Programs (case format 2): a share of the small cases are programs of 2
// to 4 steps, aimed like single ops. The first step is an ordinary draw,
// whose arguments become the program's inputs; each later step takes an
// earlier step's result as its main input (usually the last one), with an
// op the scope allows for that result's dtype, and its other operands
// drawn as usual (new program inputs, scalars), or, one time in four, an
// earlier result or input of the same shape. The dtype and shape of a
// result come from the model under the aimed profile.

// programsOneIn is how often a small draw is a program.
const programsOneIn = 12

// unaimedProfile answers for the dtypes and shapes of an unaimed program.
const unaimedProfile = "pytorch/cpu"

// program draws a program aimed like s (profile: "" unaimed); when no step
// can follow the first, it returns the first step as a single-op case.
func (s *scope) program(d *draw, profile string) *tensor.Case {
	first := s.draw(d)
	if slices.ContainsFunc(first.Args, tensor.Arg.IsNull) {
		return first // a program's inputs and literals are tensors or scalars: clamp's absent bound is not one
	}
	if profile == "" {
		profile = unaimedProfile
	}
	c := &tensor.Case{Format: tensor.ProgramFormat, Args: first.Args}
	step := tensor.Step{Op: first.Op, Attrs: first.Attrs}
	for i := range first.Args {
		step.Args = append(step.Args, tensor.InputArg(i))
	}
	c.Steps = []tensor.Step{step}
	var results []*tensor.Tensor
	for n := d.between(2, 4); len(c.Steps) < n; {
		j := len(c.Steps) - 1
		out := model.Eval(profile, c.StepCase(j, results))
		if out.Form != tensor.FormValue || out.Value.HasUnspecified() || c.Steps[j].Op == "to_host" {
			break
		}
		results = append(results, out.Value)
		if !s.nextStep(d, c, results) {
			break
		}
	}
	if len(c.Steps) == 1 {
		return first
	}
	return c
}

// findSteps fills s.steps: the ops a step may apply to a result of each
// dtype, those of the classes a program chains that take the dtype.
func (s *scope) findSteps() {
	for k, op := range s.ops {
		switch op.Class {
		case tensor.ClassBinary, tensor.ClassUnary, tensor.ClassCast, tensor.ClassReduce,
			tensor.ClassCumsum, tensor.ClassIndexSelect, tensor.ClassToHost:
			for _, d := range op.dtypes {
				s.steps[d] = append(s.steps[d], k)
			}
		}
	}
}

// nextStep appends a step reading an earlier result; false when the scope
// has no op for it.
func (s *scope) nextStep(d *draw, c *tensor.Case, results []*tensor.Tensor) bool {
	from := len(results) - 1
	if d.oneIn(4) {
		from = d.intn(len(results))
	}
	x := results[from]
	ops := s.steps[x.DType]
	if len(ops) == 0 {
		return false
	}
	d.main = x
	one := s.drawOp(d, &s.ops[pick(d, ops)], x.DType)
	d.main = nil
	if slices.ContainsFunc(one.Args, tensor.Arg.IsNull) {
		return false
	}
	step := tensor.Step{Op: one.Op, Attrs: one.Attrs}
	for _, a := range one.Args {
		switch {
		case a.Tensor == x:
			step.Args = append(step.Args, tensor.StepResult(from))
		case a.Scalar != nil:
			step.Args = append(step.Args, tensor.LiteralArg(a))
		case d.oneIn(4) && reuse(d, c, results, a.Tensor, &step):
		default:
			c.Args = append(c.Args, a)
			step.Args = append(step.Args, tensor.InputArg(len(c.Args)-1))
		}
	}
	c.Steps = append(c.Steps, step)
	return true
}

// reuse makes the step read an earlier result or program input of t's
// shape and dtype instead of the new input t, when there is one.
func reuse(d *draw, c *tensor.Case, results []*tensor.Tensor, t *tensor.Tensor, step *tensor.Step) bool {
	var refs []tensor.StepArg
	same := func(u *tensor.Tensor) bool { return u.DType == t.DType && slices.Equal(u.Shape, t.Shape) }
	for j, r := range results {
		if same(r) {
			refs = append(refs, tensor.StepResult(j))
		}
	}
	for i, a := range c.Args {
		if a.Tensor != nil && same(a.Tensor) {
			refs = append(refs, tensor.InputArg(i))
		}
	}
	if len(refs) == 0 {
		return false
	}
	step.Args = append(step.Args, pick(d, refs))
	return true
}
