package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/reports"
)

const mergeUsage = `usage: tfuzz merge [--out] OUT DIR...

Merges the output folders of campaign shards (tfuzz run --shard k/n --out
DIR), or of campaigns run on many machines, into OUT: OUT/findings holds one
finding per distinct signature (the smallest case any input holds for it,
copied atomically; findings already in OUT are kept), OUT/report.md and
OUT/report.json the report of them, headed by the case counts of every
shard, and OUT/merge.json those counts and which inputs found each
signature. An input is a folder with state.json and findings/ (a folder with
findings/ alone, such as tfuzz import-crash --out, adds findings but no
cases). The same shard given twice is counted once.
Exit 0 with no finding, 1 with findings, 2 on bad input.
`

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var out string
	fl := newFlags("merge", mergeUsage, stdout, stderr)
	fl.StringVar(&out, "out", "", "the merged output folder (or give it as the first argument)")
	if code, ok := fl.parse(args); !ok {
		return code
	}
	dirs := fl.Args()
	if out == "" && len(dirs) > 0 {
		out, dirs = dirs[0], dirs[1:]
	}
	if out == "" || len(dirs) == 0 {
		return fl.fail("want an output folder and at least one folder to merge")
	}
	res, err := campaign.Merge(out, dirs)
	var inErr *campaign.InputError
	switch {
	case errors.As(err, &inErr):
		fmt.Fprintf(stderr, "tfuzz merge: %v\n", err)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "tfuzz merge: %v\n", err)
		return exitInternal
	}
	paths := make([]string, len(res.Findings))
	for i, f := range res.Findings {
		paths[i] = f.File
	}
	findings, err := reports.Read(paths...)
	if err != nil {
		fmt.Fprintf(stderr, "tfuzz merge: %v\n", err)
		return exitInternal
	}
	if err := writeMergeReport(out, res, findings); err != nil {
		fmt.Fprintf(stderr, "tfuzz merge: %v\n", err)
		return exitInternal
	}
	for _, w := range append(res.Warnings, res.Missing...) {
		fmt.Fprintf(stderr, "tfuzz merge: note: %s\n", w)
	}
	fmt.Fprint(stdout, mergeTable(res))
	fmt.Fprintf(stdout, "%d inputs, %d cases; %d finding files, %d distinct signatures (%d new) in %s\nreport: %s, %s\n",
		len(res.Shards), res.Cases, res.InputFiles, len(res.Findings), countNew(res), filepath.Join(out, campaign.FindingsDir),
		filepath.Join(out, "report.md"), filepath.Join(out, "merge.json"))
	if len(res.Findings) > 0 {
		return exitDiverged
	}
	return exitClean
}

func countNew(res *campaign.MergeResult) int {
	n := 0
	for _, f := range res.Findings {
		if f.New {
			n++
		}
	}
	return n
}

// mergeTable is the per-input table of a merge, as Markdown.
func mergeTable(res *campaign.MergeResult) string {
	var b strings.Builder
	b.WriteString("| input | seed | shard | cases | findings |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, sh := range res.Shards {
		seed, shard, cases := "-", "-", "-"
		if sh.HasState {
			seed, shard, cases = fmt.Sprint(sh.Seed), fmt.Sprintf("%d/%d", sh.Shard, sh.Shards), fmt.Sprint(sh.Cases)
			if !sh.Counted {
				cases += " (counted in another input)"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d |\n", sh.Dir, seed, shard, cases, sh.Findings)
	}
	fmt.Fprintf(&b, "| **all** | | | **%d** | **%d** files, **%d** signatures |\n", res.Cases, res.InputFiles, len(res.Findings))
	return b.String()
}

// writeMergeReport writes OUT/report.md (the case counts of every input,
// then the report of the merged findings), OUT/report.json and
// OUT/merge.json, each atomically.
func writeMergeReport(out string, res *campaign.MergeResult, findings []*reports.Finding) error {
	o := reports.Options{Source: filepath.Join(out, campaign.FindingsDir)}
	var md bytes.Buffer
	if err := reports.WriteMarkdown(&md, findings, o); err != nil {
		return err
	}
	var head strings.Builder
	fmt.Fprintf(&head, "Merged by `tfuzz merge` from %d campaign output folders: **%d cases** checked in all, "+
		"%d finding files, **%d distinct signatures**.\n\n", len(res.Shards), res.Cases, res.InputFiles, len(res.Findings))
	head.WriteString(mergeTable(res))
	for _, w := range append(res.Missing, res.Warnings...) {
		fmt.Fprintf(&head, "\nNote: %s.\n", w)
	}
	head.WriteString("\n")
	text := md.String()
	// After the report's title line, or first when it has none.
	if i := strings.Index(text, "\n\n"); strings.HasPrefix(text, "# ") && i >= 0 {
		text = text[:i+2] + head.String() + text[i+2:]
	} else {
		text = head.String() + text
	}
	var js bytes.Buffer
	if err := reports.WriteJSON(&js, findings, o); err != nil {
		return err
	}
	summary, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"report.md": []byte(text), "report.json": js.Bytes(), "merge.json": append(summary, '\n')} {
		if err := campaign.WriteFileAtomic(filepath.Join(out, name), data); err != nil {
			return err
		}
	}
	return nil
}
