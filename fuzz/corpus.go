package fuzz

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// CorpusInputs returns the fuzz inputs made from the project's corpus under
// root (root/*/*.jsonl, for instance corpus/seeds and corpus/regressions):
// each case encoded in case format v1, without the outcomes it records, so
// that the targets start from every case a person wrote or a campaign found.
func CorpusInputs(root string) ([][]byte, error) {
	files, err := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no case files (*/*.jsonl)", root)
	}
	sort.Strings(files)
	var out [][]byte
	for _, file := range files {
		cases, err := tensor.ReadFile(file)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			c.Expect, c.Got = nil, nil
			out = append(out, tensor.EncodeCase(c))
		}
	}
	return out, nil
}

// ViewAndProgramInputs returns n fuzz inputs drawn by the campaign
// generator with view arguments in every case and a program in one case in
// three (draws 0..n-1: the same n gives the same inputs), so that the
// targets start from the strided paths and the multi-op cases that byte
// mutations of the corpus reach slowly.
func ViewAndProgramInputs(n int) [][]byte {
	gen := props.GenCase(props.CaseOptions{MaxElems: 12, Views: true, Programs: 3})
	out := make([][]byte, n)
	for i := range out {
		out[i] = tensor.EncodeCase(gen.Example(i))
	}
	return out
}
