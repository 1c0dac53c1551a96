package reports_test

import (
	"bytes"
	"context"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/reports/internal/plantedbug"
)

// exampleDir is the example report, from this package's folder and from the
// repository root.
const (
	exampleDir     = "examples/planted-numpy"
	exampleDisplay = "reports/examples/planted-numpy"
)

// TestExampleReport runs the example campaign against the planted-bug
// backend, renders its report, and fails when the checked-in example in
// reports/examples differs (go test ./reports -update rewrites it).
func TestExampleReport(t *testing.T) {
	if flag.Lookup("update").Value.String() == "true" {
		if err := plantedbug.Generate(context.Background(), exampleDir, exampleDisplay); err != nil {
			t.Fatal(err)
		}
		return
	}
	tmp := t.TempDir()
	if err := plantedbug.Generate(context.Background(), tmp, exampleDisplay); err != nil {
		t.Fatal(err)
	}
	want, got := readTree(t, exampleDir), readTree(t, tmp)
	for name, data := range got {
		old, ok := want[name]
		switch {
		case !ok:
			t.Errorf("%s/%s is missing: regenerate the example with go test ./reports -run TestExampleReport -update", exampleDisplay, name)
		case !bytes.Equal(old, data):
			t.Errorf("%s/%s is stale: regenerate the example with go test ./reports -run TestExampleReport -update", exampleDisplay, name)
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			t.Errorf("%s/%s is no longer generated: regenerate the example with -update", exampleDisplay, name)
		}
	}
	md := string(got["report.md"])
	for _, must := range []string{"What differs", "Minimal inputs", "Outcomes side by side", "Why.", "Reproduce.",
		"tfuzz 0.1.0", "20260101", "repro_numpy.py"} {
		if !strings.Contains(md, must) {
			t.Errorf("the example report lacks %q", must)
		}
	}
	// every finding still shows its planted bug
	files, _ := filepath.Glob(filepath.Join(tmp, "campaign", "findings", "*.jsonl"))
	still, err := plantedbug.Repro(files...)
	if err != nil {
		t.Fatal(err)
	}
	if len(still) != len(files) || len(files) < 3 {
		t.Errorf("%d of %d example findings reproduce; want all, and at least one per planted bug", len(still), len(files))
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
