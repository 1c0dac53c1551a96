// Command seedcorpus writes the seed corpus and the dictionary of the
// libFuzzer builds of the fuzz targets (scripts/libfuzzer-build.sh,
// .clusterfuzzlite/build.sh): one input per case of the project's corpus,
// framed as the go-118-fuzz-build targets read their []byte argument, and a
// libFuzzer dictionary of the case format's keys, op and dtype names and
// edge values.
//
//	go run ./fuzz/internal/seedcorpus [-corpus corpus] [-generated N] [-dir DIR] [-zip FILE]... [-dict FILE]
//
// With -generated N it adds N cases drawn by the campaign generators
// (props.GenCase, draws 0..N-1, so the same N gives the same files): every
// op and dtype, values biased to the edges, which byte mutations of the
// hand-written corpus alone reach slowly.
//
// Every target takes the same inputs (case-format bytes), so the same files
// seed them all; -zip may be given once per target.
package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/fuzz"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

type files []string

func (f *files) String() string     { return fmt.Sprint(*f) }
func (f *files) Set(s string) error { *f = append(*f, s); return nil }

func main() {
	corpus := flag.String("corpus", "corpus", "the project's corpus folder (case files under */*.jsonl)")
	dir := flag.String("dir", "", "write the seed inputs into this folder, one file each")
	dict := flag.String("dict", "", "write a libFuzzer dictionary to this file")
	raw := flag.Bool("raw", false, "write plain case bytes, not framed for go-118-fuzz-build")
	generated := flag.Int("generated", 0, "add this many cases drawn by the campaign generators")
	var zips files
	flag.Var(&zips, "zip", "write the seed inputs into this zip file (repeatable)")
	flag.Parse()
	if flag.NArg() > 0 || (*dir == "" && *dict == "" && len(zips) == 0) {
		fmt.Fprintln(os.Stderr, "usage: seedcorpus [-corpus DIR] [-dir DIR] [-zip FILE]... [-dict FILE] [-raw]")
		os.Exit(2)
	}
	if err := run(*corpus, *generated, *dir, zips, *dict, *raw); err != nil {
		fmt.Fprintf(os.Stderr, "seedcorpus: %v\n", err)
		os.Exit(1)
	}
}

func run(corpus string, generated int, dir string, zips []string, dict string, raw bool) error {
	inputs, err := fuzz.CorpusInputs(corpus)
	if err != nil {
		return err
	}
	gen := props.GenCase(props.CaseOptions{})
	for i := 0; i < generated; i++ {
		c := gen.Example(i)
		c.Expect, c.Got = nil, nil
		inputs = append(inputs, tensor.EncodeCase(c))
	}
	named := map[string][]byte{}
	for _, in := range inputs {
		if !raw {
			in = fuzz.EncodeLibFuzzerInput(in)
		}
		sum := sha1.Sum(in)
		named[hex.EncodeToString(sum[:])] = in
	}
	names := make([]string, 0, len(named))
	for n := range named {
		names = append(names, n)
	}
	sort.Strings(names)
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), named[n], 0o644); err != nil {
				return err
			}
		}
	}
	for _, z := range zips {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		for _, n := range names {
			f, err := w.Create(n)
			if err != nil {
				return err
			}
			if _, err := f.Write(named[n]); err != nil {
				return err
			}
		}
		if err := w.Close(); err != nil {
			return err
		}
		if err := campaign.WriteFileAtomic(z, buf.Bytes()); err != nil {
			return err
		}
	}
	if dict != "" {
		if err := campaign.WriteFileAtomic(dict, dictionary()); err != nil {
			return err
		}
	}
	fmt.Printf("%d seed inputs from %s and %d generated cases\n", len(names), corpus, generated)
	return nil
}

// dictionary lists the tokens a mutation of a case is likely to need.
func dictionary() []byte {
	var words []string
	for _, k := range []string{"id", "op", "args", "attrs", "dtype", "shape", "data", "scalar", "kind",
		"value", "literal", "host", "start", "group", "rank", "to", "mode", "dim", "keepdim", "tolerance_ulps",
		"view", "base", "permute", "slice", "expand", "format", "steps", "arg", "step"} {
		words = append(words, `"`+k+`": `)
	}
	for _, op := range tensor.Ops {
		words = append(words, `"`+op.Name+`"`)
	}
	for _, d := range tensor.AllDTypes {
		words = append(words, `"`+d.String()+`"`)
	}
	for _, d := range tensor.AllDTypes {
		if d.IsSigned() {
			words = append(words, strconv.FormatInt(d.MinInt(), 10), strconv.FormatInt(d.MaxInt(), 10))
		} else if d.IsUnsigned() {
			words = append(words, strconv.FormatUint(d.MaxUint(), 10))
		}
	}
	words = append(words, `"nan"`, `"inf"`, `"-inf"`, `"-0.0"`, "16777217", "9007199254740993",
		`"65504"`, `"5e-324"`, `"1e-45"`, "[]", "[0]", "[1]", "[2, 3]", "-1", "0", "1", "true", "false")
	var b bytes.Buffer
	b.WriteString("# tfuzz case format v1 (written by fuzz/internal/seedcorpus)\n")
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		b.WriteString(strconv.Quote(w))
		b.WriteByte('\n')
	}
	return b.Bytes()
}
