package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/fuzz"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// plantedBackend is the model with one planted bug, switchable off (the
// "fix"): a signed integer add of MAX and a positive value saturates
// instead of wrapping.
type plantedBackend struct{ fixed *bool }

func (plantedBackend) Name() string                           { return "test-planted" }
func (plantedBackend) Profiles() []string                     { return []string{"numpy"} }
func (plantedBackend) Supports(p string, c *tensor.Case) bool { return c.Op == "add" || c.Op == "neg" }
func (b plantedBackend) Eval(p string, c *tensor.Case) tensor.Outcome {
	out := model.Eval(p, c)
	if *b.fixed || c.Op != "add" || out.Form != tensor.FormValue || !out.Value.DType.IsSigned() {
		return out
	}
	x, y := c.Args[0].Tensor, c.Args[1].Tensor
	if x == nil || y == nil || x.DType != y.DType || x.Len() != y.Len() || x.Len() != out.Value.Len() {
		return out
	}
	v := out.Value.Clone()
	for i := 0; i < v.Len(); i++ {
		if x.Int(i) == x.DType.MaxInt() && y.Int(i) > 0 {
			v.SetInt(i, x.DType.MaxInt())
		}
	}
	return tensor.ValueOutcome(v)
}

// withPlanted registers the planted backend for one test.
func withPlanted(t *testing.T) (fixed *bool) {
	fixed = new(bool)
	registerBackend("test-planted", func() tensor.Backend { return plantedBackend{fixed} })
	t.Cleanup(func() { delete(backendFactories, "test-planted") })
	return fixed
}

// TestMergeFourShards runs 4 shards of a campaign of the planted bug and
// merges them with tfuzz merge: each distinct signature once, and a report
// that counts the cases of all 4.
func TestMergeFourShards(t *testing.T) {
	fixed := withPlanted(t)
	root := t.TempDir()
	var dirs []string
	var total int64
	sigs := map[string]bool{}
	files := 0
	for k := 0; k < 4; k++ {
		dir := filepath.Join(root, fmt.Sprintf("shard-%d", k))
		st, err := campaign.Run(context.Background(), campaign.Config{
			Targets: []campaign.Target{{Backend: plantedBackend{fixed}, Profile: "numpy"}},
			Gen:     props.CaseOptions{Ops: []string{"add", "neg"}, DTypes: []tensor.DType{tensor.I8, tensor.I16, tensor.I32}},
			Seed:    11, Workers: 2, Shard: k, Shards: 4, MaxCases: 2000, OutDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		found, err := campaign.ReadFindings(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			sigs[f.Info.Signature] = true
		}
		files += len(found)
		dirs, total = append(dirs, dir), total+st.Next
	}
	out := filepath.Join(root, "merged")
	code, stdout, stderr := runTfuzz(t, append([]string{"merge", out}, dirs...)...)
	if code != exitDiverged {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitDiverged, stdout, stderr)
	}
	merged, err := campaign.ReadFindings(out)
	if err != nil {
		t.Fatal(err)
	}
	perSig := map[string]int{}
	for _, f := range merged {
		perSig[f.Info.Signature]++
	}
	if len(perSig) != len(sigs) || len(merged) != len(sigs) || files <= len(sigs) {
		t.Errorf("%d shard files with %d signatures merged into %d files %v", files, len(sigs), len(merged), perSig)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if total != 8000 || !strings.Contains(string(md), fmt.Sprintf("**%d cases**", total)) ||
		!strings.Contains(string(md), fmt.Sprintf("**%d distinct signatures**", len(sigs))) || strings.Count(string(md), "| 2000 |") != 4 {
		t.Errorf("report.md does not count the cases of all 4 shards (%d):\n%.1500s", total, md)
	}
	var res campaign.MergeResult
	data, _ := os.ReadFile(filepath.Join(out, "merge.json"))
	if err := json.Unmarshal(data, &res); err != nil || res.Cases != total || len(res.Shards) != 4 {
		t.Errorf("merge.json: %v, %+v", err, res)
	}
	t.Logf("%s", stdout)

	for _, bad := range [][]string{{"merge"}, {"merge", out}, {"merge", out, filepath.Join(root, "nope")}, {"merge", out, out}} {
		if code, _, stderr := runTfuzz(t, bad...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", bad, code, exitUsage, stderr)
		}
	}
}

// TestImportCrashRoundTrip: a crash input, as libFuzzer and go test -fuzz
// store it, becomes a finding that tfuzz repro confirms, and that repro
// calls fixed once the bug is gone; what is not a case is refused with its
// file, line and field.
func TestImportCrashRoundTrip(t *testing.T) {
	fixed := withPlanted(t)
	line := []byte(`{"op": "add", "args": [{"dtype": "i16", "shape": [3], "data": [0, 32767, 5]}, {"dtype": "i16", "shape": [3], "data": [4, 9, -2]}]}`)
	dir := t.TempDir()
	for _, in := range []struct {
		name, format string
		raw          []byte
	}{
		{"crash-libfuzzer", fuzz.FormatLibFuzzer, fuzz.EncodeLibFuzzerInput(line)},
		{"gotest-corpus", fuzz.FormatGoCorpus, fuzz.EncodeGoCorpusFile(line)},
	} {
		t.Run(in.name, func(t *testing.T) {
			*fixed = false
			crash := filepath.Join(dir, in.name)
			os.WriteFile(crash, in.raw, 0o644)
			out := filepath.Join(dir, "out-"+in.name)
			code, stdout, stderr := runTfuzz(t, "import-crash", "--backend", "test-planted", "--out", out, crash)
			if code != exitDiverged || !strings.Contains(stdout, in.format) {
				t.Fatalf("import-crash: exit %d\n%s%s", code, stdout, stderr)
			}
			found, err := campaign.ReadFindings(out)
			if err != nil || len(found) != 1 {
				t.Fatalf("want one finding in %s, got %d (%v)\n%s", out, len(found), err, stdout)
			}
			f := found[0]
			if f.Info.Backend != "test-planted" || f.Info.ShrunkElements != 2 || f.Info.OriginalElements != 6 ||
				!strings.Contains(f.Case.Source, in.name) {
				t.Errorf("finding %+v, source %q: want the planted backend, shrunk from 6 to 2 elements, the crash named", f.Info, f.Case.Source)
			}
			if code, stdout, _ := runTfuzz(t, "repro", f.Path); code != exitDiverged || !strings.Contains(stdout, "still diverges") {
				t.Errorf("repro before the fix: exit %d\n%s", code, stdout)
			}
			*fixed = true
			if code, stdout, _ := runTfuzz(t, "repro", f.Path); code != exitClean || !strings.Contains(stdout, "fixed") {
				t.Errorf("repro after the fix: exit %d\n%s", code, stdout)
			}
			if code, stdout, _ := runTfuzz(t, "import-crash", "--backend", "test-planted", "--out", out, crash); code != exitClean ||
				!strings.Contains(stdout, "no divergence") {
				t.Errorf("import-crash after the fix: exit %d\n%s", code, stdout)
			}
		})
	}
	bad := filepath.Join(dir, "crash-bad")
	os.WriteFile(bad, fuzz.EncodeLibFuzzerInput([]byte(`{"op": "neg", "args": [{"dtype": "u8", "shape": [1], "data": [256]}]}`)), 0o644)
	code, _, stderr := runTfuzz(t, "import-crash", "--backend", "test-planted", "--out", filepath.Join(dir, "o"), bad)
	if code != exitUsage || !strings.Contains(stderr, bad+":1: args[0].data[0]: want an integer in u8 range") {
		t.Errorf("a crash input that is no case: exit %d, %s", code, stderr)
	}
	short := filepath.Join(dir, "crash-short")
	os.WriteFile(short, []byte{0, 1}, 0o644)
	if code, _, stderr := runTfuzz(t, "import-crash", "--out", filepath.Join(dir, "o"), short); code != exitUsage || !strings.Contains(stderr, "4-byte length") {
		t.Errorf("a 2-byte crash input: exit %d, %s", code, stderr)
	}
}
