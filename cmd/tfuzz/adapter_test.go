package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/impls/adapter"
)

// The adapter's planted test script and the reference adapter, seen from this package.
const (
	plantedAdapter   = "exec:sh ../../impls/adapter/testdata/planted.sh"
	referenceAdapter = "../../impls/adapter/python/tfuzz_adapter.py"
)

// TestEvalBackendSurvivesCrashes: eval --backend exec:... gives a planted
// SIGFPE, SIGSEGV and hang one outcome each and goes on to the next case.
func TestEvalBackendSurvivesCrashes(t *testing.T) {
	t.Setenv("TFUZZ_ADAPTER_TIMEOUT", "1s")
	var lines []string
	for _, op := range []string{"add", "floor_div", "add", "index_select", "cumsum", "add"} {
		args, attrs := `[{"dtype": "i32", "shape": [1], "data": [1]}, {"dtype": "i32", "shape": [1], "data": [0]}]`, `{}`
		switch op {
		case "cumsum":
			args, attrs = `[{"dtype": "i32", "shape": [1], "data": [1]}]`, `{"dim": 0}`
		case "index_select":
			attrs = `{"dim": 0}`
		}
		lines = append(lines, `{"id": "`+op+`-`+string(rune('a'+len(lines)))+`", "op": "`+op+`", "args": `+args+`, "attrs": `+attrs+`}`)
	}
	cases := writeFile(t, "planted.jsonl", strings.Join(lines, "\n")+"\n")
	code, out, stderr := runTfuzz(t, "eval", "--profile", "numpy", "--backend", plantedAdapter, cases)
	if code != exitClean {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	for _, want := range []string{"crash SIGFPE", "crash SIGSEGV", "crash timeout"} {
		if strings.Count(out, want) != 1 {
			t.Errorf("want one %q in:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "i64[1] ["); n != 3 {
		t.Errorf("%d cases answered with a value, want the 3 adds:\n%s", n, out)
	}
	if !strings.Contains(stderr, "planted.sh (profiles [numpy pytorch/cpu])") {
		t.Errorf("the backend is not described: %q", stderr)
	}
}

// TestRunAndReproWithAdapter: a campaign against an exec backend stores
// findings that name it, and repro replays them through a new adapter.
func TestRunAndReproWithAdapter(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runTfuzz(t, "run", "--backend", plantedAdapter, "--profile", "pytorch/cpu", "--op", "add",
		"--max-cases", "40", "--duration", "0", "--seed", "7", "--workers", "2", "--out", dir)
	if code != exitDiverged {
		t.Fatalf("exit %d (the planted adapter answers every add wrongly)\n%s%s", code, out, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "findings", "*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no findings in %s:\n%s", dir, out)
	}
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), `"backend":"`+plantedAdapter) && !strings.Contains(string(data), `"backend": "`+plantedAdapter) {
		t.Errorf("the finding does not name the exec backend:\n%s", data)
	}
	// a finding is a file from anyone: its command runs only when allowed
	code, out, stderr = runTfuzz(t, "repro", files[0])
	if code != exitUsage || !strings.Contains(stderr, plantedAdapter) || !strings.Contains(stderr, "--allow-exec") || out != "" {
		t.Errorf("repro without --allow-exec: exit %d, want 2 with the command shown and nothing run\n%s%s", code, out, stderr)
	}
	code, out, stderr = runTfuzz(t, "repro", "--allow-exec", files[0])
	if code != exitDiverged || !strings.Contains(out, "still diverges") {
		t.Errorf("repro --allow-exec: exit %d\n%s%s", code, out, stderr)
	}
}

func TestEvalBackendUsageErrors(t *testing.T) {
	good := writeFile(t, "good.jsonl", addCase+"\n")
	for _, args := range [][]string{
		{"eval", "--backend", "nosuch", good},
		{"eval", "--backend", "exec:/nonexistent/adapter", good},
		{"eval", "--backend", plantedAdapter, "--profile", "jax/cpu-x64", good},
	} {
		if code, _, stderr := runTfuzz(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
}

// TestEvalBackendNumPyOracle is the check: the installed NumPy,
// through the reference adapter, reproduces every recorded NumPy outcome of
// the oracle except those listed with their reason in
// impls/adapter/numpy124-differences.txt (derived and checked by
// impls/adapter's TestNumPy124AgainstOracle).
func TestEvalBackendNumPyOracle(t *testing.T) {
	if _, err := os.Stat(oracleDir); err != nil {
		t.Fatalf("the recorded outcomes are missing: %v", err)
	}
	version, err := exec.Command(debianPython, "-c", "import numpy; print(numpy.__version__)").Output()
	if err != nil || !strings.HasPrefix(string(version), "1.24.") {
		t.Skipf("%s has no NumPy 1.24 (apt-get install python3-numpy)", debianPython)
	}
	if exec.Command(debianPython, "-c", "import ml_dtypes").Run() == nil {
		t.Skip("ml_dtypes is installed: the differences file is for Debian's NumPy without it")
	}
	backend := "exec:TFUZZ_ADAPTER_FRAMEWORKS=numpy " + debianPython + " " + referenceAdapter
	code, out, stderr := runTfuzz(t, "eval", "--check", "--summary-only", "--backend", backend,
		"--exceptions", "../../impls/adapter/numpy124-differences.txt", oracleDir+"/real-frameworks.jsonl")
	t.Logf("%s%s", stderr, out)
	if code != exitClean {
		t.Fatalf("exit %d: the installed NumPy departs from the oracle beyond the listed differences", code)
	}
	for _, want := range []string{"known: [no-bfloat16]", "known: [nep50-0dim]", "known: [nep50-int-overflow]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q", want)
		}
	}
}

// TestPythonBackend: the built-in python backend runs the embedded
// reference adapter with the chosen Python, says which, and its findings
// name it "python" (so that replaying one runs tfuzz's own adapter).
func TestPythonBackend(t *testing.T) {
	code, _, stderr := runTfuzz(t, "try", "--python", "/nonexistent/python3", "--backend", "python", "neg(i8[1])")
	if code != exitUsage || !strings.Contains(stderr, "the Python /nonexistent/python3 (chosen by --python) cannot run the adapter") {
		t.Errorf("a missing Python: exit %d, stderr %q", code, stderr)
	}
	if !hasFrameworks(debianPython) {
		t.Skipf("%s has no NumPy, PyTorch or JAX (apt-get install python3-numpy)", debianPython)
	}
	code, out, stderr := runTfuzz(t, "try", "--python", debianPython, "--backend", "python", "-p", "numpy", "add(u8[200, 1], 100)")
	if code != exitClean || !strings.Contains(out, "u8[2] [44, 101]") || !strings.Contains(out, " ok ") ||
		!strings.Contains(stderr, "Python: "+debianPython+" (chosen by --python)") {
		t.Errorf("exit %d\n%s%s", code, out, stderr)
	}
}

// TestShellQuoteSplitsBack: the python backend's command line names its
// interpreter and script as one word each, whatever their paths hold.
func TestShellQuoteSplitsBack(t *testing.T) {
	for _, path := range []string{"/usr/bin/python3", "/opt/my python/bin/python3", "/tmp/it's/python", `C:\Python\python.exe`, "python3; rm -rf ~"} {
		_, argv, err := adapter.SplitCommand(shellQuote(path) + " " + shellQuote("/cache dir/a.py"))
		if err != nil || len(argv) != 2 || argv[0] != path || argv[1] != "/cache dir/a.py" {
			t.Errorf("%q: split back as %q (%v)", path, argv, err)
		}
	}
}
