package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestMain lets a test run this binary as tfuzz itself (TFUZZ_BE_MAIN=1),
// so that signals and exit codes are those of the real process.
func TestMain(m *testing.M) {
	if os.Getenv("TFUZZ_BE_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

func runTfuzz(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const addCase = `{"id": "add-1", "op": "add", "args": [{"dtype": "i32", "shape": [2], "data": [1, -7]}, {"dtype": "i32", "shape": [2], "data": [2, 7]}], ` +
	`"expect": {"numpy": {"value": {"dtype": "i32", "shape": [2], "data": [3, 0]}}}}`

func TestUsageErrorsExitTwo(t *testing.T) {
	bad := writeFile(t, "bad.jsonl", `{"op": "neg", "args": [{"dtype": "u8", "shape": [1], "data": [256]}]}`+"\n")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"eval without files", []string{"eval"}, "no case files"},
		{"unknown flag", []string{"eval", "--nope", bad}, "unknown flag"},
		{"unknown profile", []string{"eval", "--profile", "torch/cpu", bad}, `unknown profile "torch/cpu"`},
		{"unknown op", []string{"eval", "--op", "einsum", bad}, `unknown op "einsum"`},
		{"missing file", []string{"eval", "/nonexistent/x.jsonl"}, "no such file"},
		{"bad case names file, line and field", []string{"eval", bad}, bad + ":1: args[0].data[0]: want an integer in u8 range"},
		{"bad exceptions file", []string{"eval", "--check", "--exceptions", bad, bad}, ""},
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

// TestBadCaseFilesExitTwo feeds eval one bad line of each kind the codec
// rejects; each must exit 2 naming the file, the line and the field.
func TestBadCaseFilesExitTwo(t *testing.T) {
	neg := func(tensorJSON string) string { return `{"op": "neg", "args": [` + tensorJSON + `]}` }
	tests := []struct{ name, line, where string }{
		{"malformed JSON", `{"op": "neg", "args": [}`, ":2: args: invalid JSON"},
		{"unknown op", `{"op": "einsum", "args": []}`, ":2: op: unknown op"},
		{"unknown dtype", neg(`{"dtype": "f8", "shape": [1], "data": ["1.0"]}`), ":2: args[0].dtype: unknown dtype"},
		{"unknown profile", `{"op": "neg", "args": [{"dtype": "i8", "shape": [], "data": [1]}], "expect": {"torch": {"crash": {"signal": "SIGFPE"}}}}`,
			":2: expect.torch: unknown profile"},
		{"data length", neg(`{"dtype": "i8", "shape": [3], "data": [1, 2]}`), ":2: args[0].data: has 2 elements"},
		{"rank over 8", neg(`{"dtype": "i8", "shape": [1,1,1,1,1,1,1,1,1], "data": [1]}`), ":2: args[0].shape: rank 9"},
		{"over 2^24 elements", neg(`{"dtype": "i8", "shape": [16777217], "data": []}`), ":2: args[0].shape: [16777217] has more than 2^24"},
		{"? in args", neg(`{"dtype": "i8", "shape": [1], "data": ["?"]}`), `:2: args[0].data[0]: "?" is allowed only in outcomes`},
	}
	good := `{"op": "neg", "args": [{"dtype": "i8", "shape": [], "data": [1]}]}`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "cases.jsonl", good+"\n"+tt.line+"\n")
			code, _, stderr := runTfuzz(t, "eval", path)
			if code != exitUsage || !strings.Contains(stderr, path+tt.where) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, path+tt.where)
			}
		})
	}
}

func TestEvalCheck(t *testing.T) {
	good := writeFile(t, "good.jsonl", addCase+"\n")
	code, out, _ := runTfuzz(t, "eval", "--check", good)
	if code != exitClean || !strings.Contains(out, "ok") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	wrong := writeFile(t, "wrong.jsonl", strings.Replace(addCase, "[3, 0]", "[3, 1]", 1)+"\n")
	code, out, _ = runTfuzz(t, "eval", "--check", wrong)
	if code != exitDiverged || !strings.Contains(out, "MISMATCH element 1: want 1, got 0") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	excuses := writeFile(t, "ex.txt", "# known\nadd-1 numpy the test says so\n")
	code, out, _ = runTfuzz(t, "eval", "--check", "--exceptions", excuses, wrong)
	if code != exitClean || !strings.Contains(out, "known difference: the test says so") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestEvalJSONAddsGot(t *testing.T) {
	good := writeFile(t, "good.jsonl", addCase+"\n")
	code, out, _ := runTfuzz(t, "eval", "--json", "--profile", "numpy", "--profile", "pytorch/cpu", good)
	if code != exitClean {
		t.Fatalf("exit %d", code)
	}
	c, err := tensor.DecodeCase([]byte(strings.TrimSpace(out)))
	if err != nil {
		t.Fatalf("output is not a case: %v\n%s", err, out)
	}
	if got := c.Got.Profiles(); len(got) != 2 || got[0] != "numpy" || got[1] != "pytorch/cpu" {
		t.Fatalf("got profiles %v", got)
	}
	if o, _ := c.Got.Get("numpy"); len(o.Rules) == 0 {
		t.Errorf("the model's outcome carries no rules: %+v", o)
	}
	if len(c.Expect) != 1 {
		t.Errorf("expect was not preserved: %+v", c.Expect)
	}
}

func TestListings(t *testing.T) {
	for _, verb := range []string{"profiles", "ops", "rules"} {
		code, out, _ := runTfuzz(t, verb)
		if code != exitClean || out == "" {
			t.Errorf("%s: exit %d, output %q", verb, code, out)
		}
	}
	_, out, _ := runTfuzz(t, "profiles")
	for _, p := range []string{"pytorch/cpu", "numpy", "jax/gpu-x64"} {
		if !strings.Contains(out, p) {
			t.Errorf("profiles lacks %s", p)
		}
	}
}

// TestRulesCountUnspecified: with case files, tfuzz rules says how many "?"
// elements each open rule produced there, and per profile.
func TestRulesCountUnspecified(t *testing.T) {
	exp := writeFile(t, "exp.jsonl", `{"id": "exp-1", "op": "exp", "args": [{"dtype": "f32", "shape": [3], "data": ["0.0", "1.0", "2.0"]}], `+
		`"expect": {"numpy": {"value": {"dtype": "f32", "shape": [3], "data": ["1.0", "2.7182817459106445", "7.389056205749512"]}}}}`+"\n")
	code, out, stderr := runTfuzz(t, "rules", "--open", exp)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	block := out[strings.Index(out, "numpy.exp.simd\n"):]
	block = block[:strings.Index(block, "\n"+"numpy.")+1]
	if !strings.Contains(block, "over the files: 2 elements in 1 outcomes") {
		t.Errorf("numpy.exp.simd should count exp(1) and exp(2) of f32 (exp(0) is settled):\n%s", block)
	}
	if !regexpMatch(t, `(?m)^numpy +1 +2$`, out) {
		t.Errorf("the per-profile table lacks numpy's 2 elements:\n%s", out)
	}
	if strings.Contains(out, "pytorch.ordinary") {
		t.Errorf("--open listed a rule that is not open")
	}
}

func regexpMatch(t *testing.T, pattern, s string) bool {
	t.Helper()
	return regexp.MustCompile(pattern).MatchString(s)
}

// TestPanicsAreInternalErrors: a panic in a command, also one raised where
// a signal can interrupt the work (in a goroutine of its own), exits 70
// with one line, never a Go stack trace.
func TestPanicsAreInternalErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tests := []struct {
		name string
		f    func() int
	}{
		{"in the command", func() int { panic("boom") }},
		{"in interruptible work", func() int {
			n, _ := interruptible(ctx, func() int { panic("boom") })
			return n
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := internalErrors(&stderr, tt.f)
			if code != exitInternal || stderr.String() != "tfuzz: internal error: boom\n(a bug in tfuzz: please report it with the command line)\n" {
				t.Errorf("exit %d, stderr %q", code, stderr.String())
			}
		})
	}
}
