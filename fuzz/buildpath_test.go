package fuzz

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTargetsFitTheLibFuzzerBuild checks what the OSS-Fuzz and
// ClusterFuzzLite build path (compile_native_go_fuzzer, go-118-fuzz-build)
// needs of the targets in fuzz_test.go, and reports every violation:
//   - the file declares nothing but targets (go-118-fuzz-build compiles it
//     without the package's other _test.go files, so helpers there would be
//     missing);
//   - each target is declared on one line as func NAME(f *testing.F) { and
//     calls f.Fuzz(func(t *testing.T, data []byte) { on one line;
//   - each name occurs in no other file under fuzz/ (the build script finds
//     a target's file with grep -r -l NAME) and is no prefix of another.
func TestTargetsFitTheLibFuzzerBuild(t *testing.T) {
	const file = "fuzz_test.go"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			if gd, ok := d.(*ast.GenDecl); !ok || gd.Tok != token.IMPORT {
				t.Errorf("%s: declares something other than fuzz targets; move it to a non-test file", file)
			}
			continue
		}
		if !strings.HasPrefix(fd.Name.Name, "Fuzz") {
			t.Errorf("%s: declares %s; only targets belong here (helpers go in non-test files)", file, fd.Name.Name)
			continue
		}
		names = append(names, fd.Name.Name)
	}
	if len(names) == 0 {
		t.Fatalf("%s: no targets", file)
	}
	callback := regexp.MustCompile(`(?m)^\s*f\.Fuzz\(func\(t \*testing\.T, data \[\]byte\) \{$`)
	if n := len(callback.FindAll(src, -1)); n != len(names) {
		t.Errorf("%s: %d lines read f.Fuzz(func(t *testing.T, data []byte) {, want one per target (%d)", file, n, len(names))
	}
	others := map[string][]byte{}
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path != file {
			others[path], _ = os.ReadFile(path)
		}
		return nil
	})
	for _, name := range names {
		decl := regexp.MustCompile(`(?m)^func ` + name + `\(f \*testing\.F\) \{$`)
		if n := len(decl.FindAll(src, -1)); n != 1 {
			t.Errorf("%s: want one line func %s(f *testing.F) {, found %d", file, name, n)
		}
		for path, data := range others {
			if strings.Contains(string(data), name) {
				t.Errorf("%s mentions %s: the build script's grep would find two files for that target", path, name)
			}
		}
		for _, other := range names {
			if other != name && strings.HasPrefix(other, name) {
				t.Errorf("target %s is a prefix of %s: grep for one finds the other", name, other)
			}
		}
	}
}
