package reports

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

var update = flag.Bool("update", false, "rewrite the checked-in atlases (reports/atlas) and the example report (reports/examples)")

const corpusDir = "../corpus/seeds"

// atlases caches the atlases built in this test run, by pair.
var atlases = struct {
	sync.Mutex
	m map[AtlasPair]*atlasResult
}{m: map[AtlasPair]*atlasResult{}}

type atlasResult struct {
	once sync.Once
	a    *Atlas
	md   []byte
	err  error
}

// builtAtlas builds the checked-in atlas of a pair once per test run.
func builtAtlas(t *testing.T, p AtlasPair) (*Atlas, []byte) {
	t.Helper()
	atlases.Lock()
	r := atlases.m[p]
	if r == nil {
		r = &atlasResult{}
		atlases.m[p] = r
	}
	atlases.Unlock()
	r.once.Do(func() {
		corpus, err := ReadCorpus(corpusDir)
		if err != nil {
			r.err = err
			return
		}
		r.a, r.err = BuildAtlas(context.Background(), AtlasConfig{From: p.From, To: p.To, Seed: DefaultAtlasSeed,
			Cases: DefaultAtlasCases, Corpus: corpus, CorpusName: "corpus/seeds"})
		if r.err != nil {
			return
		}
		var b bytes.Buffer
		r.err = WriteAtlasMarkdown(&b, r.a)
		r.md = b.Bytes()
	})
	if r.err != nil {
		t.Fatalf("%s -> %s: %v", p.From, p.To, r.err)
	}
	return r.a, r.md
}

// TestCheckedInAtlases regenerates every atlas of reports/atlas and fails
// when a checked-in one differs: the model, the generators or the
// rendering changed, and the atlas no longer says what tfuzz says.
func TestCheckedInAtlases(t *testing.T) {
	for _, p := range CheckedIn {
		t.Run(p.FileName(), func(t *testing.T) {
			t.Parallel()
			_, md := builtAtlas(t, p)
			path := filepath.Join("atlas", p.FileName())
			if *update {
				if err := os.WriteFile(path, md, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			old, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (generate it: go test ./reports -run TestCheckedInAtlases -update)", err)
			}
			if !bytes.Equal(old, md) {
				t.Errorf("reports/%s is stale: the model now says something else. Regenerate it with\n"+
					"  go test ./reports -run TestCheckedInAtlases -update\nand review the diff.\n%s", path, firstDiff(old, md))
			}
		})
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			cut := func(s []byte) string {
				if len(s) > 300 {
					return string(s[:300]) + "..."
				}
				return string(s)
			}
			return "first difference at line " + strconv.Itoa(i+1) + ":\n  checked in: " + cut(x) + "\n  now:        " + cut(y)
		}
	}
	return ""
}

// TestAtlasCoversTheSeeds: the atlases of the candle pairs contain every
// divergence the seed documents state between the two profiles, each in
// the row of its class, and classes the seeds do not list.
func TestAtlasCoversTheSeeds(t *testing.T) {
	for _, p := range []AtlasPair{{"pytorch/cpu", "candle/cpu-release"}, {"candle/cpu-release", "candle/metal"}} {
		a, _ := builtAtlas(t, p)
		if len(a.SeedDivergences) == 0 {
			t.Errorf("%s -> %s: the seeds state no divergence? (corpus %s)", p.From, p.To, corpusDir)
		}
		for _, s := range a.SeedDivergences {
			if s.Row == 0 {
				t.Errorf("%s -> %s: seed case %s (%s: %s vs %s) is in no row", p.From, p.To, s.ID, s.Key, s.From, s.To)
				continue
			}
			if got := a.Classes[s.Row-1].Key; got != s.Key {
				t.Errorf("%s: row %d is %s, want %s", s.ID, s.Row, got, s.Key)
			}
		}
		if a.NewClasses() == 0 {
			t.Errorf("%s -> %s: no class beyond the seeds", p.From, p.To)
		}
		t.Logf("%s -> %s: %d classes (%d not in the seeds); %d seed divergences covered", p.From, p.To,
			len(a.Classes), a.NewClasses(), len(a.SeedDivergences))
	}
}

// TestAtlasExamplesShowTheirClass: every row's example, evaluated again,
// diverges in the way its class says, and is as small as shrinking made it.
func TestAtlasExamplesShowTheirClass(t *testing.T) {
	for _, p := range CheckedIn {
		a, _ := builtAtlas(t, p)
		b := props.ModelBackend{To: p.To}
		for _, cl := range a.Classes {
			d := props.Differential(b, p.From, cl.Example)
			if d == nil {
				t.Errorf("%s -> %s row %d: the example %s does not diverge", p.From, p.To, cl.Row, cl.Example.Describe())
				continue
			}
			if k := classKey(cl.Example, d.Want, d.Got); k != cl.Key {
				t.Errorf("%s -> %s row %d: the example is of class %s, the row says %s", p.From, p.To, cl.Row, k, cl.Key)
			}
		}
	}
}

func TestClassKeys(t *testing.T) {
	mk := func(line string) *tensor.Case {
		c, err := tensor.DecodeCase([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name, c, inputs string
	}{
		{"two kinds sort", `{"op": "add", "args": [{"dtype": "i8", "shape": [], "data": [1]}, {"dtype": "f32", "shape": [], "data": ["1.0"]}]}`, "float+signed"},
		{"scalar", `{"op": "mul", "args": [{"dtype": "u8", "shape": [], "data": [1]}, {"scalar": "0.5", "kind": "float"}]}`, "unsigned, float scalar"},
		{"cast target", `{"op": "cast", "args": [{"dtype": "f32", "shape": [], "data": ["1.0"]}], "attrs": {"to": "u8"}}`, "float -> unsigned"},
		{"index", `{"op": "index_select", "args": [{"dtype": "f32", "shape": [1], "data": ["1.0"]}, {"dtype": "u8", "shape": [1], "data": [0]}], "attrs": {"dim": 0}}`, "float, index unsigned"},
		{"literal", `{"op": "from_literal", "args": [], "attrs": {"literal": "[1, 2.5]"}}`, "literal float"},
		{"zeros default", `{"op": "zeros", "args": [], "attrs": {"shape": [2]}}`, "default dtype"},
	}
	for _, tt := range tests {
		if got := inputKinds(mk(tt.c)); got != tt.inputs {
			t.Errorf("%s: inputKinds = %q, want %q", tt.name, got, tt.inputs)
		}
	}
	v := tensor.ValueOutcome(tensor.New(tensor.I64))
	u := tensor.UnsupportedOutcome("no")
	u.Rules = []string{"candle.no-such-op"}
	k := classKey(mk(`{"op": "rem", "args": [{"dtype": "i64", "shape": [], "data": [1]}, {"dtype": "i64", "shape": [], "data": [1]}]}`), v, u)
	if k.Reason != "candle.no-such-op" || k.Inputs != "" || k.Divergence != "form value/unsupported" || k.Section() != SectionUnsupported {
		t.Errorf("unsupported class: %+v", k)
	}
}
