package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const exampleCampaign = "../../reports/examples/planted-numpy/campaign"

func TestReportAndDiffUsageErrors(t *testing.T) {
	bad := writeFile(t, "bad.jsonl", `{"op": "neg", "args": [{"dtype": "u8", "shape": [1], "data": [256]}]}`+"\n")
	notFinding := writeFile(t, "case.jsonl", addCase+"\n")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"report without folder", []string{"report"}, "no findings folder"},
		{"report of nothing", []string{"report", "/nonexistent/out"}, "no such file"},
		{"report bad file names file, line and field", []string{"report", bad}, bad + ":1: args[0].data[0]"},
		{"report of a case that is no finding", []string{"report", notFinding}, notFinding + ":1: finding: missing"},
		{"report unknown repro profile", []string{"report", "--repro-profile", "torch/gpu", exampleCampaign}, `unknown profile "torch/gpu"`},
		{"diff without profiles", []string{"diff"}, "--from and --to are required"},
		{"diff unknown profile", []string{"diff", "--from", "pytorch/cpu", "--to", "candle/gpu"}, `unknown profile "candle/gpu"`},
		{"diff negative cases", []string{"diff", "--from", "numpy", "--to", "numpy", "--max-cases", "-1"}, "must not be negative"},
		{"diff missing corpus", []string{"diff", "--from", "numpy", "--to", "numpy", "--corpus", "/nonexistent"}, "--corpus"},
		{"diff stray argument", []string{"diff", "--from", "numpy", "--to", "numpy", "extra"}, "unexpected arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runTfuzz(t, tt.args...)
			if code != exitUsage {
				t.Errorf("exit code %d, want %d (stderr %q)", code, exitUsage, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tt.stderr)
			}
		})
	}
}

func TestReportOfTheExampleCampaign(t *testing.T) {
	code, md, stderr := runTfuzz(t, "report", exampleCampaign)
	if code != exitDiverged {
		t.Fatalf("exit %d, want 1 (findings); stderr %s", code, stderr)
	}
	for _, must := range []string{"# tfuzz: 3 findings", "What differs", "Minimal inputs", "Outcomes side by side",
		"Why.", "Reproduce.", "tfuzz repro ", "seed `20260101`", "```python"} {
		if !strings.Contains(md, must) {
			t.Errorf("the Markdown report lacks %q", must)
		}
	}
	code, js, _ := runTfuzz(t, "report", "--json", exampleCampaign)
	var r struct {
		Findings []struct {
			Case, Expected, Actual json.RawMessage
			ExpectedRules          []struct{ Name, Doc string } `json:"expected_rules"`
			Replay                 []string
			Seed                   uint64
		}
	}
	if err := json.Unmarshal([]byte(js), &r); err != nil || code != exitDiverged {
		t.Fatalf("exit %d, JSON %v:\n%s", code, err, js)
	}
	if len(r.Findings) != 3 || r.Findings[0].Seed != 20260101 || len(r.Findings[0].ExpectedRules) == 0 || len(r.Findings[0].Replay) == 0 {
		t.Errorf("incomplete JSON report: %+v", r)
	}
	out := t.TempDir()
	code, _, _ = runTfuzz(t, "report", "--out", out, "--repro-profile", "pytorch/cuda", exampleCampaign)
	progs, _ := filepath.Glob(filepath.Join(out, "repro", "*", "*.py"))
	if code != exitDiverged || len(progs) != 6 {
		t.Errorf("exit %d, %d programs (want 3 findings x numpy and pytorch/cuda)", code, len(progs))
	}
	for _, f := range []string{"report.md", "report.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	empty := t.TempDir()
	if code, md, _ := runTfuzz(t, "report", empty); code != exitClean || !strings.Contains(md, "0 findings") {
		t.Errorf("empty campaign: exit %d\n%s", code, md)
	}
}

func TestDiff(t *testing.T) {
	out := filepath.Join(t.TempDir(), "atlas.md")
	code, _, stderr := runTfuzz(t, "diff", "--from", "candle/cpu-release", "--to", "candle/metal", "--max-cases", "300",
		"--corpus", "../../corpus/seeds", "--out", out)
	if code != exitDiverged {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"# Portability atlas: candle/cpu-release → candle/metal", "--max-cases 300",
		"rows that cover them", "## The rules"} {
		if !strings.Contains(string(data), must) {
			t.Errorf("the atlas lacks %q", must)
		}
	}
	if code, md, _ := runTfuzz(t, "diff", "--from", "numpy", "--to", "numpy", "--max-cases", "100", "--corpus", ""); code != exitClean ||
		!strings.Contains(md, "**0 classes**") {
		t.Errorf("a profile against itself: exit %d\n%s", code, md)
	}
}
