package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/reports"
)

const reportUsage = `usage: tfuzz report [--json] [--out DIR] [--repro-profile P]... DIR|FILE...

Renders findings for people: per finding the minimal inputs, the expected
(model) and actual outcomes side by side, the model's rules that explain
them, the tfuzz version, the seed and the commands that replay it. DIR is a
campaign's output folder (tfuzz run --out), its findings/ folder, or finding
files. Prints Markdown ready for an issue, or JSON with --json. With --out DIR
it writes DIR/report.md, DIR/report.json and, per finding, standalone repro
programs in the language of each framework involved under DIR/repro/<id>/.
Exit 0 with no finding, 1 with findings, 2 on bad input.
`

func runReport(args []string, stdout, stderr io.Writer) int {
	var asJSON bool
	var out string
	var reproProfiles []string
	fl := pflag.NewFlagSet("report", pflag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, reportUsage, "\nflags:\n", fl.FlagUsages()) }
	fl.BoolVar(&asJSON, "json", false, "print JSON instead of Markdown")
	fl.StringVar(&out, "out", "", "write report.md, report.json and the repro programs into this folder")
	fl.StringArrayVar(&reproProfiles, "repro-profile", nil, "also write repro programs for this profile (repeatable; e.g. pytorch/cuda)")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "tfuzz report: %v\n", err)
		return exitUsage
	}
	if fl.NArg() == 0 {
		fmt.Fprint(stderr, "tfuzz report: no findings folder given\n\n")
		fl.Usage()
		return exitUsage
	}
	for _, p := range reproProfiles {
		if _, ok := model.Lookup(p); !ok {
			fmt.Fprintf(stderr, "tfuzz report: --repro-profile: unknown profile %q (see tfuzz profiles)\n", p)
			return exitUsage
		}
	}
	findings, err := reports.Read(fl.Args()...)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz report: %v\n", err)
		return exitUsage
	}
	o := reports.Options{Source: strings.Join(fl.Args(), " "), ReproProfiles: reproProfiles}
	switch {
	case out != "":
		written, err := reports.WriteDir(out, findings, o)
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz report: %v\n", err)
			return exitInternal
		}
		fmt.Fprintf(stdout, "%d findings: wrote %s/report.md, %s/report.json and %d repro programs\n", len(findings), out, out, len(written))
	case asJSON:
		err = reports.WriteJSON(stdout, findings, o)
	default:
		err = reports.WriteMarkdown(stdout, findings, o)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz report: %v\n", err)
		return exitInternal
	}
	if len(findings) > 0 {
		return exitDiverged
	}
	return exitClean
}
