// Command planted runs the example campaign of reports/examples: a backend
// with three planted bugs (reports/internal/plantedbug) checked against the
// model's numpy profile, and writes the report of what it finds.
//
//	go run ./reports/examples/planted              regenerate reports/examples/planted-numpy
//	go run ./reports/examples/planted repro FILE   replay a finding; exit 1 while it diverges
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/tfuzz/tfuzz/reports/internal/plantedbug"
)

// Dir is where the example lives, from the repository root.
const Dir = "reports/examples/planted-numpy"

func main() {
	args := os.Args[1:]
	switch {
	case len(args) == 0:
		if err := plantedbug.Generate(context.Background(), Dir, Dir); err != nil {
			fmt.Fprintln(os.Stderr, "planted:", err)
			os.Exit(70)
		}
		fmt.Println("wrote", Dir)
	case args[0] == "repro" && len(args) > 1:
		still, err := plantedbug.Repro(args[1:]...)
		if err != nil {
			fmt.Fprintln(os.Stderr, "planted:", err)
			os.Exit(2)
		}
		for _, f := range still {
			fmt.Println(f.Error())
		}
		if len(still) > 0 {
			os.Exit(1)
		}
		fmt.Println("fixed: the planted backend agrees with the model")
	default:
		fmt.Fprintln(os.Stderr, "usage: planted [repro FINDING.jsonl...]")
		os.Exit(2)
	}
}
