package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/reports"
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

func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var cfg reports.AtlasConfig
	var out, corpus string
	fl := newFlags("diff", diffUsage, stdout, stderr)
	fl.StringVar(&cfg.From, "from", "", "the profile code was written for")
	fl.StringVar(&cfg.To, "to", "", "the profile it moves to")
	fl.DurationVar(&cfg.Duration, "duration", 0, "draw cases for this long instead of --max-cases (the atlas is then not reproducible)")
	fl.Int64Var(&cfg.Cases, "max-cases", reports.DefaultAtlasCases, "generated cases to draw")
	fl.Uint64Var(&cfg.Seed, "seed", reports.DefaultAtlasSeed, "campaign seed")
	fl.IntVar(&cfg.Workers, "workers", 0, "goroutines (default 1, which keeps the atlas a function of the seed; with --duration the number of cores)")
	fl.StringVar(&corpus, "corpus", "corpus/seeds", "case files always included, whose stated divergences the atlas maps to rows (\"\" for none)")
	fl.StringVar(&out, "out", "", "write the atlas to this file instead of standard output")
	if code, ok := fl.parse(args); !ok {
		return code
	}
	switch {
	case fl.NArg() > 0:
		return fl.fail("unexpected arguments %q", fl.Args())
	case cfg.From == "" || cfg.To == "":
		return fl.fail("--from and --to are required")
	case cfg.Cases < 0 || cfg.Duration < 0 || cfg.Workers < 0:
		return fl.errorf("--max-cases, --duration and --workers must not be negative")
	}
	if err := checkProfiles("--from/--to", []string{cfg.From, cfg.To}); err != nil {
		return fl.errorf("%v", err)
	}
	if err := checkWritable(out); err != nil {
		return fl.errorf("--out: %v", err)
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
	} else if err := campaign.WriteFileAtomic(out, b.Bytes()); err != nil {
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

// checkWritable reports why a file could not be written at path, before a
// long run whose result would then be lost ("" is standard output).
func checkWritable(path string) error {
	if path == "" {
		return nil
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s is a folder", path)
	}
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("no folder %s for %s", dir, path)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	f, err := os.CreateTemp(dir, ".tfuzz-check-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %v", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
