package cpu

import "github.com/tfuzz/tfuzz/tensor"

// Programs (case format 2): the steps run in order on the engine, each
// result handed to the steps that read it as it came out of its family (no
// copy); the first outcome that is not a value is the program's
// (policy program.eager). tenferro's traced graph checks every step's
// build before running any (policy tenferro.traced.one-graph): the engine
// first walks the steps with their value checks off (Engine.graphBuild), and the
// first failure of that walk is the outcome.

// runProgram evaluates program c under p; ok is false when a step that
// runs is one the engine does not implement.
func (e *Engine) runProgram(p *profile, c *tensor.Case) (tensor.Outcome, bool) {
	if p.name == "tenferro/traced" {
		if out, ok, stopped := e.walkSteps(p, c, true); !ok || stopped {
			return out, ok
		}
	}
	out, ok, _ := e.walkSteps(p, c, false)
	return out, ok
}

// walkSteps runs the steps in order (as a graph build when build is set)
// and returns the last outcome; stopped reports that a step's outcome was
// not a value.
func (e *Engine) walkSteps(p *profile, c *tensor.Case, build bool) (out tensor.Outcome, ok, stopped bool) {
	eng := e
	if build {
		b := *e
		b.graphBuild = true
		eng = &b
	}
	vals := make([]*tensor.Tensor, len(c.Steps))
	for j := range c.Steps {
		run, ok := eng.plan(p, c.StepCase(j, vals))
		if !ok {
			return out, false, false
		}
		if out = run.run(); out.Form != tensor.FormValue {
			return out, true, true
		}
		vals[j] = out.Value
	}
	return out, true, false
}
