package fuzz

// The fuzz targets. Each is built two ways: by go test -fuzz, and by
// go-118-fuzz-build for libFuzzer (scripts/libfuzzer-build.sh,
// .clusterfuzzlite/build.sh). The second build compiles this file alone of
// the package's _test.go files, with its testing import replaced, and finds
// a target by grepping for its name and for its declaration on one line. So
// this file declares targets only (helpers live in non-test files), each
// name appears in no other file under fuzz/, and every target has the same
// two one-line signatures. TestTargetsFitTheLibFuzzerBuild checks all that.

import "testing"

func FuzzCodec(f *testing.F) {
	seeds, err := SeedInputs()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckCodec(data); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzModel(f *testing.F) {
	seeds, err := SeedInputs()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckModel(data); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzCPU(f *testing.F) {
	seeds, err := SeedInputs()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := CheckBackend(cpuEngine, data); err != nil {
			t.Fatal(err)
		}
	})
}
