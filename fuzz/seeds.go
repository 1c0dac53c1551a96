//go:build !libfuzzer

package fuzz

// SeedInputs returns the seed inputs of every target under go test: the
// project's corpus (CorpusInputs of ../corpus, relative to this package)
// and generated views and programs (ViewAndProgramInputs).
func SeedInputs() ([][]byte, error) {
	in, err := CorpusInputs("../corpus")
	return append(in, ViewAndProgramInputs(viewSeeds)...), err
}

// viewSeeds is how many generated views and programs seed the targets.
const viewSeeds = 64
