package metal

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDarwinHostTypeChecks type-checks the package as macOS with cgo
// builds it, on any machine: the files go/build selects for darwin/cgo are
// parsed and checked with go/types, whose FakeImportC skips what only a C
// compiler with the Metal framework can check (the C.* names and the
// Objective-C preamble of mtl_darwin.go). Everything else of the darwin
// build, the Go side of the cgo file and the darwin-only tests included,
// must type-check.
func TestDarwinHostTypeChecks(t *testing.T) {
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = "darwin", "arm64", true
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	sawCgo := false
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		if ok, err := ctxt.MatchFile(".", name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(".", name), nil, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s does not parse: %v", name, err)
		}
		for _, imp := range f.Imports {
			sawCgo = sawCgo || imp.Path.Value == `"C"`
		}
		files = append(files, f)
	}
	if !sawCgo {
		t.Fatal("no file of the darwin/cgo build imports C: the Metal host is missing")
	}
	var errs []string
	conf := types.Config{
		FakeImportC: true,
		Importer:    importer.ForCompiler(fset, "source", nil),
		Error:       func(err error) { errs = append(errs, err.Error()) },
	}
	conf.Check("github.com/tfuzz/tfuzz/impls/metal", fset, files, nil)
	if len(errs) > 0 {
		t.Errorf("the darwin/cgo build does not type-check:\n  %s", strings.Join(errs, "\n  "))
	}
}
