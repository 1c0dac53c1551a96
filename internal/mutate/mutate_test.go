package mutate

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSites lists the mutants of testdata/sample: every operator and
// integer constant of Scale once per change, in source order, and none in
// the zoo's guarded code, in a message's arguments, or in string
// concatenation.
func TestSites(t *testing.T) {
	ms, err := Sites("testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	want := []string{
		"sample.go:Scale:<→<=#1", "sample.go:Scale:<→>=#1", "sample.go:Scale:0→1#1", "sample.go:Scale:0→1#2",
		"sample.go:Scale:*→/#1", "sample.go:Scale:+→-#1", "sample.go:Scale:1→0#1",
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("sites (-want +got):\n%s", diff)
	}
}

// TestApply changes exactly the mutant's token and refuses a file that
// changed since the listing.
func TestApply(t *testing.T) {
	ms, err := Sites("testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(ms[0].File)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.ID != "sample.go:Scale:+→-#1" {
			continue
		}
		out, err := m.Apply(src)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "return a*k - 1, nil") || len(out) != len(src) {
			t.Errorf("the mutant's source does not hold the change:\n%s", out)
		}
		if _, err := m.Apply([]byte("package other\n")); err == nil {
			t.Error("a changed file was mutated")
		}
	}
}

// TestSampleIsSeededAndOrdered: the same seed draws the same mutants, in
// listing order.
func TestSampleIsSeededAndOrdered(t *testing.T) {
	all := make([]Mutant, 50)
	for i := range all {
		all[i] = Mutant{ID: string(rune('a' + i)), Offset: i}
	}
	a, b := Sample(all, 10, 3), Sample(all, 10, 3)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two samples of one seed differ:\n%s", diff)
	}
	for i := 1; i < len(a); i++ {
		if a[i].Offset <= a[i-1].Offset {
			t.Fatalf("the sample is not in listing order: %v", a)
		}
	}
	if len(Sample(all, 0, 3)) != len(all) {
		t.Error("a sample of 0 is not every mutant")
	}
}

// TestReasons reads the recorded reasons and refuses a line without one.
func TestReasons(t *testing.T) {
	dir := t.TempDir()
	good := dir + "/good.txt"
	os.WriteFile(good, []byte("# comment\n\nf.go:F:+→-#1 equivalent: because\n"), 0o644)
	r, err := Reasons(good)
	if err != nil || r["f.go:F:+→-#1"] != "equivalent: because" {
		t.Errorf("got %v, %v", r, err)
	}
	bad := dir + "/bad.txt"
	os.WriteFile(bad, []byte("f.go:F:+→-#1\n"), 0o644)
	if _, err := Reasons(bad); err == nil || !strings.Contains(err.Error(), "bad.txt:1") {
		t.Errorf("a line without a reason: %v", err)
	}
	if r, err := Reasons(dir + "/missing.txt"); err != nil || len(r) != 0 {
		t.Errorf("a missing file: %v, %v", r, err)
	}
}

// TestRecordedReasonsNameMutants: every reason recorded for the CPU engine
// names a mutant it has (a reason left behind by a change would explain
// nothing).
func TestRecordedReasonsNameMutants(t *testing.T) {
	reasons, err := Reasons("../../scripts/mutants-equivalent.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(reasons) == 0 {
		t.Fatal("no recorded reasons: the file is missing or empty")
	}
	ms, err := Sites("../../impls/cpu")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, m := range ms {
		have[m.ID] = true
	}
	for id := range reasons {
		if !have[id] {
			t.Errorf("scripts/mutants-equivalent.txt: %s is no mutant of impls/cpu (its code changed: check the reason again)", id)
		}
	}
}
