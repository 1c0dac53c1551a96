package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// defaultOut is the main job's output folder (tfuzz run's default --out).
const defaultOut = "tfuzz-out"

// runDefault is the main job on defaults: a 60-second campaign of every
// built-in backend against every profile it claims (tfuzz run with its
// default flags), findings in tfuzz-out/. When tfuzz-out holds a campaign,
// the main job continues it: running tfuzz again checks new cases and adds
// findings, and never replaces a checkpoint (tfuzz run --force starts over).
func runDefault(ctx context.Context, stdout, stderr io.Writer) int {
	if _, err := os.Stat(filepath.Join(defaultOut, "state.json")); err == nil {
		fmt.Fprintf(stderr, "tfuzz: %s holds a campaign: continuing it (tfuzz run --force starts a new one)\n", defaultOut)
		return runRun(ctx, []string{"--resume"}, stdout, stderr)
	}
	return runRun(ctx, nil, stdout, stderr)
}
