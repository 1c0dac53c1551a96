//go:build !libfuzzer

package fuzz

// SeedInputs returns the seed inputs of every target under go test: the
// project's corpus (CorpusInputs of ../corpus, relative to this package).
func SeedInputs() ([][]byte, error) { return CorpusInputs("../corpus") }
