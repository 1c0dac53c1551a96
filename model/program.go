package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// Programs (case format 2): the steps run in order, each result kept as a
// framework tensor for the steps that read it; the first step whose
// outcome is not a value ends the program with that outcome. tenferro's
// TracedTensor builds the whole program as one graph first: every step's
// build-time checks and promotion happen before any step runs.

var (
	programEager = newRule("program.eager",
		"a program's steps run one after the other, each result kept as a tensor of the framework for the steps that read it; the first step whose outcome is not a value ends the program with that outcome",
		"spec/case-format.md §Programs (format 2)")
	tfTracedGraph = newRule("tenferro.traced.one-graph",
		"a TracedTensor program is one graph: building it infers every step's dtype (with promotion) and checks what needs no values (dtypes, convert) for all steps before anything runs; value checks (a zero divisor, an out-of-range cast) happen when the graph runs, in step order",
		"seed 001 §两个数组相遇 (I32.cast(F32) + F32: traced F32, promotion at build), §astype (TracedTensor::convert fails at build); spec/case-format.md §Programs")
	programUnspecifiedOperand = newRule("program.unspecified-operand",
		"a step reads an earlier result that has unspecified (\"?\") elements: what it makes of them is not stated",
		"spec/case-format.md §Outcome (\"?\" is unspecified)").silent()
)

// program evaluates the program e.c.
func (e *evaluation) program() tensor.Outcome {
	c := e.c
	defer func() { e.c = c }()
	e.use(programEager)
	if e.p.Name == "tenferro/traced" {
		e.use(tfTracedGraph)
		if out, ok := e.runSteps(c, true); !ok {
			return out
		}
	}
	out, _ := e.runSteps(c, false)
	return out
}

// runSteps runs the steps of program c in order (with buildOnly, as the
// build of a traced graph) and returns the last outcome, and whether every
// step gave a value.
func (e *evaluation) runSteps(c *tensor.Case, buildOnly bool) (tensor.Outcome, bool) {
	e.buildOnly = buildOnly
	defer func() { e.buildOnly = false }()
	results := make([]*tensor.Tensor, len(c.Steps))
	var out tensor.Outcome
	for j, s := range c.Steps {
		for _, a := range s.Args {
			if a.From == tensor.FromStep && !buildOnly && results[a.Index].HasUnspecified() {
				return e.unsupported(programUnspecifiedOperand, "tfuzz: not modeled: step %d reads the unspecified elements of step %d", j, a.Index), false
			}
		}
		e.c = c.StepCase(j, results)
		before := e.used
		out = e.step()
		if e.used == before {
			e.use(ordinaryRule(e.p.Framework))
		}
		if out.Form != tensor.FormValue {
			return out, false
		}
		results[j] = out.Value
	}
	return out, true
}
