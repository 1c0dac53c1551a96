package campaign

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/tfuzz/tfuzz/tensor"
)

// contextEvaluator is a backend whose calls a context can interrupt (an
// adapter's: impls/adapter.Backend.EvalContext). Its error is ctx's when the
// call was interrupted; the outcome then means nothing.
type contextEvaluator interface {
	EvalContext(ctx context.Context, profile string, c *tensor.Case) (tensor.Outcome, error)
}

// ctxBackend passes a context to the calls of one check (props.Differential
// knows only tensor.Backend) and records whether it interrupted one.
type ctxBackend struct {
	tensor.Backend
	ctx  context.Context
	stop atomic.Bool
	// callStart is when the backend call in progress began (Unix
	// nanoseconds), 0 between calls: the hang watchdog reads it.
	callStart atomic.Int64
}

// calling marks a backend call in progress until called runs.
func (b *ctxBackend) calling() { b.callStart.Store(time.Now().UnixNano()) }

func (b *ctxBackend) called() { b.callStart.Store(0) }

func (b *ctxBackend) Supports(profile string, c *tensor.Case) bool {
	b.calling()
	defer b.called()
	return b.Backend.Supports(profile, c)
}

func withContext(ctx context.Context, b tensor.Backend) *ctxBackend {
	return &ctxBackend{Backend: b, ctx: ctx}
}

func (b *ctxBackend) Eval(profile string, c *tensor.Case) tensor.Outcome {
	b.calling()
	defer b.called()
	ce, ok := b.Backend.(contextEvaluator)
	if !ok {
		return b.Backend.Eval(profile, c)
	}
	out, err := ce.EvalContext(b.ctx, profile, c)
	if err != nil {
		b.stop.Store(true)
	}
	return out
}

// TryEval passes a TryEvaler's one-pass support and evaluation through (a
// backend that has one takes no context); without one, it is Supports then
// Eval.
func (b *ctxBackend) TryEval(profile string, c *tensor.Case) (tensor.Outcome, bool) {
	if te, ok := b.Backend.(tensor.TryEvaler); ok {
		b.calling()
		defer b.called()
		return te.TryEval(profile, c)
	}
	if !b.Supports(profile, c) {
		return tensor.Outcome{}, false
	}
	return b.Eval(profile, c), true
}

// Gap passes a tensor.GapLister's gaps through (CheckDecline sees the
// backend through this wrapper while shrinking).
func (b *ctxBackend) Gap(profile string, c *tensor.Case) string {
	if gl, ok := b.Backend.(tensor.GapLister); ok {
		return gl.Gap(profile, c)
	}
	return "not a gap lister"
}

// interrupted reports whether the context cut a call short.
func (b *ctxBackend) interrupted() bool { return b.stop.Load() }
