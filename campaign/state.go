package campaign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

const stateFile = "state.json"

// state is the resume checkpoint of a campaign: what it is (seed, shard,
// targets, generator options) and how far it got (every local case index
// below Next is done). Case i of a campaign depends on all of these, so a
// resumed campaign must have the same ones.
type state struct {
	Version string `json:"tfuzz"`
	Seed    uint64 `json:"seed"`
	Shard   int    `json:"shard"`
	Shards  int    `json:"shards"`
	Next    int64  `json:"next"`
	// Targets are the backend@profile pairs checked, in the order that
	// assigns cases to them; Generator the generator options. Both are
	// absent from checkpoints of tfuzz before 0.2, which are then resumed
	// unchecked.
	Targets   []string `json:"targets,omitempty"`
	Generator string   `json:"generator,omitempty"`
}

func (s *state) save(dir string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, stateFile), append(data, '\n'))
}

// newState is the checkpoint of a campaign about to start.
func newState(cfg Config) *state {
	s := &state{Version: Version, Seed: cfg.Seed, Shard: cfg.Shard, Shards: cfg.Shards,
		Generator: fmt.Sprintf("%+v", cfg.Gen)}
	for _, t := range cfg.Targets {
		s.Targets = append(s.Targets, t.String())
	}
	return s
}

// openCampaign locks the output folder and returns the checkpoint the
// campaign starts from. A folder that holds a checkpoint is continued only
// with Resume, and only by the same campaign; it is started over only with
// Force (its findings are kept either way). Errors in what the user asked
// for are *InputError.
func openCampaign(cfg Config) (*Lock, *state, error) {
	lock, err := LockDir(cfg.OutDir, "tfuzz run")
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*Lock, *state, error) {
		lock.Unlock()
		return nil, nil, err
	}
	old, err := readState(cfg.OutDir)
	exists := !errors.Is(err, os.ErrNotExist)
	if err != nil && exists {
		return fail(&InputError{err})
	}
	fresh := newState(cfg)
	switch {
	case cfg.Resume && !exists:
		return fail(&InputError{fmt.Errorf("%s: no campaign to resume", filepath.Join(cfg.OutDir, stateFile))})
	case cfg.Resume:
		if err := old.sameCampaign(fresh, filepath.Join(cfg.OutDir, stateFile)); err != nil {
			return fail(&InputError{&OtherCampaignError{err}})
		}
		if old.Targets == nil {
			old.Targets, old.Generator = fresh.Targets, fresh.Generator
		}
		return lock, old, nil
	case exists && !cfg.Force:
		return fail(&InputError{fmt.Errorf("%s holds a campaign (seed %d, shard %d/%d, %d cases done): "+
			"resume it (tfuzz run --resume), start a new one there (--force; its findings are kept), or choose another --out",
			cfg.OutDir, old.Seed, old.Shard, old.Shards, old.Next)})
	}
	if err := fresh.save(cfg.OutDir); err != nil {
		return fail(&InputError{fmt.Errorf("output folder: %w", err)})
	}
	return lock, fresh, nil
}

// banner says which campaign starts, or where the resumed one continues.
func banner(cfg Config, st *state) {
	if cfg.Progress == nil {
		return
	}
	if cfg.Resume {
		fmt.Fprintf(cfg.Progress, "tfuzz: resuming the campaign in %s at case %d: seed %d, shard %d/%d, %d targets, %d workers\n",
			cfg.OutDir, st.Next, st.Seed, st.Shard, st.Shards, len(cfg.Targets), cfg.Workers)
		return
	}
	fmt.Fprintf(cfg.Progress, "tfuzz: campaign seed %d, shard %d/%d, %d targets, %d workers, out %s\n",
		cfg.Seed, cfg.Shard, cfg.Shards, len(cfg.Targets), cfg.Workers, cfg.OutDir)
}

// sameCampaign reports how the checkpoint s is not of the campaign want.
func (s *state) sameCampaign(want *state, path string) error {
	switch {
	case s.Seed != want.Seed:
		return fmt.Errorf("%s: the campaign there has seed %d, not %d (drop --seed to resume it)", path, s.Seed, want.Seed)
	case s.Shard != want.Shard || s.Shards != want.Shards:
		return fmt.Errorf("%s: the campaign ran shard %d/%d, not %d/%d (give --shard %d/%d to resume it)",
			path, s.Shard, s.Shards, want.Shard, want.Shards, s.Shard, s.Shards)
	case s.Targets != nil && !slices.Equal(s.Targets, want.Targets):
		return fmt.Errorf("%s: the campaign checked %v, not %v (give the same --backend and --profile flags to resume it)",
			path, s.Targets, want.Targets)
	case s.Generator != "" && s.Generator != want.Generator:
		return fmt.Errorf("%s: the campaign drew cases with %s, not %s (give the same --op and --dtype flags to resume it)",
			path, s.Generator, want.Generator)
	}
	return nil
}

// ResumeSeed returns the seed of the campaign checkpointed in dir, so that
// --resume needs no --seed.
func ResumeSeed(dir string) (uint64, error) {
	s, err := readState(dir)
	if err != nil {
		return 0, err
	}
	return s.Seed, nil
}

// ShardState is the checkpoint of a campaign output folder as other tools
// read it: which campaign and shard it ran, and how many of that shard's
// cases are done (the local indices below Next).
type ShardState struct {
	Version       string
	Seed          uint64
	Shard, Shards int
	Next          int64
}

// ReadState reads the checkpoint of the campaign output folder dir. Errors
// name the file, the line and the field.
func ReadState(dir string) (ShardState, error) {
	s, err := readState(dir)
	if err != nil {
		return ShardState{}, err
	}
	return ShardState{Version: s.Version, Seed: s.Seed, Shard: s.Shard, Shards: s.Shards, Next: s.Next}, nil
}

// maxNext bounds a checkpoint's case count: 2^53 cases are centuries of a
// campaign at a million cases a second, and case indices (times the shard
// count) stay far from overflowing.
const maxNext = 1 << 53

// readState reads and checks dir/state.json: every field present and in range.
func readState(dir string) (*state, error) {
	path := filepath.Join(dir, stateFile)
	if err := CheckRegular(path); err != nil {
		return nil, err // a FIFO would block the read
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, jsonFileError(path, data, err)
	}
	var present map[string]json.RawMessage
	_ = json.Unmarshal(data, &present)
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s: %s", path, keyLine(data, field), field, fmt.Sprintf(format, args...))
	}
	for _, field := range []string{"seed", "shard", "shards", "next"} {
		if _, ok := present[field]; !ok {
			return nil, fmt.Errorf("%s: %s: missing (a checkpoint has seed, shard, shards and next)", path, field)
		}
	}
	switch {
	case s.Shards < 1:
		return nil, bad("shards", "want at least 1, got %d", s.Shards)
	case s.Shard < 0 || s.Shard >= s.Shards:
		return nil, bad("shard", "want 0 <= shard < %d, got %d", s.Shards, s.Shard)
	case s.Next < 0:
		return nil, bad("next", "want a case count >= 0, got %d", s.Next)
	case s.Next > maxNext:
		return nil, bad("next", "want a case count below 2^53, got %d (no campaign gets that far: the file is damaged)", s.Next)
	}
	return &s, nil
}

// jsonFileError places a JSON decoding error at its line (and field, when
// the decoder names one).
func jsonFileError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s:%d: %v", path, offsetLine(data, syn.Offset), syn)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Errorf("%s:%d: want a JSON object, got %s", path, offsetLine(data, typ.Offset), typ.Value)
	case errors.As(err, &typ):
		return fmt.Errorf("%s:%d: %s: want %v, got %s", path, offsetLine(data, typ.Offset), typ.Field, typ.Type, typ.Value)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func offsetLine(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// keyLine is the line of the first occurrence of "key": in data (1 if none).
func keyLine(data []byte, key string) int {
	if i := bytes.Index(data, []byte(`"`+key+`"`)); i >= 0 {
		return offsetLine(data, int64(i))
	}
	return 1
}
