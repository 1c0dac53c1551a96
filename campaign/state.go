package campaign

import (
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
	return writeFileAtomic(filepath.Join(dir, stateFile), append(data, '\n'))
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
