package reports

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tfuzz/tfuzz/campaign"
)

// ReproDirName is the folder of a written report that holds the repro programs.
const ReproDirName = "repro"

// ReproDirOf is the folder under repro/ of a finding's programs: its id when
// that is a plain name ("finding-1a2b3c4d"), else a name made from a hash of
// the id. A finding file is input from anyone: its id must not lead a write
// outside the report's folder ("../../x", "/etc", "a/b").
func ReproDirOf(f *Finding) string {
	if safeName(f.ID) {
		return f.ID
	}
	sum := sha256.Sum256([]byte(f.ID + "\x00" + f.Signature))
	return fmt.Sprintf("finding-%x", sum[:4])
}

// safeName reports whether s is a file name of letters, digits, '-', '_'
// and inner dots, not starting with a dot.
func safeName(s string) bool {
	if s == "" || len(s) > 100 || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// WriteDir writes a report into dir: report.md, report.json, and the repro
// programs of every finding under repro/<finding id>/. It returns the paths
// of the repro programs it wrote. Every file is written atomically, so that
// a symbolic link in dir (a folder someone sent) is replaced, never written
// through, and a folder below dir that is a symbolic link is refused: what
// the report writes stays inside dir.
func WriteDir(dir string, findings []*Finding, o Options) ([]string, error) {
	o.ReproDir = ReproDirName
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var md, js bytes.Buffer
	if err := WriteMarkdown(&md, findings, o); err != nil {
		return nil, err
	}
	if err := WriteJSON(&js, findings, o); err != nil {
		return nil, err
	}
	if err := campaign.WriteFileAtomic(filepath.Join(dir, "report.md"), md.Bytes()); err != nil {
		return nil, err
	}
	if err := campaign.WriteFileAtomic(filepath.Join(dir, "report.json"), js.Bytes()); err != nil {
		return nil, err
	}
	var written []string
	for _, f := range findings {
		pdir := filepath.Join(dir, ReproDirName, ReproDirOf(f))
		for _, d := range []string{filepath.Join(dir, ReproDirName), pdir} {
			if err := mkdirNoLink(d); err != nil {
				return nil, err
			}
		}
		for _, p := range Programs(f, o.ReproProfiles) {
			path := filepath.Join(pdir, p.File)
			mode := os.FileMode(0o644)
			if p.Language == "python" {
				mode = 0o755
			}
			if err := campaign.WriteFileAtomicMode(path, []byte(p.Source), mode); err != nil {
				return nil, err
			}
			written = append(written, path)
		}
	}
	return written, nil
}

// mkdirNoLink makes the folder d, whose parent exists, unless it is there;
// a symbolic link (or a file) there is an error.
func mkdirNoLink(d string) error {
	info, err := os.Lstat(d)
	switch {
	case err == nil && info.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: a report writes only into folders of its own", d)
	case err == nil && !info.IsDir():
		return fmt.Errorf("%s is not a folder", d)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return os.Mkdir(d, 0o755)
}
