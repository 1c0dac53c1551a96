//go:build !unix

package campaign

import (
	"errors"
	"os"
)

// lockFile creates path exclusively: without flock, the file's existence is
// the lock. A process that dies holding it leaves it behind (Stale).
func lockFile(path, holder string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, &LockedError{Holder: holderOf(path), Stale: true}
	}
	if err != nil {
		return nil, err
	}
	_, _ = f.WriteString(holder + "\n")
	return &Lock{path: path, f: f}, nil
}

// Unlock releases the folder.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	os.Remove(l.path)
	l.f = nil
	return err
}
