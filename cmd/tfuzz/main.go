// Command tfuzz is the property-based differential fuzzer for tensor semantics.
//
//	tfuzz                      the main job on defaults (a 60-second campaign)
//	tfuzz try 'EXPR'           one case in notation, under every profile
//	tfuzz eval [flags] FILE... evaluate case files under profiles (--check, --json)
//	tfuzz run [flags]          a campaign
//	tfuzz help [COMMAND]       the commands, or one command's flags
//
// Exit codes: 0 clean, 1 divergence found, 2 usage error or bad input,
// 70 internal error, 128+N interrupted by signal N (130 SIGINT, 143 SIGTERM).
package main

import (
	"context"
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
	ctx, interrupted, stop := withSignals(context.Background(), os.Stderr)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if sig := interrupted(); sig != 0 {
		code = 128 + sig
	}
	os.Exit(code)
}

// worse returns the exit code of a command that met both a and b: an
// internal error over bad input over a divergence over clean.
func worse(a, b int) int {
	rank := map[int]int{exitClean: 0, exitDiverged: 1, exitUsage: 2, exitInternal: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

type verb struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func verbs() []verb {
	return []verb{
		{"try", "evaluate one case written in notation, e.g. 'floor_div(i8[-128], i8[-1])', under every profile", runTry},
		{"eval", "evaluate case files under profiles; --check compares with expect", runEval},
		{"run", "run a campaign: check backends against the model, shrink and store findings", runRun},
		{"repro", "replay findings: exit 1 while one still diverges", runRepro},
		{"report", "render findings as Markdown or JSON, with repro programs per framework", runReport},
		{"diff", "the portability atlas of two profiles: the model against itself", runDiff},
		{"merge", "merge the output folders of campaign shards into one findings folder and report", runMerge},
		{"import-crash", "turn libFuzzer / go test -fuzz crash inputs into findings tfuzz repro replays", runImportCrash},
		{"profiles", "list the model's profiles and their provenance", runProfiles},
		{"ops", "list the op catalog: each op's arguments and attrs", runOps},
		{"rules", "list the model's rules and their sources", runRules},
		{"version", "print the version, module version and VCS revision", runVersion},
	}
}

// run dispatches to a verb and turns an escaped panic into exit code 70.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return internalErrors(stderr, func() int { return dispatch(ctx, args, stdout, stderr) })
}

// internalErrors runs f and turns a panic that escapes it into exit code
// 70 and one line saying so, not a Go stack trace.
func internalErrors(stderr io.Writer, f func() int) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "tfuzz: internal error: %v\n(a bug in tfuzz: please report it with the command line)\n", r)
			code = exitInternal
		}
	}()
	return f()
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runDefault(ctx, nil, stdout, stderr)
	}
	switch args[0] {
	case "-h", "--help":
		usage(stdout)
		return exitClean
	case "--version":
		return runVersion(ctx, args[1:], stdout, stderr)
	case "help":
		if len(args) == 1 {
			usage(stdout)
			return exitClean
		}
		if v, ok := lookupVerb(args[1]); ok {
			return v.run(ctx, []string{"--help"}, stdout, stderr)
		}
		fmt.Fprintf(stderr, "tfuzz help: unknown command %q\n\n", args[1])
		usage(stderr)
		return exitUsage
	}
	if v, ok := lookupVerb(args[0]); ok {
		return v.run(ctx, args[1:], stdout, stderr)
	}
	if args[0] != "" && args[0][0] == '-' {
		// flags without a command are the main job's: tfuzz --duration 10s
		return runDefault(ctx, args, stdout, stderr)
	}
	fmt.Fprintf(stderr, "tfuzz: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func lookupVerb(name string) (verb, bool) {
	for _, v := range verbs() {
		if v.name == name {
			return v, true
		}
	}
	return verb{}, false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tfuzz [command] [flags] [args]")
	fmt.Fprintln(w, "\nWith no command, tfuzz runs its main job: a 60-second campaign of the built-in backends\nagainst the model (tfuzz help run).\n\ncommands:")
	for _, v := range verbs() {
		fmt.Fprintf(w, "  %-12s %s\n", v.name, v.summary)
	}
	fmt.Fprintln(w, "\ntfuzz help COMMAND (or tfuzz COMMAND -h) prints a command's flags.")
	fmt.Fprintln(w, "The case format is described in docs/case-format.md; tfuzz ops lists the ops.")
	fmt.Fprintln(w, "\nexit codes: 0 clean, 1 divergence found, 2 usage error or bad input, 70 internal error,")
	fmt.Fprintln(w, "130 / 143 interrupted by SIGINT / SIGTERM (what was found is written; run resumes with --resume)")
}
