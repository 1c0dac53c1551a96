package campaign

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runShards runs shards 0..n-1 of one campaign of the planted bug, each into
// its own folder, and returns the folders and the cases each finished.
func runShards(t *testing.T, n int, maxCases int64) (dirs []string, cases []int64) {
	t.Helper()
	root := t.TempDir()
	for k := 0; k < n; k++ {
		cfg := testConfig(filepath.Join(root, "shard-"+string(rune('0'+k))))
		cfg.Shard, cfg.Shards, cfg.MaxCases = k, n, maxCases
		st, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		dirs, cases = append(dirs, cfg.OutDir), append(cases, st.Next)
	}
	return dirs, cases
}

// TestMergeFourShards merges the outputs of 4 shards: every distinct
// signature once, the smallest case of each, and the cases of all 4.
func TestMergeFourShards(t *testing.T) {
	dirs, cases := runShards(t, 4, 2500)
	want := map[string]int{} // signature -> smallest stored case
	files := 0
	for _, d := range dirs {
		fs, err := ReadFindings(d)
		if err != nil {
			t.Fatal(err)
		}
		files += len(fs)
		for _, f := range fs {
			if n, ok := want[f.Info.Signature]; !ok || f.Info.ShrunkElements < n {
				want[f.Info.Signature] = f.Info.ShrunkElements
			}
		}
	}
	if files <= len(want) {
		t.Fatalf("want shards that found the same signatures (%d files, %d signatures): no deduplication to test", files, len(want))
	}
	out := filepath.Join(t.TempDir(), "merged")
	res, err := Merge(out, dirs)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, c := range cases {
		total += c
	}
	if res.Cases != total || total != 4*2500 {
		t.Errorf("merged cases %d, want the sum of the 4 shards' %v = %d", res.Cases, cases, total)
	}
	if res.InputFiles != files || len(res.Findings) != len(want) {
		t.Errorf("%d input files and %d merged findings, want %d and %d", res.InputFiles, len(res.Findings), files, len(want))
	}
	merged, err := ReadFindings(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range merged {
		got[f.Info.Signature]++
		if n := want[f.Info.Signature]; f.Info.ShrunkElements != n {
			t.Errorf("%s: kept a case of %d elements, the smallest has %d", f.Path, f.Info.ShrunkElements, n)
		}
	}
	for sig := range want {
		if got[sig] != 1 {
			t.Errorf("signature %q: %d merged files, want 1", sig, got[sig])
		}
	}
	if len(got) != len(want) || len(res.Missing) != 0 {
		t.Errorf("merged signatures %v, want %v; missing %v", got, want, res.Missing)
	}
	t.Logf("4 shards, %d cases, %d finding files -> %d signatures", res.Cases, files, len(merged))

	// Merging again, with a shard given twice and under another name, adds
	// nothing, changes nothing and counts that shard once.
	before := map[string][]byte{}
	for _, f := range merged {
		before[f.Path], _ = os.ReadFile(f.Path)
	}
	again, err := Merge(out, append(dirs, dirs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if again.Cases != total || countNew(again) != 0 || len(again.Warnings) == 0 {
		t.Errorf("second merge: %d cases, %d new, warnings %v", again.Cases, countNew(again), again.Warnings)
	}
	for path, data := range before {
		if now, err := os.ReadFile(path); err != nil || string(now) != string(data) {
			t.Errorf("%s changed by a second merge", path)
		}
	}

	// Three of the four: the missing shard is named.
	part, err := Merge(filepath.Join(t.TempDir(), "part"), dirs[:3])
	if err != nil {
		t.Fatal(err)
	}
	if len(part.Missing) != 1 || !strings.Contains(part.Missing[0], "3/4") {
		t.Errorf("merge of shards 0-2 of 4: missing %v, want shard 3/4 named", part.Missing)
	}
}

func countNew(r *MergeResult) int {
	n := 0
	for _, f := range r.Findings {
		if f.New {
			n++
		}
	}
	return n
}

// TestMergeBadInput: what is not a campaign output folder, or holds a
// corrupt checkpoint, is an *InputError naming the file, line and field.
func TestMergeBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, stateFile), []byte(text), 0o644)
		return d
	}
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	rows := []struct {
		name, dir, want string
	}{
		{"missing", filepath.Join(dir, "nope"), "no such file"},
		{"not a campaign", empty, "not a campaign output folder"},
		{"shard out of range", write("range", "{\n  \"seed\": 1,\n  \"shard\": 4,\n  \"shards\": 4,\n  \"next\": 10\n}\n"), "state.json:3: shard: want 0 <= shard < 4"},
		{"wrong type", write("type", "{\n  \"seed\": 1,\n  \"next\": \"ten\"\n}\n"), "state.json:3: next"},
		{"syntax", write("syntax", "{\n  \"seed\": 1,\n"), "state.json:3:"},
	}
	for _, r := range rows {
		_, err := Merge(filepath.Join(dir, "out-"+r.name), []string{r.dir})
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), r.want) {
			t.Errorf("%s: got %v, want an input error containing %q", r.name, err, r.want)
		}
	}
}
