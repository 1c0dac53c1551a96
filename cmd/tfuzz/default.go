package main

import "io"

// runDefault is the main job on defaults: a 60-second campaign of every
// built-in backend against every profile it claims (tfuzz run with its
// default flags), findings in tfuzz-out/.
func runDefault(stdout, stderr io.Writer) int {
	return runRun(nil, stdout, stderr)
}
