package campaign

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestOutputFolderRules: one campaign at a time writes a folder; a folder
// that holds a checkpoint is continued only by the same campaign with
// Resume, or started over with Force; the errors are InputErrors.
func TestOutputFolderRules(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir)
	cfg.MaxCases = 30
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	lock, err := LockDir(dir, "a test")
	if err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Seed++
	resumed := cfg
	resumed.Resume = true
	otherOps := resumed
	otherOps.Gen.Ops = []string{"mul"}
	forced := other
	forced.Force = true
	tests := []struct {
		name string
		cfg  Config
		want string // "" for success
	}{
		{"a folder in use", cfg, "in use by another tfuzz process (pid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkRun(t, tt.cfg, tt.want) })
	}
	lock.Unlock()
	tests = []struct {
		name string
		cfg  Config
		want string
	}{
		{"a new campaign over a checkpoint", other, "holds a campaign (seed"},
		{"resuming with other ops", otherOps, "drew cases with"},
		{"resuming", resumed, ""},
		{"starting over with Force", forced, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkRun(t, tt.cfg, tt.want) })
	}
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file outlives the campaigns: %v", err)
	}
}

func checkRun(t *testing.T, cfg Config, want string) {
	t.Helper()
	_, err := Run(context.Background(), cfg)
	var inErr *InputError
	switch {
	case want == "" && err != nil:
		t.Errorf("got %v, want success", err)
	case want != "" && (!errors.As(err, &inErr) || !strings.Contains(err.Error(), want)):
		t.Errorf("got %v, want an InputError containing %q", err, want)
	}
}

// TestLockIsExclusive: of campaigns started at once on one folder, one runs
// and the others are refused.
func TestLockIsExclusive(t *testing.T) {
	dir := t.TempDir()
	const n = 4
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func(i int) {
			cfg := testConfig(dir)
			cfg.MaxCases, cfg.Force, cfg.Seed = 200, true, uint64(i)
			_, err := Run(context.Background(), cfg)
			errs <- err
		}(i)
	}
	ran := 0
	for i := 0; i < n; i++ {
		err := <-errs
		var le *LockedError
		switch {
		case err == nil:
			ran++
		case !errors.As(err, &le):
			t.Errorf("a refused campaign: %v, want a LockedError", err)
		}
	}
	if ran < 1 {
		t.Errorf("%d of %d campaigns ran, want at least one", ran, n)
	}
}

// slowBackend diverges from the model on every case of at least minElems
// elements, and takes delay per call after the first.
type slowBackend struct {
	delay    time.Duration
	calls    *atomic.Int64
	minElems int
}

func (slowBackend) Name() string                           { return "slow" }
func (slowBackend) Profiles() []string                     { return []string{"numpy"} }
func (slowBackend) Supports(p string, c *tensor.Case) bool { return c.Op == "neg" }
func (b slowBackend) Eval(p string, c *tensor.Case) tensor.Outcome {
	if b.calls.Add(1) > 1 {
		time.Sleep(b.delay) // the first check is quick: its shrinking is slow
	}
	out := model.Eval(p, c)
	switch {
	case caseElements(c) < b.minElems:
		return out
	case out.Form != tensor.FormValue:
		return tensor.ValueOutcome(tensor.New(tensor.U64, 3))
	}
	return tensor.ErrorOutcome(tensor.Other, "slow: always wrong")
}

// TestShrinkingIsBounded: a finding found as the duration ends is shrunk
// for at most MaxShrinkTime, not for MaxShrinkRuns slow calls (a hanging
// adapter once kept a 30-second campaign running for minutes), and is kept.
func TestShrinkingIsBounded(t *testing.T) {
	dir := t.TempDir()
	calls := new(atomic.Int64)
	cfg := testConfig(dir)
	cfg.Targets = []Target{{slowBackend{300 * time.Millisecond, calls, 0}, "numpy"}}
	cfg.Gen.Ops = []string{"neg"}
	cfg.Workers, cfg.Duration, cfg.MaxCases = 1, 100*time.Millisecond, 0
	cfg.MaxShrinkTime = 400 * time.Millisecond
	start := time.Now()
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("the campaign took %v, want about its duration and one MaxShrinkTime", took)
	}
	if st.Findings != 1 {
		t.Errorf("%d findings, want the one being shrunk kept", st.Findings)
	}
	t.Logf("%d backend calls in %v", calls.Load(), time.Since(start))
}

// TestShrinkingEndsWithTheDuration: a finding a slow check reports after
// the duration has ended is shrunk only until MaxShrinkTime past the
// duration, not for a MaxShrinkTime of its own: against an adapter whose
// one process the workers share, findings came one after another and each
// was shrunk in full (a 10-second campaign ran 70 s).
func TestShrinkingEndsWithTheDuration(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.Targets = []Target{{lateBackend{new(atomic.Int64)}, "numpy"}}
	cfg.Gen.Ops = []string{"neg"}
	cfg.Workers, cfg.Duration, cfg.MaxCases = 1, 500*time.Millisecond, 0
	cfg.MaxShrinkTime = 2 * time.Second
	start := time.Now()
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// the late check ends at 2.5 s; shrinking until 4.5 s would be its own full MaxShrinkTime
	if took := time.Since(start); took > 3500*time.Millisecond {
		t.Errorf("the campaign took %v, want its duration, the late check and no shrinking past 2.5 s", took)
	}
	if st.Findings != 1 {
		t.Errorf("%d findings, want the late one kept", st.Findings)
	}
}

// lateBackend agrees with the model on its first case, then takes 2.5 s
// over its second and diverges from then on (each shrinking candidate
// taking a second).
type lateBackend struct{ calls *atomic.Int64 }

func (lateBackend) Name() string                           { return "late" }
func (lateBackend) Profiles() []string                     { return []string{"numpy"} }
func (lateBackend) Supports(p string, c *tensor.Case) bool { return true }
func (b lateBackend) Eval(p string, c *tensor.Case) tensor.Outcome {
	switch n := b.calls.Add(1); {
	case n == 1:
		return model.Eval(p, c)
	case n == 2:
		time.Sleep(2500 * time.Millisecond)
	default:
		time.Sleep(time.Second)
	}
	return tensor.ErrorOutcome(tensor.Other, "late: always wrong")
}

// TestCancelLeavesTheCaseForResume: a cancelled campaign (a signal) leaves
// the case whose check it interrupted below the checkpoint.
func TestCancelLeavesTheCaseForResume(t *testing.T) {
	dir := t.TempDir()
	calls := new(atomic.Int64)
	cfg := testConfig(dir)
	cfg.Targets = []Target{{ctxBackend2{calls}, "numpy"}}
	cfg.Gen.Ops = []string{"neg"}
	cfg.Workers, cfg.Duration, cfg.MaxCases = 1, time.Minute, 0
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for calls.Load() < 5 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	st, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Interrupted || st.Next != 4 || st.Findings != 0 {
		t.Errorf("got %+v, want an interrupted run checkpointed at case 4 (the fifth was interrupted), no finding", st)
	}
}

// ctxBackend2 agrees with the model until its context is cancelled, then
// reports the interruption as an adapter does.
type ctxBackend2 struct{ calls *atomic.Int64 }

func (ctxBackend2) Name() string                           { return "ctx" }
func (ctxBackend2) Profiles() []string                     { return []string{"numpy"} }
func (ctxBackend2) Supports(p string, c *tensor.Case) bool { return true }
func (ctxBackend2) Eval(p string, c *tensor.Case) tensor.Outcome {
	return model.Eval(p, c)
}
func (b ctxBackend2) EvalContext(ctx context.Context, p string, c *tensor.Case) (tensor.Outcome, error) {
	if b.calls.Add(1) >= 5 {
		<-ctx.Done()
		return tensor.CrashOutcome("interrupted"), ctx.Err()
	}
	return model.Eval(p, c), nil
}

// TestShrinkFindingStopsWithContext: shrinking a 20-element finding against
// a slow backend (which diverges only from 10 elements, so that most
// candidates are tried and rejected) stops when its context ends and
// returns the smallest finding confirmed so far.
func TestShrinkFindingStopsWithContext(t *testing.T) {
	calls := new(atomic.Int64)
	b := slowBackend{50 * time.Millisecond, calls, 10}
	a := tensor.New(tensor.I32, 20)
	for i := 0; i < 20; i++ {
		a.SetInt(i, int64(i*1000-7))
	}
	c := &tensor.Case{Op: "neg", Args: []tensor.Arg{{Tensor: a}}}
	f := props.Differential(b, "numpy", c)
	if f == nil {
		t.Fatal("the slow backend agrees with the model")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 350*time.Millisecond)
	defer cancel()
	start := time.Now()
	best := ShrinkFinding(ctx, b, f, 0)
	if took := time.Since(start); took > time.Second {
		t.Errorf("shrinking took %v after a 350ms context", took)
	}
	if best == nil || caseElements(best.Case) > 20 || caseElements(best.Case) < 10 || !sameFailure(f, best) {
		t.Errorf("got %+v, want a finding of the same failure no larger than the original", best)
	}
	t.Logf("%d calls, %d elements left", calls.Load(), caseElements(best.Case))
}

// TestAPanicEndsTheCampaignWithAnError: a panic outside a backend's
// evaluation (here in the gaps it lists, which the campaign asks about a
// declined case; the model's would be the same) ends the campaign with an
// error naming the case and the replay, not with a Go crash, and leaves
// that case undone. (A panic in Supports or Eval is the backend's finding.)
func TestAPanicEndsTheCampaignWithAnError(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.Targets = []Target{{panickyBackend{calls: new(atomic.Int64)}, "numpy"}}
	cfg.Workers, cfg.Duration, cfg.MaxCases = 1, time.Minute, 0
	st, err := Run(context.Background(), cfg)
	var inErr *InputError
	if err == nil || errors.As(err, &inErr) || !strings.Contains(err.Error(), "internal error on case 3 of seed 7 (tfuzz run --seed 7 --shard 0/1 replays it): planted panic") {
		t.Fatalf("got %v, want an internal error naming case 3", err)
	}
	if st.Next != 3 {
		t.Errorf("checkpoint %d, want 3 (the case that panicked is not done)", st.Next)
	}
}

// panickyBackend declines every case and lists no gap, except that its
// Gap panics on the fourth case it is asked about.
type panickyBackend struct {
	buggyBackend
	calls *atomic.Int64
}

func (panickyBackend) Supports(p string, c *tensor.Case) bool { return false }

func (b panickyBackend) Gap(p string, c *tensor.Case) string {
	if b.calls.Add(1) == 4 {
		panic("planted panic")
	}
	return "every case"
}
func (panickyBackend) Eval(p string, c *tensor.Case) tensor.Outcome { return model.Eval(p, c) }
