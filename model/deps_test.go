package model

import (
	"os/exec"
	"strings"
	"testing"
)

// TestModelAndImplsStayApart enforces DESIGN.md's dependency rule: the model
// and the implementations import tensor and never each other. An
// implementation that called the model could not disagree with it, and the
// differential check would prove nothing.
func TestModelAndImplsStayApart(t *testing.T) {
	const mod = "github.com/tfuzz/tfuzz"
	check := func(pattern, forbidden string) {
		t.Helper()
		out, err := exec.Command("go", "list", "-e", "-deps", pattern).CombinedOutput()
		if err != nil {
			if strings.Contains(string(out), "matched no packages") {
				return // nothing under that pattern yet
			}
			t.Fatalf("go list -deps %s: %v\n%s", pattern, err, out)
		}
		for _, pkg := range strings.Fields(string(out)) {
			if pkg == forbidden || strings.HasPrefix(pkg, forbidden+"/") {
				t.Errorf("%s depends on %s", pattern, pkg)
			}
		}
	}
	check(mod+"/model/...", mod+"/impls")
	check(mod+"/impls/...", mod+"/model")
}
