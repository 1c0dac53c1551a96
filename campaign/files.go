package campaign

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// JSONLFiles lists the .jsonl files of dir, sorted. A folder is input from
// anyone (a campaign folder someone sent): an entry that is not a regular
// file, or a link to one, is an error, since reading a FIFO blocks until
// something writes to it and a device may never end.
func JSONLFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := CheckRegular(f); err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

// CheckRegular returns an error unless path is a regular file, after
// following links.
func CheckRegular(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s): a folder's .jsonl entries are read only when they are files", path, kindOf(info.Mode()))
	}
	return nil
}

func kindOf(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0 || m&os.ModeCharDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "not a plain file"
}
