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

// A TryEvaler decides whether it supports a case and evaluates it in one
// pass: the CPU engine plans a case for Supports and again for Eval
// otherwise. TryEval(p, c) is (Eval(p, c), true) when Supports(p, c), and
// ok is false otherwise.
type TryEvaler interface {
	TryEval(profile string, c *Case) (out Outcome, ok bool)
}

// A GapLister claims every case of its profiles that the model answers
// (a value, an error, a panic or a crash), except those that fall in a gap
// of its coverage it names: Gap returns the gap's description, or "" for a
// case outside every gap. A campaign reports a decline of a case outside
// every gap as a finding (kind "declined"): a backend whose Supports
// starts declining what it implements has lost coverage, and no
// comparison would ever show it. Gap must be written apart from Supports
// (a table of what is not implemented), or the two could not disagree.
type GapLister interface {
	Gap(profile string, c *Case) string
}

// PathSize is a tensor size at which a backend's code changes path: a
// goroutine split, a tile, a block of a summation order, streaming stores.
// Generators draw a share of their cases at and around each one, so that a
// campaign reaches the paths a small random case never does.
type PathSize struct {
	Name     string   // what changes there, for progress lines ("goroutine split")
	Elements int      // the element count at which the path changes
	Dim      bool     // Elements is the length of one dimension (a row, a reduced dim), not of the whole tensor
	Align    int      // the tensor is cut into pieces aligned to this many elements (0: not cut)
	Ops      []string // the ops whose path changes (nil: every op that takes a tensor)
	Profiles []string // the profiles whose path changes (nil: every profile the backend claims)
	DTypes   []DType  // the main input dtypes whose path changes (nil: every dtype)
	// Weight is the share of the tier time this size gets, relative to the
	// others (0 counts as 1): more for paths small cases can never show.
	Weight int
	// Cost is what drawing and checking one case of this size costs, in
	// small cases (the model's work dominates, and differs by op: a sort
	// or a matmul costs more per element than an add), as measured from a
	// default campaign's summary.json (seconds over cases of the tier,
	// over those of small cases); 0: estimated from Elements.
	Cost float64
}

// PathSizer is a Backend that states the sizes where its paths change.
type PathSizer interface {
	PathSizes() []PathSize
}
