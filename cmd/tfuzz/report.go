package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

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

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var asJSON bool
	var out string
	var reproProfiles []string
	fl := newFlags("report", reportUsage, stdout, stderr)
	fl.BoolVar(&asJSON, "json", false, "print JSON instead of Markdown")
	fl.StringVar(&out, "out", "", "write report.md, report.json and the repro programs into this folder")
	fl.StringArrayVar(&reproProfiles, "repro-profile", nil, "also write repro programs for this profile (repeatable; e.g. pytorch/cuda)")
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if fl.NArg() == 0 {
		return fl.fail("no findings folder given")
	}
	if err := checkProfiles("--repro-profile", reproProfiles); err != nil {
		return fl.errorf("%v", err)
	}
	if out != "" {
		if info, err := os.Stat(out); err == nil && !info.IsDir() {
			return fl.errorf("--out: %s is a file, not a folder", out)
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
			fmt.Fprintf(stderr, "tfuzz report: --out: %v\n", err)
			return exitUsage
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
