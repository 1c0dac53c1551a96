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
// arguments that family handles. Everything else is declined.
func (e *Engine) Supports(profile string, c *tensor.Case) bool {
	p := lookupProfile(profile)
	if p == nil || c == nil {
		return false
	}
	c = asBroadcastBase(p, c) // broadcastops.go
	cl, ok := opClass(c.Op)
	if !ok {
		return false
	}
	f := p.families[cl]
	return f != nil && wellFormed(cl, c) && !laterAttrs(cl, c) && f.supports(p, c)
}

// Eval returns the engine's outcome for c under profile. Cases it does not
// support get an unsupported outcome that says so (the harness never sends
// them).
func (e *Engine) Eval(profile string, c *tensor.Case) tensor.Outcome {
	p := lookupProfile(profile)
	if p == nil {
		return tensor.UnsupportedOutcome("cpu engine: no profile %q", profile)
	}
	c = asBroadcastBase(p, c)
	cl, ok := opClass(c.Op)
	if !ok {
		return tensor.UnsupportedOutcome("cpu engine: no op %q", c.Op)
	}
	f := p.families[cl]
	if f == nil || !wellFormed(cl, c) || laterAttrs(cl, c) || !f.supports(p, c) {
		return tensor.UnsupportedOutcome("cpu engine: %s is not implemented for %s", c.Op, profile)
	}
	return f.eval(e, p, c)
}
