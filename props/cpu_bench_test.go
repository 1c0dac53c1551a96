package props

import (
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// benchCases draws n supported cases of at most 64 elements per tensor for
// profile, once.
func benchCases(b *testing.B, eng *cpu.Engine, profile string, n int) []*tensor.Case {
	var cases []*tensor.Case
	gen := GenCase(CaseOptions{MaxElems: 64})
	for seed := 0; len(cases) < n; seed++ {
		if c := gen.Example(seed); eng.Supports(profile, c) {
			cases = append(cases, c)
		}
	}
	return cases
}

// BenchmarkCPUEngineEval measures the engine's per-case cost on small
// cases (ns/op is per case), and BenchmarkCPUDifferential the whole
// differential check (model, engine, comparison).
func BenchmarkCPUEngineEval(b *testing.B) {
	eng := cpu.New()
	for _, p := range eng.Profiles() {
		b.Run(p, func(b *testing.B) {
			cases := benchCases(b, eng, p, 2000)
			b.ResetTimer()
			for i := range b.N {
				eng.Eval(p, cases[i%len(cases)])
			}
		})
	}
}

func BenchmarkCPUDifferential(b *testing.B) {
	eng := cpu.New()
	for _, p := range eng.Profiles() {
		b.Run(p, func(b *testing.B) {
			cases := benchCases(b, eng, p, 2000)
			b.ResetTimer()
			for i := range b.N {
				Differential(eng, p, cases[i%len(cases)])
			}
			// one benchmark goroutine: this is the throughput of one core
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cases/s/core")
		})
	}
}

func BenchmarkModelEval(b *testing.B) {
	eng := cpu.New()
	for _, p := range eng.Profiles() {
		b.Run(p, func(b *testing.B) {
			cases := benchCases(b, eng, p, 2000)
			b.ResetTimer()
			for i := range b.N {
				model.Eval(p, cases[i%len(cases)])
			}
		})
	}
}

// BenchmarkDrawAndCheck is a campaign's work per small case without the
// campaign around it: draw a case aimed at a profile (cycling through the
// engine's profiles as a campaign's targets do) and check it against the
// model where the engine supports it. ns/op is per case.
func BenchmarkDrawAndCheck(b *testing.B) {
	eng := cpu.New()
	gen := NewGen(CaseOptions{})
	profiles := eng.Profiles()
	for _, p := range profiles {
		supportOf(p) // the one-time probe, as a campaign's start pays it
	}
	b.ResetTimer()
	for i := range b.N {
		p := profiles[i%len(profiles)]
		c, _ := gen.Draw(NewStream(uint64(i)), Aim{Profile: p})
		_, _ = TryCheck(eng, p, c) // support and evaluation in one pass, as campaigns check
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cases/s/core")
}
