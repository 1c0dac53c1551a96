package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// Finding is one finding as a report shows it: a minimal case on which a
// backend departs from the model under a profile.
type Finding struct {
	ID        string // "finding-1a2b3c4d", stable per signature
	File      string // the finding file, as given
	Signature string
	Profile   string // the profile the backend claims
	Backend   string // "cpu", "metal-sim", or "model:P" for the model under another profile
	Case      *tensor.Case
	Expected  tensor.Outcome // the model's, with its rules
	Actual    tensor.Outcome // the backend's
	Compare   tensor.Comparison
	Panicked  bool   // the backend's own Go code panicked
	Stack     string // where
	Seed      uint64
	CaseIndex int64
	Original  int // elements of the case that first showed it
	Shrunk    int // elements of the minimal case
	Version   string
}

// FromStored turns a finding read from a campaign's findings folder into a
// report's finding; the comparison is recomputed from the stored outcomes.
func FromStored(sf *campaign.StoredFinding) (*Finding, error) {
	info := sf.Info
	want, ok := sf.Case.Expect.Get(info.Profile)
	if !ok {
		return nil, fmt.Errorf("%s:1: expect: no outcome for profile %q", sf.Path, info.Profile)
	}
	got, ok := sf.Case.Got.Get(info.Profile)
	if !ok {
		return nil, fmt.Errorf("%s:1: got: no outcome for profile %q", sf.Path, info.Profile)
	}
	return &Finding{ID: sf.Case.ID, File: sf.Path, Signature: info.Signature, Profile: info.Profile,
		Backend: info.Backend, Case: bareCase(sf.Case), Expected: want, Actual: got,
		Compare: tensor.Compare(want, got, sf.Case.Tolerance()), Panicked: info.BackendPanicked,
		Stack: info.Stack, Seed: info.Seed, CaseIndex: info.CaseIndex, Original: info.OriginalElements,
		Shrunk: info.ShrunkElements, Version: info.Version}, nil
}

// FromProps turns a finding of props.Differential into a report's finding.
func FromProps(f *props.Finding) *Finding {
	return &Finding{Signature: f.Signature(), Profile: f.Profile, Backend: f.Backend, Case: bareCase(f.Case),
		Expected: f.Want, Actual: f.Got, Compare: f.Compare, Panicked: f.Panicked, Stack: f.Stack, Version: Version}
}

// Read reads the findings of campaign output folders, findings folders or
// finding files, in that order, each folder's files sorted by name.
func Read(paths ...string) ([]*Finding, error) {
	var out []*Finding
	for _, p := range paths {
		files, err := FindingFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			sf, err := campaign.ReadFinding(f)
			if err != nil {
				return nil, err
			}
			fd, err := FromStored(sf)
			if err != nil {
				return nil, err
			}
			out = append(out, fd)
		}
	}
	return out, nil
}

// FindingFiles lists the finding files p stands for: p itself when it is a
// file, else the .jsonl files of p/findings or of p, sorted.
func FindingFiles(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	for _, dir := range []string{filepath.Join(p, campaign.FindingsDir), p} {
		files, err := campaign.JSONLFiles(dir)
		if err != nil {
			return nil, err
		}
		if len(files) > 0 {
			return files, nil
		}
	}
	return nil, nil
}

// OtherProfile is the profile whose model answers the backend gave, when
// the backend is the model itself ("model:P"); "" for an implementation.
func (f *Finding) OtherProfile() string {
	if p, ok := strings.CutPrefix(f.Backend, "model:"); ok {
		return p
	}
	return ""
}

// Profiles lists the profiles the finding involves: its own and, for a
// model-against-model finding, the other one.
func (f *Finding) Profiles() []string {
	ps := []string{f.Profile}
	if o := f.OtherProfile(); o != "" && o != f.Profile {
		ps = append(ps, o)
	}
	return ps
}

// Title says in one line what differs and where.
func (f *Finding) Title() string {
	var what string
	switch {
	case f.Panicked:
		what = "the backend's Go code panicked"
	case f.Compare.Divergence == tensor.DiffForm:
		what = fmt.Sprintf("%s where the model gives %s", article(f.Actual.Form), article(f.Expected.Form))
	case f.Compare.Divergence == tensor.DiffDType:
		what = fmt.Sprintf("dtype %s where the model gives %s", f.Actual.Value.DType, f.Expected.Value.DType)
	case f.Compare.Divergence == tensor.DiffErrorClass:
		what = fmt.Sprintf("error %s where the model gives %s", f.Actual.Class, f.Expected.Class)
	default:
		what = divergenceWords[f.Compare.Divergence]
	}
	return fmt.Sprintf("%s on %s: %s", f.Backend, f.Profile, what) + " — " + opSignature(f.Case)
}

var divergenceWords = map[tensor.Divergence]string{
	tensor.DiffValue:    "wrong values",
	tensor.DiffNaN:      "NaN on one side only",
	tensor.DiffZeroSign: "-0.0 against 0.0",
	tensor.DiffShape:    "wrong shape",
	tensor.DiffSignal:   "a different signal",
}

func article(f tensor.Form) string {
	switch f {
	case tensor.FormValue:
		return "a value"
	case tensor.FormError:
		return "an error"
	case tensor.FormPanic:
		return "a panic"
	case tensor.FormCrash:
		return "a crash"
	}
	return "unsupported"
}

// opSignature writes the op with its argument dtypes: "add(i8, i8)", "cast(f32 -> u8)",
// "neg(f32 view)", "program cast > sum(u8)".
func opSignature(c *tensor.Case) string {
	var parts []string
	for _, a := range c.Args {
		if a.IsNull() {
			parts = append(parts, "null")
		} else if a.Scalar != nil {
			parts = append(parts, string(a.Scalar.Kind)+" scalar "+a.Scalar.Text)
		} else if a.Tensor.View != nil {
			parts = append(parts, a.Tensor.DType.String()+" view")
		} else {
			parts = append(parts, a.Tensor.DType.String())
		}
	}
	if c.IsProgram() {
		return "program " + strings.Join(c.Ops(), " > ") + "(" + strings.Join(parts, ", ") + ")"
	}
	s := c.Op + "(" + strings.Join(parts, ", ")
	if c.Attrs.To.Valid() {
		s += " -> " + c.Attrs.To.String()
	}
	return s + ")"
}

// Replay lists the commands that reproduce the finding: replaying its
// file against the backend, and running its campaign again.
func (f *Finding) Replay(o Options) []string {
	tool := o.Tool
	if tool == "" {
		tool = "tfuzz"
	}
	var cmds []string
	if f.File != "" {
		cmds = append(cmds, tool+" repro "+f.File+"   # exits 1 while the backend still diverges")
	}
	switch other := f.OtherProfile(); {
	case o.CampaignCommand != "":
		cmds = append(cmds, o.CampaignCommand)
	case other != "":
		cmds = append(cmds, fmt.Sprintf("tfuzz diff --from %s --to %s --seed %d", f.Profile, other, f.Seed))
	case f.Seed != 0 || f.CaseIndex != 0:
		cmds = append(cmds, fmt.Sprintf("tfuzz run --seed %d --backend %s --profile %s   # with the campaign's --op/--dtype flags; this was its case %d",
			f.Seed, f.Backend, f.Profile, f.CaseIndex))
	}
	return cmds
}

// RuleText is a model rule in plain words.
type RuleText struct {
	Name   string `json:"name"`
	Doc    string `json:"doc"`
	Source string `json:"source"`
}

// Explain looks up the rules an outcome names.
func Explain(o tensor.Outcome) []RuleText {
	var out []RuleText
	for _, name := range o.Rules {
		rt := RuleText{Name: name, Doc: "(not a rule of this model version)"}
		if r, ok := model.LookupRule(name); ok {
			rt.Doc, rt.Source = r.Doc, r.Source
		}
		out = append(out, rt)
	}
	return out
}

// ProfileDoc is a profile's one-line description, or "".
func ProfileDoc(profile string) string {
	if p, ok := model.Lookup(profile); ok {
		return p.Doc
	}
	return ""
}
