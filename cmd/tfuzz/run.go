package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/props"
)

const runUsage = `usage: tfuzz run [flags]

Runs a campaign: draws cases, checks every backend against the model on each
profile it claims, shrinks every divergence and writes one finding per
signature to OUT/findings. Prints the seed; --seed replays a campaign and
--shard k/n runs a disjoint slice of it.

OUT/state.json is the campaign's checkpoint. A folder that holds one is
continued with --resume (same seed, shard, backends, profiles, ops and
dtypes; it says where it resumes) or started over with --force (its findings
are kept); without either, tfuzz run refuses it. One tfuzz at a time writes
a folder (a lock on OUT/.tfuzz.lock). tfuzz with no command continues the
campaign in tfuzz-out when there is one.

Ctrl-C or SIGTERM stops the campaign within seconds: shrinking and adapter
calls are cancelled (adapters are killed), the checkpoint is written and
tfuzz exits 130 or 143; a second signal exits at once.
Exit 0 with no finding, 1 with findings, 2 on a usage error.
`

// runOptions are the flags of tfuzz run (and of the main job).
type runOptions struct {
	duration           time.Duration
	workers            int
	seed               uint64
	seedSet            bool
	backends, profiles []string
	ops, dtypes        []string
	shard              string
	out                string
	resume, force      bool
	continued          bool // resume chosen by the main job for a folder holding a campaign
	maxCases           int64
	python             string
	hangAfter          time.Duration
}

func runFlags(o *runOptions, stdout, stderr io.Writer) *flags {
	fl := newFlags("run", runUsage, stdout, stderr)
	fl.DurationVar(&o.duration, "duration", 60*time.Second, "how long to draw cases (0: until --max-cases)")
	fl.Int64Var(&o.maxCases, "max-cases", 0, "stop after this many cases (0: no limit)")
	fl.DurationVar(&o.hangAfter, "hang-after", 30*time.Second, "a backend call still running after this long is a hang: written as a finding, and the campaign stops")
	fl.Uint64Var(&o.seed, "seed", 0, "campaign seed (default: random, printed; with --resume, the checkpoint's)")
	fl.StringVar(&o.shard, "shard", "0/1", "run the slice k/n of the case space (cases i with i mod n = k)")
	fl.StringVar(&o.out, "out", defaultOut, "output folder (findings/, state.json)")
	fl.BoolVar(&o.resume, "resume", false, "continue the campaign checkpointed in --out")
	fl.BoolVar(&o.force, "force", false, "start a new campaign in an --out that holds one (its findings are kept)")
	fl.StringArrayVar(&o.backends, "backend", nil, "check this backend (repeatable; default: all built in): "+backendHelp)
	fl.StringArrayVarP(&o.profiles, "profile", "p", nil, "only this profile (repeatable; tfuzz profiles lists them)")
	fl.StringArrayVar(&o.ops, "op", nil, "only this op (repeatable; tfuzz ops lists them)")
	fl.StringArrayVar(&o.dtypes, "dtype", nil, "only inputs of this dtype (repeatable)")
	fl.IntVar(&o.workers, "workers", 0, "goroutines drawing and checking cases (default: the number of cores)")
	pythonFlag(fl, &o.python)
	return fl
}

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o runOptions
	fl := runFlags(&o, stdout, stderr)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if code, ok := fl.noArgs(); !ok {
		return code
	}
	o.seedSet = fl.Changed("seed")
	return runCampaign(ctx, o, stdout, stderr)
}

func runCampaign(ctx context.Context, o runOptions, stdout, stderr io.Writer) int {
	cfg, err := o.config(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz run: %v\n", err)
		return exitUsage
	}
	defer closeTargets(cfg.Targets)
	st, err := campaign.Run(ctx, cfg)
	var inErr *campaign.InputError
	var other *campaign.OtherCampaignError
	switch {
	case errors.As(err, &other) && o.continued:
		fmt.Fprintf(stderr, "tfuzz: %s holds another campaign: %v\n"+
			"  drop the flags that differ to continue it, --force to start a new one there (its findings are kept), or --out DIR to run elsewhere\n",
			cfg.OutDir, err)
		return exitUsage
	case errors.As(err, &inErr):
		fmt.Fprintf(stderr, "tfuzz run: %v\n", err)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "tfuzz run: %v\n", err)
		return exitInternal
	}
	fmt.Fprintf(stdout, "seed %d: %d cases in %s (%.0f/s/core on %d workers), %d checked, %d diverged; %d new findings, %d signatures in %s\n",
		st.Seed, st.Cases, st.Elapsed.Round(time.Millisecond), st.PerCore(st.Cases), st.Workers,
		st.Checked, st.Divergent, st.NewFindings, st.Findings, cfg.OutDir)
	printCounts(stdout, st)
	if st.NewFindings > 0 {
		fmt.Fprintf(stdout, "shrunk to %v elements (from %v)\n", st.ShrunkElements, st.OriginalElements)
	}
	if st.Interrupted {
		fmt.Fprintf(stdout, "interrupted: the cases below %d are done; continue with: tfuzz run --resume --out %s\n", st.Next, cfg.OutDir)
	}
	fmt.Fprintf(stdout, "replay: tfuzz run --seed %d --shard %d/%d\n", st.Seed, cfg.Shard, cfg.Shards)
	if st.Findings > 0 {
		fmt.Fprintf(stdout, "findings: %s (tfuzz repro FILE replays one, tfuzz report %s renders them)\n",
			cfg.OutDir+"/"+campaign.FindingsDir, cfg.OutDir)
	}
	if st.Divergent > 0 {
		return exitDiverged
	}
	return exitClean
}

// config validates the flags into a campaign configuration.
func (o runOptions) config(stderr io.Writer) (campaign.Config, error) {
	cfg := campaign.Config{Duration: o.duration, Workers: o.workers, OutDir: o.out, Resume: o.resume, Force: o.force,
		MaxCases: o.maxCases, Progress: stderr, HangAfter: o.hangAfter}
	switch {
	case o.resume && o.force:
		return cfg, fmt.Errorf("--resume and --force contradict each other: continue the campaign, or start a new one")
	case o.duration < 0 || o.maxCases < 0 || o.workers < 0:
		return cfg, fmt.Errorf("--duration, --max-cases and --workers must not be negative")
	case o.duration == 0 && o.maxCases == 0:
		return cfg, fmt.Errorf("--duration 0 needs --max-cases: the campaign would never end")
	case o.hangAfter <= 0:
		return cfg, fmt.Errorf("--hang-after must be positive (a backend call may take a while: the default is 30s)")
	}
	k, n, err := parseShard(o.shard)
	if err != nil {
		return cfg, err
	}
	cfg.Shard, cfg.Shards = k, n
	if err := checkProfiles("--profile", o.profiles); err != nil {
		return cfg, err
	}
	if err := checkOps("--op", o.ops); err != nil {
		return cfg, err
	}
	cfg.Gen = props.CaseOptions{Ops: o.ops}
	for _, d := range o.dtypes {
		dt, err := parseDType("--dtype", d)
		if err != nil {
			return cfg, err
		}
		cfg.Gen.DTypes = append(cfg.Gen.DTypes, dt)
	}
	switch {
	case o.seedSet:
		cfg.Seed = o.seed
	case o.resume:
		if cfg.Seed, err = campaign.ResumeSeed(o.out); errors.Is(err, fs.ErrNotExist) {
			return cfg, fmt.Errorf("--resume: %s holds no campaign to resume (no state.json)", o.out)
		} else if err != nil {
			return cfg, fmt.Errorf("--resume: %v", err)
		}
	default:
		cfg.Seed = rand.Uint64()
	}
	setPython(o.python)
	if cfg.Targets, err = selectTargets(o.backends, o.profiles); err != nil {
		return cfg, err
	}
	if len(cfg.Targets) == 0 {
		return cfg, fmt.Errorf("no backend claims any of the profiles %v (the backends claim %v)", o.profiles, claimedProfiles(o.backends))
	}
	return cfg, nil
}

func parseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("--shard: want k/n with 0 <= k < n, got %q", s)
	}
	return k, n, nil
}

// printCounts prints what became of the cases, per target: checks by the
// form of the expected outcome (only value and error checks compare
// elements or classes), elements matched only through "?", declines,
// backend panics and harness failures; then the cases per size tier.
func printCounts(w io.Writer, st campaign.Stats) {
	c := st.Counts
	fmt.Fprintf(w, "checks: %s; %.0f value-or-error checks/s/core; %d elements matched only through \"?\"\n",
		c.FormSplit(), st.PerCore(c.ValueOrError()), c.Unspecified)
	fmt.Fprintf(w, "not checks: %d declined by the backend (%d of them outside the gaps it lists: findings), %d backend panics, %d backend hangs, %d harness failures, %d the model states nothing for\n",
		c.Declined, c.UnclaimedDeclines, c.BackendPanics, c.BackendHangs, c.HarnessFailures, c.NotModeled)
	if c.Cases > 0 {
		views, programs := c.Views, c.Programs
		fmt.Fprintf(w, "views: %d cases (%.1f%%), %d checked; programs: %d cases (%.1f%%), %d checked\n",
			views, 100*float64(views)/float64(c.Cases), c.ViewChecks, programs, 100*float64(programs)/float64(c.Cases), c.ProgramChecks)
	}
	fmt.Fprintf(w, "%-32s %9s %9s %7s %7s %7s %7s %7s %9s\n", "target", "cases", "checks", "value", "error", "panic", "crash", "unsup", "declined")
	for _, t := range st.Targets {
		n := t.Checked()
		pct := func(a, b int64) string {
			if n == 0 {
				return "-"
			}
			return fmt.Sprintf("%.0f%%", 100*float64(a+b)/float64(n))
		}
		fmt.Fprintf(w, "%-32s %9d %9d %7s %7s %7s %7s %7s %9d\n", t.Target, t.Cases, n,
			pct(t.Matched.Value, t.Diverged.Value), pct(t.Matched.Error, t.Diverged.Error),
			pct(t.Matched.Panic, t.Diverged.Panic), pct(t.Matched.Crash, t.Diverged.Crash),
			pct(t.Matched.Unsupported, t.Diverged.Unsupported), t.Declined)
	}
	fmt.Fprintf(w, "size tiers (cases, share of the time): %s\n", campaign.TierLine(st.Tiers))
}
