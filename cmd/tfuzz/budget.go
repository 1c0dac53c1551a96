package main

import (
	"runtime/debug"

	"github.com/tfuzz/tfuzz/tensor"
)

// memoryLimit is the soft limit of the Go heap (debug.SetMemoryLimit): the
// collector works harder as the heap nears it, so that garbage never pushes
// tfuzz over 1 GB while what is live stays within the per-case budget
// (tensor.DefaultBudgetBytes, 640 MiB).
const memoryLimit = 800 << 20

func init() {
	// GOMEMLIMIT, when set, is the user's choice.
	if debug.SetMemoryLimit(-1) == 1<<63-1 {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// budgetFlag adds --max-case-mb, the per-case memory budget in MiB.
func budgetFlag(fl *flags) *int {
	return fl.Int("max-case-mb", int(tensor.DefaultBudgetBytes>>20),
		"refuse a case whose evaluation would need more than this many MiB (its inputs and result, estimated before evaluating)")
}
