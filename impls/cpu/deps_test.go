package cpu

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEngineDoesNotImportModel enforces DESIGN.md's rule from this side: the
// engine is an independent implementation of the model's semantics, and an
// engine that called the model could not disagree with it.
func TestEngineDoesNotImportModel(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/tfuzz/tfuzz/impls/cpu").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/tfuzz/tfuzz/model" || strings.HasPrefix(pkg, "github.com/tfuzz/tfuzz/model/") {
			t.Errorf("impls/cpu depends on %s", pkg)
		}
	}
}
