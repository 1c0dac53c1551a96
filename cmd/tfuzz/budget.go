package main

import (
	"os"
	"runtime/debug"

	"github.com/tfuzz/tfuzz/tensor"
)

// memoryLimit is the soft limit of the Go heap (debug.SetMemoryLimit): the
// collector works harder as the heap nears it, so that garbage never pushes
// tfuzz over 1 GB while what is live stays within the per-case budget
// (tensor.DefaultBudgetBytes, 640 MiB).
const memoryLimit = 800 << 20

// gcPercent is the collector's target (GOGC) when the user sets none: a
// campaign allocates its small cases at a high rate over a small live heap,
// where the default of 100 collects several hundred times a second; 400
// spends about a tenth less time per case, and the soft limit above still
// bounds the heap.
const gcPercent = 400

func init() {
	// GOMEMLIMIT and GOGC, when set, are the user's choice.
	if debug.SetMemoryLimit(-1) == 1<<63-1 {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// budgetFlag adds --max-case-mb, the per-case memory budget in MiB.
func budgetFlag(fl *flags) *int {
	return fl.Int("max-case-mb", int(tensor.DefaultBudgetBytes>>20),
		"refuse a case whose evaluation would need more than this many MiB (its inputs and result, estimated before evaluating)")
}
