package adapter

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/tensor"
)

const planted = "sh testdata/planted.sh"

// plantedCase returns a case of op with two i64 operands (or one, for unary
// and reduce ops); the planted adapter only looks at the op.
func plantedCase(t *testing.T, op string) *tensor.Case {
	t.Helper()
	arg := `{"dtype": "i64", "shape": [1], "data": [-9223372036854775808]}`
	args := arg + ", " + `{"dtype": "i64", "shape": [1], "data": [-1]}`
	attrs := `{}`
	switch op {
	case "prod", "neg", "sum":
		args = arg
	case "cumsum":
		args, attrs = arg, `{"dim": 0}`
	case "zeros":
		args, attrs = "", `{"shape": [1]}`
	}
	c, err := tensor.DecodeCase([]byte(fmt.Sprintf(`{"id": "planted-%s", "op": %q, "args": [%s], "attrs": %s}`, op, op, args, attrs)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newPlanted(t *testing.T, cfg Config) *Backend {
	t.Helper()
	if cfg.Command == "" {
		cfg.Command = planted
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = time.Second
	}
	cfg.StartTimeout = 10 * time.Second
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// pidOf returns the process id a planted answer carries.
func pidOf(t *testing.T, o tensor.Outcome) int {
	t.Helper()
	if o.Form != tensor.FormValue || o.Value.DType != tensor.I64 {
		t.Fatalf("want the planted value, got %s", o)
	}
	return int(o.Value.Int(0))
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// aliveAfter reports whether pid is still running after waiting up to d for
// it to go: an adapter that asked for a restart exits on its own, a moment
// after its last answer.
func aliveAfter(pid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !alive(pid) {
			return false
		}
	}
	return alive(pid)
}

// TestPlantedCrashesAndHang runs a sequence of cases through the planted
// adapter: each planted SIGFPE, SIGSEGV, exit and infinite loop becomes
// exactly one outcome, and the next case runs in a fresh process.
func TestPlantedCrashesAndHang(t *testing.T) {
	b := newPlanted(t, Config{})
	if got := b.Profiles(); strings.Join(got, ",") != "numpy,pytorch/cpu" {
		t.Fatalf("profiles from the handshake: %v", got)
	}
	steps := []struct {
		op     string
		want   string // outcome form, or the crash signal
		reason string
	}{
		{"add", "value", "an ordinary case"},
		{"add", "value", "the same process answers again"},
		{"floor_div", "SIGFPE", "the adapter dies by SIGFPE"},
		{"add", "value", "a new process takes the next case"},
		{"index_select", "SIGSEGV", "the adapter dies by SIGSEGV"},
		{"neg", "value", "a new process takes the next case"},
		{"cumsum", TimeoutSignal, "the adapter loops forever: killed at the timeout"},
		{"add", "value", "a new process takes the next case"},
		{"prod", "exit 3", "the adapter exits while it holds a case"},
		{"trunc_div", "unsupported", "the adapter says it has no such op"},
		{"add", "value", "the process that answered unsupported goes on"},
		{"sum", "error", "the adapter answers, asks for a restart and exits"},
		{"add", "value", "a new process takes the next case"},
	}
	lastPID, died := 0, false // the last answering process; whether a process died since
	for i, s := range steps {
		start := time.Now()
		got := b.Eval("numpy", plantedCase(t, s.op))
		elapsed := time.Since(start)
		form := got.Form.String()
		if got.Form == tensor.FormCrash {
			form = got.Signal
		}
		if form != s.want {
			t.Fatalf("step %d (%s, %s): got %s, want %s", i, s.op, s.reason, got, s.want)
		}
		if s.want == TimeoutSignal && (elapsed < time.Second || elapsed > 8*time.Second) {
			t.Errorf("step %d: the hang was cut after %v, want about the 1s timeout", i, elapsed)
		}
		if got.Form == tensor.FormCrash && len(got.Warnings) == 0 && s.want != "SIGFPE" && s.want != "SIGSEGV" {
			t.Errorf("step %d: a crash outcome without notes: %+v", i, got)
		}
		if got.Form == tensor.FormCrash {
			died = true
		}
		if s.op == "sum" {
			if !strings.Contains(strings.Join(got.Warnings, " "), "restarts after this case: planted") {
				t.Errorf("step %d: the restart is not noted: %+v", i, got)
			}
			died = true
		}
		if got.Form != tensor.FormValue {
			continue
		}
		pid := pidOf(t, got)
		restarted := died
		died = false
		switch {
		case lastPID != 0 && restarted && pid == lastPID:
			t.Errorf("step %d: the dead process %d answered", i, pid)
		case lastPID != 0 && !restarted && pid != lastPID:
			t.Errorf("step %d: a live process was replaced (%d -> %d)", i, lastPID, pid)
		}
		if restarted && lastPID != 0 && aliveAfter(lastPID, 5*time.Second) {
			t.Errorf("step %d: the process %d that crashed or hung is still running", i, lastPID)
		}
		lastPID = pid
	}
	st := b.Stats()
	want := Stats{Cases: int64(len(steps)), Starts: 6, Crashes: 3, Timeouts: 1}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
}

// TestProtocolViolationIsAHarnessFailure: an answer that is not an outcome
// is a bug of the adapter, not an answer of the framework: Eval returns a
// harness failure (never a match, never a finding) and the next case runs.
func TestProtocolViolationIsAHarnessFailure(t *testing.T) {
	b := newPlanted(t, Config{})
	if got := b.Eval("numpy", plantedCase(t, "zeros")); !got.HarnessFailure() || !strings.Contains(got.Message(), "broke the protocol on case planted-zeros under numpy") {
		t.Errorf("want a harness failure that says the protocol broke, got %s", got)
	}
	anonymous := plantedCase(t, "zeros")
	anonymous.ID = ""
	if got := b.Eval("numpy", anonymous); !strings.Contains(got.Message(), "broke the protocol on case (no id) under numpy") {
		t.Errorf("a case without id: got %s", got)
	}
	if got := b.Eval("numpy", plantedCase(t, "add")); got.Form != tensor.FormValue {
		t.Errorf("after the violation: %s", got)
	}
}

func TestUnservedProfileIsUnsupported(t *testing.T) {
	b := newPlanted(t, Config{})
	c := plantedCase(t, "add")
	if b.Supports("jax/cpu-x64", c) || !b.Supports("pytorch/cpu", c) {
		t.Errorf("Supports does not follow the handshake's profiles")
	}
	if got := b.Eval("jax/cpu-x64", c); got.Form != tensor.FormUnsupported {
		t.Errorf("got %s", got)
	}
	if b.Stats().Cases != 0 {
		t.Errorf("a case of an unserved profile was sent to the adapter")
	}
}

// TestProcessesPerProfile: each profile gets its own processes, at most
// Procs of them, and concurrent callers share them safely.
func TestProcessesPerProfile(t *testing.T) {
	b := newPlanted(t, Config{Procs: 2})
	var mu sync.Mutex
	pids := map[string]map[int]bool{"numpy": {}, "pytorch/cpu": {}}
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			profile := []string{"numpy", "pytorch/cpu"}[w%2]
			for i := 0; i < 20; i++ {
				got := b.Eval(profile, plantedCase(t, "add"))
				if got.Form != tensor.FormValue {
					t.Errorf("worker %d: %s", w, got)
					return
				}
				mu.Lock()
				pids[profile][int(got.Value.Int(0))] = true
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	for p, set := range pids {
		if len(set) == 0 || len(set) > 2 {
			t.Errorf("%s was served by %d processes, want 1 or 2", p, len(set))
		}
	}
	for pid := range pids["numpy"] {
		if pids["pytorch/cpu"][pid] {
			t.Errorf("process %d served two profiles", pid)
		}
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		name, command, want string
	}{
		{"no such program", "/nonexistent/adapter", "no such file"},
		{"exits before the handshake", "PLANTED_NO_HANDSHAKE=1 " + planted, "ended before its handshake (exit 4)"},
		{"not a handshake", "PLANTED_BAD_HANDSHAKE=1 " + planted, `handshake "hello"`},
		{"no handshake in time", "sleep 30", "no handshake within"},
		{"wrong protocol", `sh -c 'echo "{\"tfuzz_adapter\": 9}"; cat'`, "protocol 9"},
		{"unknown profile", `sh -c 'echo "{\"tfuzz_adapter\": 1, \"profiles\": [\"torch\"]}"; cat'`, `unknown profile "torch"`},
		{"unterminated quote", `sh -c 'oops`, "unterminated single quote"},
		{"no profile", `sh -c 'echo "{\"tfuzz_adapter\": 1, \"profiles\": [], \"notes\": [\"numpy: missing\"]}"; cat'`, "serves no profile (its notes: numpy: missing)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := New(Config{Command: tt.command, StartTimeout: time.Second})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New: %v, want an error with %q", err, tt.want)
			}
			if time.Since(start) > 8*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
		})
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv(EnvTimeout, "3s")
	t.Setenv(EnvProcs, "4")
	cfg, err := ConfigFromEnv("exec:python3 a.py")
	if err != nil || cfg.Command != "python3 a.py" || cfg.Timeout != 3*time.Second || cfg.Procs != 4 {
		t.Errorf("got %+v, %v", cfg, err)
	}
	t.Setenv(EnvTimeout, "soon")
	if _, err := ConfigFromEnv("exec:x"); err == nil {
		t.Errorf("a bad %s was accepted", EnvTimeout)
	}
	if _, err := ConfigFromEnv("exec: "); err == nil {
		t.Errorf("an empty command was accepted")
	}
}

func TestClosedBackendPanicsClearly(t *testing.T) {
	b := newPlanted(t, Config{})
	b.Close()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), errClosed.Error()) {
			t.Errorf("got %v", r)
		}
	}()
	b.Eval("numpy", plantedCase(t, "add"))
}

// TestJAXPlumbing runs the reference adapter's JAX code against a stand-in
// jax (testdata/fakejax, NumPy underneath): the profiles it serves, one
// process per profile with jax_enable_x64 set for it, arrays made on the
// profile's device. The semantics of real JAX are checked where it is
// installed (scripts/adapter-campaign-on-gpu.sh).
func TestJAXPlumbing(t *testing.T) {
	if err := exec.Command(debianPython, "-c", "import numpy").Run(); err != nil {
		t.Skipf("%s cannot import numpy", debianPython)
	}
	b, err := New(Config{Command: "PYTHONPATH=testdata/fakejax TFUZZ_ADAPTER_FRAMEWORKS=jax " + debianPython + " python/tfuzz_adapter.py",
		Timeout: 20 * time.Second, StartTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := strings.Join(b.Profiles(), ","); got != "jax/cpu-x32,jax/cpu-x64" {
		t.Fatalf("profiles %s", got)
	}
	c, err := tensor.DecodeCase([]byte(`{"op": "add", "args": [{"dtype": "i64", "shape": [2], "data": [1, 2]}, {"dtype": "i64", "shape": [2], "data": [3, 4]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, round := range []int{1, 2} {
		for profile, want := range map[string]tensor.DType{"jax/cpu-x32": tensor.I32, "jax/cpu-x64": tensor.I64} {
			got := b.Eval(profile, c)
			if got.Form != tensor.FormValue || got.Value.DType != want || got.Value.Int(1) != 6 {
				t.Errorf("round %d, %s: got %s, want %s [4, 6]", round, profile, got, want)
			}
		}
	}
	if st := b.Stats(); st.Starts != 2 {
		t.Errorf("%d processes for two profiles", st.Starts)
	}
	c.Op = "trunc_div"
	if got := b.Eval("jax/cpu-x64", c); got.Form != tensor.FormUnsupported {
		t.Errorf("trunc_div: %s", got)
	}
}
