package main

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/fuzz"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

const importCrashUsage = `usage: tfuzz import-crash [flags] CRASH...

Turns inputs on which a fuzz target of fuzz/ failed into tfuzz findings: a
libFuzzer crash input (ClusterFuzzLite, OSS-Fuzz, scripts/libfuzzer-build.sh:
crash-<sha1>), a go test -fuzz corpus file (testdata/fuzz/<target>/<hash>) or
a case-format line. Each input is decoded into its case and checked against
every backend (or each --backend) on the profiles it claims; every
divergence is shrunk and written to OUT/findings as a finding file, which
tfuzz repro replays, tfuzz report renders and tfuzz merge merges. Once the
bug is fixed, the file (its expect is the model's outcome) is a regression
case for corpus/regressions/. An input that decodes but on which no backend
diverges while the model's own checks fail (a crash of the codec or model
target) is written as a case to OUT/cases for tfuzz eval.
Exit 0 when no input diverges, 1 when one does, 2 when an input is not a case.
`

func runImportCrash(args []string, stdout, stderr io.Writer) int {
	var backends, profiles []string
	var out string
	var noShrink bool
	fl := pflag.NewFlagSet("import-crash", pflag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, importCrashUsage, "\nflags:\n", fl.FlagUsages()) }
	fl.StringArrayVar(&backends, "backend", nil, "check this backend (repeatable; default: all built in)")
	fl.StringArrayVar(&profiles, "profile", nil, "only this profile (repeatable)")
	fl.StringVar(&out, "out", "tfuzz-out", "output folder (findings/, cases/)")
	fl.BoolVar(&noShrink, "no-shrink", false, "store the case as the crash input holds it, unshrunk")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "tfuzz import-crash: %v\n", err)
		return exitUsage
	}
	if fl.NArg() == 0 {
		fmt.Fprint(stderr, "tfuzz import-crash: no crash inputs given\n\n")
		fl.Usage()
		return exitUsage
	}
	targets, err := selectTargets(backends, profiles)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz import-crash: %v\n", err)
		return exitUsage
	}
	defer closeTargets(targets)
	code := exitClean
	for _, path := range fl.Args() {
		c, err := importCrash(path, targets, out, noShrink, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz import-crash: %v\n", err)
		}
		code = max(code, c)
	}
	return code
}

// importCrash imports one crash input and returns its exit code.
func importCrash(path string, targets []campaign.Target, out string, noShrink bool, stdout io.Writer) (int, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return exitUsage, err
	}
	c, data, format, err := fuzz.ReadCrashInput(raw)
	if err != nil {
		var de *tensor.DecodeError
		if errors.As(err, &de) {
			de.File = path
			if de.Line == 0 {
				de.Line = 1
			}
			return exitUsage, fmt.Errorf("%w (the input, read as a %s, is not a tfuzz case)", de, format)
		}
		return exitUsage, fmt.Errorf("%s: not a crash input tfuzz can read (as a %s): %v", path, format, err)
	}
	source := fmt.Sprintf("tfuzz %s import-crash of %s (%s, sha1 %x)", campaign.Version, filepath.Base(path), format, sha1.Sum(raw))
	fmt.Fprintf(stdout, "%s: %s: %s\n", path, format, c.Describe())
	found := 0
	for _, t := range targets {
		if !t.Backend.Supports(t.Profile, c) {
			continue
		}
		f := props.Differential(t.Backend, t.Profile, c)
		if f == nil {
			continue
		}
		found++
		original := elements(c)
		if !noShrink {
			f = campaign.ShrinkFinding(t.Backend, f, 0)
		}
		file, isNew, err := campaign.AddFinding(out, f, campaign.FindingMeta{OriginalElements: original, Source: source})
		if err != nil {
			return exitInternal, err
		}
		state := "already there (same signature)"
		if isNew {
			state = fmt.Sprintf("written, shrunk from %d to %d elements", original, elements(f.Case))
		}
		fmt.Fprintf(stdout, "  %s on %s: %s (%s)\n  -> %s: %s\n  replay: tfuzz repro %s\n",
			t.Backend.Name(), t.Profile, f.Compare.Divergence, f.Compare.Detail, file, state, file)
	}
	if found > 0 {
		return exitDiverged, nil
	}
	problem := fuzz.CheckCodec(data)
	if problem == nil {
		problem = fuzz.CheckModel(data)
	}
	if problem == nil {
		fmt.Fprintf(stdout, "  no divergence: every backend here agrees with the model on it, and the model's checks hold "+
			"(fixed, or the crash needs another build of the backend, such as -tags zoo with TFUZZ_ZOO set)\n")
		return exitClean, nil
	}
	dir := filepath.Join(out, "cases")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exitInternal, err
	}
	cc := *c
	cc.ID, cc.Source = fmt.Sprintf("crash-%x", sha1.Sum(raw)), source
	file := filepath.Join(dir, cc.ID+".jsonl")
	if err := campaign.WriteFileAtomic(file, append(tensor.EncodeCase(&cc), '\n')); err != nil {
		return exitInternal, err
	}
	fmt.Fprintf(stdout, "  no backend diverges, but the model's own check fails: %v\n  -> %s (replay: tfuzz eval %s)\n", problem, file, file)
	return exitDiverged, nil
}

func elements(c *tensor.Case) int {
	n := 0
	for _, a := range c.Args {
		if a.Tensor != nil {
			n += a.Tensor.Len()
		}
	}
	return n
}
