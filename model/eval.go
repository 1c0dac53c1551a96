package model

import (
	"fmt"

	"github.com/tfuzz/tfuzz/tensor"
)

// Eval returns what the profile called name does with case c. An unknown
// profile name is an unsupported outcome, never a panic.
func Eval(name string, c *tensor.Case) tensor.Outcome {
	p, ok := Lookup(name)
	if !ok {
		out := tensor.UnsupportedOutcome("tfuzz: the model has no profile %q", name)
		out.Cause = tensor.CauseNotModeled
		return out
	}
	return p.Eval(c)
}

// Eval returns what the profile does with case c, with the names of the
// rules that decided it.
func (p *Profile) Eval(c *tensor.Case) tensor.Outcome {
	e := &evaluation{p: p, c: c}
	e.rules = e.ruleSpace[:0]
	var out tensor.Outcome
	if c.IsProgram() {
		out = e.program()
	} else {
		out = e.step()
	}
	if len(e.rules) == 0 {
		e.use(ordinaryRule(p.Framework))
	}
	if len(out.Rules) == 0 {
		out.Rules = e.rules
	} else {
		out.Rules = append(out.Rules[:len(out.Rules):len(out.Rules)], e.rules...)
	}
	if out.Form == tensor.FormUnsupported && e.silent {
		out.Cause = tensor.CauseNotModeled
	}
	out.Warnings = append(out.Warnings, e.warnings...)
	return out
}

var rustNoComplexScalar = newRule("rust.scalar.no-complex-literal",
	"Rust has no complex literal, so a program with a Python complex scalar operand does not compile for candle, burn or tenferro",
	"The Rust Reference, Literal expressions (integer, float, bool, char, string and byte literals only); spec/case-format.md §Scalar (complex is Python's complex() syntax)")

// step evaluates the single-op case e.c: its scalars and views as the
// profile spells them, then the op.
func (e *evaluation) step() tensor.Outcome {
	if e.p.Framework != PyTorch && e.p.Framework != NumPy && e.p.Framework != JAX && hasComplexScalar(e.c) {
		return e.unsupported(rustNoComplexScalar, "Rust has no complex literal: %s does not compile", e.c.Describe())
	}
	if out, done := e.views(); done {
		return out
	}
	return e.p.eval(e)
}

func hasComplexScalar(c *tensor.Case) bool {
	for _, a := range c.Args {
		if a.IsScalar() && a.Scalar.Kind == tensor.ScalarComplex {
			return true
		}
	}
	return false
}

// evaluation is the state of evaluating one case under one profile.
type evaluation struct {
	p         *Profile
	c         *tensor.Case
	rules     []string
	ruleSpace [4]string // rules' first backing array: most outcomes name few
	warnings  []string
	silent    bool // a rule that states nothing decided part of the outcome
	// buildOnly: a traced graph is being built (program.go): the checks of
	// values that run later are skipped, the rest decides as usual
	buildOnly bool
	used      int // calls of use, repeated rules included
	// dt: the dtype argument of a Python reduction (pydtypearg.go), or nil
	dt *dtypeArg
	// tview: the plans of the PyTorch CPU view reduction being evaluated
	// (torchviewreduce.go), shared by its outputs
	tview *torchViewPlans
	// opInfo is op()'s answer for the case opOf
	opOf   *tensor.Case
	opInfo tensor.OpInfo
}

// use records that rule r decided (part of) the outcome.
func (e *evaluation) use(r *Rule) {
	e.used++
	e.silent = e.silent || r.StatesNothing
	if k := len(e.rules); k > 0 && e.rules[k-1] == r.Name { // element loops use one rule again and again
		return
	}
	for _, n := range e.rules {
		if n == r.Name {
			return
		}
	}
	e.rules = append(e.rules, r.Name)
}

// warn records a warning the framework prints (not compared).
func (e *evaluation) warn(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	for _, x := range e.warnings {
		if x == w {
			return
		}
	}
	e.warnings = append(e.warnings, w)
}

// op is the catalog entry of e.c's op (kept: families ask for it several
// times a case).
func (e *evaluation) op() tensor.OpInfo {
	if e.opOf != e.c {
		e.opInfo, _ = tensor.LookupOp(e.c.Op)
		e.opOf = e.c
	}
	return e.opInfo
}

// ordinaryRules name the case where no special rule applies: the op's plain
// mathematical result, exact in the result dtype (no overflow, zero divisor,
// rounding choice or error). An outcome always names at least one rule.
var ordinaryRules = map[Framework]*Rule{}

func init() {
	for _, f := range []Framework{PyTorch, NumPy, JAX, Candle, Burn, Tenferro} {
		ordinaryRules[f] = newRule(string(f)+".ordinary",
			"no special case applies: the op's mathematical result, exact in the result dtype",
			"spec/case-format.md op catalog; the framework's documentation of the op")
	}
}

func ordinaryRule(f Framework) *Rule { return ordinaryRules[f] }
