package main

import (
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// noAnswerBackend answers nothing a check could match: it declines sub,
// panics on mul and reports a harness failure on everything else, each
// time with the model's own outcome form at hand (unsupported), so that an
// accounting that matched on form alone would count all three as matches.
type noAnswerBackend struct{}

func (noAnswerBackend) Name() string       { return "test-no-answer" }
func (noAnswerBackend) Profiles() []string { return []string{"numpy"} }
func (noAnswerBackend) Supports(_ string, c *tensor.Case) bool {
	return c.Op != "sub"
}
func (noAnswerBackend) Eval(_ string, c *tensor.Case) tensor.Outcome {
	if c.Op == "mul" {
		panic("a bug in the backend")
	}
	return tensor.HarnessFailureOutcome("the adapter did not start")
}

// TestCheckCountsNoAnswerApart: with --backend, a decline, a Go panic in
// the backend and a harness failure each have their own count and none is
// a match, even where the expected outcome is `unsupported`.
func TestCheckCountsNoAnswerApart(t *testing.T) {
	registerBackend("test-no-answer", func() tensor.Backend { return noAnswerBackend{} })
	t.Cleanup(func() { delete(backendFactories, "test-no-answer") })
	want := `"expect": {"numpy": {"unsupported": {"message": "no such op"}}}}`
	tensorArgs := `"args": [{"dtype": "i32", "shape": [1], "data": [1]}, {"dtype": "i32", "shape": [1], "data": [2]}], `
	file := writeFile(t, "cases.jsonl", strings.Join([]string{
		`{"id": "s", "op": "sub", ` + tensorArgs + want,
		`{"id": "m", "op": "mul", ` + tensorArgs + want,
		`{"id": "a", "op": "add", ` + tensorArgs + want,
	}, "\n")+"\n")
	code, out, stderr := runTfuzz(t, "eval", "--check", "--summary-only", "--backend", "test-no-answer", file)
	if code == exitClean {
		t.Errorf("exit %d, want a failure: nothing was checked\n%s%s", code, out, stderr)
	}
	for _, s := range []string{"1 declined, 1 backend panics, 1 harness failures", "0/0/0/0/0"} {
		if !strings.Contains(out, s) {
			t.Errorf("the summary does not say %q:\n%s", s, out)
		}
	}
	if fields := strings.Fields(summaryRow(out, "numpy")); len(fields) < 3 || fields[2] != "0" {
		t.Errorf("matched column of %q is not 0", summaryRow(out, "numpy"))
	}
}

// summaryRow returns the summary table's row of profile.
func summaryRow(out, profile string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, profile+" ") {
			return line
		}
	}
	return ""
}
