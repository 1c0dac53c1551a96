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
