package campaign

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// FindingsDir is the folder of a campaign's output that holds its findings.
const FindingsDir = "findings"

// FindingInfo is what a finding file records beside the case: the extra
// top-level field "finding" of the case format.
type FindingInfo struct {
	Signature        string `json:"signature"`
	Backend          string `json:"backend"`
	Profile          string `json:"profile"`
	Divergence       string `json:"divergence"`
	Detail           string `json:"detail"`
	BackendPanicked  bool   `json:"backend_panicked,omitempty"`
	BackendHung      bool   `json:"backend_hung,omitempty"` // the backend's call did not return (hang.go)
	Stack            string `json:"stack,omitempty"`
	Seed             uint64 `json:"seed"`
	CaseIndex        int64  `json:"case_index"`
	OriginalElements int    `json:"original_elements"`
	ShrunkElements   int    `json:"shrunk_elements"`
	Version          string `json:"tfuzz"`
}

// FindingMeta is where a finding came from: the campaign seed and global
// case index that first showed it, and the elements of that case before
// shrinking. Source, when set, replaces the case's "source" text (for a
// finding that came from elsewhere, such as a libFuzzer crash input).
type FindingMeta struct {
	Seed             uint64
	CaseIndex        int64
	OriginalElements int
	Source           string
}

// store is the findings folder: one file per signature.
type store struct {
	dir  string
	mu   sync.Mutex
	sigs map[string]bool // signatures on disk or being shrunk
}

func openStore(outDir string) (*store, error) {
	dir := filepath.Join(outDir, FindingsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &store{dir: dir, sigs: map[string]bool{}}
	findings, err := ReadFindings(outDir)
	if err != nil {
		return nil, err
	}
	for _, f := range findings {
		s.sigs[f.Info.Signature] = true
	}
	return s, nil
}

func (s *store) seen(sig string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sigs[sig]
}

func (s *store) markSeen(sig string) {
	s.mu.Lock()
	s.sigs[sig] = true
	s.mu.Unlock()
}

func (s *store) count() int {
	files, _ := filepath.Glob(filepath.Join(s.dir, "*.jsonl"))
	return len(files)
}

// add writes the finding unless its signature is already stored.
func (s *store) add(f *props.Finding, meta FindingMeta) (bool, error) {
	sig := f.Signature()
	s.mu.Lock()
	defer s.mu.Unlock()
	path := filepath.Join(s.dir, fileName(sig))
	if _, err := os.Stat(path); err == nil {
		s.sigs[sig] = true
		return false, nil
	}
	data, err := EncodeFinding(f, meta)
	if err != nil {
		return false, err
	}
	if err := WriteFileAtomic(path, data); err != nil {
		return false, err
	}
	s.sigs[sig] = true
	return true, nil
}

// fileName turns a signature into a readable, unique file name.
func fileName(sig string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(sig) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			if s := b.String(); s != "" && s[len(s)-1] != '-' {
				b.WriteByte('-')
			}
		}
	}
	h := fnv.New32a()
	io.WriteString(h, sig)
	return fmt.Sprintf("%s-%08x.jsonl", strings.Trim(b.String(), "-"), h.Sum32())
}

// EncodeFinding writes a finding as one case-format line: the minimal case,
// expect holding the model's outcome (with its rules), got holding the
// backend's, and the extra field "finding".
func EncodeFinding(f *props.Finding, meta FindingMeta) ([]byte, error) {
	c := *f.Case
	c.Expect = tensor.Outcomes{{Profile: f.Profile, Outcome: f.Want}}
	c.Got = tensor.Outcomes{{Profile: f.Profile, Outcome: f.Got}}
	sig := f.Signature()
	h := fnv.New32a()
	io.WriteString(h, sig)
	c.ID = fmt.Sprintf("finding-%08x", h.Sum32())
	c.Source = fmt.Sprintf("tfuzz %s campaign, seed %d, case %d", Version, meta.Seed, meta.CaseIndex)
	if meta.Source != "" {
		c.Source = meta.Source
	}
	info := FindingInfo{Signature: sig, Backend: f.Backend, Profile: f.Profile, Divergence: string(f.Compare.Divergence),
		Detail: f.Compare.Detail, BackendPanicked: f.Panicked, BackendHung: f.Hung, Stack: f.Stack, Seed: meta.Seed, CaseIndex: meta.CaseIndex,
		OriginalElements: meta.OriginalElements, ShrunkElements: caseElements(f.Case), Version: Version}
	raw, err := json.Marshal(info)
	if err != nil {
		return nil, err
	}
	c.Extra = append(c.Extra, tensor.RawField{Name: "finding", Value: raw})
	return append(tensor.EncodeCase(&c), '\n'), nil
}

// StoredFinding is a finding read back from a findings folder.
type StoredFinding struct {
	Path string
	Case *tensor.Case
	Info FindingInfo
}

// ReadFinding reads one finding file.
func ReadFinding(path string) (*StoredFinding, error) {
	cases, err := tensor.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(cases) != 1 {
		return nil, fmt.Errorf("%s: a finding file holds one case, found %d", path, len(cases))
	}
	sf := &StoredFinding{Path: path, Case: cases[0]}
	for _, f := range cases[0].Extra {
		if f.Name == "finding" {
			if err := json.Unmarshal(f.Value, &sf.Info); err != nil {
				return nil, fmt.Errorf("%s:1: finding: %w", path, err)
			}
			if err := sf.Info.check(); err != nil {
				return nil, fmt.Errorf("%s:1: finding.%w", path, err)
			}
			if _, ok := sf.Case.Expect.Get(sf.Info.Profile); !ok {
				return nil, fmt.Errorf("%s:1: expect: no outcome for the finding's profile %q", path, sf.Info.Profile)
			}
			return sf, nil
		}
	}
	return nil, fmt.Errorf("%s:1: finding: missing (not a tfuzz finding)", path)
}

// check validates what a finding file says about itself: a finding is
// input from anyone, and its profile and backend choose what runs.
func (fi FindingInfo) check() error {
	switch {
	case !tensor.KnownProfile(fi.Profile):
		return fmt.Errorf("profile: unknown profile %s (%s)", tensor.Quote(fi.Profile), tensor.Choices(fi.Profile, tensor.Profiles, ""))
	case strings.TrimSpace(fi.Backend) == "":
		return fmt.Errorf("backend: missing")
	case fi.Signature == "":
		return fmt.Errorf("signature: missing")
	case fi.OriginalElements < 0 || fi.ShrunkElements < 0 || fi.CaseIndex < 0:
		return fmt.Errorf("case_index, original_elements, shrunk_elements: must not be negative")
	}
	return nil
}

// ReadFindings reads every finding of a campaign output folder, sorted by path.
func ReadFindings(outDir string) ([]*StoredFinding, error) {
	files, err := JSONLFiles(filepath.Join(outDir, FindingsDir))
	if err != nil {
		return nil, err
	}
	var out []*StoredFinding
	for _, f := range files {
		sf, err := ReadFinding(f)
		if err != nil {
			return nil, err
		}
		out = append(out, sf)
	}
	return out, nil
}

// AddFinding stores a finding in the campaign output folder outDir unless a
// finding of its signature is there already, and returns the path of the
// signature's file and whether this call wrote it.
func AddFinding(outDir string, f *props.Finding, meta FindingMeta) (path string, isNew bool, err error) {
	s, err := openStore(outDir)
	if err != nil {
		return "", false, &InputError{err}
	}
	isNew, err = s.add(f, meta)
	return filepath.Join(s.dir, fileName(f.Signature())), isNew, err
}
