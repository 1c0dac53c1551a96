package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

const runUsage = `usage: tfuzz run [flags]

Runs a campaign: draws cases, checks every backend against the model on each
profile it claims, shrinks every divergence and writes one finding per
signature to OUT/findings. Prints the seed; --seed replays a campaign and
--shard k/n runs a disjoint slice of it. Exit 0 with no finding, 1 with findings.
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
	resume             bool
	maxCases           int64
}

func runFlags(o *runOptions, stderr io.Writer) *pflag.FlagSet {
	fl := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.DurationVar(&o.duration, "duration", 60*time.Second, "how long to run (0: until --max-cases)")
	fl.IntVar(&o.workers, "workers", 0, "goroutines drawing and checking cases (default: the number of cores)")
	fl.Uint64Var(&o.seed, "seed", 0, "campaign seed (default: random, printed)")
	fl.StringArrayVar(&o.backends, "backend", nil, "check this backend (repeatable; default: all)")
	fl.StringArrayVar(&o.profiles, "profile", nil, "only this profile (repeatable)")
	fl.StringArrayVar(&o.ops, "op", nil, "only this op (repeatable)")
	fl.StringArrayVar(&o.dtypes, "dtype", nil, "only inputs of this dtype (repeatable)")
	fl.StringVar(&o.shard, "shard", "0/1", "run the slice k/n of the case space (cases i with i mod n = k)")
	fl.StringVar(&o.out, "out", "tfuzz-out", "output folder (findings/, state.json)")
	fl.BoolVar(&o.resume, "resume", false, "continue the campaign checkpointed in --out")
	fl.Int64Var(&o.maxCases, "max-cases", 0, "stop after this many cases (0: no limit)")
	return fl
}

func runRun(args []string, stdout, stderr io.Writer) int {
	var o runOptions
	fl := runFlags(&o, stderr)
	fl.Usage = func() { fmt.Fprint(stderr, runUsage, "\nflags:\n", fl.FlagUsages()) }
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "tfuzz run: %v\n", err)
		return exitUsage
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "tfuzz run: unexpected arguments %v\n", fl.Args())
		return exitUsage
	}
	o.seedSet = fl.Changed("seed")
	return runCampaign(o, stdout, stderr)
}

func runCampaign(o runOptions, stdout, stderr io.Writer) int {
	cfg, err := o.config(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz run: %v\n", err)
		return exitUsage
	}
	defer closeTargets(cfg.Targets)
	cfg.Defaults()
	fmt.Fprintf(stderr, "tfuzz run: seed %d, shard %d/%d, %d targets, %d workers, out %s\n",
		cfg.Seed, cfg.Shard, cfg.Shards, len(cfg.Targets), cfg.Workers, cfg.OutDir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	st, err := campaign.Run(ctx, cfg)
	if err != nil {
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
	fmt.Fprintf(stdout, "replay: tfuzz run --seed %d --shard %d/%d\n", st.Seed, cfg.Shard, cfg.Shards)
	if st.Findings > 0 {
		fmt.Fprintf(stdout, "findings: %s (tfuzz repro FILE replays one)\n", cfg.OutDir+"/"+campaign.FindingsDir)
	}
	if st.Divergent > 0 {
		return exitDiverged
	}
	return exitClean
}

// config validates the flags into a campaign configuration.
func (o runOptions) config(stderr io.Writer) (campaign.Config, error) {
	cfg := campaign.Config{Duration: o.duration, Workers: o.workers, OutDir: o.out, Resume: o.resume,
		MaxCases: o.maxCases, Progress: stderr}
	k, n, err := parseShard(o.shard)
	if err != nil {
		return cfg, err
	}
	cfg.Shard, cfg.Shards = k, n
	for _, p := range o.profiles {
		if _, ok := model.Lookup(p); !ok {
			return cfg, fmt.Errorf("--profile: unknown profile %q (see tfuzz profiles)", p)
		}
	}
	for _, op := range o.ops {
		if _, ok := tensor.LookupOp(op); !ok {
			return cfg, fmt.Errorf("--op: unknown op %q (see tfuzz ops)", op)
		}
	}
	cfg.Gen = props.CaseOptions{Ops: o.ops}
	for _, d := range o.dtypes {
		dt, err := tensor.ParseDType(d)
		if err != nil {
			return cfg, fmt.Errorf("--dtype: %v", err)
		}
		cfg.Gen.DTypes = append(cfg.Gen.DTypes, dt)
	}
	if cfg.Targets, err = selectTargets(o.backends, o.profiles); err != nil {
		return cfg, err
	}
	switch {
	case o.seedSet:
		cfg.Seed = o.seed
	case o.resume:
		if cfg.Seed, err = campaign.ResumeSeed(o.out); err != nil {
			return cfg, fmt.Errorf("--resume: %v", err)
		}
	default:
		cfg.Seed = rand.Uint64()
	}
	if o.duration < 0 || o.maxCases < 0 {
		return cfg, fmt.Errorf("--duration and --max-cases must not be negative")
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
	fmt.Fprintf(w, "not checks: %d declined by the backend, %d backend panics, %d harness failures\n",
		c.Declined, c.BackendPanics, c.HarnessFailures)
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
