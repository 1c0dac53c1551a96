// Package fuzz holds tfuzz's coverage-guided fuzz targets. Each target takes
// plain bytes, decodes them into a case with the project's own case-format
// decoder (so a crashing input is a readable case, not an opaque bit
// stream), and checks a property. The harness functions live in non-test
// files so that libFuzzer-style runners can build them; the go test -fuzz
// entry points in fuzz_test.go seed them from the case files under corpus/.
package fuzz
