package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// MergedShard is one input folder of a merge.
type MergedShard struct {
	Dir      string `json:"dir"`
	HasState bool   `json:"has_state"` // false for a folder of findings only (no state.json)
	Seed     uint64 `json:"seed"`
	Shard    int    `json:"shard"`
	Shards   int    `json:"shards"`
	Cases    int64  `json:"cases"`    // cases this shard finished (its checkpoint)
	Findings int    `json:"findings"` // finding files in its findings/
	Counted  bool   `json:"counted"`  // false when the same shard of the same campaign came in twice
}

// MergedFinding is one signature of the merged findings folder.
type MergedFinding struct {
	Signature string   `json:"signature"`
	File      string   `json:"file"`     // in the merged findings folder
	From      string   `json:"from"`     // the file it was copied from ("" when it was there already)
	FoundIn   []string `json:"found_in"` // every input folder that holds this signature
	Elements  int      `json:"elements"` // of the kept (smallest) case
	New       bool     `json:"new"`      // written by this merge
}

// MergeResult summarizes a merge.
type MergeResult struct {
	Out        string          `json:"out"`
	Shards     []MergedShard   `json:"shards"`
	Cases      int64           `json:"cases"`       // cases of all counted shards
	InputFiles int             `json:"input_files"` // finding files read from the inputs
	Findings   []MergedFinding `json:"findings"`    // one per distinct signature, by file name
	Warnings   []string        `json:"warnings,omitempty"`
	Campaigns  int             `json:"campaigns"`         // distinct (seed, shard count) pairs
	Missing    []string        `json:"missing,omitempty"` // shards of those campaigns not among the inputs
}

// Merge merges the output folders of campaign shards (or of whole campaigns
// run on many machines) into out: out/findings holds one finding per
// distinct signature, the smallest case among the inputs that hold it (the
// one already in out/findings if there is one: a merge never replaces or
// removes a finding), each written atomically, byte for byte as the shard
// wrote it. Case counts come from each input's state.json; the same shard of
// the same campaign given twice (a retried job) is counted once, with the
// larger checkpoint. Errors in the inputs are *InputError.
func Merge(out string, dirs []string) (*MergeResult, error) {
	if len(dirs) == 0 {
		return nil, &InputError{errors.New("no output folders to merge")}
	}
	lock, err := LockDir(out, "tfuzz merge")
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	res := &MergeResult{Out: out}
	absOut, _ := filepath.Abs(out)
	type cand struct {
		sf   *StoredFinding
		data []byte
		dir  string
	}
	best := map[string]cand{}
	foundIn := map[string][]string{}
	seenDir := map[string]bool{}
	for _, dir := range dirs {
		abs, _ := filepath.Abs(dir)
		if abs == absOut {
			return nil, &InputError{fmt.Errorf("%s: the merge output folder cannot also be an input", dir)}
		}
		if seenDir[abs] {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: given twice; read once", dir))
			continue
		}
		seenDir[abs] = true
		sh, findings, err := readShard(dir)
		if err != nil {
			return nil, &InputError{err}
		}
		res.InputFiles += len(findings)
		for _, sf := range findings {
			data, err := os.ReadFile(sf.Path)
			if err != nil {
				return nil, &InputError{err}
			}
			sig := sf.Info.Signature
			if len(foundIn[sig]) == 0 || foundIn[sig][len(foundIn[sig])-1] != dir {
				foundIn[sig] = append(foundIn[sig], dir)
			}
			c := cand{sf, data, dir}
			if b, ok := best[sig]; !ok || smallerFinding(c.sf, b.sf) {
				best[sig] = c
			}
		}
		res.Shards = append(res.Shards, sh)
	}
	res.countCases()

	outDir := filepath.Join(out, FindingsDir)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	existing, err := ReadFindings(out)
	if err != nil {
		return nil, &InputError{fmt.Errorf("merge output: %w", err)}
	}
	have := map[string]*StoredFinding{}
	for _, sf := range existing {
		have[sf.Info.Signature] = sf
	}
	sigs := make([]string, 0, len(best))
	for sig := range best {
		sigs = append(sigs, sig)
	}
	for sig := range have {
		if _, ok := best[sig]; !ok {
			sigs = append(sigs, sig)
		}
	}
	for _, sig := range sigs {
		mf := MergedFinding{Signature: sig, FoundIn: foundIn[sig]}
		if sf, ok := have[sig]; ok {
			mf.File, mf.Elements = sf.Path, sf.Info.ShrunkElements
			res.Findings = append(res.Findings, mf)
			continue
		}
		c := best[sig]
		path := filepath.Join(outDir, fileName(sig))
		if old, err := os.ReadFile(path); err == nil && !bytes.Equal(old, c.data) {
			return nil, &InputError{fmt.Errorf("%s: holds a finding that is not %q; not overwritten", path, sig)}
		}
		if err := WriteFileAtomic(path, c.data); err != nil {
			return nil, err
		}
		mf.File, mf.From, mf.Elements, mf.New = path, c.sf.Path, c.sf.Info.ShrunkElements, true
		res.Findings = append(res.Findings, mf)
	}
	sort.Slice(res.Findings, func(i, j int) bool { return res.Findings[i].File < res.Findings[j].File })
	return res, nil
}

// readShard reads one input folder: its checkpoint (if any) and findings.
func readShard(dir string) (MergedShard, []*StoredFinding, error) {
	sh := MergedShard{Dir: dir}
	info, err := os.Stat(dir)
	if err != nil {
		return sh, nil, err
	}
	if !info.IsDir() {
		return sh, nil, fmt.Errorf("%s: not a folder (want a campaign output folder: state.json, findings/)", dir)
	}
	st, err := ReadState(dir)
	switch {
	case err == nil:
		sh.HasState, sh.Seed, sh.Shard, sh.Shards, sh.Cases = true, st.Seed, st.Shard, st.Shards, st.Next
	case errors.Is(err, os.ErrNotExist):
		if _, err := os.Stat(filepath.Join(dir, FindingsDir)); err != nil {
			return sh, nil, fmt.Errorf("%s: not a campaign output folder (no %s, no %s/)", dir, stateFile, FindingsDir)
		}
	default:
		return sh, nil, err
	}
	findings, err := ReadFindings(dir)
	if err != nil {
		return sh, nil, err
	}
	sh.Findings = len(findings)
	return sh, findings, nil
}

// smallerFinding orders the candidates for one signature: fewest elements,
// then the earliest case of the lowest seed, then the path.
func smallerFinding(a, b *StoredFinding) bool {
	if a.Info.ShrunkElements != b.Info.ShrunkElements {
		return a.Info.ShrunkElements < b.Info.ShrunkElements
	}
	if a.Info.Seed != b.Info.Seed {
		return a.Info.Seed < b.Info.Seed
	}
	if a.Info.CaseIndex != b.Info.CaseIndex {
		return a.Info.CaseIndex < b.Info.CaseIndex
	}
	return a.Path < b.Path
}

// countCases sums the cases of the shards, counting each shard of each
// campaign once, and notes the shards of a campaign that are missing.
func (r *MergeResult) countCases() {
	type key struct {
		seed          uint64
		shard, shards int
	}
	first := map[key]int{}
	campaigns := map[[2]uint64]map[int]bool{}
	for i := range r.Shards {
		sh := &r.Shards[i]
		if !sh.HasState {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: no %s: its findings are merged, it adds no cases", sh.Dir, stateFile))
			continue
		}
		k := key{sh.Seed, sh.Shard, sh.Shards}
		c := [2]uint64{sh.Seed, uint64(sh.Shards)}
		if campaigns[c] == nil {
			campaigns[c] = map[int]bool{}
		}
		campaigns[c][sh.Shard] = true
		j, dup := first[k]
		if !dup {
			first[k], sh.Counted = i, true
			continue
		}
		other := &r.Shards[j]
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s and %s both ran shard %d/%d of seed %d: counted once, with the larger checkpoint",
			other.Dir, sh.Dir, sh.Shard, sh.Shards, sh.Seed))
		if sh.Cases > other.Cases {
			other.Counted, sh.Counted, first[k] = false, true, i
		}
	}
	for _, sh := range r.Shards {
		if sh.Counted {
			r.Cases += sh.Cases
		}
	}
	r.Campaigns = len(campaigns)
	var keys [][2]uint64
	for c := range campaigns {
		keys = append(keys, c)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	seeds := map[uint64]int{}
	for _, c := range keys {
		seeds[c[0]]++
		n := int(c[1])
		var missing []string
		for k := 0; k < n; k++ {
			if !campaigns[c][k] {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
		if len(missing) > 0 {
			r.Missing = append(r.Missing, fmt.Sprintf("seed %d: shards %v not among the inputs (%d of %d merged)",
				c[0], missing, n-len(missing), n))
		}
	}
	for i, c := range keys {
		if n := seeds[c[0]]; n > 1 && (i == 0 || keys[i-1][0] != c[0]) {
			r.Warnings = append(r.Warnings, fmt.Sprintf("seed %d was run with %d different shard counts: their cases overlap and are counted once per run", c[0], n))
		}
	}
}
