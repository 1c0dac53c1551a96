package mutate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Status is what became of a mutant.
type Status string

const (
	Killed    Status = "killed"     // the campaign wrote a finding (exit 1)
	Survived  Status = "survived"   // the campaign ended clean (exit 0)
	Crashed   Status = "crashed"    // the campaign died (a fatal runtime error, another exit code)
	Hung      Status = "hung"       // the campaign did not end within its time limit
	NotViable Status = "not-viable" // the mutant does not compile
)

// Result is one mutant's outcome.
type Result struct {
	ID      string  `json:"id"`
	Line    int     `json:"line"`
	Change  string  `json:"change"`
	Kind    string  `json:"kind"`
	Status  Status  `json:"status"`
	Detail  string  `json:"detail,omitempty"`  // the campaign's last summary line, or the compile error
	Seconds float64 `json:"seconds,omitempty"` // the campaign's wall time
	// UnitTests is, for a survivor checked with the package tests, "fail"
	// (the tests kill it: a campaign miss) or "pass".
	UnitTests string `json:"unit_tests,omitempty"`
	Reason    string `json:"reason,omitempty"` // the recorded reason a survivor cannot be killed
}

// Sample draws n mutants of all (every one when n <= 0 or n >= len(all))
// with a seeded shuffle, returned in their listing order.
func Sample(all []Mutant, n int, seed uint64) []Mutant {
	if n <= 0 || n >= len(all) {
		return all
	}
	idx := rand.New(rand.NewPCG(seed, seed^0x5bd1e995)).Perm(len(all))[:n]
	sort.Ints(idx)
	out := make([]Mutant, n)
	for i, k := range idx {
		out[i] = all[k]
	}
	return out
}

// Runner builds and hunts mutants.
type Runner struct {
	Root     string        // the module root (go build runs there)
	Main     string        // the package of the tfuzz command, e.g. "./cmd/tfuzz"
	Args     []string      // the campaign's arguments, e.g. run --backend cpu --duration 10s
	Timeout  time.Duration // wall-clock limit of one campaign
	Work     string        // scratch folder (mutated files, binaries, campaign output)
	TestPkgs []string      // packages whose tests classify survivors ("./impls/cpu")
}

// overlay writes m's mutated file and the -overlay file that puts it in
// place of the original, and returns the overlay's path.
func (r *Runner) overlay(m Mutant) (string, error) {
	src, err := os.ReadFile(m.File)
	if err != nil {
		return "", err
	}
	mutated, err := m.Apply(src)
	if err != nil {
		return "", err
	}
	file := filepath.Join(r.Work, "mutant-"+filepath.Base(m.File))
	if err := os.WriteFile(file, mutated, 0o644); err != nil {
		return "", err
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {m.File: file}})
	path := filepath.Join(r.Work, "overlay.json")
	return path, os.WriteFile(path, ov, 0o644)
}

// Run builds tfuzz with m and runs the campaign once.
func (r *Runner) Run(ctx context.Context, m Mutant) Result {
	res := Result{ID: m.ID, Line: m.Line, Change: m.Old + " → " + m.New, Kind: m.Kind}
	ov, err := r.overlay(m)
	if err != nil {
		res.Status, res.Detail = NotViable, err.Error()
		return res
	}
	bin := filepath.Join(r.Work, "tfuzz-mutant")
	build := exec.CommandContext(ctx, "go", "build", "-overlay", ov, "-o", bin, r.Main)
	build.Dir = r.Root
	if out, err := build.CombinedOutput(); err != nil {
		res.Status, res.Detail = NotViable, firstLine(out)
		return res
	}
	out := filepath.Join(r.Work, "campaign")
	if err := os.RemoveAll(out); err != nil {
		res.Status, res.Detail = Crashed, err.Error()
		return res
	}
	cctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, bin, append(append([]string{}, r.Args...), "--out", out)...)
	cmd.Dir = r.Work
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err = cmd.Run()
	res.Seconds = time.Since(start).Seconds()
	res.Detail = summaryLine(buf.Bytes())
	var exit *exec.ExitError
	switch {
	case cctx.Err() != nil && ctx.Err() == nil:
		res.Status = Hung
	case err == nil:
		res.Status = Survived
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		res.Status = Killed
	default:
		res.Status, res.Detail = Crashed, err.Error()+": "+tail(buf.Bytes(), 2000)
	}
	return res
}

// UnitTests runs the test packages with m in place and reports whether
// they fail.
func (r *Runner) UnitTests(ctx context.Context, m Mutant) (failed bool, err error) {
	ov, err := r.overlay(m)
	if err != nil {
		return false, err
	}
	tctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	args := append([]string{"test", "-overlay", ov, "-count=1", "-timeout", "8m"}, r.TestPkgs...)
	cmd := exec.CommandContext(tctx, "go", args...)
	cmd.Dir = r.Root
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil && bytes.Contains(out, []byte("[build failed]")) {
		return false, fmt.Errorf("%s: the tests do not build: %s", m.ID, firstLine(out))
	}
	return err != nil, nil
}

// Reasons reads a file of recorded reasons: one "ID  reason" a line, # for
// comments. A missing file is no reasons.
func Reasons(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	reasons := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, ok := strings.Cut(line, " ")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: a reason line is an ID, a space and the reason", path, n)
		}
		reasons[id] = strings.TrimSpace(reason)
	}
	return reasons, sc.Err()
}

func firstLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

// tail returns the last n bytes of b.
func tail(b []byte, n int) string {
	return string(b[max(0, len(b)-n):])
}

// summaryLine is the campaign's closing "seed ...: N cases ..." line.
func summaryLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "seed ") {
			return l
		}
	}
	return firstLine(b)
}
