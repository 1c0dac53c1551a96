package campaign

import (
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to path so that a reader, or a crash at any
// moment, sees either the old file or the whole new one, never a part. The
// file is readable by everyone (0644), like one written by os.WriteFile.
// The rename replaces whatever path names, a symbolic link included: it
// never writes through one.
func WriteFileAtomic(path string, data []byte) error {
	return WriteFileAtomicMode(path, data, 0o644)
}

// WriteFileAtomicMode is WriteFileAtomic with the file's permission bits.
func WriteFileAtomicMode(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // a no-op once renamed
	// CreateTemp makes the file 0600, readable by its owner only.
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // make the rename durable; best effort where directories cannot be synced
		d.Close()
	}
	return nil
}
