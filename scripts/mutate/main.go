// Command mutate measures how many small source mutations of a package a
// short tfuzz campaign finds (package internal/mutate). It is run by
// scripts/mutation-score.sh; see there for the flags and an example.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/tfuzz/tfuzz/internal/mutate"
)

func main() {
	var (
		dir      = flag.String("dir", "impls/cpu", "the package to mutate")
		sample   = flag.Int("sample", 100, "mutants drawn from every site (0: all)")
		seed     = flag.Uint64("seed", 1, "the sample's seed; each mutant's campaign seed is derived from it and the mutant's ID")
		list     = flag.Bool("list", false, "list the sampled mutants and exit")
		duration = flag.Duration("duration", 10*time.Second, "each campaign's duration")
		timeout  = flag.Duration("timeout", 90*time.Second, "a campaign still running after this long counts as hung")
		runArgs  = flag.String("run", "run --backend cpu", "tfuzz's arguments for each campaign (--duration, --seed and --out are added)")
		reasons  = flag.String("reasons", "scripts/mutants-equivalent.txt", "recorded reasons survivors cannot be killed")
		classify = flag.Bool("classify", false, "run the package tests on each survivor (does a test kill it?)")
		testPkgs = flag.String("test", "./impls/cpu ./props", "the packages -classify tests")
		out      = flag.String("out", "", "append each result to this JSON Lines file; mutants already in it are not run again")
	)
	var only multiFlag
	flag.Var(&only, "only", "run only this mutant ID (repeatable)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, config{*dir, *sample, *seed, *list, *duration, *timeout, *runArgs, *reasons, *classify, *testPkgs, *out, only}); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(2)
	}
}

type config struct {
	dir               string
	sample            int
	seed              uint64
	list              bool
	duration, timeout time.Duration
	runArgs, reasons  string
	classify          bool
	testPkgs, out     string
	only              []string
}

func run(ctx context.Context, c config) error {
	all, err := mutate.Sites(c.dir)
	if err != nil {
		return err
	}
	ms := mutate.Sample(all, c.sample, c.seed)
	if len(c.only) > 0 {
		ms = byID(all, c.only)
	}
	fmt.Fprintf(os.Stderr, "mutate: %d sites in %s, %d mutants (sample seed %d)\n", len(all), c.dir, len(ms), c.seed)
	if c.list {
		for _, m := range ms {
			fmt.Println(m)
		}
		return nil
	}
	why, err := mutate.Reasons(c.reasons)
	if err != nil {
		return err
	}
	done, err := readResults(c.out)
	if err != nil {
		return err
	}
	root, _ := os.Getwd()
	work, err := os.MkdirTemp("", "tfuzz-mutate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	r := &mutate.Runner{Root: root, Main: "./cmd/tfuzz", Timeout: c.timeout, Work: work, TestPkgs: strings.Fields(c.testPkgs)}
	var results []mutate.Result
	for i, m := range ms {
		if ctx.Err() != nil {
			break
		}
		res, ok := done[m.ID]
		if !ok {
			r.Args = append(strings.Fields(c.runArgs), "--duration", c.duration.String(), "--seed", strconv.FormatUint(campaignSeed(c.seed, m.ID), 10))
			res = r.Run(ctx, m)
			if ctx.Err() != nil {
				break
			}
			if res.Status == mutate.Survived && c.classify {
				failed, err := r.UnitTests(ctx, m)
				switch {
				case err != nil:
					res.UnitTests = "error: " + err.Error()
				case failed:
					res.UnitTests = "fail"
				default:
					res.UnitTests = "pass"
				}
			}
			if err := appendResult(c.out, res); err != nil {
				return err
			}
		}
		res.Reason = why[m.ID]
		results = append(results, res)
		fmt.Fprintf(os.Stderr, "mutate: [%d/%d] %-10s %s %s\n", i+1, len(ms), res.Status, m, shortDetail(res))
	}
	report(results)
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted after %d of %d mutants", len(results), len(ms))
	}
	return nil
}

// report prints the counts, the score and every survivor.
func report(rs []mutate.Result) {
	count := map[mutate.Status]int{}
	equivalent := 0
	for _, r := range rs {
		count[r.Status]++
		if r.Status == mutate.Survived && r.Reason != "" {
			equivalent++
		}
	}
	viable := len(rs) - count[mutate.NotViable]
	found := count[mutate.Killed] + count[mutate.Crashed] + count[mutate.Hung]
	changing := viable - equivalent
	fmt.Printf("mutants %d: viable %d, killed %d (crashed %d, hung %d besides), survived %d (%d with a recorded reason), not viable %d\n",
		len(rs), viable, count[mutate.Killed], count[mutate.Crashed], count[mutate.Hung], count[mutate.Survived], equivalent, count[mutate.NotViable])
	if changing > 0 {
		fmt.Printf("score: %d / %d behaviour-changing mutants found = %.1f%% (findings alone: %.1f%%)\n",
			found, changing, 100*float64(found)/float64(changing), 100*float64(count[mutate.Killed])/float64(changing))
	}
	var surv []mutate.Result
	for _, r := range rs {
		if r.Status == mutate.Survived {
			surv = append(surv, r)
		}
	}
	if len(surv) == 0 {
		return
	}
	sort.Slice(surv, func(i, j int) bool { return (surv[i].Reason == "") && surv[j].Reason != "" })
	fmt.Println("survivors:")
	w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	for _, r := range surv {
		why := r.Reason
		if why == "" {
			why = "no reason recorded"
			if r.UnitTests != "" {
				why += "; package tests " + r.UnitTests
			}
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\n", r.ID, r.Change, why)
	}
	w.Flush()
}

func shortDetail(r mutate.Result) string {
	switch r.Status {
	case mutate.Killed, mutate.Survived:
		if r.UnitTests != "" {
			return "(package tests: " + r.UnitTests + ")"
		}
		return ""
	}
	if len(r.Detail) > 120 {
		return r.Detail[:120] + "..."
	}
	return r.Detail
}

// campaignSeed derives a mutant's campaign seed from the sample seed and
// its ID, so that a rerun replays the same campaign.
func campaignSeed(seed uint64, id string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, id)
	return h.Sum64()
}

func byID(all []mutate.Mutant, ids []string) []mutate.Mutant {
	var out []mutate.Mutant
	for _, id := range ids {
		for _, m := range all {
			if m.ID == id {
				out = append(out, m)
			}
		}
	}
	return out
}

func readResults(path string) (map[string]mutate.Result, error) {
	done := map[string]mutate.Result{}
	if path == "" {
		return done, nil
	}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return done, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var r mutate.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		done[r.ID] = r
	}
	return done, sc.Err()
}

func appendResult(path string, r mutate.Result) error {
	if path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(r)
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
