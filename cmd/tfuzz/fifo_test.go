//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFoldersWithAFIFO: a FIFO named like a finding or a case file in a
// folder someone sent is refused at once, not read (reading one blocks
// until something writes to it).
func TestFoldersWithAFIFO(t *testing.T) {
	withFIFO := func(t *testing.T, sub string) string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, sub, "x.jsonl"), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	campaignDir := func(t *testing.T) string {
		dir := withFIFO(t, "findings")
		state := `{"tfuzz": "0.1.0", "seed": 42, "shard": 0, "shards": 1, "next": 10}`
		if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(state), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	stateFIFO := func(t *testing.T) string {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "state.json"), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	tests := []struct {
		name, file string
		args       func(t *testing.T) []string
	}{
		{"report", "x.jsonl", func(t *testing.T) []string { return []string{"report", withFIFO(t, "findings")} }},
		{"repro", "x.jsonl", func(t *testing.T) []string { return []string{"repro", withFIFO(t, "findings")} }},
		{"eval", "x.jsonl", func(t *testing.T) []string { return []string{"eval", withFIFO(t, "cases")} }},
		{"merge", "x.jsonl", func(t *testing.T) []string { return []string{"merge", t.TempDir(), campaignDir(t)} }},
		{"run --resume", "x.jsonl", func(t *testing.T) []string {
			return []string{"run", "--resume", "--max-cases", "1", "--duration", "0", "--backend", "cpu", "--out", campaignDir(t)}
		}},
		{"run --resume of a state.json FIFO", "state.json", func(t *testing.T) []string {
			return []string{"run", "--resume", "--max-cases", "1", "--duration", "0", "--backend", "cpu", "--out", stateFIFO(t)}
		}},
		{"merge of a state.json FIFO", "state.json", func(t *testing.T) []string { return []string{"merge", t.TempDir(), stateFIFO(t)} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTfuzz(t, tt.args(t)...)
			if code != exitUsage || !strings.Contains(stderr, tt.file+": not a regular file (a FIFO)") {
				t.Errorf("exit %d, want 2 naming the FIFO\n%s%s", code, stdout, stderr)
			}
		})
	}
}
