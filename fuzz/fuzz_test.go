package fuzz

import (
	"path/filepath"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// addSeedCorpus seeds a target with every case of the project's corpus.
func addSeedCorpus(f *testing.F) {
	files, _ := filepath.Glob("../corpus/*/*.jsonl")
	for _, file := range files {
		cases, err := tensor.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range cases {
			c.Expect, c.Got = nil, nil
			f.Add(tensor.EncodeCase(c))
		}
	}
	if len(files) == 0 {
		f.Fatal("no seed corpus under ../corpus")
	}
}

func FuzzCodec(f *testing.F) {
	addSeedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckCodec(data); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzModel(f *testing.F) {
	addSeedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckModel(data); err != nil {
			t.Fatal(err)
		}
	})
}

