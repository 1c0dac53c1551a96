package campaign

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LockFile is the file in an output folder that a campaign (or a merge)
// holds locked while it writes there.
const LockFile = ".tfuzz.lock"

// Lock is the exclusive hold of one tfuzz process on an output folder: two
// campaigns writing one folder would each keep only their own checkpoint.
// On Unix it is a flock(2) on OUT/.tfuzz.lock, which the kernel releases
// when the process ends, however it ends. Elsewhere (lock_other.go) it is
// the lock file itself, created exclusively; a killed process leaves it
// behind, and the error says to delete it once no tfuzz uses the folder.
type Lock struct {
	path string
	f    *os.File
}

// LockedError is an output folder another process holds.
type LockedError struct {
	Dir    string
	Holder string // what the lock file says about its holder ("pid 1234, tfuzz run")
	Stale  bool   // the lock cannot tell a live holder from a dead one (no flock here)
}

func (e *LockedError) Error() string {
	s := fmt.Sprintf("%s is in use by another tfuzz process (%s)", e.Dir, e.Holder)
	if e.Stale {
		s += fmt.Sprintf("; if none is running, delete %s", filepath.Join(e.Dir, LockFile))
	}
	return s
}

// LockDir takes the lock of the output folder dir, creating the folder,
// for the command what ("tfuzz run").
func LockDir(dir, what string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &InputError{Err: fmt.Errorf("output folder: %w", err)}
	}
	l, err := lockFile(filepath.Join(dir, LockFile), fmt.Sprintf("pid %d, %s", os.Getpid(), what))
	var le *LockedError
	if errors.As(err, &le) {
		le.Dir = dir
		return nil, &InputError{Err: le}
	}
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("output folder: %w", err)}
	}
	return l, nil
}

// holderOf reads what a lock file says about its holder.
func holderOf(path string) string {
	data, err := os.ReadFile(path)
	if s := strings.TrimSpace(string(data)); err == nil && s != "" {
		return s
	}
	return "holder unknown"
}
