package reports

import (
	"encoding/json"
	"io"

	"github.com/tfuzz/tfuzz/tensor"
)

// JSONReport is the JSON form of a report. Cases and outcomes are case
// format v1 objects.
type JSONReport struct {
	Version  string        `json:"tfuzz"`
	Source   string        `json:"source,omitempty"`
	Findings []JSONFinding `json:"findings"`
}

// JSONFinding is one finding of a JSON report.
type JSONFinding struct {
	ID               string          `json:"id"`
	Title            string          `json:"title"`
	File             string          `json:"file,omitempty"`
	Signature        string          `json:"signature"`
	Profile          string          `json:"profile"`
	ProfileDoc       string          `json:"profile_doc,omitempty"`
	Backend          string          `json:"backend"`
	Divergence       string          `json:"divergence"`
	Detail           string          `json:"detail"`
	BackendPanicked  bool            `json:"backend_panicked,omitempty"`
	Seed             uint64          `json:"seed"`
	CaseIndex        int64           `json:"case_index"`
	OriginalElements int             `json:"original_elements,omitempty"`
	ShrunkElements   int             `json:"shrunk_elements,omitempty"`
	Version          string          `json:"tfuzz"`
	Case             json.RawMessage `json:"case"`
	Expected         json.RawMessage `json:"expected"`
	Actual           json.RawMessage `json:"actual"`
	ExpectedRules    []RuleText      `json:"expected_rules"`
	ActualRules      []RuleText      `json:"actual_rules"`
	Replay           []string        `json:"replay"`
	Repro            []JSONProgram   `json:"repro"`
}

// JSONProgram names one repro program of a finding.
type JSONProgram struct {
	Profile   string          `json:"profile"`
	Framework string          `json:"framework"`
	Language  string          `json:"language"`
	File      string          `json:"file"`
	Run       string          `json:"run"`
	Expect    json.RawMessage `json:"expect"`
}

// NewJSONReport builds the JSON form of findings.
func NewJSONReport(findings []*Finding, o Options) JSONReport {
	r := JSONReport{Version: Version, Source: o.Source, Findings: []JSONFinding{}}
	for _, f := range findings {
		jf := JSONFinding{ID: f.ID, Title: f.Title(), File: f.File, Signature: f.Signature, Profile: f.Profile,
			ProfileDoc: ProfileDoc(f.Profile), Backend: f.Backend, Divergence: string(f.Compare.Divergence),
			Detail: f.Compare.Detail, BackendPanicked: f.Panicked, Seed: f.Seed, CaseIndex: f.CaseIndex,
			OriginalElements: f.Original, ShrunkElements: f.Shrunk, Version: f.Version,
			Case: tensor.EncodeCase(f.Case), Expected: tensor.EncodeOutcome(f.Expected),
			Actual: tensor.EncodeOutcome(f.Actual), ExpectedRules: Explain(f.Expected),
			ActualRules: Explain(f.Actual), Replay: f.Replay(o), Repro: []JSONProgram{}}
		if jf.ActualRules == nil {
			jf.ActualRules = []RuleText{}
		}
		for _, p := range Programs(f, o.ReproProfiles) {
			file := p.File
			if o.ReproDir != "" {
				file = o.ReproDir + "/" + ReproDirOf(f) + "/" + p.File
			}
			exp := p.Expect
			exp.Rules, exp.Warnings = nil, nil
			jf.Repro = append(jf.Repro, JSONProgram{Profile: p.Profile, Framework: p.Framework, Language: p.Language,
				File: file, Run: p.Run, Expect: tensor.EncodeOutcome(exp)})
		}
		r.Findings = append(r.Findings, jf)
	}
	return r
}

// WriteJSON writes the JSON form of findings, indented.
func WriteJSON(w io.Writer, findings []*Finding, o Options) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(NewJSONReport(findings, o))
}
