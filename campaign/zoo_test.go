//go:build zoo

package campaign_test

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/impls/metal"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

var (
	zooDuration = flag.Duration("tfuzz.zoo.duration", 30*time.Second, "TestZoo: campaign time per bug (the detection limit)")
	zooSeed     = flag.Uint64("tfuzz.zoo.seed", 0, "TestZoo: campaign seed (0: one fixed seed per bug, from its name)")
	zooWorkers  = flag.Int("tfuzz.zoo.workers", 2, "TestZoo: campaign workers")
	zooBugOps   = flag.Bool("tfuzz.zoo.bug-ops", false, "TestZoo: draw only the ops the bug lives in (default: every op, as tfuzz run does)")
)

// zooResult is one row of TestZoo's table.
type zooResult struct {
	bug        cpu.ZooBug
	seed       uint64
	detected   bool
	confirmed  bool          // the shrunk case diverges with the bug and agrees with it off
	at         time.Duration // when the first finding was written (shrunk)
	cases      int64
	elems      int // elements of the shrunk case, over all tensor operands
	perOperand int // most elements of one tensor operand
	rank       int // highest rank of a tensor operand
	finding    *campaign.StoredFinding
}

// TestZoo runs one campaign per bug of the CPU engine's zoo (impls/cpu,
// -tags zoo), with that bug planted, and checks what the fuzzer must do:
// every bug is found within the campaign time (30 s by default, on 2
// workers), and the case an elementwise bug is shrunk to has one element
// per tensor operand and rank at most 1. Each campaign is the product's,
// as a plain TFUZZ_ZOO=<bug> tfuzz run runs it: every built-in backend (the
// engine with its default options, at the production thresholds, and the
// Metal simulator) on every profile each claims, every op (only the bug's
// with -tfuzz.zoo.bug-ops), cases aimed at each profile and drawn in each
// backend's size tiers. The campaign stops at its first finding; that
// finding's case must diverge with the bug planted and agree with the model
// without it.
//
// TFUZZ_ZOO, when set, restricts the run to that bug. scripts/zoo.sh runs it.
func TestZoo(t *testing.T) {
	bugs := cpu.ZooBugs()
	if only := os.Getenv(cpu.ZooEnv); only != "" {
		bugs = slices.DeleteFunc(bugs, func(b cpu.ZooBug) bool { return b.Name != only })
	}
	defer cpu.SetZooBug("")()
	var results []zooResult
	for _, b := range bugs {
		r := huntZooBug(t, b)
		results = append(results, r)
		t.Logf("%-24s %s", b.Name, r.summary())
	}
	t.Log("\n" + zooTable(results))
	for _, r := range results {
		switch {
		case !r.detected:
			t.Errorf("%s: not detected in %s (%d cases, seed %d)", r.bug.Name, *zooDuration, r.cases, r.seed)
		case !r.confirmed:
			t.Errorf("%s: the finding is not the planted bug's (seed %d): %s", r.bug.Name, r.seed, r.finding.Case.Describe())
		case r.at > *zooDuration:
			t.Errorf("%s: detected after %s, over %s", r.bug.Name, r.at.Round(time.Millisecond), *zooDuration)
		case r.bug.Elementwise && (r.perOperand > 1 || r.rank > 1):
			t.Errorf("%s: elementwise, but shrunk to %d elements per operand, rank %d: %s",
				r.bug.Name, r.perOperand, r.rank, r.finding.Case.Describe())
		}
	}
}

// huntZooBug runs the campaign for one bug.
func huntZooBug(t *testing.T, b cpu.ZooBug) zooResult {
	t.Helper()
	r := zooResult{bug: b, seed: *zooSeed}
	if r.seed == 0 {
		h := fnv.New64a()
		h.Write([]byte(b.Name))
		r.seed = h.Sum64()
	}
	var gen props.CaseOptions
	if *zooBugOps {
		gen.Ops = b.Ops
	}
	engine := cpu.New()
	var targets []campaign.Target
	for _, backend := range []tensor.Backend{engine, metal.NewSim()} {
		for _, p := range backend.Profiles() {
			if _, ok := model.Lookup(p); ok {
				targets = append(targets, campaign.Target{Backend: backend, Profile: p})
			}
		}
	}
	out := filepath.Join(t.TempDir(), b.Name)
	cpu.SetZooBug(b.Name)
	st, err := campaign.Run(context.Background(), campaign.Config{Targets: targets, Gen: gen, Seed: r.seed,
		Duration: *zooDuration, MaxCases: 1 << 50, Workers: *zooWorkers, OutDir: out, StopAfterFindings: 1})
	cpu.SetZooBug("")
	if err != nil {
		t.Fatalf("%s: %v", b.Name, err)
	}
	r.cases = st.Cases
	if st.NewFindings == 0 {
		return r
	}
	findings, err := campaign.ReadFindings(out)
	if err != nil {
		t.Fatalf("%s: %v", b.Name, err)
	}
	// the campaign stopped after its first finding; a worker that was
	// shrinking another one when it did may have written a second
	r.detected, r.at = true, st.FoundAt[0]
	f := findings[0]
	for _, g := range findings {
		if g.Info.ShrunkElements == st.ShrunkElements[0] && g.Info.OriginalElements == st.OriginalElements[0] {
			f = g
			break
		}
	}
	r.finding = f
	for _, a := range f.Case.Args {
		if a.Tensor != nil {
			r.elems += a.Tensor.Len()
			r.perOperand = max(r.perOperand, a.Tensor.Len())
			r.rank = max(r.rank, a.Tensor.Rank())
		}
	}
	r.confirmed = replays(engine, f, b.Name) && !replays(engine, f, "")
	return r
}

// replays reports whether the engine, with the zoo bug called bug planted
// ("": none), diverges from the model on the finding's case and profile.
func replays(b tensor.Backend, f *campaign.StoredFinding, bug string) bool {
	defer cpu.SetZooBug(bug)()
	c := *f.Case
	c.Expect, c.Got = nil, nil
	return props.Differential(b, f.Info.Profile, &c) != nil
}

func (r *zooResult) summary() string {
	if !r.detected {
		return fmt.Sprintf("not detected (%d cases)", r.cases)
	}
	return fmt.Sprintf("detected at %s after %d cases: %s under %s", r.at.Round(time.Millisecond), r.cases,
		r.finding.Case.Describe(), r.finding.Info.Profile)
}

// zooTable renders the results as a Markdown table, with the medians.
func zooTable(results []zooResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| bug | detected | time | shrunk elements | per operand | rank | elementwise | hunt | shrunk case |\n")
	fmt.Fprintf(&b, "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |\n")
	var times []time.Duration
	var sizes []int
	for _, r := range results {
		hunt := "tfuzz run"
		if *zooBugOps {
			hunt = "ops " + strings.Join(r.bug.Ops, ",")
		}
		ew := "no"
		if r.bug.Elementwise {
			ew = "yes"
		}
		if !r.detected {
			fmt.Fprintf(&b, "| %s | no | - | - | - | - | %s | %s | - |\n", r.bug.Name, ew, hunt)
			continue
		}
		det := "yes"
		if !r.confirmed {
			det = "yes (not the bug's)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %s | %s | `%s` (%s) |\n", r.bug.Name, det, r.at.Round(time.Millisecond),
			r.elems, r.perOperand, r.rank, ew, hunt, r.finding.Case.Describe(), r.finding.Info.Profile)
		times = append(times, r.at)
		sizes = append(sizes, r.elems)
	}
	detected := len(times)
	fmt.Fprintf(&b, "\n%d of %d bugs detected", detected, len(results))
	if detected > 0 {
		slices.Sort(times)
		slices.Sort(sizes)
		fmt.Fprintf(&b, "; median time to detection %s (max %s); median shrunk size %s elements (max %d)",
			median(times).Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond), medianInt(sizes), sizes[len(sizes)-1])
	}
	ew, one := 0, 0
	for _, r := range results {
		if r.bug.Elementwise {
			ew++
			if r.detected && r.perOperand <= 1 && r.rank <= 1 {
				one++
			}
		}
	}
	fmt.Fprintf(&b, "; %d of %d elementwise bugs shrunk to one element per operand, rank <= 1", one, ew)
	b.WriteString("\n")
	return b.String()
}

func median(s []time.Duration) time.Duration {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func medianInt(s []int) string {
	n := len(s)
	if n%2 == 1 {
		return fmt.Sprint(s[n/2])
	}
	return fmt.Sprint(float64(s[n/2-1]+s[n/2]) / 2)
}
