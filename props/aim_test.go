package props

import (
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/impls/metal"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// minCanFail is the least share of a profile's checks, on cases aimed at
// it, whose expected outcome is a value or an error: the checks that
// compare elements or error classes. A pair of `unsupported` outcomes
// agrees on its form alone.
const minCanFail = 0.60

// TestAimedChecksCanFail draws aimed cases for every profile a built-in
// backend claims, as a campaign does, and asserts that at least minCanFail
// of the checks (cases the backend supports) expect a value or an error.
func TestAimedChecksCanFail(t *testing.T) {
	g := NewGen(CaseOptions{})
	for _, b := range []tensor.Backend{cpu.New(), metal.NewSim()} {
		for _, p := range b.Profiles() {
			t.Run(b.Name()+"/"+p, func(t *testing.T) {
				var forms [5]int
				checks := 0
				for i := uint64(0); checks < 3000; i++ {
					c, _ := g.Draw(NewStream(i), Aim{Profile: p})
					if !b.Supports(p, c) {
						continue
					}
					checks++
					forms[model.Eval(p, c).Form]++
				}
				canFail := float64(forms[tensor.FormValue]+forms[tensor.FormError]) / float64(checks)
				t.Logf("value %d, error %d, panic %d, crash %d, unsupported %d of %d checks",
					forms[tensor.FormValue], forms[tensor.FormError], forms[tensor.FormPanic],
					forms[tensor.FormCrash], forms[tensor.FormUnsupported], checks)
				if canFail < minCanFail {
					t.Errorf("%.0f%% of the checks expect a value or an error, want at least %.0f%%", 100*canFail, 100*minCanFail)
				}
			})
		}
	}
}

// TestNumDTypesCoversEveryDType: the support tables are arrays indexed by
// dtype, sized by numDTypes.
func TestNumDTypesCoversEveryDType(t *testing.T) {
	for _, d := range tensor.AllDTypes {
		if int(d) >= numDTypes {
			t.Fatalf("dtype %s (%d) is past numDTypes %d", d, d, numDTypes)
		}
	}
}
