//go:build unix

package campaign

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on path without waiting. The file is
// removed on Unlock, so a holder checks after locking that path still
// names the file it locked (a racing Unlock may have removed it).
func lockFile(path, holder string) (*Lock, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &LockedError{Holder: holderOf(path)}
			}
			return nil, err
		}
		held, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			if err := f.Truncate(0); err == nil {
				_, _ = f.WriteString(holder + "\n")
			}
			return &Lock{path: path, f: f}, nil
		}
		f.Close() // removed by its last holder meanwhile: take the new one
	}
}

// Unlock releases the folder.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	os.Remove(l.path) // while still locked, so that no one locks a removed file
	err := l.f.Close()
	l.f = nil
	return err
}
