package reports

import (
	"fmt"
	"strings"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// Version is the tfuzz version the reports name (the campaign's).
const Version = campaign.Version

// Program is a standalone repro program: it builds a case's inputs in one
// framework, runs the case's operation the way the profile says, and prints
// the outcome as one line of case-format JSON. A crash prints nothing: the
// process dies, and whoever runs it records the signal.
type Program struct {
	Profile   string         // the profile whose behaviour it reproduces
	Framework string         // pytorch, numpy, jax, candle, burn, tenferro
	Language  string         // python or rust
	File      string         // a file name for it: "repro_numpy.py", "repro_candle_cpu_release.rs"
	Run       string         // how to run it
	Source    string         // the program text
	Snippet   string         // its core: the inputs and the operation
	Expect    tensor.Outcome // the model's outcome under Profile (also in the header)
}

// Header markers: each program states its profile, its case and the model's
// expected outcome on lines of their own, for scripts/run-repros-on-gpu.sh.
const (
	markProfile = "tfuzz-profile: "
	markCase    = "tfuzz-case: "
	markExpect  = "tfuzz-expect: "
)

// FrameworkOf returns the framework of a profile name: "pytorch" for
// "pytorch/cuda", "numpy" for "numpy".
func FrameworkOf(profile string) string {
	fw, _, _ := strings.Cut(profile, "/")
	return fw
}

// Languages of the repro programs by framework.
var programLanguage = map[string]string{
	"pytorch": "python", "numpy": "python", "jax": "python",
	"candle": "rust", "burn": "rust", "tenferro": "rust",
}

// NewProgram writes the repro program of case c under profile; title says
// in one line what it reproduces. It fails only for a profile of no known
// framework.
func NewProgram(profile string, c *tensor.Case, title string) (Program, error) {
	fw := FrameworkOf(profile)
	lang, ok := programLanguage[fw]
	if !ok {
		return Program{}, fmt.Errorf("profile %q: no repro programs for framework %q", profile, fw)
	}
	bare := bareCase(c)
	p := Program{Profile: profile, Framework: fw, Language: lang, Expect: model.Eval(profile, bare)}
	// "repro_" keeps a Python file from shadowing its framework's module (numpy.py would import itself)
	name := "repro_" + strings.NewReplacer("/", "_", "-", "_").Replace(profile)
	h := header{title: title, profile: profile, c: bare, expect: p.Expect}
	switch lang {
	case "python":
		p.File = name + ".py"
		p.Run = "python3 " + p.File
		h.run = p.Run
		p.Source, p.Snippet = pythonProgram(profile, bare, h)
	default:
		p.File = name + ".rs"
		p.Source, p.Run, p.Snippet = rustProgram(profile, bare, h)
	}
	return p, nil
}

// bareCase is c without expectations, outcomes and extra fields.
func bareCase(c *tensor.Case) *tensor.Case {
	d := *c
	d.Expect, d.Got, d.Extra, d.Source, d.Group = nil, nil, nil, "", ""
	return &d
}

// commentSafe escapes the line breaks of text put in a comment line.
var commentSafe = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\u2028", `\u2028`, "\u2029", `\u2029`, "\x85", `\x85`)

// header is what every program says about itself before its code.
type header struct {
	title, profile, run string
	c                   *tensor.Case
	expect              tensor.Outcome
	notes               []string
}

// lines renders the header with the comment prefix of the language.
func (h header) lines(comment string) string {
	var b strings.Builder
	line := func(format string, args ...any) {
		// one comment line each: text from the case (a literal) cannot end the comment
		s := commentSafe.Replace(fmt.Sprintf(format, args...))
		if s == "" {
			b.WriteString(strings.TrimRight(comment, " ") + "\n")
			return
		}
		b.WriteString(comment + s + "\n")
	}
	line("tfuzz %s repro program: %s", Version, h.title)
	doc := ""
	if p, ok := model.Lookup(h.profile); ok {
		doc = " (" + p.Doc + ")"
	}
	line("profile %s%s", h.profile, doc)
	line("case: %s", h.c.Describe())
	line("")
	line("Builds the case's inputs with the framework's typed constructor (the case format's")
	line("host-data convention; every float written exactly), runs the operation and prints")
	line("its outcome as one line of case-format JSON. A crash prints nothing.")
	line("run: %s", h.run)
	for _, n := range h.notes {
		line("%s", n)
	}
	line("")
	line("The model expects (tfuzz eval --profile %s):", h.profile)
	line("  %s", h.expect)
	line("%s%s", markProfile, h.profile)
	line("%s%s", markCase, tensor.EncodeCase(h.c))
	exp := h.expect
	exp.Rules, exp.Warnings = nil, nil
	line("%s%s", markExpect, tensor.EncodeOutcome(exp))
	return b.String()
}
