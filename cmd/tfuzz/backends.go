package main

import (
	"context"
	"sort"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/impls/adapter"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// backendFactories are the implementations tfuzz can check, by name.
var backendFactories = map[string]func() tensor.Backend{}

// registerBackend makes a backend available to run, repro and eval.
func registerBackend(name string, f func() tensor.Backend) { backendFactories[name] = f }

func backendNames() []string {
	var names []string
	for n := range backendFactories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// selectTargets returns the (backend, profile) pairs a campaign checks: every
// named backend (all when none are named) on every profile it claims that the
// model has and that the profile filter lets through.
func selectTargets(backends, profiles []string) ([]campaign.Target, error) {
	if len(backends) == 0 {
		backends = backendNames()
	}
	var targets []campaign.Target
	for _, name := range backends {
		b, err := openBackend(name)
		if err != nil {
			return nil, err
		}
		if _, external := b.(*adapter.Backend); external {
			b = modeledOnly{b}
		}
		for _, p := range b.Profiles() {
			if _, ok := model.Lookup(p); !ok {
				continue
			}
			if len(profiles) == 0 || contains(profiles, p) {
				targets = append(targets, campaign.Target{Backend: b, Profile: p})
			}
		}
	}
	return targets, nil
}

// openBackend returns the backend called name: a registered one, the
// reference adapter for "python" (python.go), or for "exec:COMMAND" an
// adapter process speaking impls/adapter/PROTOCOL.md (timeouts and process
// count from TFUZZ_ADAPTER_TIMEOUT, TFUZZ_ADAPTER_START_TIMEOUT,
// TFUZZ_ADAPTER_PROCS).
func openBackend(name string) (tensor.Backend, error) {
	if name == pythonBackend {
		return openPython()
	}
	if adapter.IsExec(name) {
		cfg, err := adapter.ConfigFromEnv(name)
		if err != nil {
			return nil, err
		}
		return adapter.New(cfg)
	}
	f, ok := backendFactories[name]
	if !ok {
		return nil, unknownBackend(name)
	}
	return f(), nil
}

// modeledOnly offers a real framework only the cases the model states an
// outcome for: elsewhere each of its answers would be a finding about a gap
// of the model, not about the framework.
type modeledOnly struct{ tensor.Backend }

func (m modeledOnly) Supports(profile string, c *tensor.Case) bool {
	return m.Backend.Supports(profile, c) && !props.NotModeled(model.Eval(profile, c))
}

// EvalContext passes a context on to the backend when it takes one.
func (m modeledOnly) EvalContext(ctx context.Context, profile string, c *tensor.Case) (tensor.Outcome, error) {
	return evalContext(ctx, m.Backend, profile, c)
}

// contextEvaluator is a backend whose calls a context interrupts (an adapter).
type contextEvaluator interface {
	EvalContext(ctx context.Context, profile string, c *tensor.Case) (tensor.Outcome, error)
}

func evalContext(ctx context.Context, b tensor.Backend, profile string, c *tensor.Case) (tensor.Outcome, error) {
	if ce, ok := b.(contextEvaluator); ok {
		return ce.EvalContext(ctx, profile, c)
	}
	return b.Eval(profile, c), nil
}

// boundBackend is a backend whose Eval calls are interrupted by ctx (for
// props.SafeEval and props.Differential, which know only tensor.Backend).
type boundBackend struct {
	tensor.Backend
	ctx context.Context
}

func (b boundBackend) Eval(profile string, c *tensor.Case) tensor.Outcome {
	out, _ := evalContext(b.ctx, b.Backend, profile, c)
	return out
}

func (m modeledOnly) Close() error {
	closeBackend(m.Backend)
	return nil
}

// closeBackend ends what a backend started (an adapter's processes).
func closeBackend(b tensor.Backend) {
	if c, ok := b.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

func closeTargets(targets []campaign.Target) {
	for _, t := range targets {
		closeBackend(t.Backend)
	}
}
