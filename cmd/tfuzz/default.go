package main

import (
	"fmt"
	"io"
	"os"
)

// defaultCaseDirs are the case files the main job checks the model against:
// the project's own corpus and, when the checkout sits beside it, the shared
// oracle of recorded real-framework outcomes.
var defaultCaseDirs = []string{"corpus", "../shared/oracle"}

// defaultExceptions lists the recorded outcomes the model departs from on purpose.
const defaultExceptions = "corpus/oracle-exceptions.txt"

// runDefault is the main job on defaults: check the model against every case
// file it can find and print the per-profile summary.
func runDefault(stdout, stderr io.Writer) int {
	var args []string
	for _, d := range defaultCaseDirs {
		if files, err := caseFiles([]string{d}); err == nil && len(files) > 0 {
			args = append(args, d)
		}
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "tfuzz: no case files found (looked for corpus/ and ../shared/oracle/)")
		return exitUsage
	}
	flags := []string{"--check", "--summary-only"}
	if _, err := os.Stat(defaultExceptions); err == nil {
		flags = append(flags, "--exceptions", defaultExceptions)
	}
	fmt.Fprintf(stderr, "tfuzz: checking the model against %v\n", args)
	return runEval(append(flags, args...), stdout, stderr)
}
