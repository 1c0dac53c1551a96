package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

func TestExactFloats(t *testing.T) {
	tests := []struct {
		x      float64
		py, rs string
	}{
		{0.5, "0.5", "0.5f64"},
		{-2.5, "-2.5", "-2.5f64"},
		{math.Copysign(0, -1), "-0.0", "-0.0f64"},
		{16777217, "16777217.0", "16777217.0f64"},
		{1e20, "1e+20", "1e+20f64"},
		{0.1, "float.fromhex('0x1.999999999999ap-4')", "f64::from_bits(0x3fb999999999999a)"},
		{math.Inf(-1), "-inf", "f64::NEG_INFINITY"},
		{math.NaN(), "nan", "f64::NAN"},
		{5e-324, "float.fromhex('0x1p-1074')", "f64::from_bits(0x0000000000000001)"},
	}
	for _, tt := range tests {
		if got := pyFloat(tt.x); got != tt.py {
			t.Errorf("pyFloat(%v) = %s, want %s", tt.x, got, tt.py)
		}
		if got := rustFloat(tt.x, "f64"); got != tt.rs {
			t.Errorf("rustFloat(%v) = %s, want %s", tt.x, got, tt.rs)
		}
		if h, ok := strings.CutPrefix(tt.py, "float.fromhex('"); ok {
			back, err := strconv.ParseFloat(strings.TrimSuffix(h, "')"), 64)
			if err != nil || back != tt.x {
				t.Errorf("%s reads back as %v (%v), want %v", tt.py, back, err, tt.x)
			}
		}
	}
	if got := rustFloat(float64(float32(0.1)), "f32"); got != "f32::from_bits(0x3dcccccd)" {
		t.Errorf("f32 0.1: %s", got)
	}
}

// reproCases are the cases the repro tests write programs for: the seed
// corpus and generated cases over the whole catalog.
func reproCases(t *testing.T, generated int) []*tensor.Case {
	t.Helper()
	cases, err := ReadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	gen := props.GenCase(props.CaseOptions{MaxElems: 6})
	for i := 0; i < generated; i++ {
		cases = append(cases, gen.Example(i))
	}
	return cases
}

// TestProgramsForEveryProfile writes the repro program of many cases under
// every profile and checks the header a runner reads: the profile, the case
// and the model's expected outcome, each on its own line and decodable.
func TestProgramsForEveryProfile(t *testing.T) {
	cases := reproCases(t, 200)
	for _, p := range tensor.Profiles {
		for _, c := range cases {
			prog, err := NewProgram(p, c, "test")
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			hdr := parseHeader(prog.Source)
			if hdr[markProfile] != p {
				t.Fatalf("%s %s: header profile %q", p, c.Describe(), hdr[markProfile])
			}
			hc, err := tensor.DecodeCase([]byte(hdr[markCase]))
			if err != nil || !bytes.Equal(tensor.EncodeCase(hc), tensor.EncodeCase(bareCase(c))) {
				t.Fatalf("%s %s: header case %q (%v)", p, c.Describe(), hdr[markCase], err)
			}
			exp, err := tensor.DecodeOutcome([]byte(hdr[markExpect]))
			if err != nil {
				t.Fatalf("%s %s: header expect %q: %v", p, c.Describe(), hdr[markExpect], err)
			}
			if !tensor.Compare(exp, model.Eval(p, c), 0).Match() {
				t.Fatalf("%s %s: header expect %s is not the model's", p, c.Describe(), hdr[markExpect])
			}
			if prog.Language == "rust" && strings.Count(prog.Source, "{") != strings.Count(prog.Source, "}") {
				t.Errorf("%s %s: unbalanced braces in\n%s", p, c.Describe(), prog.Source)
			}
		}
	}
}

// parseHeader reads the tfuzz-... lines of a program's header.
func parseHeader(src string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimLeft(line, "#/ ")
		for _, m := range []string{markProfile, markCase, markExpect} {
			if v, ok := strings.CutPrefix(line, m); ok {
				out[m] = v
			}
		}
	}
	return out
}

// numpyPython returns a Python 3 that imports NumPy: $TFUZZ_PYTHON, Debian's
// /usr/bin/python3 (python3-numpy, which CI installs), or python3 on PATH.
func numpyPython() string {
	cands := []string{os.Getenv("TFUZZ_PYTHON"), "/usr/bin/python3", "python3"}
	for _, py := range cands {
		if py == "" {
			continue
		}
		if err := exec.Command(py, "-c", "import numpy").Run(); err == nil {
			return py
		}
	}
	return ""
}

// TestNumPyReprosRun is the CI check of the repro programs: it writes the
// NumPy program of every example finding (reports/examples), of every row
// of the PyTorch -> NumPy atlas and of generated cases over the whole
// catalog, runs each with a Python that has NumPy, and requires that it
// exits cleanly and prints one outcome in case notation. How often NumPy
// agrees with the model is logged, not required: the model states NumPy 2,
// the CI machine may have another version.
func TestNumPyReprosRun(t *testing.T) {
	py := numpyPython()
	if py == "" {
		t.Skip("no python3 with numpy (CI installs Debian's python3-numpy; set TFUZZ_PYTHON to choose one)")
	}
	var cases []*tensor.Case
	var names []string
	findings, err := Read("examples/planted-numpy/campaign")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		cases, names = append(cases, f.Case), append(names, "example "+f.ID)
	}
	a, _ := builtAtlas(t, AtlasPair{"pytorch/cpu", "numpy"})
	for _, cl := range a.Classes {
		cases, names = append(cases, cl.Example), append(names, fmt.Sprintf("atlas row %d", cl.Row))
	}
	n := 120
	if testing.Short() {
		n = 20
	}
	gen := props.GenCase(props.CaseOptions{MaxElems: 6})
	for i := 0; i < n; i++ {
		cases, names = append(cases, gen.Example(1000+i)), append(names, fmt.Sprintf("generated %d", i))
	}
	dir := t.TempDir()
	var paths []string
	var expects []tensor.Outcome
	for i, c := range cases {
		prog, err := NewProgram("numpy", c, names[i])
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("%03d_%s", i, prog.File))
		if err := os.WriteFile(path, []byte(prog.Source), 0o644); err != nil {
			t.Fatal(err)
		}
		paths, expects = append(paths, path), append(expects, prog.Expect)
	}
	outputs, err := runPrograms(py, dir, paths)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		out   tensor.Outcome
		match bool
		err   error
	}
	results := make([]result, len(cases))
	for i := range paths {
		out, err := parseOutput(outputs[i])
		results[i] = result{out: out, err: err}
		if err == nil {
			results[i].match = tensor.Compare(expects[i], out, cases[i].Attrs.ToleranceULPs).Match()
		}
	}
	agree := 0
	var disagree []string
	for i, r := range results {
		if r.err != nil {
			t.Errorf("%s: %s: %v", names[i], cases[i].Describe(), r.err)
			continue
		}
		if r.match {
			agree++
		} else if len(disagree) < 200 && !strings.Contains(r.out.Message(), "ml_dtypes") {
			disagree = append(disagree, fmt.Sprintf("  %s: %s\n    model %s\n    numpy %s", names[i], cases[i].Describe(),
				model.Eval("numpy", cases[i]), r.out))
		}
	}
	version, _ := exec.Command(py, "-c", "import numpy; print(numpy.__version__)").Output()
	t.Logf("%d NumPy programs ran with %s (numpy %s); %d agree with the model's numpy profile", len(cases), py,
		strings.TrimSpace(string(version)), agree)
	if len(disagree) > 0 {
		t.Logf("first disagreements (NumPy 2 is what the model states):\n%s", strings.Join(disagree, "\n"))
	}
}

// batchDriver runs Python programs one after the other in one interpreter,
// each as __main__ with its own globals, and prints per program a JSON line
// with what it printed and how it ended: NumPy is imported once, not once
// per program.
const batchDriver = `
import contextlib, io, json, runpy, sys, traceback
for path in sys.argv[1:]:
    buf = io.StringIO()
    status = "ok"
    with contextlib.redirect_stdout(buf):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as e:
            if e.code not in (None, 0):
                status = "exit %s" % e.code
        except BaseException:
            status = traceback.format_exc()
    print(json.dumps({"path": path, "stdout": buf.getvalue(), "status": status}), flush=True)
`

type programOutput struct {
	Path, Stdout, Status string
}

// runPrograms runs the programs with the batch driver; a program that kills
// the interpreter is reported as such and the rest run on.
func runPrograms(py, dir string, paths []string) ([]programOutput, error) {
	driver := filepath.Join(dir, "batch_driver.py")
	if err := os.WriteFile(driver, []byte(batchDriver), 0o644); err != nil {
		return nil, err
	}
	var out []programOutput
	for len(out) < len(paths) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, py, append([]string{driver}, paths[len(out):]...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		runErr := cmd.Run()
		cancel()
		before := len(out)
		for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
			if line == "" {
				continue
			}
			var po programOutput
			if err := json.Unmarshal([]byte(line), &po); err != nil {
				return nil, fmt.Errorf("batch driver: %q: %v", line, err)
			}
			out = append(out, po)
		}
		if runErr != nil && len(out) < len(paths) {
			// the interpreter died in the next program: record it and go on after it
			out = append(out, programOutput{Path: paths[len(out)], Status: fmt.Sprintf("the interpreter died: %v\n%s", runErr, stderr.String())})
		} else if len(out) == before {
			return nil, fmt.Errorf("batch driver ran nothing: %v\n%s", runErr, stderr.String())
		}
	}
	return out, nil
}

// parseOutput reads a program's outcome: one line in case notation.
func parseOutput(po programOutput) (tensor.Outcome, error) {
	if po.Status != "ok" {
		return tensor.Outcome{}, fmt.Errorf("%s: %s\nstdout: %s", po.Path, po.Status, po.Stdout)
	}
	lines := strings.Split(strings.TrimSpace(po.Stdout), "\n")
	if len(lines) != 1 || lines[0] == "" {
		return tensor.Outcome{}, fmt.Errorf("%s: want one outcome line, got %q", po.Path, po.Stdout)
	}
	out, err := tensor.DecodeOutcome([]byte(lines[0]))
	if err != nil {
		return tensor.Outcome{}, fmt.Errorf("%s: output %q is not an outcome in case notation: %v", po.Path, lines[0], err)
	}
	return out, out.Check()
}

// TestReproRunnerScript checks scripts/run-repros-on-gpu.sh where it can run
// here: its comparison of outcomes (a self-test of the case format's rules)
// and a run over the NumPy programs of the example report, which must match
// the model.
func TestReproRunnerScript(t *testing.T) {
	py := numpyPython()
	if py == "" {
		t.Skip("no python3 with numpy")
	}
	if out, err := exec.Command(py, "../scripts/repro_runner.py", "--self-test").CombinedOutput(); err != nil {
		t.Fatalf("self-test: %v\n%s", err, out)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	programs, _ := filepath.Glob("examples/planted-numpy/repro/*/repro_numpy.py")
	if len(programs) == 0 {
		t.Fatal("the example report has no NumPy programs")
	}
	args := []string{"scripts/run-repros-on-gpu.sh"}
	for _, p := range programs {
		args = append(args, filepath.Join("reports", p))
	}
	cmd := exec.Command("bash", args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "PYTHON="+py)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run-repros-on-gpu.sh: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "MATCH  numpy"); n != len(programs) {
		t.Errorf("%d NumPy programs matched, want every example finding's:\n%s", n, out)
	}
	t.Logf("%s", out[bytes.LastIndex(out, []byte("\nprofile")):])
}
