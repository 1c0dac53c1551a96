package campaign

import (
	"context"
	"sync/atomic"

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
}

func withContext(ctx context.Context, b tensor.Backend) *ctxBackend {
	return &ctxBackend{Backend: b, ctx: ctx}
}

func (b *ctxBackend) Eval(profile string, c *tensor.Case) tensor.Outcome {
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

// interrupted reports whether the context cut a call short.
func (b *ctxBackend) interrupted() bool { return b.stop.Load() }
