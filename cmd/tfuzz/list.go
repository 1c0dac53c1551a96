package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

func runProfiles(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := newFlags("profiles", "usage: tfuzz profiles\n\nLists the model's profiles (the framework configurations it states), each with what\nit stands for and its evidence.\n", stdout, stderr)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if code, ok := fl.noArgs(); !ok {
		return code
	}
	for _, p := range model.All() {
		fmt.Fprintf(stdout, "%-20s %s\n", p.Name, p.Doc)
		fmt.Fprintf(stdout, "%-20s evidence: %s\n", "", p.Evidence)
	}
	return exitClean
}

const opsUsage = `usage: tfuzz ops [OP...]

Lists the op catalog of the case format: each op with its arguments, its
attrs and its spelling in PyTorch. With OP names, describes those ops in
full: every argument and every attr with its type and meaning.
docs/case-format.md describes the case format itself.
`

func runOps(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := newFlags("ops", opsUsage, stdout, stderr)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if err := checkOps("", fl.Args()); err != nil {
		return fl.errorf("%v", err)
	}
	if fl.NArg() == 0 {
		for _, op := range tensor.Ops {
			call := opCall(op)
			if attrs := attrNames(op); attrs != "" {
				call += "  " + attrs
			}
			fmt.Fprintf(stdout, "%-44s %s\n", call, op.Doc)
		}
		fmt.Fprintln(stdout, "\n! marks a required attr; a and b of a binary op may be a tensor or a host scalar; most ops also take")
		fmt.Fprintln(stdout, "tolerance_ulps. tfuzz ops OP describes an op's arguments and attrs in full.")
		return exitClean
	}
	for i, name := range fl.Args() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		op, _ := tensor.LookupOp(name)
		fmt.Fprintf(stdout, "%s    (%s)\n", opCall(op), op.Doc)
		width := 16 // of the first column: "a", "attr tolerance_ulps"
		for _, at := range op.Attrs() {
			width = max(width, len("attr ")+len(at.Name))
		}
		for _, a := range op.Args() {
			fmt.Fprintf(stdout, "  %-*s %s\n", width, a.Name, a.Kind)
		}
		if len(op.Args()) == 0 {
			fmt.Fprintln(stdout, "  no arguments")
		}
		for _, at := range op.Attrs() {
			req := "optional"
			if at.Required {
				req = "required"
			}
			fmt.Fprintf(stdout, "  %-*s %s, %s: %s\n", width, "attr "+at.Name, at.Type, req, at.Doc)
		}
	}
	return exitClean
}

// opCall writes an op with its argument names: "index_select(a, index)".
func opCall(op tensor.OpInfo) string {
	var names []string
	for _, a := range op.Args() {
		names = append(names, a.Name)
	}
	return op.Name + "(" + strings.Join(names, ", ") + ")"
}

// attrNames lists an op's attrs, required ones marked: "attrs: to!, mode".
func attrNames(op tensor.OpInfo) string {
	var names []string
	for _, at := range op.Attrs() {
		if at.Name == "tolerance_ulps" {
			continue // every op with float results takes it; tfuzz ops OP shows it
		}
		n := at.Name
		if at.Required {
			n += "!"
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return ""
	}
	return "attrs: " + strings.Join(names, ", ")
}

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := newFlags("version", "usage: tfuzz version (or tfuzz --version)\n\nPrints tfuzz's version, the module version and VCS revision it was built from, and the Go version.\n", stdout, stderr)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if code, ok := fl.noArgs(); !ok {
		return code
	}
	fmt.Fprintln(stdout, versionText())
	return exitClean
}

// versionText is tfuzz's version with what the Go toolchain recorded about
// the build (runtime/debug.ReadBuildInfo): "(devel)" and a revision for a
// build from a checkout, the module version for go install ...@version.
func versionText() string {
	s := "tfuzz " + campaign.Version
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return s + " (no build information)"
	}
	settings := map[string]string{}
	for _, kv := range bi.Settings {
		settings[kv.Key] = kv.Value
	}
	s += fmt.Sprintf("\nmodule %s %s", bi.Main.Path, bi.Main.Version)
	if rev := settings["vcs.revision"]; rev != "" {
		s += "\nrevision " + rev
		if t := settings["vcs.time"]; t != "" {
			s += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			s += ", with uncommitted changes"
		}
	}
	return s + "\n" + bi.GoVersion
}
