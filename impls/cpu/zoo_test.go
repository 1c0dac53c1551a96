//go:build zoo

package cpu

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestZooHooks checks the zoo's registry against its hooks: every bug is
// planted in the file its Where names, and every hook names a bug of the
// registry (so that an edit of a kernel file that drops or renames a hook
// shows here, not as a bug TestZoo cannot find).
func TestZooHooks(t *testing.T) {
	hook := regexp.MustCompile(`zoo\("([^"]*)"\)`)
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	where := map[string][]string{} // bug -> files with a hook
	for _, f := range files {
		name := f.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "zoo") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hook.FindAllStringSubmatch(string(src), -1) {
			where[m[1]] = append(where[m[1]], name)
		}
	}
	known := map[string]bool{}
	for _, b := range ZooBugs() {
		known[b.Name] = true
		file, _, _ := strings.Cut(b.Where, " ")
		switch files := where[b.Name]; {
		case len(files) == 0:
			t.Errorf("%s: no hook zoo(%q) in the package", b.Name, b.Name)
		case !slices.Contains(files, file):
			t.Errorf("%s: planted in %v, but Where says %s", b.Name, files, b.Where)
		}
		if b.Plants == "" || len(b.Ops) == 0 {
			t.Errorf("%s: needs Plants and Ops", b.Name)
		}
	}
	for name, files := range where {
		if !known[name] {
			t.Errorf("%v: hook zoo(%q) names no bug of the registry", files, name)
		}
	}
	if len(known) < 12 {
		t.Errorf("the zoo has %d bugs; issue 5 asks for at least 12", len(known))
	}
}

// TestZooIsOffByDefault: with no bug active, every hook is inert (the rest
// of the package's tests run against the same engine as without the tag).
func TestZooIsOffByDefault(t *testing.T) {
	if name := ActiveZooBug(); name != "" {
		t.Skipf("%s=%s plants a bug", ZooEnv, name)
	}
	for _, b := range ZooBugs() {
		if zoo(b.Name) {
			t.Errorf("%s is active with %s unset", b.Name, ZooEnv)
		}
	}
	restore := SetZooBug("neg-zero")
	if !zoo("neg-zero") || zoo("bf16-tie") {
		t.Error("SetZooBug(neg-zero) did not make exactly neg-zero active")
	}
	restore()
	if ActiveZooBug() != "" {
		t.Error("restore did not deactivate the bug")
	}
}
