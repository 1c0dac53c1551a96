package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// fixedBackend answers every case with one outcome, or panics in Go.
type fixedBackend struct {
	out   tensor.Outcome
	panic bool
}

func (fixedBackend) Name() string                       { return "fixed" }
func (fixedBackend) Profiles() []string                 { return []string{"pytorch/cpu"} }
func (fixedBackend) Supports(string, *tensor.Case) bool { return true }
func (b fixedBackend) Eval(string, *tensor.Case) tensor.Outcome {
	if b.panic {
		panic("index out of range [3] with length 3")
	}
	return b.out
}

// TestReportOfEveryForm renders findings whose actual side is each outcome
// form, a Go panic of the backend, and a model-against-model finding, and
// checks that the Markdown names both sides and the JSON decodes.
func TestReportOfEveryForm(t *testing.T) {
	c, err := tensor.DecodeCase([]byte(`{"op": "div", "args": [{"dtype": "i64", "shape": [2], "data": [-7, 7]}, {"dtype": "i64", "shape": [2], "data": [2, 0]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	backends := []tensor.Backend{
		fixedBackend{out: tensor.ValueOutcome(tensor.New(tensor.I64, 2))},
		fixedBackend{out: tensor.ErrorOutcome(tensor.ZeroDivision, "RuntimeError: ZeroDivisionError | in a table")},
		fixedBackend{out: tensor.PanicOutcome("attempt to divide by zero")},
		fixedBackend{out: tensor.CrashOutcome("SIGFPE")},
		fixedBackend{out: tensor.UnsupportedOutcome("no such op")},
		fixedBackend{panic: true},
		props.ModelBackend{To: "candle/cpu-release"},
	}
	var findings []*Finding
	for i, b := range backends {
		f := props.Differential(b, "pytorch/cpu", c)
		if f == nil {
			t.Fatalf("backend %d agrees with the model", i)
		}
		fd := FromProps(f)
		fd.ID = "finding-" + string(rune('a'+i))
		findings = append(findings, fd)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, findings, Options{}); err != nil {
		t.Fatal(err)
	}
	text := md.String()
	for _, must := range []string{"# tfuzz: 7 findings", "a crash (SIGFPE)", "a panic (`attempt to divide by zero`)",
		"an error `ZeroDivision`", "panicked in its own Go code", "index out of range", "model, `candle/cpu-release`",
		"The model's outcome under `candle/cpu-release` follows from these rules", `\|`} {
		if !strings.Contains(text, must) {
			t.Errorf("the Markdown lacks %q", must)
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, findings, Options{}); err != nil {
		t.Fatal(err)
	}
	var r JSONReport
	if err := json.Unmarshal(js.Bytes(), &r); err != nil {
		t.Fatalf("the JSON report does not decode: %v", err)
	}
	for i, f := range r.Findings {
		for _, raw := range []json.RawMessage{f.Expected, f.Actual} {
			if _, err := tensor.DecodeOutcome(raw); err != nil {
				t.Errorf("finding %d: outcome %s: %v", i, raw, err)
			}
		}
		if _, err := tensor.DecodeCase(f.Case); err != nil {
			t.Errorf("finding %d: case %s: %v", i, f.Case, err)
		}
	}
	last := r.Findings[len(r.Findings)-1]
	if len(last.ActualRules) == 0 || len(last.Repro) != 2 {
		t.Errorf("model-against-model finding: rules %v, %d programs (want the rules of candle and programs for both sides)",
			last.ActualRules, len(last.Repro))
	}
}

// TestMarkdownShowsViewsAndSteps: a finding on a view says how the view is
// built (its storage, steps, strides), one on a program lists its steps,
// and their repro programs build the view with the framework's view ops and
// keep each step's result in a variable.
func TestMarkdownShowsViewsAndSteps(t *testing.T) {
	texts := []string{
		"neg(view(f32[2 3] [1, 2, 3, 4, 5, 6], permute=[1 0], slice=[0:3:2 0:2:1]))",
		"program(view(i32[4] [1, 9, 2, 9], slice=[0:4:2]), i32[2] [5, 6]): add(arg0, arg1); mul(step0, 2); sum(step1) dim=0",
	}
	var findings []*Finding
	for _, text := range texts {
		c, err := tensor.ParseCase(text)
		if err != nil {
			t.Fatal(err)
		}
		f := props.Differential(fixedBackend{out: tensor.UnsupportedOutcome("no")}, "pytorch/cpu", c)
		if f == nil {
			t.Fatalf("%s: no finding", text)
		}
		findings = append(findings, FromProps(f))
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, findings, Options{ReproProfiles: []string{"numpy", "candle/cpu-release", "burn/flex-release"}}); err != nil {
		t.Fatal(err)
	}
	text := md.String()
	for _, must := range []string{
		"storage f32 [2 3] `[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]`, permuted to dims [1 0], sliced `[0:3:2, 0:2]` (strides [2 3], offset 0)",
		"the program `add > mul > sum`",
		"`step0 = add(arg0, arg1)`", "`step2 = sum(step1) dim=0`",
		"a = a.permute((1, 0))", "a = a[0:3:2, 0:2]",
		"step1 = step0 * 2", "return step2",
	} {
		if !strings.Contains(text, must) {
			t.Errorf("the Markdown lacks %q:\n%s", must, text)
		}
	}
	progs := Programs(findings[1], []string{"numpy", "candle/cpu-release", "burn/flex-release"})
	want := map[string][]string{
		"numpy":              {"arg0 = arg0[0:4:2]", "step0 = arg0 + arg1", "step2 = np.sum(step1, axis=0)"},
		"candle/cpu-release": {"let arg0 = arg0.narrow", "compile_error!"},
		"burn/flex-release":  {"let arg0 = arg0.slice(s![0..4;2]);", "let step0 = arg0.clone().add(arg1.clone());", "value(step2.into_data())"},
	}
	for _, p := range progs {
		for _, must := range want[p.Profile] {
			if p.Profile == "candle/cpu-release" && must == "let arg0 = arg0.narrow" {
				continue // a step of 2 has no candle spelling
			}
			if !strings.Contains(p.Source, must) {
				t.Errorf("%s: the repro program lacks %q:\n%s", p.Profile, must, p.Snippet)
			}
		}
	}
}
