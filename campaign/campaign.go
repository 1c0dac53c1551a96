package campaign

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// Version is the tfuzz version written into every finding.
const Version = "0.1.0"

// Target is one backend checked under one of the profiles it claims.
type Target struct {
	Backend tensor.Backend
	Profile string
}

func (t Target) String() string { return t.Backend.Name() + "@" + t.Profile }

// Config describes a campaign. Zero values take the documented defaults.
type Config struct {
	Targets       []Target
	Gen           props.CaseOptions
	Seed          uint64
	Duration      time.Duration // stop after this long; 0: no time limit
	MaxCases      int64         // stop after this many cases of this shard; 0: no limit
	Workers       int           // default: runtime.NumCPU()
	Shard, Shards int           // run the cases i ≡ Shard (mod Shards); default 0/1
	OutDir        string        // default "tfuzz-out"
	Resume        bool          // continue the campaign checkpointed in OutDir
	Force         bool          // start a new campaign in an OutDir that holds one (its findings are kept)
	Progress      io.Writer     // progress lines; nil: none
	ProgressEvery time.Duration // default 5s
	MaxShrinkRuns int           // evaluations spent shrinking one finding; default 2000
	MaxShrinkTime time.Duration // time spent shrinking one finding; default 30s
	HangAfter     time.Duration // a backend call running longer is a hang (hang.go); default 30s
	// StopAfterFindings ends the campaign once this run has written that
	// many new findings (0: no limit); cases in flight finish first.
	StopAfterFindings int
}

// Stats summarize a campaign.
type Stats struct {
	Seed             uint64
	Cases            int64           // cases drawn by this run
	Checked          int64           // cases a backend supported and was checked on
	Divergent        int64           // checked cases that diverged, or on which the backend panicked
	Counts           Counts          // what became of the cases, by outcome form
	Targets          []ProfileCounts // the same per target
	Tiers            []TierCount     // cases drawn per size tier
	Workers          int
	NewFindings      int // signatures first written by this run
	Findings         int // signatures in the findings folder
	Elapsed          time.Duration
	From             int64 // the checkpoint this run started from (0 for a new campaign)
	Next             int64 // the checkpoint: index of the first case not yet done
	Interrupted      bool  // ctx was cancelled (a signal): cases in flight were left for a resume
	ShrunkElements   []int // per new finding: elements of the shrunk case
	OriginalElements []int // per new finding: elements of the case that first showed it
	// FoundAt is, per new finding, when it was written (after shrinking),
	// counted from the start of the run.
	FoundAt []time.Duration
}

// Run runs the campaign until its duration or case limit is reached or ctx
// is done, and returns what it did. Findings are in OutDir/findings. The
// duration ends the drawing of cases; ctx (a signal) also cancels the
// shrinking and the backend calls in flight, whose cases a resume redoes.
// Errors in the configuration or the output folder are *InputError.
func Run(ctx context.Context, cfg Config) (Stats, error) {
	cfg.Defaults()
	if len(cfg.Targets) == 0 {
		return Stats{}, &InputError{fmt.Errorf("no backend claims any of the selected profiles")}
	}
	lock, st, err := openCampaign(cfg)
	if err != nil {
		return Stats{}, err
	}
	defer lock.Unlock()
	store, err := openStore(cfg.OutDir)
	if err != nil {
		return Stats{}, &InputError{err}
	}
	banner(cfg, st) // once the folder, its checkpoint and its findings are read
	r := &runner{cfg: cfg, store: store, state: st, first: st.Next, start: time.Now(), gen: props.NewGen(cfg.Gen), ctx: ctx}
	r.aimTargets()
	r.next.Store(st.Next)
	drawing := ctx // drawing new cases stops at the duration, StopAfterFindings or ctx
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		drawing, cancel = context.WithTimeout(drawing, cfg.Duration)
		defer cancel()
	}
	drawing, r.stop = context.WithCancel(drawing)
	defer r.stop()
	r.inflight = make([]atomic.Int64, cfg.Workers)
	r.calls = make([]atomic.Pointer[workerCall], cfg.Workers)
	r.workers = make([]workerState, cfg.Workers)
	for w := range r.workers {
		r.workers[w] = workerState{stream: props.NewStream(0), backends: make([]*ctxBackend, len(cfg.Targets))}
		for k, t := range cfg.Targets {
			r.workers[w].backends[k] = withContext(ctx, t.Backend)
		}
	}
	r.hung = make(hungFlags, cfg.Workers)
	r.hungWorkers = make(chan int, cfg.Workers)
	exited := make(chan int, cfg.Workers)
	for w := 0; w < cfg.Workers; w++ {
		r.inflight[w].Store(-1)
		go func(w int) {
			r.work(drawing, w)
			exited <- w
		}(w)
	}
	done := make(chan struct{})
	go r.report(done)
	go r.watch(done)
	for left := cfg.Workers; left > 0; left-- { // a hung worker never exits: hang.go
		select {
		case <-exited:
		case <-r.hungWorkers:
		}
	}
	close(done)
	r.checkpoint()
	r.progressLine()
	return r.stats(), r.firstErr()
}

// Defaults fills in the documented defaults of unset fields.
func (c *Config) Defaults() {
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.Shards <= 0 {
		c.Shards, c.Shard = 1, 0
	}
	if c.OutDir == "" {
		c.OutDir = "tfuzz-out"
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = 5 * time.Second
	}
	if c.MaxShrinkRuns <= 0 {
		c.MaxShrinkRuns = 2000
	}
	if c.MaxShrinkTime <= 0 {
		c.MaxShrinkTime = 30 * time.Second
	}
	if c.HangAfter <= 0 {
		c.HangAfter = 30 * time.Second
	}
}

type runner struct {
	cfg         Config
	store       *store
	state       *state
	first       int64 // the checkpoint this run started from; MaxCases counts from it
	start       time.Time
	gen         *props.Gen
	ctx         context.Context    // cancels what is in flight (a signal)
	stop        context.CancelFunc // ends the drawing of cases early (StopAfterFindings)
	next        atomic.Int64       // next local index to hand out
	inflight    []atomic.Int64
	calls       []atomic.Pointer[workerCall] // per worker: the case it checks (hang.go)
	workers     []workerState
	hung        hungFlags
	hungWorkers chan int

	aims      []props.Aim    // per target: its profile and its backend's size tiers
	counts    []liveCounts   // per target
	tierNames []string       // "small", then every tier name of any target
	tierOf    [][]int        // per target, per tier of its aim: index in tierNames
	tierCases []atomic.Int64 // per tier name
	tierNanos []atomic.Int64 // per tier name: time spent drawing and checking its cases
	harnessMu sync.Mutex
	harness   map[string]bool // harness failures already reported, by message

	mu       sync.Mutex
	err      error
	newSizes [][2]int // original and shrunk elements of each new finding
	foundAt  []time.Duration
}

// caseSeed derives the seed of global case i from the campaign seed.
func caseSeed(seed uint64, i int64) uint64 {
	h := fnv.New64a()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(i))
	h.Write(b[:])
	return h.Sum64()
}

func (r *runner) work(drawing context.Context, w int) {
	for drawing.Err() == nil && r.firstErr() == nil {
		j := r.next.Add(1) - 1
		if r.cfg.MaxCases > 0 && j >= r.first+r.cfg.MaxCases {
			return
		}
		r.inflight[w].Store(j)
		if !r.runCase(w, j) {
			return // interrupted: j stays in flight, so the checkpoint stays below it
		}
		if r.hung[w].Load() {
			return // the watchdog gave this worker up (hang.go)
		}
		r.inflight[w].Store(-1)
	}
}

// aimTargets prepares, per target, what its cases aim at (its profile's
// support and its backend's size tiers) and the counters.
func (r *runner) aimTargets() {
	r.aims = make([]props.Aim, len(r.cfg.Targets))
	for k, t := range r.cfg.Targets {
		r.aims[k] = props.NewAim(t.Profile, props.TiersFor(t.Backend, t.Profile))
	}
	r.counts = make([]liveCounts, len(r.cfg.Targets))
	r.tierNames = tierNames(r.aims)
	r.tierCases = make([]atomic.Int64, len(r.tierNames))
	r.tierNanos = make([]atomic.Int64, len(r.tierNames))
	r.tierOf = make([][]int, len(r.aims))
	for k, a := range r.aims {
		for i := range a.Tiers {
			r.tierOf[k] = append(r.tierOf[k], slices.Index(r.tierNames, a.Tiers[i].Name()))
		}
	}
	r.harness = map[string]bool{}
}

// workerState is what one worker reuses from case to case: the bit stream
// it draws from and, per target, the backend wrapper its checks go through.
type workerState struct {
	stream   *props.Stream
	backends []*ctxBackend
}

// drawCase draws global case i from worker w's stream: its target, and the
// case aimed at it.
func (r *runner) drawCase(w int, i int64) (k int, c *tensor.Case, tier int) {
	seed := caseSeed(r.cfg.Seed, i)
	k = int(seed % uint64(len(r.cfg.Targets)))
	st := r.workers[w].stream
	st.Reset(seed)
	c, tier = r.gen.Draw(st, r.aims[k])
	return k, c, tier
}

// runCase draws, checks and (on a divergence) shrinks and stores local case
// j. It reports false when a signal interrupted the check of the case, or
// when a panic escaped the model or a backend outside its evaluation (a bug
// of tfuzz): the campaign then ends with an error naming the case, not with
// a Go stack trace, and the case stays undone.
func (r *runner) runCase(w int, j int64) (done bool) {
	start := time.Now()
	i := j*int64(r.cfg.Shards) + int64(r.cfg.Shard)
	defer func() {
		if p := recover(); p != nil {
			r.fail(fmt.Errorf("internal error on case %d of seed %d (tfuzz run --seed %d --shard %d/%d replays it): %v",
				i, r.cfg.Seed, r.cfg.Seed, r.cfg.Shard, r.cfg.Shards, p))
			done = false
		}
	}()
	k, c, tier := r.drawCase(w, i)
	target, count := r.cfg.Targets[k], &r.counts[k]
	ti := 0
	if tier >= 0 {
		ti = r.tierOf[k][tier]
	}
	count.kinds(c, false)
	b := r.workers[w].backends[k]
	b.stop.Store(false)
	r.calls[w].Store(&workerCall{b: b, c: c, k: k, i: i})
	f, supported := props.TryCheck(b, target.Profile, c)
	r.calls[w].Store(nil)
	if b.interrupted() {
		return false
	}
	if r.hung[w].Load() {
		return true
	}
	if !supported {
		count.cases.Add(1)
		count.declined.Add(1)
		lost := props.UnclaimedDecline(target.Backend, target.Profile, c) // a lost coverage, or nil
		r.tierCases[ti].Add(1)
		r.tierNanos[ti].Add(int64(time.Since(start)))
		if lost == nil {
			return true
		}
		count.unclaimed.Add(1)
		return r.record(w, k, i, c, lost)
	}
	count.cases.Add(1)
	if f.Want.NotModeled() { // nothing to compare with
		count.notModeled.Add(1)
		r.tierCases[ti].Add(1)
		r.tierNanos[ti].Add(int64(time.Since(start)))
		return true
	}
	count.tally(&f)
	count.kinds(c, true)
	r.tierCases[ti].Add(1)
	r.tierNanos[ti].Add(int64(time.Since(start)))
	if !f.Failed() {
		return true
	}
	failed := f // f stays on the stack: only a failure is kept
	if failed.Got.HarnessFailure() {
		r.reportHarness(&failed)
		return true
	}
	return r.record(w, k, i, c, &failed)
}

// record shrinks and stores the finding f of case i (case c of target k,
// checked by worker w), unless its signature is already stored.
func (r *runner) record(w, k int, i int64, c *tensor.Case, f *props.Finding) bool {
	if r.store.seen(f.Signature()) {
		return true
	}
	original := caseElements(c)
	shrunk := r.shrink(w, k, i, f)
	if r.hung[w].Load() {
		return true // a candidate hung (hang.go): that finding stands for this one
	}
	isNew, err := r.store.add(shrunk, FindingMeta{Seed: r.cfg.Seed, CaseIndex: i, OriginalElements: original})
	if err != nil {
		r.fail(err)
		return true
	}
	r.store.markSeen(f.Signature())
	if isNew {
		r.mu.Lock()
		r.newSizes = append(r.newSizes, [2]int{original, caseElements(shrunk.Case)})
		r.foundAt = append(r.foundAt, time.Since(r.start))
		if n := r.cfg.StopAfterFindings; n > 0 && len(r.newSizes) >= n {
			r.stop()
		}
		r.mu.Unlock()
	}
	return true
}

// shrink minimizes a finding of one of the campaign's targets, for at most
// MaxShrinkTime, and with a Duration no later than MaxShrinkTime after it
// ends: a finding found at the last moment is still shrunk, but findings
// that a slow backend reports one after another past the end (workers
// waiting for one adapter process) do not each get the full time, so a
// campaign ends within its duration, one case's time and MaxShrinkTime.
func (r *runner) shrink(w, k int, i int64, f *props.Finding) *props.Finding {
	deadline := time.Now().Add(r.cfg.MaxShrinkTime)
	if d := r.cfg.Duration; d > 0 {
		if end := r.start.Add(d + r.cfg.MaxShrinkTime); end.Before(deadline) {
			deadline = end
		}
	}
	ctx, cancel := context.WithDeadline(r.ctx, deadline)
	defer cancel()
	watched := func(cb *ctxBackend, c *tensor.Case) func() { // the watchdog sees candidates too
		r.calls[w].Store(&workerCall{b: cb, c: c, k: k, i: i})
		return func() { r.calls[w].Store(nil) }
	}
	return shrinkFinding(ctx, targetBackend(f, r.cfg.Targets), f, r.cfg.MaxShrinkRuns, watched)
}

// ShrinkFinding minimizes a finding of backend b while b keeps diverging on
// the same profile with the same kind of divergence and the same outcome
// forms, spending at most maxRuns evaluations (2000 when maxRuns <= 0). It
// stops when ctx is done and returns the smallest finding confirmed so far;
// a backend call that ctx interrupted confirms nothing.
func ShrinkFinding(ctx context.Context, b tensor.Backend, f *props.Finding, maxRuns int) *props.Finding {
	return shrinkFinding(ctx, b, f, maxRuns, nil)
}

// shrinkFinding is ShrinkFinding that tells watch (when not nil) of each
// candidate's backend before checking it, and calls what it returns after.
func shrinkFinding(ctx context.Context, b tensor.Backend, f *props.Finding, maxRuns int, watch func(*ctxBackend, *tensor.Case) func()) *props.Finding {
	if maxRuns <= 0 {
		maxRuns = 2000
	}
	best := f
	runs := 0
	spent := func() bool { return runs >= maxRuns || ctx.Err() != nil }
	props.ShrinkUntil(f.Case, func(c *tensor.Case) bool {
		runs++
		cb := withContext(ctx, b)
		if watch != nil {
			defer watch(cb, c)()
		}
		check := props.Differential
		if f.Declined {
			check = props.CheckDecline
		}
		g := check(cb, f.Profile, c)
		if cb.interrupted() || g == nil || !sameFailure(f, g) {
			return false
		}
		best = g
		return true
	}, spent)
	return best
}

// reportHarness prints a harness failure (an adapter that did not start or
// broke the protocol) once per message: it says nothing about the
// implementation, so it is neither shrunk nor stored as a finding.
func (r *runner) reportHarness(f *props.Finding) {
	r.harnessMu.Lock()
	defer r.harnessMu.Unlock()
	if r.harness[f.Got.Message()] || r.cfg.Progress == nil {
		return
	}
	r.harness[f.Got.Message()] = true
	fmt.Fprintf(r.cfg.Progress, "tfuzz: harness failure (not a finding): %v\n", f)
}

func targetBackend(f *props.Finding, targets []Target) tensor.Backend {
	for _, t := range targets {
		if t.Backend.Name() == f.Backend {
			return t.Backend
		}
	}
	panic("campaign: a finding of an unknown backend")
}

// sameFailure reports whether g shows the same bug as f.
func sameFailure(f, g *props.Finding) bool {
	return g.Compare.Divergence == f.Compare.Divergence && g.Panicked == f.Panicked && g.Declined == f.Declined &&
		g.Want.Form == f.Want.Form && g.Got.Form == f.Got.Form
}

func caseElements(c *tensor.Case) int {
	n := 0
	for _, a := range c.Args {
		if a.Tensor != nil {
			n += a.Tensor.Len()
		}
	}
	return n
}

func (r *runner) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

func (r *runner) firstErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// checkpoint records the first local index not yet done: every index below
// the smallest one in flight (or below the next to hand out) is finished.
func (r *runner) checkpoint() {
	low := r.next.Load()
	for w := range r.inflight {
		if j := r.inflight[w].Load(); j >= 0 && j < low {
			low = j
		}
	}
	if r.cfg.MaxCases > 0 {
		low = min(low, r.first+r.cfg.MaxCases)
	}
	r.mu.Lock()
	r.state.Next = max(r.state.Next, low)
	err := r.state.save(r.cfg.OutDir)
	r.mu.Unlock()
	if err == nil {
		s := r.stats()
		err = summary{Seed: s.Seed, Elapsed: s.Elapsed.Seconds(), Workers: s.Workers, Total: s.Counts,
			Targets: s.Targets, Tiers: s.Tiers, Findings: s.Findings}.save(r.cfg.OutDir)
	}
	if err != nil {
		r.fail(err)
	}
}

func (r *runner) report(done <-chan struct{}) {
	t := time.NewTicker(r.cfg.ProgressEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			r.checkpoint()
			r.progressLine()
		}
	}
}

func (r *runner) progressLine() {
	if r.cfg.Progress == nil {
		return
	}
	el := time.Since(r.start)
	s := r.stats()
	c := s.Counts
	fmt.Fprintf(r.cfg.Progress, "tfuzz: %6s  cases %d (%.0f/s/core)  checks %d (%s; value-or-error %.0f/s/core)  declined %d  diverged %d  findings %d signatures\n",
		el.Round(time.Second), c.Cases, s.PerCore(c.Cases), c.Checked(), c.FormSplit(), s.PerCore(c.ValueOrError()),
		c.Declined, s.Divergent, s.Findings)
	fmt.Fprintf(r.cfg.Progress, "tfuzz:         tiers: %s\n", TierLine(s.Tiers))
}

// PerCore is n per second per worker over the run's elapsed time.
func (s Stats) PerCore(n int64) float64 {
	return float64(n) / max(s.Elapsed.Seconds(), 1e-9) / float64(max(s.Workers, 1))
}

func (r *runner) stats() Stats {
	s := Stats{Seed: r.cfg.Seed, Findings: r.store.count(), Elapsed: time.Since(r.start), From: r.first,
		Next: r.state.Next, Interrupted: r.ctx.Err() != nil, Workers: r.cfg.Workers}
	for k, t := range r.cfg.Targets {
		c := r.counts[k].snapshot()
		s.Targets = append(s.Targets, ProfileCounts{Target: t.String(), Counts: c})
		s.Counts.Add(c)
	}
	for i, name := range r.tierNames {
		s.Tiers = append(s.Tiers, TierCount{Name: name, Cases: r.tierCases[i].Load(),
			Seconds: time.Duration(r.tierNanos[i].Load()).Seconds()})
	}
	c := s.Counts
	s.Cases, s.Checked = c.Cases, c.Checked()
	s.Divergent = c.Diverged.total() + c.BackendPanics + c.BackendHangs + c.UnclaimedDeclines
	for _, sz := range r.newSizes {
		s.OriginalElements = append(s.OriginalElements, sz[0])
		s.ShrunkElements = append(s.ShrunkElements, sz[1])
	}
	s.NewFindings = len(r.newSizes)
	s.FoundAt = append(s.FoundAt, r.foundAt...)
	return s

}
