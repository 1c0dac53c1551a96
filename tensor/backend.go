package tensor

// Backend is an implementation tfuzz checks against the model: an optimized
// engine, a simulated device, or a real framework behind an adapter.
type Backend interface {
	// Name identifies the backend in reports ("cpu", "metal-sim", "exec:...").
	Name() string
	// Profiles lists the model profiles the backend claims to implement.
	Profiles() []string
	// Supports reports whether the backend handles case c under profile; the
	// generators send it nothing else. It must be honest: a backend that
	// declines what it cannot do is fine, one that claims it and errs is a finding.
	Supports(profile string, c *Case) bool
	// Eval returns the backend's outcome. A framework's panic or crash is an
	// outcome it returns on purpose; a Go panic escaping Eval is a bug in the
	// backend, which the harness reports as its own kind of finding.
	Eval(profile string, c *Case) Outcome
}
