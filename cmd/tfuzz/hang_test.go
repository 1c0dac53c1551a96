package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// hangBackend is the model on numpy, except that neg never returns (an
// endless loop in a kernel; a blocked channel, so that it spends no CPU).
type hangBackend struct{}

func (hangBackend) Name() string                           { return "test-hang" }
func (hangBackend) Profiles() []string                     { return []string{"numpy"} }
func (hangBackend) Supports(_ string, c *tensor.Case) bool { return c.Op == "neg" || c.Op == "abs" }
func (hangBackend) Eval(p string, c *tensor.Case) tensor.Outcome {
	if c.Op == "neg" {
		<-make(chan struct{})
	}
	return model.Eval(p, c)
}

// TestHangEndsTheRunAndReplays: a backend call that never returns is a
// finding (exit 1 within seconds, not a campaign that never ends), and
// replaying it reports that it still hangs (exit 1), without hanging.
func TestHangEndsTheRunAndReplays(t *testing.T) {
	registerBackend("test-hang", func() tensor.Backend { return hangBackend{} })
	t.Cleanup(func() { delete(backendFactories, "test-hang") })
	out := filepath.Join(t.TempDir(), "out")
	start := time.Now()
	code, stdout, stderr := runTfuzz(t, "run", "--backend", "test-hang", "--op", "neg", "--op", "abs", "--duration", "1m",
		"--hang-after", "300ms", "--out", out)
	if code != exitDiverged || time.Since(start) > 30*time.Second {
		t.Fatalf("exit %d after %s, want 1 within seconds\n%s%s", code, time.Since(start).Round(time.Millisecond), stdout, stderr)
	}
	if !strings.Contains(stderr, "a hang") || !strings.Contains(stdout, "backend hangs") {
		t.Errorf("the run does not say it hung:\n%s%s", stdout, stderr)
	}
	code, stdout, stderr = runTfuzz(t, "repro", "--hang-after", "300ms", out)
	if code != exitDiverged || !strings.Contains(stdout, "still hangs") {
		t.Errorf("repro: exit %d, want 1 and \"still hangs\"\n%s%s", code, stdout, stderr)
	}
}
