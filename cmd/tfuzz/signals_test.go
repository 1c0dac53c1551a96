//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startTfuzz runs tfuzz with args as a child process.
func startTfuzz(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "TFUZZ_BE_MAIN=1"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// hungPIDs waits until the hanging adapter has taken a case, and returns
// the processes it and its child run as.
func hungPIDs(t *testing.T, path string) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(path); err == nil && strings.Count(string(data), "\n") >= 2 {
			var pids []int
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				if f := strings.Fields(sc.Text()); len(f) == 2 {
					pid, _ := strconv.Atoi(f[1])
					pids = append(pids, pid)
				}
			}
			return pids
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the adapter took no case in 30s")
	return nil
}

// alive reports whether pid runs (a zombie, dead but not yet reaped by
// its new parent, does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: count it as running
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(f) == 0 || f[0] != "Z"
}

// TestSignalsStopACampaignPromptly: with an adapter that hangs (and a case
// timeout of a minute), SIGINT or SIGTERM ends tfuzz run within seconds:
// the adapter's process group is killed, the checkpoint is written, and the
// exit code is 128 + the signal. A second signal exits at once.
func TestSignalsStopACampaignPromptly(t *testing.T) {
	tests := []struct {
		name      string
		hangAfter int // cases answered before the adapter hangs
		signals   []syscall.Signal
		code      int
	}{
		{"SIGINT while checking a case", 0, []syscall.Signal{syscall.SIGINT}, 130},
		{"SIGTERM, as a batch scheduler sends", 0, []syscall.Signal{syscall.SIGTERM}, 143},
		{"SIGINT while shrinking a finding", 1, []syscall.Signal{syscall.SIGINT}, 130},
		{"a second SIGINT", 0, []syscall.Signal{syscall.SIGINT, syscall.SIGINT}, 130},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			out := filepath.Join(dir, "out")
			cmd, output := startTfuzz(t, []string{"HANG_PIDS=" + pids, "TFUZZ_ADAPTER_TIMEOUT=60s", "HANG_AFTER=" + strconv.Itoa(tt.hangAfter)},
				"run", "--backend", "exec:sh testdata/hang.sh", "-p", "numpy", "--op", "add",
				"--duration", "10m", "--workers", "1", "--seed", "5", "--out", out)
			procs := hungPIDs(t, pids)
			start := time.Now()
			for _, sig := range tt.signals {
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				time.Sleep(10 * time.Millisecond)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("tfuzz still runs 15s after %v\n%s", tt.signals, output)
			}
			took := time.Since(start)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.code {
				t.Errorf("exit %v, want %d\n%s", err, tt.code, output)
			}
			time.Sleep(100 * time.Millisecond) // the kernel reaps the killed group
			for _, pid := range procs {
				if alive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("process %d of the adapter outlived tfuzz", pid)
				}
			}
			if tt.hangAfter > 0 {
				// the finding whose shrinking was cut short is kept, as far as it got
				if files, _ := filepath.Glob(filepath.Join(out, "findings", "*.jsonl")); len(files) != 1 {
					t.Errorf("want the finding being shrunk stored, found %v\n%s", files, output)
				}
			}
			if len(tt.signals) == 1 {
				if _, err := os.Stat(filepath.Join(out, "state.json")); err != nil {
					t.Errorf("no checkpoint after the signal: %v", err)
				}
				if !strings.Contains(output.String(), "tfuzz run --resume --out") {
					t.Errorf("tfuzz does not say how to resume:\n%s", output)
				}
			}
			t.Logf("%v: tfuzz exited after %v", tt.signals, took.Round(time.Millisecond))
		})
	}
}

// TestSignalInterruptsEvalWhileDecoding: tfuzz eval stops at a signal even
// while it decodes a long line: 2^21 subnormal floats take strconv about a
// minute, and the signal does not wait for them.
func TestSignalInterruptsEvalWhileDecoding(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"op": "sum", "args": [{"dtype": "f64", "shape": [2097152], "data": [`)
	for i := 0; i < 1<<21; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"5e-324"`)
	}
	b.WriteString("]}]}\n")
	file := writeFile(t, "subnormal.jsonl", b.String())
	cmd, output := startTfuzz(t, nil, "eval", file)
	time.Sleep(time.Second)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 130 || !strings.Contains(output.String(), "tfuzz eval: interrupted") {
			t.Errorf("exit %v, want 130 saying it was interrupted\n%s", err, output)
		}
		t.Logf("tfuzz eval exited %v after the signal", time.Since(start).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("tfuzz eval still runs 10s after SIGINT\n%s", output)
	}
}
