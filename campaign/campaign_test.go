package campaign

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// buggyBackend is the model with one planted bug: integer add of MAX and a
// positive value saturates instead of wrapping. A campaign must find it and
// shrink it to one element per operand.
type buggyBackend struct{}

func (buggyBackend) Name() string       { return "buggy" }
func (buggyBackend) Profiles() []string { return []string{"numpy"} }
func (buggyBackend) Supports(p string, c *tensor.Case) bool {
	return c.Op == "add" || c.Op == "mul" || c.Op == "neg"
}

func (buggyBackend) Eval(p string, c *tensor.Case) tensor.Outcome {
	out := model.Eval(p, c)
	if c.Op != "add" || out.Form != tensor.FormValue || !out.Value.DType.IsSigned() {
		return out
	}
	a, b := c.Args[0].Tensor, c.Args[1].Tensor
	if a == nil || b == nil || a.DType != b.DType || !sameShape(a.Shape, b.Shape) {
		return out
	}
	v := out.Value.Clone()
	for i := 0; i < v.Len(); i++ {
		if a.Int(i) == a.DType.MaxInt() && b.Int(i) > 0 {
			v.SetInt(i, a.DType.MaxInt()) // the planted bug: saturation
		}
	}
	return tensor.ValueOutcome(v)
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func testConfig(dir string) Config {
	return Config{Targets: []Target{{buggyBackend{}, "numpy"}}, Gen: props.CaseOptions{Ops: []string{"add", "neg"},
		DTypes: []tensor.DType{tensor.I8, tensor.I16, tensor.I32}}, Seed: 7, Workers: 2, OutDir: dir}
}

func TestCampaignFindsAndShrinksAPlantedBug(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.MaxCases = 20000
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Findings == 0 {
		t.Fatalf("no finding in %d cases (%d checked)", st.Cases, st.Checked)
	}
	findings, err := ReadFindings(cfg.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if f.Info.ShrunkElements > 2 {
			t.Errorf("%s: shrunk to %d elements, want at most 2 (one per operand): %s", f.Path, f.Info.ShrunkElements, f.Case.Describe())
		}
		if f.Info.Seed != 7 || f.Info.Version != Version || len(f.Case.Expect) != 1 || len(f.Case.Got) != 1 {
			t.Errorf("%s: incomplete finding: %+v", f.Path, f.Info)
		}
		if w, _ := f.Case.Expect.Get("numpy"); len(w.Rules) == 0 {
			t.Errorf("%s: the model's outcome carries no rules", f.Path)
		}
		if props.Differential(buggyBackend{}, "numpy", f.Case) == nil {
			t.Errorf("%s: the stored case no longer diverges", f.Path)
		}
	}
	t.Logf("%d cases, %d findings, shrunk %v from %v elements", st.Cases, st.Findings, st.ShrunkElements, st.OriginalElements)
}

func TestCampaignIsReproducible(t *testing.T) {
	run := func() Stats {
		cfg := testConfig(t.TempDir())
		cfg.MaxCases, cfg.Workers = 3000, 1
		st, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	a, b := run(), run()
	if a.Checked != b.Checked || a.Divergent != b.Divergent || a.Findings != b.Findings {
		t.Errorf("same seed, different campaigns: %+v vs %+v", a, b)
	}
}

func TestShardsAreDisjoint(t *testing.T) {
	seen := map[uint64]int{}
	for k := 0; k < 4; k++ {
		for j := int64(0); j < 100; j++ {
			i := j*4 + int64(k)
			seen[caseSeed(1, i)]++
		}
	}
	for s, n := range seen {
		if n > 1 {
			t.Fatalf("case seed %d drawn by %d shards", s, n)
		}
	}
}

// TestKilledCampaignResumes kills a running campaign with SIGKILL, then
// checks that every finding written before the kill is intact, that no file
// is corrupt, and that --resume continues from the checkpoint.
func TestKilledCampaignResumes(t *testing.T) {
	if os.Getenv("TFUZZ_CAMPAIGN_CHILD") != "" {
		cfg := testConfig(os.Getenv("TFUZZ_CAMPAIGN_CHILD"))
		cfg.ProgressEvery = 100 * time.Millisecond
		Run(context.Background(), cfg) // runs until killed
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledCampaignResumes$")
	cmd.Env = append(os.Environ(), "TFUZZ_CAMPAIGN_CHILD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if files, _ := filepath.Glob(filepath.Join(dir, FindingsDir, "*.jsonl")); len(files) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child campaign wrote no finding in 60s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // kill it mid-campaign, checkpoints and writes under way
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	before, err := ReadFindings(dir) // fails on any corrupt or half-written file
	if err != nil {
		t.Fatalf("after SIGKILL: %v", err)
	}
	saved := map[string][]byte{}
	for _, f := range before {
		saved[f.Path], _ = os.ReadFile(f.Path)
	}
	seed, err := ResumeSeed(dir)
	if err != nil {
		t.Fatalf("checkpoint unreadable after SIGKILL: %v", err)
	}
	cfg := testConfig(dir)
	cfg.Seed, cfg.Resume, cfg.MaxCases = seed, true, 500
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for path, data := range saved {
		now, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(now, data) {
			t.Errorf("%s changed or vanished after resuming", path)
		}
	}
	if st.Next <= 0 || st.Findings < len(before) {
		t.Errorf("resume did not continue: %+v (had %d findings)", st, len(before))
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, FindingsDir, ".*"))
	for _, l := range leftovers {
		t.Logf("temporary file left by the killed process (ignored by readers): %s", l)
	}
	t.Logf("%d findings before the kill, %d after resuming at case %d", len(before), st.Findings, st.Next)
}

func TestStopAfterFindings(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.Gen.Ops = []string{"add"}
	cfg.StopAfterFindings = 1
	cfg.Duration = time.Minute
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.NewFindings < 1 || len(st.FoundAt) != st.NewFindings {
		t.Fatalf("%d new findings, %d times (FoundAt %v)", st.NewFindings, len(st.FoundAt), st.FoundAt)
	}
	// the other worker may finish a case in flight, but the campaign stops
	// long before its duration
	if st.Elapsed > 20*time.Second || st.FoundAt[0] > st.Elapsed {
		t.Errorf("stopped after %s, first finding at %s", st.Elapsed, st.FoundAt[0])
	}
}

// panickySupports panics in Supports (and in Eval) on neg, as the CPU
// engine does when planning a program runs a kernel with a bug: the
// campaign must report it as a backend panic, not die.
type panickySupports struct{ buggyBackend }

func (panickySupports) Supports(p string, c *tensor.Case) bool {
	if c.Op == "neg" {
		panic("a bug while planning")
	}
	return buggyBackend{}.Supports(p, c)
}

func (panickySupports) Eval(p string, c *tensor.Case) tensor.Outcome {
	if c.Op == "neg" {
		panic("a bug while planning")
	}
	return buggyBackend{}.Eval(p, c)
}

func TestPanicInSupportsIsAFinding(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.Targets = []Target{{panickySupports{}, "numpy"}}
	cfg.MaxCases = 2000
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Counts.BackendPanics == 0 {
		t.Fatalf("no backend panic counted in %d cases", st.Cases)
	}
	findings, err := ReadFindings(cfg.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if f.Case.Op == "neg" && strings.HasSuffix(f.Info.Signature, "backend-panic") {
			return
		}
	}
	t.Errorf("no backend-panic finding on neg among %d findings", len(findings))
}

// hangingBackend never returns from neg of a tensor holding 7 (an endless
// loop in a kernel, as a blocked channel so that it spends no CPU).
type hangingBackend struct{ buggyBackend }

func (hangingBackend) Eval(p string, c *tensor.Case) tensor.Outcome {
	if c.Op == "neg" && c.Args[0].Tensor != nil {
		for i := 0; i < c.Args[0].Tensor.Len(); i++ {
			if c.Args[0].Tensor.Int(i) == 7 {
				<-make(chan struct{})
			}
		}
	}
	return buggyBackend{}.Eval(p, c)
}

func TestHangIsAFindingAndEndsTheCampaign(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.Targets = []Target{{hangingBackend{}, "numpy"}}
	cfg.Gen.Ops = []string{"neg"}
	cfg.Duration = time.Minute
	cfg.HangAfter = 300 * time.Millisecond
	start := time.Now()
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("the campaign took %s to end after a hang", el)
	}
	if st.Counts.BackendHangs == 0 || st.Divergent == 0 {
		t.Fatalf("no hang counted: %+v", st.Counts)
	}
	findings, err := ReadFindings(cfg.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	var hung *StoredFinding
	for _, f := range findings {
		if f.Info.BackendHung {
			hung = f
		}
	}
	if hung == nil || !strings.HasSuffix(hung.Info.Signature, "backend-hang") {
		t.Fatalf("no hang finding among %d findings", len(findings))
	}
	if hung.Info.CaseIndex >= st.Next {
		t.Errorf("the checkpoint (%d) stays at or below the hung case %d: a resume would hang again", st.Next, hung.Info.CaseIndex)
	}
	t.Logf("hang on %s after %d cases", hung.Case.Describe(), st.Cases)
}

// lostCoverage is the model on numpy that has lost its neg of i16: it
// declines it, while it lists only complex inputs as a gap.
type lostCoverage struct{ buggyBackend }

func (lostCoverage) Supports(p string, c *tensor.Case) bool {
	if c.Op == "neg" && c.Args[0].Tensor != nil && c.Args[0].Tensor.DType == tensor.I16 {
		return false
	}
	return buggyBackend{}.Supports(p, c)
}

func (lostCoverage) Gap(_ string, c *tensor.Case) string {
	for _, a := range c.Args {
		if a.Tensor != nil && a.Tensor.DType.IsComplex() {
			return "complex inputs"
		}
	}
	return ""
}

func TestUnclaimedDeclineIsAFinding(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.Targets = []Target{{lostCoverage{}, "numpy"}}
	cfg.Gen.Ops = []string{"neg"}
	cfg.MaxCases = 3000
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Counts.UnclaimedDeclines == 0 || st.Divergent == 0 {
		t.Fatalf("no unclaimed decline counted: %+v", st.Counts)
	}
	findings, err := ReadFindings(cfg.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if strings.HasSuffix(f.Info.Signature, " declined") {
			if f.Case.Args[0].Tensor.DType != tensor.I16 || f.Info.ShrunkElements > 1 {
				t.Errorf("the finding is %s, want neg of one i16 element", f.Case.Describe())
			}
			return
		}
	}
	t.Errorf("no declined finding among %d findings", len(findings))
}
