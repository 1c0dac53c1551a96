package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/impls/adapter"
	"github.com/tfuzz/tfuzz/tensor"
)

// pythonBackend is the built-in backend that runs the reference adapter
// (impls/adapter/python/tfuzz_adapter.py, built into tfuzz) with a chosen
// Python: real PyTorch, NumPy and JAX, whichever that Python imports. Its
// findings name it "python", so that tfuzz repro runs tfuzz's own adapter
// again, never a command written in the file.
const pythonBackend = "python"

// envPython chooses the interpreter when --python does not.
const envPython = "TFUZZ_PYTHON"

// debianPython is where Debian's python3-numpy and python3-torch install.
const debianPython = "/usr/bin/python3"

var (
	pythonMu     sync.Mutex
	pythonChosen string // --python, when given
)

func pythonFlag(fl *flags, dst *string) {
	fl.StringVar(dst, "python", "", "the Python that runs --backend python (default: $"+envPython+
		", else "+debianPython+" when it has NumPy, PyTorch or JAX, else python3 on PATH)")
}

// setPython records --python for the python backend.
func setPython(path string) {
	pythonMu.Lock()
	defer pythonMu.Unlock()
	if path != "" {
		pythonChosen = path
	}
}

// choosePython returns the interpreter for the python backend and why it was chosen.
func choosePython() (path, why string) {
	pythonMu.Lock()
	defer pythonMu.Unlock()
	switch {
	case pythonChosen != "":
		return pythonChosen, "--python"
	case os.Getenv(envPython) != "":
		return os.Getenv(envPython), "$" + envPython
	case hasFrameworks(debianPython):
		return debianPython, "default: it has NumPy, PyTorch or JAX"
	}
	return "python3", "default: python3 on PATH, as " + debianPython + " has no framework"
}

// hasFrameworks reports whether python finds numpy, torch or jax (without importing them).
func hasFrameworks(python string) bool {
	probe := "import importlib.util as u, sys; sys.exit(0 if any(u.find_spec(m) for m in ('numpy', 'torch', 'jax')) else 1)"
	return exec.Command(python, "-c", probe).Run() == nil
}

// openPython starts the reference adapter with the chosen Python.
func openPython() (tensor.Backend, error) {
	python, why := choosePython()
	script, err := referenceScriptPath()
	if err != nil {
		return nil, fmt.Errorf("backend python: %w", err)
	}
	cfg, err := adapter.ConfigFromEnv(adapter.Prefix + shellQuote(python) + " " + shellQuote(script))
	if err != nil {
		return nil, err
	}
	cfg.Name = pythonBackend
	b, err := adapter.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("backend python: the Python %s (chosen by %s) cannot run the adapter: %w\n"+
			"  choose another with --python or $%s (it needs NumPy, PyTorch or JAX)", python, why, err, envPython)
	}
	return b, nil
}

// pythonNotes says which Python serves the python backend and which of its
// frameworks are missing.
func pythonNotes(h adapter.Handshake) []string {
	python, why := choosePython()
	notes := []string{fmt.Sprintf("Python: %s (chosen by %s), python %s", python, why, h.Frameworks["python"])}
	for _, n := range h.Notes {
		notes = append(notes, fmt.Sprintf("%s: %s", python, n))
	}
	return notes
}

// notServed says why backend b does not serve profile p: for the python
// backend, what its Python lacks.
func notServed(b tensor.Backend, p string) string {
	s := fmt.Sprintf("backend %s does not serve %q (it serves %v)", b.Name(), p, b.Profiles())
	if a, ok := b.(interface{ Handshake() adapter.Handshake }); ok && b.Name() == pythonBackend {
		python, _ := choosePython()
		for _, n := range a.Handshake().Notes {
			if fw, _, _ := strings.Cut(n, ":"); strings.HasPrefix(p, map[string]string{"torch": "pytorch", "numpy": "numpy", "jax": "jax"}[fw]) {
				s += fmt.Sprintf("; the Python %s: %s (choose another with --python or $%s)", python, n, envPython)
			}
		}
	}
	return s
}

// referenceScriptPath writes the built-in adapter's files to a folder of
// the user's cache named by their digest (once per version of them) and
// returns the path of its main script.
func referenceScriptPath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	files, err := fs.Glob(adapter.ReferenceFiles, "python/*.py")
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	contents := make([][]byte, len(files))
	for i, f := range files {
		if contents[i], err = adapter.ReferenceFiles.ReadFile(f); err != nil {
			return "", err
		}
		fmt.Fprintf(sum, "%s %d\n", f, len(contents[i]))
		sum.Write(contents[i])
	}
	dir = filepath.Join(dir, "tfuzz", fmt.Sprintf("adapter-%x", sum.Sum(nil)[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for i, f := range files {
		dst := filepath.Join(dir, path.Base(f))
		if data, err := os.ReadFile(dst); err == nil && bytes.Equal(data, contents[i]) {
			continue
		}
		if err := campaign.WriteFileAtomic(dst, contents[i]); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, path.Base(adapter.ReferenceMain)), nil
}

// shellQuote quotes a word for adapter.SplitCommand.
func shellQuote(s string) string {
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ':' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
