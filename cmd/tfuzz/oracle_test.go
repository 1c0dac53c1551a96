package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The recorded outcomes of real frameworks (corpus/oracle), seen from this package's folder.
const (
	oracleDir      = "../../corpus/oracle"
	exceptionsFile = "../../corpus/oracle-exceptions.txt"
)

// TestModelMatchesOracle is the first layer of checking: the model must
// reproduce every outcome recorded from real PyTorch, NumPy and JAX, except
// the few listed, with reasons, in corpus/oracle-exceptions.txt.
func TestModelMatchesOracle(t *testing.T) {
	if files, _ := filepath.Glob(filepath.Join(oracleDir, "*.jsonl")); len(files) == 0 {
		t.Fatalf("the recorded outcomes are missing: no %s/*.jsonl", oracleDir)
	}
	code, out, stderr := runTfuzz(t, "eval", "--check", "--summary-only", "--max-diffs", "5",
		"--exceptions", exceptionsFile, oracleDir)
	t.Logf("per-profile agreement:%s", out[strings.LastIndex(out, "\nprofile"):])
	if code != exitClean {
		t.Fatalf("exit %d: the model disagrees with the oracle\n%s%s", code, out, stderr)
	}
	if strings.Contains(out, "now match: remove them") {
		t.Errorf("stale entries in %s:\n%s", exceptionsFile, out)
	}
}

// TestModelMatchesSeeds: every worked example of the seed documents, as
// encoded in corpus/seeds, is reproduced by the model under every profile it
// names.
func TestModelMatchesSeeds(t *testing.T) {
	if files, _ := filepath.Glob("../../corpus/seeds/*.jsonl"); len(files) == 0 {
		t.Fatal("the seed corpus is missing: no ../../corpus/seeds/*.jsonl")
	}
	code, out, stderr := runTfuzz(t, "eval", "--check", "--summary-only", "../../corpus/seeds")
	t.Logf("per-profile agreement:%s", out[strings.LastIndex(out, "\nprofile"):])
	if code != exitClean {
		t.Fatalf("exit %d: the model disagrees with the seed corpus\n%s%s", code, out, stderr)
	}
}

// TestCorpusUnspecifiedIsAttributed: every "?" element the model gives over
// the corpus is owed to an open rule (tfuzz rules --open counts them per
// rule; an element no open rule claims is the model hiding a value).
func TestCorpusUnspecifiedIsAttributed(t *testing.T) {
	files, err := caseFiles([]string{"../../corpus"})
	if err != nil || len(files) == 0 {
		t.Fatalf("the corpus is missing: %v", err)
	}
	tally, err := countUnspecified(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if n := tally.byRule[unattributed]; n > 0 {
		t.Errorf("%d \"?\" elements in %d outcomes name no open rule", n, tally.outcomes[unattributed])
	}
}
