// Package plantedbug is a backend with bugs planted on purpose, and the
// campaign that finds them: the source of the example report in
// reports/examples/ (go run ./reports/examples/planted regenerates it).
package plantedbug

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/reports"
	"github.com/tfuzz/tfuzz/tensor"
)

// Backend claims the numpy profile and answers as the model does, except
// for three planted bugs of the kind a hand-written kernel has:
//   - integer add saturates at the dtype's maximum instead of wrapping;
//   - floor_div of integers truncates toward zero (a C `/`) instead of flooring;
//   - the cast to f16 truncates the f32 mantissa instead of rounding to nearest even.
type Backend struct{}

func (Backend) Name() string       { return "planted" }
func (Backend) Profiles() []string { return []string{"numpy"} }
func (Backend) Supports(p string, c *tensor.Case) bool {
	return c.Op == "add" || c.Op == "floor_div" || c.Op == "cast"
}

func (Backend) Eval(p string, c *tensor.Case) tensor.Outcome {
	out := model.Eval(p, c)
	if out.Form != tensor.FormValue {
		return out
	}
	a := c.Args[0].Tensor
	var b *tensor.Tensor
	if len(c.Args) > 1 {
		b = c.Args[1].Tensor
	}
	v := out.Value.Clone()
	v.Strides, v.Offset = nil, 0
	switch {
	case c.Op == "add" && v.DType.IsSigned() && sameInts(a, b, v):
		for i := 0; i < v.Len(); i++ {
			if x, y := a.Int(i), b.Int(i); y > 0 && x > v.DType.MaxInt()-y {
				v.SetInt(i, v.DType.MaxInt()) // bug 1: saturation
			}
		}
	case c.Op == "floor_div" && v.DType.IsSigned() && sameInts(a, b, v):
		for i := 0; i < v.Len(); i++ {
			if x, y := a.Int(i), b.Int(i); y != 0 && !(x == v.DType.MinInt() && y == -1) {
				v.SetInt(i, x/y) // bug 2: truncation
			}
		}
	case c.Op == "cast" && c.Attrs.To == tensor.F16 && a.DType == tensor.F32 && v.Len() == a.Len():
		for i := 0; i < v.Len(); i++ {
			v.SetBits(i, truncateToF16(a.Float(i))) // bug 3: no rounding
		}
	default:
		return out
	}
	return tensor.ValueOutcome(v)
}

// sameInts reports whether a, b and the result are integer tensors of one shape and dtype.
func sameInts(a, b, v *tensor.Tensor) bool {
	if a == nil || b == nil || a.DType != v.DType || b.DType != v.DType || a.Len() != v.Len() || b.Len() != v.Len() {
		return false
	}
	return len(a.Shape) == len(v.Shape) && len(b.Shape) == len(v.Shape)
}

// truncateToF16 converts x to f16 bits by dropping the low mantissa bits
// (round toward zero), keeping NaN, infinities and overflow to inf.
func truncateToF16(x float64) uint64 {
	r := tensor.FloatBits(x, tensor.F16) // correctly rounded
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return r
	}
	back := tensor.FloatFromBits(r, tensor.F16)
	if math.Abs(back) > math.Abs(x) && r&0x7fff != 0 && !math.IsInf(back, 0) {
		return r - 1 // rounded away from zero: step back toward zero
	}
	return r
}

// Campaign is the example campaign: fixed seed and case count, one worker,
// so that it finds and shrinks the same findings every time.
func Campaign(outDir string) campaign.Config {
	return campaign.Config{
		Targets: []campaign.Target{{Backend: Backend{}, Profile: "numpy"}},
		Gen: props.CaseOptions{Ops: []string{"add", "floor_div", "cast"},
			DTypes: []tensor.DType{tensor.I32, tensor.F32}, MaxElems: 12},
		Seed: 20260101, MaxCases: 4000, Workers: 1, OutDir: outDir,
		// no checkpoint mid-run: campaign.Run counts --max-cases from the last one
		ProgressEvery: 365 * 24 * time.Hour,
	}
}

// ReproProfiles are the profiles whose repro programs the example writes
// beside NumPy's, so that scripts/run-repros-on-gpu.sh checks the model on
// the same inputs in PyTorch and JAX, on the CPU and the GPU.
var ReproProfiles = []string{"pytorch/cpu", "pytorch/cuda", "jax/cpu-x32", "jax/cpu-x64", "jax/gpu-x32", "jax/gpu-x64"}

// Tool is how the example's findings are replayed: the example program
// has the planted backend, the tfuzz binary does not.
const Tool = "go run ./reports/examples/planted"

// Generate runs the example campaign into dir/campaign and writes the
// report into dir; display is how the report names dir (the path from the
// repository root), so that the report does not depend on where it was made.
func Generate(ctx context.Context, dir, display string) error {
	out := filepath.Join(dir, "campaign")
	for _, old := range []string{out, filepath.Join(dir, reports.ReproDirName)} {
		if err := os.RemoveAll(old); err != nil {
			return err
		}
	}
	if _, err := campaign.Run(ctx, Campaign(out)); err != nil {
		return err
	}
	os.Remove(filepath.Join(out, "state.json"))   // the resume checkpoint: not part of the example
	os.Remove(filepath.Join(out, "summary.json")) // counts and timings of the run: not reproducible
	findings, err := reports.Read(out)
	if err != nil {
		return err
	}
	if len(findings) == 0 {
		return fmt.Errorf("the example campaign found no planted bug")
	}
	for _, f := range findings {
		f.File = display + "/campaign/findings/" + filepath.Base(f.File)
	}
	_, err = reports.WriteDir(dir, findings, reports.Options{Source: display + "/campaign", Tool: Tool,
		ReproProfiles:   ReproProfiles,
		CampaignCommand: Tool + "   (runs the example campaign again: seed 20260101, 4000 cases)"})
	return err
}

// Repro replays findings against the planted backend: it returns the
// findings that still diverge.
func Repro(paths ...string) ([]*props.Finding, error) {
	var still []*props.Finding
	for _, p := range paths {
		sf, err := campaign.ReadFinding(p)
		if err != nil {
			return nil, err
		}
		if f := props.Differential(Backend{}, sf.Info.Profile, sf.Case); f != nil {
			still = append(still, f)
		}
	}
	return still, nil
}
