// Command tfuzz is the property-based differential fuzzer for tensor semantics.
//
//	tfuzz                      the main job on defaults
//	tfuzz eval [flags] FILE... evaluate case files under profiles (--check, --json)
//	tfuzz profiles             the model's profiles and their provenance
//	tfuzz ops                  the op catalog
//
// Exit codes: 0 clean, 1 divergence found, 2 usage error or bad input, 70 internal error.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes shared by every verb.
const (
	exitClean    = 0
	exitDiverged = 1
	exitUsage    = 2
	exitInternal = 70
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type verb struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) int
}

func verbs() []verb {
	return []verb{
		{"eval", "evaluate case files under profiles; --check compares with expect", runEval},
		{"run", "run a campaign: check backends against the model, shrink and store findings", runRun},
		{"repro", "replay findings: exit 1 while one still diverges", runRepro},
		{"merge", "merge the output folders of campaign shards into one findings folder and report", runMerge},
		{"import-crash", "turn libFuzzer / go test -fuzz crash inputs into findings tfuzz repro replays", runImportCrash},
		{"report", "render findings as Markdown or JSON, with repro programs per framework", runReport},
		{"diff", "the portability atlas of two profiles: the model against itself", runDiff},
		{"profiles", "list the model's profiles and their provenance", runProfiles},
		{"ops", "list the op catalog", runOps},
		{"rules", "list the model's rules and their sources", runRules},
	}
}

// run dispatches to a verb and turns an escaped panic into exit code 70.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "tfuzz: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		return runDefault(stdout, stderr)
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return exitClean
	}
	for _, v := range verbs() {
		if v.name == args[0] {
			return v.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "tfuzz: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tfuzz [command] [flags] [args]")
	fmt.Fprintln(w, "\nWith no command, tfuzz runs its main job on defaults.\n\ncommands:")
	for _, v := range verbs() {
		fmt.Fprintf(w, "  %-10s %s\n", v.name, v.summary)
	}
	fmt.Fprintln(w, "\nexit codes: 0 clean, 1 divergence found, 2 usage error or bad input, 70 internal error")
}
