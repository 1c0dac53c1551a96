package props

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestCPUEngineMatchesModel is the differential property for the CPU engine:
// for every profile it claims, on generated cases it supports, its outcome
// matches the model's. It runs the engine serially and split across
// goroutines from the first element, on small cases and on larger strided
// views (rows past the engine's 512-element tiles).
func TestCPUEngineMatchesModel(t *testing.T) {
	engines := []struct {
		name string
		e    *cpu.Engine
	}{
		{"serial", cpu.New(cpu.WithWorkers(1))},
		{"parallel", cpu.New(cpu.WithWorkers(3), cpu.WithParallelThreshold(1))},
	}
	gens := []struct {
		name string
		opts CaseOptions
	}{
		{"small", CaseOptions{}},
		{"views", CaseOptions{Views: true, MaxElems: 1200}},
	}
	for _, eng := range engines {
		for _, g := range gens {
			for _, profile := range eng.e.Profiles() {
				t.Run(eng.name+"/"+g.name+"/"+profile, func(t *testing.T) {
					checkEngine(t, eng.e, profile, g.opts)
				})
			}
		}
	}
}

// minCasesPerTarget makes the default run check at least 10,000 generated
// cases over the engine's profiles and 4 configurations; -rapid.checks
// (or RAPID_CHECKS) raises the count of each rapid.Check round.
const minCasesPerTarget = 200

func checkEngine(t *testing.T, eng *cpu.Engine, profile string, opts CaseOptions) {
	var checked, skipped int
	for !t.Failed() && checked+skipped < minCasesPerTarget {
		checkEngineRound(t, eng, profile, opts, &checked, &skipped)
	}
	t.Logf("%s: %d cases checked, %d not modeled yet", profile, checked, skipped)
}

// checkEngineRound is one rapid.Check of the differential property (a fresh
// random seed each round, unless -rapid.seed fixes it).
func checkEngineRound(t *testing.T, eng *cpu.Engine, profile string, opts CaseOptions, checked, skipped *int) {
	rapid.Check(t, func(rt *rapid.T) {
		c := GenCase(opts).Filter(func(c *tensor.Case) bool {
			return eng.Supports(profile, c)
		}).Draw(rt, "case")
		if model.Eval(profile, c).NotModeled() {
			*skipped++
			return
		}
		*checked++
		if f := Differential(eng, profile, c); f != nil {
			rt.Fatalf("%v", f)
		}
	})
}

// TestTryEvalIsSupportsThenEval: the engine's one-pass TryEval declines
// exactly the cases Supports declines, and answers the others as Eval does.
func TestTryEvalIsSupportsThenEval(t *testing.T) {
	eng := cpu.New()
	g := NewGen(CaseOptions{})
	for _, p := range eng.Profiles() {
		declined, answered := 0, 0
		for i := uint64(0); i < 2000; i++ {
			c, _ := g.Draw(NewStream(i), Aim{Profile: p})
			out, ok := eng.TryEval(p, c)
			if ok != eng.Supports(p, c) {
				t.Fatalf("%s: TryEval says supported=%t, Supports %t, on %s", p, ok, !ok, c.Describe())
			}
			if !ok {
				declined++
				continue
			}
			answered++
			if cmp := tensor.Compare(eng.Eval(p, c), out, c.Tolerance()); !cmp.Match() {
				t.Fatalf("%s: TryEval and Eval differ on %s: %s", p, c.Describe(), cmp.Detail)
			}
		}
		if declined == 0 || answered == 0 {
			t.Logf("%s: %d declined, %d answered", p, declined, answered)
		}
	}
}

// TestEngineDeclinesOnlyItsGaps: on cases aimed at each profile, the CPU
// engine declines no case the model answers outside the gaps it lists
// (tensor.GapLister), so that a campaign's "declined" findings are lost
// coverage, never noise.
func TestEngineDeclinesOnlyItsGaps(t *testing.T) {
	eng := cpu.New()
	g := NewGen(CaseOptions{})
	for _, p := range eng.Profiles() {
		declined := 0
		for i := uint64(0); i < 4000; i++ {
			c, _ := g.Draw(NewStream(i), Aim{Profile: p})
			if eng.Supports(p, c) {
				continue
			}
			declined++
			if f := UnclaimedDecline(eng, p, c); f != nil {
				t.Errorf("%s: %v", p, f)
			}
		}
		t.Logf("%s: %d of 4000 declined, each in a listed gap or unanswered by the model", p, declined)
	}
}
