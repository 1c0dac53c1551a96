package main

import (
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
An input may hold at most 64 MiB; a case over the per-case budget
(--max-case-mb) is refused.
Exit 0 when no input diverges, 1 when one does, 2 when an input is not a case.
`

// maxCrashInputBytes bounds what import-crash reads of one input: a case
// line is at most tensor.MaxLineBytes, and fuzzers' inputs are far smaller.
const maxCrashInputBytes = tensor.MaxLineBytes

func runImportCrash(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var backends, profiles []string
	var out, python string
	var noShrink bool
	fl := newFlags("import-crash", importCrashUsage, stdout, stderr)
	fl.StringArrayVar(&backends, "backend", nil, "check this backend (repeatable; default: all built in): "+backendHelp)
	fl.StringArrayVarP(&profiles, "profile", "p", nil, "only this profile (repeatable)")
	fl.StringVar(&out, "out", defaultOut, "output folder (findings/, cases/)")
	fl.BoolVar(&noShrink, "no-shrink", false, "store the case as the crash input holds it, unshrunk")
	maxCaseMB := budgetFlag(fl)
	pythonFlag(fl, &python)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if fl.NArg() == 0 {
		return fl.fail("no crash inputs given")
	}
	if err := checkProfiles("--profile", profiles); err != nil {
		return fl.errorf("%v", err)
	}
	if *maxCaseMB <= 0 {
		return fl.errorf("--max-case-mb must be positive")
	}
	setPython(python)
	targets, err := selectTargets(backends, profiles)
	if err != nil {
		return fl.errorf("%v", err)
	}
	defer closeTargets(targets)
	imp := importer{ctx: ctx, targets: targets, out: out, noShrink: noShrink,
		budget: tensor.Budget{MaxBytes: int64(*maxCaseMB) << 20}, stdout: stdout}
	code := exitClean
	for _, path := range fl.Args() {
		if ctx.Err() != nil {
			break
		}
		c, err := imp.importCrash(path)
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz import-crash: %v\n", err)
		}
		code = worse(code, c)
	}
	return code
}

// importer imports crash inputs into one output folder.
type importer struct {
	ctx      context.Context
	targets  []campaign.Target
	out      string
	noShrink bool
	budget   tensor.Budget
	stdout   io.Writer
}

// readLimited reads at most limit bytes of path, and fails beyond.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("%s: a folder, not a crash input", path)
	}
	raw, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(raw)) > limit {
		return nil, fmt.Errorf("%s: over the limit of %d MiB for a crash input", path, limit>>20)
	}
	return raw, nil
}

// importCrash imports one crash input and returns its exit code.
func (imp importer) importCrash(path string) (int, error) {
	ctx, targets, out, noShrink, stdout := imp.ctx, imp.targets, imp.out, imp.noShrink, imp.stdout
	raw, err := readLimited(path, maxCrashInputBytes)
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
	if err := imp.budget.Check(c, 2); err != nil { // the model's outcome and the backend's
		return exitUsage, fmt.Errorf("%s: %v", path, err)
	}
	fmt.Fprintf(stdout, "%s: %s: %s\n", path, format, c.Describe())
	found := 0
	for _, t := range targets {
		// the case, and its tier-sized twin where the fuzz target checked it
		cases := []*tensor.Case{c}
		if twin, p := fuzz.TierTwin(t.Backend, data, c); twin != nil && p == t.Profile {
			cases = append(cases, twin)
		}
		for _, x := range cases {
			if !props.Supports(t.Backend, t.Profile, x) || x != c && imp.budget.Check(x, 2) != nil {
				continue
			}
			f := props.Differential(boundBackend{t.Backend, ctx}, t.Profile, x)
			if ctx.Err() != nil {
				return exitUsage, fmt.Errorf("%s: interrupted", path)
			}
			if f == nil {
				continue
			}
			found++
			original := elements(x)
			if !noShrink {
				f = campaign.ShrinkFinding(ctx, t.Backend, f, 0)
			}
			file, isNew, err := campaign.AddFinding(out, f, campaign.FindingMeta{OriginalElements: original, Source: source})
			var inErr *campaign.InputError
			if errors.As(err, &inErr) {
				return exitUsage, fmt.Errorf("--out: %w", err)
			}
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
		return exitUsage, fmt.Errorf("--out: %w", err)
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
