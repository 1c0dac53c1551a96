package cpu

import (
	"runtime"

	"github.com/tfuzz/tfuzz/tensor"
)

// DefaultParallelThreshold is the element count from which an op is split
// across goroutines.
const DefaultParallelThreshold = 1 << 16

// Engine is the optimized CPU implementation of the model's CPU profiles. It
// is safe for concurrent use; an Engine holds only its configuration.
type Engine struct {
	workers   int // goroutines for one large op (>= 1)
	threshold int // smallest element count that is split (>= 1)
	// graphBuild: a tenferro traced graph is being built (program.go):
	// value checks are skipped
	graphBuild bool
}

// Option configures an Engine.
type Option func(*Engine)

// WithWorkers sets how many goroutines one large op is split across
// (default GOMAXPROCS; values below 1 mean 1).
func WithWorkers(n int) Option {
	return func(e *Engine) { e.workers = max(n, 1) }
}

// WithParallelThreshold sets the element count from which ops are split
// (default DefaultParallelThreshold; values below 1 mean 1).
func WithParallelThreshold(n int) Option {
	return func(e *Engine) { e.threshold = max(n, 1) }
}

// New returns an engine with the given options.
func New(opts ...Option) *Engine {
	e := &Engine{workers: runtime.GOMAXPROCS(0), threshold: DefaultParallelThreshold}
	for _, o := range opts {
		o(e)
	}
	return e
}

var _ tensor.Backend = (*Engine)(nil)

// Name identifies the backend in reports.
func (e *Engine) Name() string { return "cpu" }

// Profiles lists the profiles the engine implements (those with at least
// one op family), in the case format's order.
func (e *Engine) Profiles() []string {
	var names []string
	for _, p := range profiles {
		for _, f := range p.families {
			if f != nil {
				names = append(names, p.name)
				break
			}
		}
	}
	return names
}

// Supports reports whether the engine implements case c under profile: a
// known profile, an op of the catalog whose class has a family there, and
// arguments that family handles (for a program: every step that runs).
// Everything else is declined.
func (e *Engine) Supports(profile string, c *tensor.Case) bool {
	p := lookupProfile(profile)
	if p == nil || c == nil {
		return false
	}
	if c.IsProgram() {
		_, ok := e.runProgram(p, c)
		return ok
	}
	_, ok := e.plan(p, c)
	return ok
}

// TryEval is Supports and Eval in one pass (tensor.TryEvaler): the case is
// planned once.
func (e *Engine) TryEval(profile string, c *tensor.Case) (tensor.Outcome, bool) {
	p := lookupProfile(profile)
	if p == nil || c == nil {
		return tensor.Outcome{}, false
	}
	if c.IsProgram() {
		return e.runProgram(p, c)
	}
	run, ok := e.plan(p, c)
	if !ok {
		return tensor.Outcome{}, false
	}
	return run.run(), true
}

// Eval returns the engine's outcome for c under profile. Cases it does not
// support get an unsupported outcome that says so (the harness never sends
// them).
func (e *Engine) Eval(profile string, c *tensor.Case) tensor.Outcome {
	p := lookupProfile(profile)
	if p == nil {
		return tensor.UnsupportedOutcome("cpu engine: no profile %q", profile)
	}
	if c.IsProgram() {
		out, ok := e.runProgram(p, c)
		if !ok {
			return tensor.UnsupportedOutcome("cpu engine: a step of this program is not implemented for %s", profile)
		}
		return out
	}
	run, ok := e.plan(p, c)
	if !ok {
		return tensor.UnsupportedOutcome("cpu engine: %s is not implemented for %s", c.Op, profile)
	}
	return run.run()
}

// plan finds how the engine evaluates the single-op case c under p, or
// reports false when it does not implement it.
func (e *Engine) plan(p *profile, c *tensor.Case) (run planned, ok bool) {
	c = asBroadcastBase(p, c) // broadcastops.go
	cl, ok := opClass(c.Op)
	if !ok {
		return planned{}, false
	}
	f := p.families[cl]
	if f == nil || !wellFormed(cl, c) || laterAttrs(p, cl, c) {
		return planned{}, false
	}
	c, out, v := spellViews(p, cl, c)
	switch {
	case v == decline:
		return planned{}, false
	case v == answered:
		return planned{out: out, answered: true}, true
	case !f.supports(p, c):
		return planned{}, false
	}
	return planned{e: e, p: p, c: c, f: f}, true
}

// planned is a case the engine implements, ready to run: its family's
// evaluation, or the outcome planning already gave. (A value, not a
// closure: one is planned for every case a campaign checks.)
type planned struct {
	e        *Engine
	p        *profile
	c        *tensor.Case
	f        *family
	out      tensor.Outcome
	answered bool
}

func (r planned) run() tensor.Outcome {
	if r.answered {
		return r.out
	}
	return r.f.eval(r.e, r.p, r.c)
}
