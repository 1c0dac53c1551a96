//go:build !unix

package adapter

import (
	"os"
	"os/exec"
)

// Without Unix process groups and wait statuses, a hung adapter is killed
// alone and a crash is reported by exit code.

func setProcessGroup(cmd *exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func exitSignal(st *os.ProcessState) (string, bool) { return "", false }
