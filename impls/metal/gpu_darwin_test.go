//go:build darwin && cgo

package metal

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

var strictGPU = flag.Bool("metal.strict", false,
	"metal: fail on differences that the simulator's stated assumptions (assumptions.go) explain too")

// openGPU opens the Mac's Metal device with the kernels compiled. Any
// error fails the test: a Mac without a usable device, and above all an
// MSL compile error, must not leave the GPU tests green.
func openGPU(t *testing.T) *Backend {
	t.Helper()
	gpu, err := NewGPUBackend()
	if err != nil {
		t.Fatalf("the Metal backend does not open (kernels/*.metal must compile on every Mac this runs on): %v", err)
	}
	g := gpu.Device().(*GPU)
	for _, k := range []string{"badd_bf16_cs", "fast_sum_i64", "is_u8_bf16"} {
		if !g.HasKernel(k) {
			t.Fatalf("kernel %s is missing: the Metal compiler dropped it (no bfloat before Metal 3.1?)", k)
		}
	}
	t.Logf("device: %s", g.Name())
	return gpu
}

// gpuChecker compares the GPU's outcomes with the simulator's and keeps
// the counts a run reports.
type gpuChecker struct {
	sim, ref *Backend
	assumed  map[string]int // differences excused by an assumption, by its name
	open     int            // cases matched only through the simulator's "?"
	far      int            // of those, GPU values beyond 4 ulps of the reference
}

func newGPUChecker() *gpuChecker {
	return &gpuChecker{sim: NewSim(), ref: New("metal-sim-reference", NewSimDevice(WithReferenceMath())), assumed: map[string]int{}}
}

// check compares the GPU's outcome got for c with the simulator's. It
// returns an error for a difference no assumption explains, or for any
// difference with -metal.strict, and a line to log otherwise ("" when the
// outcomes agree and nothing is worth saying).
func (k *gpuChecker) check(c *tensor.Case, got tensor.Outcome) (string, error) {
	want := k.sim.Eval(Profile, c)
	if cmp := tensor.Compare(want, got, 0); cmp.Match() {
		if want.Form != tensor.FormValue || !want.Value.HasUnspecified() {
			return "", nil
		}
		k.open++
		ref := k.ref.Eval(Profile, c)
		if cmp := tensor.Compare(ref, got, 4); !cmp.Match() {
			k.far++
			return fmt.Sprintf("open value beyond 4 ulps of the correctly rounded one: %s: reference %s, gpu %s (%s)", c.Describe(), ref, got, cmp.Detail), nil
		}
		return "", nil
	}
	names := assumedBy(c, want)
	msg := fmt.Sprintf("%s: sim %s, gpu %s", c.Describe(), want, got)
	if len(names) == 0 {
		return "", fmt.Errorf("no assumption explains it: %s", msg)
	}
	for _, n := range names {
		k.assumed[n]++
	}
	if *strictGPU {
		return "", fmt.Errorf("assumption %s: %s", strings.Join(names, " or "), msg)
	}
	return fmt.Sprintf("assumption %s: %s", strings.Join(names, " or "), msg), nil
}

// report logs the counts.
func (k *gpuChecker) report(t *testing.T) {
	names := make([]string, 0, len(k.assumed))
	for n := range k.assumed {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("assumption %s: %d cases differed", n, k.assumed[n])
	}
	t.Logf("%d cases matched only through elements the simulator leaves open; %d of them beyond 4 ulps of the correctly rounded value", k.open, k.far)
}

// TestGPUMatchesSimulator runs generated cases on the Mac's Metal device
// and on the simulated one. They must agree wherever the simulator states
// a value; a difference on a case that rests on one of the simulator's
// assumptions is logged under its name (-metal.strict fails on it: it
// tells which assumption to correct), any other fails.
func TestGPUMatchesSimulator(t *testing.T) {
	gpu := openGPU(t)
	k := newGPUChecker()
	rapid.Check(t, func(rt *rapid.T) {
		c := genCase().Draw(rt, "case")
		line, err := k.check(c, gpu.Eval(Profile, c))
		if err != nil {
			rt.Fatal(err)
		}
		if line != "" {
			t.Log(line)
		}
	})
	k.report(t)
}

// TestGPUTargetedCases runs issue 17's targeted cases (targets_test.go) on
// the GPU, logging each outcome so that a run records what the hardware
// does where the simulator assumes it.
func TestGPUTargetedCases(t *testing.T) {
	gpu := openGPU(t)
	k := newGPUChecker()
	for _, tc := range targetedCases() {
		got := gpu.Eval(Profile, tc.c)
		t.Logf("%s: gpu %s", tc.name, got)
		line, err := k.check(tc.c, got)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if line != "" {
			t.Logf("%s: %s", tc.name, line)
		}
	}
	k.report(t)
}

// assumedBy returns the names of the assumptions the outcome of c may rest on.
func assumedBy(c *tensor.Case, sim tensor.Outcome) []string {
	var names []string
	for _, a := range Assumptions {
		if a.Touches(c, sim) {
			names = append(names, a.Name)
		}
	}
	return names
}
