package campaign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

const stateFile = "state.json"

// state is the resume checkpoint of a campaign: what it is (seed, shard) and
// how far it got (every local case index below Next is done).
type state struct {
	Version string `json:"tfuzz"`
	Seed    uint64 `json:"seed"`
	Shard   int    `json:"shard"`
	Shards  int    `json:"shards"`
	Next    int64  `json:"next"`
}

func (s *state) save(dir string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, stateFile), append(data, '\n'))
}

// loadOrStartState returns the checkpoint to continue (with Resume) or a new one.
func loadOrStartState(cfg Config) (*state, error) {
	fresh := &state{Version: Version, Seed: cfg.Seed, Shard: cfg.Shard, Shards: cfg.Shards}
	if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
		return nil, err
	}
	if !cfg.Resume {
		return fresh, fresh.save(cfg.OutDir)
	}
	path := filepath.Join(cfg.OutDir, stateFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no campaign to resume", path)
	}
	if err != nil {
		return nil, err
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.Shard != cfg.Shard || s.Shards != cfg.Shards {
		return nil, fmt.Errorf("%s: the campaign ran shard %d/%d, not %d/%d", path, s.Shard, s.Shards, cfg.Shard, cfg.Shards)
	}
	return &s, nil
}

// ResumeSeed returns the seed of the campaign checkpointed in dir, so that
// --resume needs no --seed.
func ResumeSeed(dir string) (uint64, error) {
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return 0, err
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		return 0, fmt.Errorf("%s: %w", filepath.Join(dir, stateFile), err)
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
	path := filepath.Join(dir, stateFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return ShardState{}, err
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil {
		return ShardState{}, jsonFileError(path, data, err)
	}
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s: %s", path, keyLine(data, field), field, fmt.Sprintf(format, args...))
	}
	switch {
	case s.Shards < 1:
		return ShardState{}, bad("shards", "want at least 1, got %d", s.Shards)
	case s.Shard < 0 || s.Shard >= s.Shards:
		return ShardState{}, bad("shard", "want 0 <= shard < %d, got %d", s.Shards, s.Shard)
	case s.Next < 0:
		return ShardState{}, bad("next", "want a case count >= 0, got %d", s.Next)
	}
	return ShardState{Version: s.Version, Seed: s.Seed, Shard: s.Shard, Shards: s.Shards, Next: s.Next}, nil
}

// jsonFileError places a JSON decoding error at its line (and field, when
// the decoder names one).
func jsonFileError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s:%d: %v", path, offsetLine(data, syn.Offset), syn)
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
