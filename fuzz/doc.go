// Package fuzz holds tfuzz's coverage-guided fuzz targets. Each target takes
// plain bytes, decodes them into a case with the project's own case-format
// decoder (so a crashing input is a readable case, not an opaque bit
// stream), and checks a property: the codec's round trip, the model's
// totality, and the differential property of the CPU engine (CheckBackend).
//
// The targets are built two ways. go test -fuzz runs them from fuzz_test.go,
// seeded with the case files under corpus/ (SeedInputs). go-118-fuzz-build
// turns them into libFuzzer binaries, as ClusterFuzzLite and OSS-Fuzz do
// (.clusterfuzzlite/build.sh) and scripts/libfuzzer-build.sh does without
// Docker; that build compiles fuzz_test.go alone of the package's test
// files, so every helper lives in a non-test file, and it frames a target's
// []byte argument (libfuzzer.go), so its seed corpus is framed
// (internal/seedcorpus) and its crash inputs are unframed by
// ReadCrashInput, which tfuzz import-crash uses to turn them into findings.
package fuzz
