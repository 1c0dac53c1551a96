//go:build libfuzzer

package fuzz

// SeedInputs returns nothing in a libFuzzer build (go-118-fuzz-build sets
// the libfuzzer build tag): there F.Add is ignored and the target function
// runs once per input, so reading the corpus here would only slow every
// input down. The seeds reach libFuzzer as <target>_seed_corpus.zip, written
// by fuzz/internal/seedcorpus from the same CorpusInputs.
func SeedInputs() ([][]byte, error) { return nil, nil }
