package main

import (
	"fmt"
	"io"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

func runProfiles(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: tfuzz profiles")
		return exitUsage
	}
	for _, p := range model.All() {
		fmt.Fprintf(stdout, "%-20s %s\n", p.Name, p.Doc)
		fmt.Fprintf(stdout, "%-20s evidence: %s\n", "", p.Evidence)
	}
	return exitClean
}

func runOps(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: tfuzz ops")
		return exitUsage
	}
	for _, op := range tensor.Ops {
		fmt.Fprintf(stdout, "%-14s %s\n", op.Name, op.Doc)
	}
	return exitClean
}
