package props

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// Shrinking programs: a step weighs as much as an element, so that
// dropping one is a simplification; a dropped step's users read its first
// tensor argument instead (the spec's rule), inputs no step reads any more
// go, and a program of one step becomes that single-op case.

// programSize is what a program's steps add to Size, in elements.
func programSize(c *tensor.Case) float64 {
	if !c.IsProgram() {
		return 0
	}
	return float64(len(c.Steps))
}

// stepCandidates drop one step of a program (the last first), or turn a
// program of one step into a single-op case.
func stepCandidates(c *tensor.Case) []*tensor.Case {
	if !c.IsProgram() {
		return nil
	}
	if len(c.Steps) == 1 {
		return compact([]*tensor.Case{singleOp(c)})
	}
	var out []*tensor.Case
	for k := len(c.Steps) - 1; k >= 0; k-- {
		out = append(out, dropStep(c, k))
	}
	return compact(out)
}

// dropStep removes step k; nil when a later step reads it and it has no
// tensor argument to read instead.
func dropStep(c *tensor.Case, k int) *tensor.Case {
	var instead *tensor.StepArg
	for _, a := range c.Steps[k].Args {
		if a.From == tensor.FromStep || a.From == tensor.FromLiteral && a.Arg.Tensor != nil ||
			a.From == tensor.FromInput && c.Args[a.Index].Tensor != nil {
			instead = &a
			break
		}
	}
	d := cloneCase(c)
	d.Steps = append(d.Steps[:k:k], d.Steps[k+1:]...)
	for j := k; j < len(d.Steps); j++ {
		for i, a := range d.Steps[j].Args {
			switch {
			case a.From != tensor.FromStep || a.Index < k:
			case a.Index == k:
				if instead == nil {
					return nil
				}
				d.Steps[j].Args[i] = *instead
				if instead.From == tensor.FromLiteral {
					d.Steps[j].Args[i].Arg = cloneArg(instead.Arg)
				}
			default:
				d.Steps[j].Args[i].Index--
			}
		}
	}
	dropUnusedInputs(d)
	return d
}

// dropUnusedInputs removes the program inputs no step reads.
func dropUnusedInputs(c *tensor.Case) {
	used := make([]bool, len(c.Args))
	for _, s := range c.Steps {
		for _, a := range s.Args {
			if a.From == tensor.FromInput {
				used[a.Index] = true
			}
		}
	}
	renumber := make([]int, len(c.Args))
	var kept []tensor.Arg
	for i, a := range c.Args {
		renumber[i] = len(kept)
		if used[i] {
			kept = append(kept, a)
		}
	}
	c.Args = kept
	for j := range c.Steps {
		for i, a := range c.Steps[j].Args {
			if a.From == tensor.FromInput {
				c.Steps[j].Args[i].Index = renumber[a.Index]
			}
		}
	}
}

// singleOp is the single-op case of a program of one step.
func singleOp(c *tensor.Case) *tensor.Case {
	if len(c.Steps) != 1 {
		return nil
	}
	d := cloneCase(c)
	one := d.StepCase(0, nil)
	d.Format, d.Steps, d.Op, d.Attrs, d.Args = 0, nil, one.Op, one.Attrs, one.Args
	return d
}
