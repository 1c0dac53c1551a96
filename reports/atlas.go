package reports

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// AtlasConfig describes one portability atlas: the model under profile From
// against the model under profile To.
type AtlasConfig struct {
	From, To string
	Seed     uint64
	// Cases is how many generated cases the campaign draws; with Duration
	// set it draws for that long instead (then the atlas is not a function
	// of its configuration). Default DefaultAtlasCases.
	Cases    int64
	Duration time.Duration
	// Workers default to 1: with one worker, which case first shows each
	// divergence, and so every example, depends on the seed alone.
	Workers int
	Gen     props.CaseOptions // default: the whole catalog, at most 8 elements per tensor
	// Corpus holds cases that are always part of the atlas (the seed
	// documents' examples): their divergences under the model become
	// classes too, and those whose expectations differ between the two
	// profiles are listed with the row that covers them.
	Corpus     []*tensor.Case
	CorpusName string // where the corpus came from, for the heading
	// WorkDir is the campaign's output folder; default a temporary folder,
	// removed afterwards.
	WorkDir       string
	Progress      io.Writer
	MaxShrinkRuns int // model evaluations spent shrinking one class; default 1000
}

// DefaultAtlasCases is the number of generated cases of an atlas.
const DefaultAtlasCases = 3000

// DefaultAtlasSeed is the seed of an atlas.
const DefaultAtlasSeed = 1

// Atlas is the result: classes of divergences with a minimal example each.
type Atlas struct {
	From, To        string
	Seed            uint64
	Cases           int64 // generated cases drawn
	Checked         int64 // of which the model states both sides
	Diverged        int64 // of which the sides differ
	Duration        time.Duration
	CorpusName      string
	CorpusCases     int
	Classes         []*Class
	SeedDivergences []SeedDivergence
	Version         string
}

// Class is one row of an atlas.
type Class struct {
	Row      int
	Key      ClassKey
	Example  *tensor.Case   // shrunk
	From, To tensor.Outcome // the model's outcomes on the example
	Detail   string         // what differs on the example
	Seeds    []string       // ids of corpus cases in this class (by the model)
	Kinds    []string       // the input kinds of its cases, sorted
	Found    int            // distinct campaign signatures and corpus cases in it
}

// SeedDivergence is a corpus case whose expectations for the two profiles differ.
type SeedDivergence struct {
	ID, Source string
	Case       *tensor.Case
	From, To   tensor.Outcome // as the seed states them
	Key        ClassKey       // the class of the stated divergence
	Row        int            // the row of that class, 0 when the atlas has none
}

// candidate is a case that shows a class, with where it came from.
type candidate struct {
	c      *tensor.Case
	seedID string
}

// BuildAtlas runs the model against itself for the two profiles and groups
// the divergences into classes.
func BuildAtlas(ctx context.Context, cfg AtlasConfig) (*Atlas, error) {
	for _, p := range []string{cfg.From, cfg.To} {
		if !tensor.KnownProfile(p) {
			return nil, fmt.Errorf("unknown profile %q", p)
		}
	}
	if cfg.Cases <= 0 && cfg.Duration <= 0 {
		cfg.Cases = DefaultAtlasCases
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Gen.MaxElems == 0 {
		cfg.Gen.MaxElems = 8
	}
	if cfg.MaxShrinkRuns <= 0 {
		cfg.MaxShrinkRuns = 1000
	}
	work := cfg.WorkDir
	if work == "" {
		tmp, err := os.MkdirTemp("", "tfuzz-atlas-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	}
	backend := props.ModelBackend{To: cfg.To, From: []string{cfg.From}}
	ccfg := campaign.Config{
		Targets: []campaign.Target{{Backend: backend, Profile: cfg.From}}, Gen: cfg.Gen, Seed: cfg.Seed,
		Duration: cfg.Duration, MaxCases: cfg.Cases, Workers: cfg.Workers, OutDir: filepath.Join(work, "campaign"),
		Progress: cfg.Progress, MaxShrinkRuns: cfg.MaxShrinkRuns}
	if cfg.Duration <= 0 {
		// No checkpoint during the run: campaign.Run measures --max-cases
		// from the last checkpoint, so a checkpoint taken mid-run (every 5s
		// by default, reached on a loaded machine) would let it draw more
		// cases than asked and make the atlas depend on timing.
		ccfg.ProgressEvery = 365 * 24 * time.Hour
	}
	st, err := campaign.Run(ctx, ccfg)
	if err != nil {
		return nil, err
	}
	found, err := campaign.ReadFindings(filepath.Join(work, "campaign"))
	if err != nil {
		return nil, err
	}
	if cfg.Duration <= 0 && st.Cases != cfg.Cases {
		return nil, fmt.Errorf("the campaign drew %d cases, not %d", st.Cases, cfg.Cases)
	}
	a := &Atlas{From: cfg.From, To: cfg.To, Seed: cfg.Seed, Cases: st.Cases, Checked: st.Checked,
		Diverged: st.Divergent, Duration: cfg.Duration, CorpusName: cfg.CorpusName, CorpusCases: len(cfg.Corpus),
		Version: Version}
	groups := map[ClassKey][]candidate{}
	for _, f := range found {
		if f.Info.BackendPanicked {
			continue
		}
		c := bareCase(f.Case)
		if d := props.Differential(backend, cfg.From, c); d != nil {
			k := classKey(c, d.Want, d.Got)
			groups[k] = append(groups[k], candidate{c: c})
		}
	}
	for _, sc := range cfg.Corpus {
		c := bareCase(sc)
		if !props.Supports(backend, cfg.From, c) {
			continue
		}
		if d := props.Differential(backend, cfg.From, c); d != nil {
			k := classKey(c, d.Want, d.Got)
			groups[k] = append(groups[k], candidate{c: c, seedID: sc.ID})
		}
	}
	for k, cands := range groups {
		a.Classes = append(a.Classes, buildClass(k, cands, backend, cfg))
	}
	sort.Slice(a.Classes, func(i, j int) bool { return classLess(a.Classes[i].Key, a.Classes[j].Key) })
	rows := map[ClassKey]int{}
	for i, cl := range a.Classes {
		cl.Row = i + 1
		rows[cl.Key] = cl.Row
	}
	for _, sc := range cfg.Corpus {
		want, ok1 := sc.Expect.Get(cfg.From)
		got, ok2 := sc.Expect.Get(cfg.To)
		if !ok1 || !ok2 || tensor.Compare(want, got, sc.Tolerance()).Match() {
			continue
		}
		k := classKey(sc, want, got)
		if m := classKey(sc, model.Eval(cfg.From, sc), model.Eval(cfg.To, sc)); k.Reason == "" && m.Reason != "" &&
			m.Op == k.Op && m.Divergence == k.Divergence {
			k = m // a seed names no rules: the model's say why that side is unsupported
		}
		a.SeedDivergences = append(a.SeedDivergences, SeedDivergence{ID: sc.ID, Source: sc.Source,
			Case: bareCase(sc), From: want, To: got, Key: k, Row: rows[k]})
	}
	return a, nil
}

// buildClass picks the simplest case of a class and shrinks it further,
// keeping the class.
func buildClass(k ClassKey, cands []candidate, backend props.ModelBackend, cfg AtlasConfig) *Class {
	cl := &Class{Key: k, Found: len(cands)}
	best := cands[0].c
	kinds := map[string]bool{}
	for _, cd := range cands {
		if cd.seedID != "" {
			cl.Seeds = append(cl.Seeds, cd.seedID)
		}
		if k := inputKinds(cd.c); !kinds[k] {
			kinds[k] = true
			cl.Kinds = append(cl.Kinds, k)
		}
		if props.Size(cd.c) < props.Size(best) {
			best = cd.c
		}
	}
	sort.Strings(cl.Kinds)
	runs := 0
	same := func(c *tensor.Case) bool {
		runs++
		if runs > cfg.MaxShrinkRuns {
			return false
		}
		d := props.Differential(backend, cfg.From, c)
		return d != nil && classKey(c, d.Want, d.Got) == k
	}
	// An example with no elements shows a dtype as well as one with an
	// element, but a reader learns more from the element: fill empty
	// tensors where the class stays, and shrink without emptying them.
	if hasEmpty(best) {
		for _, shape := range [][]int{{}, {1}} {
			if f := fillEmpty(best, shape); same(f) {
				best = f
				break
			}
		}
	}
	keepElements := !hasEmpty(best)
	shrunk := props.Shrink(best, func(c *tensor.Case) bool {
		return !(keepElements && hasEmpty(c)) && same(c)
	})
	cl.Example = bareCase(shrunk)
	cl.From = model.Eval(cfg.From, cl.Example)
	cl.To = model.Eval(cfg.To, cl.Example)
	cl.Detail = tensor.Compare(cl.From, cl.To, cl.Example.Tolerance()).Detail
	return cl
}

func hasEmpty(c *tensor.Case) bool {
	for _, a := range c.Args {
		if a.Tensor != nil && a.Tensor.Len() == 0 {
			return true
		}
	}
	return false
}

// fillEmpty replaces every empty tensor argument by zeros of the given shape.
func fillEmpty(c *tensor.Case, shape []int) *tensor.Case {
	d := bareCase(c)
	d.Args = append([]tensor.Arg{}, c.Args...)
	for i, a := range d.Args {
		if a.Tensor != nil && a.Tensor.Len() == 0 {
			d.Args[i] = tensor.Arg{Tensor: tensor.New(a.Tensor.DType, shape...)}
		}
	}
	return d
}

var opOrder = func() map[string]int {
	m := map[string]int{}
	for i, op := range tensor.Ops {
		m[op.Name] = i
	}
	return m
}()

// orderOf is an op's place in the catalog; a program's comes after them.
func orderOf(op string) int {
	if i, ok := opOrder[op]; ok {
		return i
	}
	return len(opOrder)
}

func classLess(a, b ClassKey) bool {
	if sa, sb := a.Section(), b.Section(); sa != sb {
		return sa < sb
	}
	if oa, ob := orderOf(a.Op), orderOf(b.Op); oa != ob {
		return oa < ob
	}
	if a.Op != b.Op { // programs, after every op
		return a.Op < b.Op
	}
	if a.Inputs != b.Inputs {
		return a.Inputs < b.Inputs
	}
	if a.Divergence != b.Divergence {
		return a.Divergence < b.Divergence
	}
	return a.Reason < b.Reason
}

// ReadCorpus reads every .jsonl file under dir, sorted by name.
func ReadCorpus(dir string) ([]*tensor.Case, error) {
	files, err := campaign.JSONLFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no .jsonl files", dir)
	}
	var out []*tensor.Case
	for _, f := range files {
		cs, err := tensor.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// AtlasPair names the two profiles of an atlas.
type AtlasPair struct{ From, To string }

// CheckedIn are the atlases kept in reports/atlas/, each generated with
// DefaultAtlasSeed, DefaultAtlasCases and the corpus/seeds cases.
var CheckedIn = []AtlasPair{
	{"pytorch/cpu", "candle/cpu-release"},
	{"candle/cpu-release", "candle/metal"},
	{"jax/cpu-x32", "jax/cpu-x64"},
	{"pytorch/cpu", "numpy"},
	{"pytorch/cpu", "burn/flex-release"},
	{"jax/cpu-x64", "tenferro/traced"},
}

// FileName is the atlas's file name in reports/atlas/:
// "pytorch-cpu__candle-cpu-release.md".
func (p AtlasPair) FileName() string {
	r := strings.NewReplacer("/", "-")
	return r.Replace(p.From) + "__" + r.Replace(p.To) + ".md"
}
