package reports

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// ReproDirName is the folder of a written report that holds the repro programs.
const ReproDirName = "repro"

// WriteDir writes a report into dir: report.md, report.json, and the repro
// programs of every finding under repro/<finding id>/. It returns the paths
// of the repro programs it wrote.
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
	if err := os.WriteFile(filepath.Join(dir, "report.md"), md.Bytes(), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), js.Bytes(), 0o644); err != nil {
		return nil, err
	}
	var written []string
	for _, f := range findings {
		if f.ID == "" {
			return nil, fmt.Errorf("finding %q has no id", f.Signature)
		}
		pdir := filepath.Join(dir, ReproDirName, f.ID)
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			return nil, err
		}
		for _, p := range Programs(f, o.ReproProfiles) {
			path := filepath.Join(pdir, p.File)
			mode := os.FileMode(0o644)
			if p.Language == "python" {
				mode = 0o755
			}
			if err := os.WriteFile(path, []byte(p.Source), mode); err != nil {
				return nil, err
			}
			written = append(written, path)
		}
	}
	return written, nil
}
