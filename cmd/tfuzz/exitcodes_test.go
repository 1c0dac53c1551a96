package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/campaign"
)

// exampleFinding is a finding of the example campaign (backend "planted").
const exampleFinding = exampleCampaign + "/findings/numpy-add-i32-i32-value-e6d332c3.jsonl"

// hostileFinding writes the example finding with its "finding" field's
// text old replaced by new, and returns its path.
func hostileFinding(t *testing.T, dir, old, new string) string {
	t.Helper()
	data, err := os.ReadFile(exampleFinding)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.Contains(s, old) {
		t.Fatalf("the example finding lacks %q", old)
	}
	s = strings.Replace(s, old, new, 1)
	if err := os.MkdirAll(filepath.Join(dir, "findings"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "findings", "x.jsonl")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkpointDir returns a folder holding a state.json with text state.
func checkpointDir(t *testing.T, state string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestExitCodes walks the error paths of every command: each user or input
// error exits 2 with a message saying what is wrong; 0 and 1 mean clean and
// findings, and 70 is left for tfuzz's own bugs.
func TestExitCodes(t *testing.T) {
	tmp := t.TempDir()
	file := writeFile(t, "file.txt", "not a folder\n")
	good := writeFile(t, "good.jsonl", addCase+"\n")
	amplified := writeFile(t, "amplified.jsonl", `{"op": "add", "args": [{"dtype": "i8", "shape": [65536, 1], "data": [`+
		strings.Repeat("1,", 65535)+`1]}, {"dtype": "i8", "shape": [1, 65536], "data": [`+strings.Repeat("1,", 65535)+`1]}]}`+"\n")
	emptyDim := writeFile(t, "empty-dim.jsonl", `{"op": "sum", "args": [{"dtype": "u8", "shape": [0, 16777216, 16777216], "data": []}], "attrs": {"dim": 0}}`+"\n")
	// a literal of 300 rows of one element broadcast against a row of
	// 65536: the literal's shape is known only once it is evaluated
	literalRows := `[` + strings.Repeat(`[1], `, 299) + `[1]]`
	stepAmplified := writeFile(t, "step-amplified.jsonl", `{"format": 2, "args": [{"dtype": "u8", "shape": [1, 65536], "data": [`+
		strings.Repeat("1,", 65535)+`1]}], "steps": [{"op": "from_literal", "args": [], "attrs": {"literal": "`+literalRows+`"}}, `+
		`{"op": "broadcast_add", "args": [{"step": 0}, {"arg": 0}]}]}`+"\n")
	deep := "neg(i8" + strings.Repeat("[", 100000) + "1" + strings.Repeat("]", 100000) + ")"
	seed42 := `{"tfuzz": "0.1.0", "seed": 42, "shard": 0, "shards": 1, "next": 10}`
	locked := t.TempDir()
	lock, err := campaign.LockDir(locked, "a test")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	quick := []string{"--max-cases", "20", "--duration", "0", "--workers", "1", "--backend", "cpu", "--op", "add"}
	run := func(args ...string) []string { return append(append([]string{"run"}, quick...), args...) }

	tests := []struct {
		name   string
		args   []string
		code   int
		output string // in stdout or stderr
	}{
		{"help", []string{"help"}, exitClean, "usage: tfuzz"},
		{"help of a command", []string{"help", "run"}, exitClean, "usage: tfuzz run"},
		{"help of no command", []string{"help", "frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{"version", []string{"--version"}, exitClean, "tfuzz 0.1.0"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "unknown command"},

		{"try: no expression", []string{"try"}, exitUsage, "no expression given"},
		{"try: bad expression", []string{"try", "floordiv(i8[1], i8[1])"}, exitUsage, `did you mean "floor_div"`},
		{"try: unknown profile", []string{"try", "-p", "torch/cpu", "neg(i8[1])"}, exitUsage, `did you mean "pytorch/cpu"`},
		{"try: a result larger than its inputs", []string{"try", "-p", "numpy", "index_select(i8[[1]], i64[" + strings.Repeat("0, ", 4095) + "0]) dim=1"}, exitClean, "i8[1 4096]"},
		{"try: a result over the limit", []string{"try", "index_select(i8[[" + strings.Repeat("1, ", 65535) + "1]], i64[" + strings.Repeat("0, ", 65535) + "0]) dim=0"},
			exitUsage, "OutOfRange: its result would have up to 4294967296 elements"},
		{"try", []string{"try", "-p", "numpy", "floor_div(i8[-128], i8[-1])"}, exitClean, "python.int.min-by-minus-one"},
		{"try: lists nested 100000 deep", []string{"try", deep}, exitUsage,
			fmt.Sprintf(`%q... (%d bytes): neg argument 1: at column 16: lists nested deeper than 9 levels`, deep[:60], len(deep))},
		{"try: an attr the op does not take", []string{"try", "sum(u8[1]) axis=0"}, exitUsage,
			`sum takes no attr "axis" (it takes only dim, keepdim, tolerance_ulps, dtype; axis is called dim here)`},

		{"eval: result amplified past 2^24 elements", []string{"eval", "-p", "numpy", amplified}, exitUsage, "OutOfRange: its result would have up to 4294967296 elements"},
		{"eval: a reduction of an empty dim amplified to 2^48", []string{"eval", emptyDim}, exitUsage, "up to 281474976710656 elements"},
		{"eval: a step amplifies a result of unknown shape", []string{"eval", stepAmplified}, exitUsage, "OutOfRange: its result would have up to"},
		{"eval: a dim past 32 bits", []string{"eval", writeFile(t, "dim.jsonl", `{"op": "sum", "args": [{"dtype": "u8", "shape": [1], "data": [1]}], "attrs": {"dim": -9223372036854775808}}`+"\n")},
			exitUsage, "attrs.dim: want an integer of 32 bits, got -9223372036854775808"},
		{"eval: a file with a byte order mark", []string{"eval", "-p", "numpy", writeFile(t, "bom.jsonl", "\xef\xbb\xbf"+addCase+"\r\n")}, exitClean, "numpy"},
		{"eval: no exceptions file", []string{"eval", "--check", "--exceptions", "/nonexistent/x.txt", good}, exitUsage, "--exceptions: open /nonexistent/x.txt"},
		{"eval: budget flag", []string{"eval", "--max-case-mb", "0", good}, exitUsage, "--max-case-mb must be positive"},
		{"eval: unknown backend", []string{"eval", "--backend", "cpux", good}, exitUsage, `did you mean "cpu"`},
		{"eval: unknown op lists near ones", []string{"eval", "--op", "floordiv", good}, exitUsage, `did you mean "floor_div"`},

		{"run: resume without a checkpoint", run("--resume", "--out", tmp+"/none"), exitUsage, "holds no campaign to resume"},
		{"run: resume another seed", run("--resume", "--seed", "1", "--out", checkpointDir(t, seed42)), exitUsage, "has seed 42, not 1"},
		{"run: resume another shard", run("--resume", "--shard", "1/2", "--out", checkpointDir(t, seed42)), exitUsage, "ran shard 0/1, not 1/2"},
		{"run: resume a checkpoint without fields", run("--resume", "--out", checkpointDir(t, `{"seed": 42}`)), exitUsage, "shard: missing"},
		{"run: resume a negative next", run("--resume", "--out",
			checkpointDir(t, `{"seed": 42, "shard": 0, "shards": 1, "next": -5}`)), exitUsage, "next: want a case count >= 0, got -5"},
		{"run: resume a next past any campaign", run("--resume", "--out",
			checkpointDir(t, `{"seed": 42, "shard": 0, "shards": 1, "next": 9223372036854775807}`)), exitUsage, "next: want a case count below 2^53"},
		{"run: resume a checkpoint that is no object", run("--resume", "--out", checkpointDir(t, `[]`)), exitUsage, "state.json:1: want a JSON object, got array"},
		{"run: resume a corrupt checkpoint", run("--resume", "--out", checkpointDir(t, `{"seed": 42,`)), exitUsage, "state.json:1"},
		{"run: a new campaign over a checkpoint", run("--out", checkpointDir(t, seed42)), exitUsage, "--resume"},
		{"run: --force starts over", run("--force", "--seed", "3", "--out", checkpointDir(t, seed42)), exitClean, "seed 3"},
		{"run: resume and force", run("--resume", "--force"), exitUsage, "contradict"},
		{"run: a folder in use", run("--out", locked), exitUsage, "in use by another tfuzz process (pid"},
		{"run: out is a file", run("--out", file), exitUsage, "output folder"},
		{"run: resume a folder with a corrupt finding", run("--resume", "--out", filepath.Dir(filepath.Dir(
			hostileFinding(t, checkpointDir(t, seed42),
				`"profile":"numpy"`, `"profile":7`)))), exitUsage, "x.jsonl:1: finding"},
		{"run: a corrupt finding in the folder", run("--force", "--out", filepath.Dir(filepath.Dir(
			hostileFinding(t, t.TempDir(), `"profile":"numpy"`, `"profile":7`)))), exitUsage, "x.jsonl:1: finding"},
		{"run: no backend for the profile", run("-p", "candle/metal"), exitUsage, "no backend claims"},
		{"run: unknown dtype", run("--dtype", "f8"), exitUsage, `unknown dtype "f8"`},
		{"run: endless", []string{"run", "--duration", "0"}, exitUsage, "never end"},
		{"run: stray argument", []string{"run", "extra"}, exitUsage, "unexpected arguments"},

		{"repro: nothing", []string{"repro"}, exitUsage, "no finding given"},
		{"repro: help is not a file", []string{"repro", "--help"}, exitClean, "usage: tfuzz repro"},
		{"repro: a backend this tfuzz lacks is not fixed", []string{"repro", exampleFinding}, exitUsage, "go run ./reports/examples/planted repro"},
		{"repro: a folder", []string{"repro", exampleCampaign}, exitUsage, `backend "planted" is not available here`},
		{"repro: an exec backend is not run", []string{"repro", hostileFinding(t, t.TempDir(), `"backend":"planted"`, `"backend":"exec:touch /tmp/tfuzz-pwned"`)},
			exitUsage, "exec:touch /tmp/tfuzz-pwned"},
		{"repro: an exec command that would rewrite the terminal is shown quoted", []string{"repro", hostileFinding(t, t.TempDir(), `"backend":"planted"`,
			`"backend":"exec:touch /tmp/tfuzz-pwned\u001b[2K\rexec:true"`)}, exitUsage, `"exec:touch /tmp/tfuzz-pwned\x1b[2K\rexec:true"`},
		{"repro: unknown profile", []string{"repro", hostileFinding(t, t.TempDir(), `"profile":"numpy"`, `"profile":"numpy/x"`)},
			exitUsage, `finding.profile: unknown profile "numpy/x"`},
		{"repro: against a backend that has the bug fixed", []string{"repro", "--backend", "cpu", exampleFinding}, exitClean, "fixed"},
		{"repro: no findings", []string{"repro", t.TempDir()}, exitUsage, "no findings"},

		{"report: --out is a file", []string{"report", "--out", file, exampleCampaign}, exitUsage, "is a file"},
		{"diff: --out in no folder", []string{"diff", "--from", "numpy", "--to", "jax/cpu-x32", "--out", "/nonexistent/x.md"}, exitUsage, "no folder /nonexistent"},
		{"merge: into a file", []string{"merge", file, exampleCampaign}, exitUsage, "output folder"},
		{"merge: a corrupt finding", []string{"merge", t.TempDir(), filepath.Dir(filepath.Dir(
			hostileFinding(t, t.TempDir(), `"signature":"numpy add(i32,i32) value"`, `"signature":""`)))}, exitUsage, "signature: missing"},
		{"import-crash: endless input", []string{"import-crash", "--out", t.TempDir(), "/dev/zero"}, exitUsage, "over the limit of 64 MiB"},
		{"import-crash: amplified case", []string{"import-crash", "--out", t.TempDir(), amplified}, exitUsage, "OutOfRange"},
		{"import-crash: no such file", []string{"import-crash", "/nonexistent"}, exitUsage, "no such file"},

		{"profiles: stray argument", []string{"profiles", "x"}, exitUsage, "unexpected arguments"},
		{"ops: unknown op", []string{"ops", "matmull"}, exitUsage, `tfuzz ops: unknown op "matmull"`},
		{"ops: one op in full", []string{"ops", "cast"}, exitClean, "  attr to             dtype, required: the target dtype\n" +
			"  attr mode           \"cast\" or \"convert\", optional"},
		{"ops: an op without attrs", []string{"ops", "where"}, exitClean, "  condition        tensor\n"},
		{"rules: nothing matches", []string{"rules", "nosuch."}, exitUsage, `no rule starts with "nosuch."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTfuzz(t, tt.args...)
			if code != tt.code || !strings.Contains(stdout+stderr, tt.output) {
				t.Errorf("tfuzz %q: exit %d, want %d with %q\nstdout: %.600s\nstderr: %.600s", tt.args, code, tt.code, tt.output, stdout, stderr)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic:") {
				t.Errorf("a Go stack trace:\n%s", stderr)
			}
		})
	}
	if _, err := os.Stat("/tmp/tfuzz-pwned"); err == nil {
		t.Error("repro ran the command of a finding without --allow-exec")
	}
}

// TestEveryCommandHasHelp: -h and tfuzz help CMD print the command's usage
// to stdout and exit 0.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, v := range verbs() {
		for _, args := range [][]string{{v.name, "-h"}, {"help", v.name}} {
			code, stdout, stderr := runTfuzz(t, args...)
			if code != exitClean || !strings.Contains(stdout, "usage: tfuzz "+v.name) {
				t.Errorf("tfuzz %q: exit %d, stdout %.200q, stderr %.200q", args, code, stdout, stderr)
			}
		}
	}
}

// TestHostileIDStaysInOut: a finding whose id is a path cannot make report
// --out write outside the folder.
func TestHostileIDStaysInOut(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "in")
	hostileFinding(t, in, `"id": "finding-e6d332c3"`, `"id": "../../escaped"`)
	out := filepath.Join(root, "a", "b", "out")
	code, stdout, stderr := runTfuzz(t, "report", "--out", out, in)
	if code != exitDiverged {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.HasPrefix(path, out+string(filepath.Separator)) && !strings.HasPrefix(path, in) {
			t.Errorf("report wrote %s, outside --out %s", path, out)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "repro", "finding-*", "repro_numpy.py")); len(files) != 1 {
		t.Errorf("want the repro programs in one folder under %s/repro, got %v", out, files)
	}
}

// TestReportOutWritesNoSymlinkTarget: symbolic links planted in a report
// folder (one someone sent) do not lead report --out's writes elsewhere: a
// link where report.md goes is replaced, a linked repro folder refused.
func TestReportOutWritesNoSymlinkTarget(t *testing.T) {
	root := t.TempDir()
	victim := filepath.Join(root, "victim")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(victim, "secret")
	if err := os.WriteFile(secret, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := func(t *testing.T, name, target string) string {
		out := t.TempDir()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(out, name)); err != nil {
			t.Fatal(err)
		}
		return out
	}
	tests := []struct {
		name, link, target string
		code               int
		output             string
	}{
		{"report.md a link to a file", "report.md", secret, exitDiverged, "1 findings: wrote"},
		{"repro a link to a folder", "repro", victim, exitUsage, "repro is a symbolic link"},
		{"repro/<id> a link to a folder", "repro/finding-e6d332c3", victim, exitUsage, "finding-e6d332c3 is a symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := linked(t, tt.link, tt.target)
			code, stdout, stderr := runTfuzz(t, "report", "--out", out, exampleCampaign+"/findings/numpy-add-i32-i32-value-e6d332c3.jsonl")
			if code != tt.code || !strings.Contains(stdout+stderr, tt.output) {
				t.Errorf("exit %d, want %d with %q\n%s%s", code, tt.code, tt.output, stdout, stderr)
			}
			if data, err := os.ReadFile(secret); err != nil || string(data) != "keep me\n" {
				t.Errorf("the link's target was written: %q, %v", data, err)
			}
			if entries, _ := os.ReadDir(victim); len(entries) != 1 {
				t.Errorf("report wrote into the linked folder: %v", entries)
			}
		})
	}
}

// TestMainJobContinues: tfuzz with no command, run twice, continues the
// campaign in tfuzz-out instead of replacing its checkpoint.
func TestMainJobContinues(t *testing.T) {
	t.Chdir(t.TempDir())
	args := []string{"--duration", "0", "--max-cases", "30", "--backend", "cpu", "--op", "neg", "--workers", "1"}
	if code, out, stderr := runTfuzz(t, args...); code != exitClean {
		t.Fatalf("first run: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr := runTfuzz(t, args...)
	if code != exitClean || !strings.Contains(stderr, "resuming the campaign in tfuzz-out at case 30") {
		t.Errorf("second run: exit %d\n%s%s", code, out, stderr)
	}
	st, err := campaign.ReadState("tfuzz-out")
	if err != nil || st.Next != 60 {
		t.Errorf("checkpoint %+v (%v), want 60 cases done", st, err)
	}
	// flags of another campaign: refused, saying how to start one, and
	// without a word of continuing
	code, out, stderr = runTfuzz(t, append(args, "--seed", "7")...)
	if code != exitUsage || !strings.Contains(stderr, "tfuzz-out holds another campaign: tfuzz-out/state.json: the campaign there has seed") ||
		!strings.Contains(stderr, "--force to start a new one there") || strings.Contains(stderr, "resuming") || strings.Contains(stderr, "continuing") {
		t.Errorf("another seed: exit %d\n%s%s", code, out, stderr)
	}
}
