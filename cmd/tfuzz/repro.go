package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/impls/adapter"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/reports"
	"github.com/tfuzz/tfuzz/tensor"
)

const reproUsage = `usage: tfuzz repro [--backend B] [--allow-exec] FINDING|DIR...

Replays findings: each finding's case is evaluated again by the backend it
names (or --backend) and by the model, under the finding's profile. A DIR is
a campaign's output folder or its findings/ folder.

A finding is a file anyone may send you, so replaying one never runs a
command it names: a finding of an exec:COMMAND backend prints the command
and is not replayed unless --allow-exec is given. A finding of a backend
this tfuzz does not have (a test backend such as the example report's
"planted") or of an unknown profile is an error, never "fixed".
A backend call that does not return within --hang-after (a hang finding
replayed) is reported as still hanging, and the next finding is replayed.
Exit 0 when every finding is fixed, 1 while one still diverges or hangs, 2
when one cannot be replayed.
`

func runRepro(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var backend, python string
	var allowExec bool
	fl := newFlags("repro", reproUsage, stdout, stderr)
	fl.StringVar(&backend, "backend", "", "replay against this backend instead of the finding's: "+backendHelp)
	fl.BoolVar(&allowExec, "allow-exec", false, "run the exec:COMMAND a finding names (only for findings you trust)")
	hangAfter := fl.Duration("hang-after", 30*time.Second, "a backend call still running after this long is a hang")
	pythonFlag(fl, &python)
	maxCaseMB := budgetFlag(fl)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if fl.NArg() == 0 {
		return fl.fail("no finding given")
	}
	setPython(python)
	budget := tensor.Budget{MaxBytes: int64(*maxCaseMB) << 20}
	var paths []string
	for _, a := range fl.Args() {
		files, err := reports.FindingFiles(a)
		if err != nil {
			return fl.errorf("%v", err)
		}
		if len(files) == 0 {
			return fl.errorf("%s: no findings (want a finding file, a campaign output folder or its findings/ folder)", a)
		}
		paths = append(paths, files...)
	}
	code := exitClean
	for _, path := range paths {
		if ctx.Err() != nil {
			break
		}
		code = worse(code, reproOne(ctx, path, replay{backend, allowExec, budget, *hangAfter}, stdout, stderr))
	}
	return code
}

// replay is how repro replays a finding.
type replay struct {
	backend   string // --backend: "" for the finding's
	allowExec bool
	budget    tensor.Budget
	hangAfter time.Duration
}

// printable is s as it reads, or Go-quoted (its start only when it is
// long) when it holds a control character or invalid UTF-8 or runs past a
// screen: a command from a file someone sent must not rewrite the terminal
// line that shows it ("\x1b[2K\r").
func printable(s string) string {
	if len(s) > 1000 {
		return tensor.Quote(s)
	}
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return tensor.Quote(s)
		}
	}
	return s
}

// reproOne replays one finding file and returns its exit code.
func reproOne(ctx context.Context, path string, o replay, stdout, stderr io.Writer) int {
	backend, allowExec, budget := o.backend, o.allowExec, o.budget
	sf, err := campaign.ReadFinding(path)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz repro: %v\n", err)
		return exitUsage
	}
	name := sf.Info.Backend
	if backend != "" {
		name = backend
	}
	if adapter.IsExec(name) && backend == "" && !allowExec {
		fmt.Fprintf(stderr, "tfuzz repro: %s: the finding's backend runs a command:\n    %s\n"+
			"  not run: give --allow-exec if you trust this file, or --backend to replay it elsewhere\n", path, printable(name))
		return exitUsage
	}
	if err := budget.Check(sf.Case, 2); err != nil { // the model's outcome and the backend's
		fmt.Fprintf(stderr, "tfuzz repro: %s: %v\n", path, err)
		return exitUsage
	}
	b, err := openBackend(name)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz repro: %s: backend %s is not available here: %v\n", path, tensor.Quote(name), err)
		if _, ok := backendFactories[name]; !ok && !adapter.IsExec(name) && name != pythonBackend {
			fmt.Fprintf(stderr, "  a finding of a backend built into another program is replayed by that program "+
				"(the example report's: go run ./reports/examples/planted repro FILE)\n")
		}
		return exitUsage
	}
	defer closeBackend(b)
	if !contains(b.Profiles(), sf.Info.Profile) {
		fmt.Fprintf(stderr, "tfuzz repro: %s: %s\n", path, notServed(b, sf.Info.Profile))
		return exitUsage
	}
	// the backend's calls, Supports included, run under the hang limit (a
	// hang finding replayed hangs again)
	hangCtx, cancel := context.WithTimeout(ctx, o.hangAfter)
	defer cancel()
	supported, ok := interruptible(hangCtx, func() bool { return props.Supports(b, sf.Info.Profile, sf.Case) })
	if ok {
		switch {
		case !supported && props.UnclaimedDecline(b, sf.Info.Profile, sf.Case) != nil:
			fmt.Fprintf(stdout, "%s\n  %s on %s: %s\n  still declines it: the model answers the case and the backend lists no gap for it\n",
				path, b.Name(), sf.Info.Profile, sf.Case.Describe())
			return exitDiverged
		case !supported:
			fmt.Fprintf(stdout, "%s\n  %s on %s: %s\n  declined: the backend no longer takes the case (nothing to compare)\n",
				path, b.Name(), sf.Info.Profile, sf.Case.Describe())
			return exitClean
		case model.Eval(sf.Info.Profile, sf.Case).NotModeled():
			fmt.Fprintf(stdout, "%s\n  %s on %s: %s\n  not modeled: the model states no outcome for the case (nothing to compare)\n",
				path, b.Name(), sf.Info.Profile, sf.Case.Describe())
			return exitClean
		}
	}
	var f *props.Finding
	if ok {
		f, ok = interruptible(hangCtx, func() *props.Finding { return props.Differential(boundBackend{b, ctx}, sf.Info.Profile, sf.Case) })
	}
	if ctx.Err() != nil {
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s\n  %s on %s: %s\n", path, b.Name(), sf.Info.Profile, sf.Case.Describe())
	if !ok {
		fmt.Fprintf(stdout, "  still hangs: the backend did not return within %s\n", o.hangAfter)
		return exitDiverged
	}
	if f == nil {
		fmt.Fprintln(stdout, "  fixed: the backend now agrees with the model")
		return exitClean
	}
	fmt.Fprintf(stdout, "  still diverges (%s)\n  model:   %s\n  backend: %s\n  %s\n  model rules: %v\n",
		f.Compare.Divergence, f.Want, f.Got, f.Compare.Detail, f.Want.Rules)
	return exitDiverged
}
