package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/spf13/pflag"

	"github.com/tfuzz/tfuzz/reports"
	"github.com/tfuzz/tfuzz/tensor"
)

const diffUsage = `usage: tfuzz diff --from P --to Q [--duration D | --max-cases N] [--seed S] [--out FILE]

Runs the model against itself for two profiles: a campaign draws cases, and
wherever the model's outcome under Q differs from its outcome under P the
divergence is grouped into a class (op, kinds of the input dtypes, how the
outcomes differ) and one example per class is shrunk. Writes the portability
atlas as Markdown: one row per class with the minimal example, the outcome on
each side and the model rules behind them, and every divergence the seed
documents state between P and Q with the row that covers it.

Without --duration the atlas depends only on --seed and --max-cases (the
defaults give the atlases checked in under reports/atlas). Exit 0 when the
profiles agree everywhere, 1 when the atlas has classes.
`

func runDiff(args []string, stdout, stderr io.Writer) int {
	var cfg reports.AtlasConfig
	var out, corpus string
	fl := pflag.NewFlagSet("diff", pflag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, diffUsage, "\nflags:\n", fl.FlagUsages()) }
	fl.StringVar(&cfg.From, "from", "", "the profile code was written for")
	fl.StringVar(&cfg.To, "to", "", "the profile it moves to")
	fl.DurationVar(&cfg.Duration, "duration", 0, "draw cases for this long instead of --max-cases (the atlas is then not reproducible)")
	fl.Int64Var(&cfg.Cases, "max-cases", reports.DefaultAtlasCases, "generated cases to draw")
	fl.Uint64Var(&cfg.Seed, "seed", reports.DefaultAtlasSeed, "campaign seed")
	fl.IntVar(&cfg.Workers, "workers", 0, "goroutines (default 1, which keeps the atlas a function of the seed; with --duration the number of cores)")
	fl.StringVar(&corpus, "corpus", "corpus/seeds", "case files always included, whose stated divergences the atlas maps to rows (\"\" for none)")
	fl.StringVar(&out, "out", "", "write the atlas to this file instead of standard output")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "tfuzz diff: %v\n", err)
		return exitUsage
	}
	switch {
	case fl.NArg() > 0:
		fmt.Fprintf(stderr, "tfuzz diff: unexpected arguments %v\n", fl.Args())
		return exitUsage
	case cfg.From == "" || cfg.To == "":
		fmt.Fprint(stderr, "tfuzz diff: --from and --to are required\n\n")
		fl.Usage()
		return exitUsage
	case cfg.Cases < 0 || cfg.Duration < 0:
		fmt.Fprintln(stderr, "tfuzz diff: --max-cases and --duration must not be negative")
		return exitUsage
	}
	for _, p := range []string{cfg.From, cfg.To} {
		if !tensor.KnownProfile(p) {
			fmt.Fprintf(stderr, "tfuzz diff: unknown profile %q (see tfuzz profiles)\n", p)
			return exitUsage
		}
	}
	if cfg.Duration > 0 {
		if !fl.Changed("max-cases") {
			cfg.Cases = 0
		}
		if cfg.Workers == 0 {
			cfg.Workers = runtime.NumCPU()
		}
		cfg.Progress = stderr
	}
	if corpus != "" {
		cases, err := reports.ReadCorpus(corpus)
		switch {
		case err == nil:
			cfg.Corpus, cfg.CorpusName = cases, corpus
		case fl.Changed("corpus"):
			fmt.Fprintf(stderr, "tfuzz diff: --corpus: %v\n", err)
			return exitUsage
		default:
			fmt.Fprintf(stderr, "tfuzz diff: no corpus at %s (run from the repository root to include the seeds' examples)\n", corpus)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	a, err := reports.BuildAtlas(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz diff: %v\n", err)
		return exitInternal
	}
	var b bytes.Buffer
	if err := reports.WriteAtlasMarkdown(&b, a); err != nil {
		fmt.Fprintf(stderr, "tfuzz diff: %v\n", err)
		return exitInternal
	}
	if out == "" {
		stdout.Write(b.Bytes())
	} else if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "tfuzz diff: %v\n", err)
		return exitInternal
	}
	fmt.Fprintf(stderr, "tfuzz diff: %s -> %s: %d classes (%d not in the seeds), %d seed divergences (%d covered), %d cases in %s, seed %d\n",
		a.From, a.To, len(a.Classes), a.NewClasses(), len(a.SeedDivergences), len(a.SeedDivergences)-len(a.Uncovered()),
		a.Cases, time.Since(start).Round(time.Millisecond), a.Seed)
	if len(a.Classes) > 0 {
		return exitDiverged
	}
	return exitClean
}
