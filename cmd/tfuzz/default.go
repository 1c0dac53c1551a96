package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
)

// defaultOut is the main job's output folder (tfuzz run's default --out).
const defaultOut = "tfuzz-out"

// runDefault is the main job: tfuzz with no command, or with only run's
// flags (tfuzz --duration 10m). It is tfuzz run, except that an output
// folder holding a campaign is continued rather than refused: running tfuzz
// again checks new cases and adds findings, and never replaces a checkpoint
// (--force starts over).
func runDefault(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o runOptions
	fl := runFlags(&o, stdout, stderr)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if code, ok := fl.noArgs(); !ok {
		return code
	}
	o.seedSet = fl.Changed("seed")
	if _, err := os.Stat(filepath.Join(o.out, "state.json")); err == nil && !o.resume && !o.force {
		o.resume, o.continued = true, true // the campaign says where it resumes
	}
	return runCampaign(ctx, o, stdout, stderr)
}
