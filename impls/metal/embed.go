package metal

import (
	"bufio"
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

// kernelFS holds the Metal Shading Language sources, compiled by the macOS
// host and mirrored by the twins of the simulated device.
//
//go:embed kernels/*.metal
var kernelFS embed.FS

// Sources returns the kernel sources by file name without extension
// ("binary", "affine", "unary", "cast", "reduce", "indexing").
func Sources() map[string]string {
	out := map[string]string{}
	entries, err := fs.ReadDir(kernelFS, "kernels")
	if err != nil {
		panic("metal: embedded kernels: " + err.Error())
	}
	for _, e := range entries {
		b, err := kernelFS.ReadFile("kernels/" + e.Name())
		if err != nil {
			panic("metal: embedded kernels: " + err.Error())
		}
		out[strings.TrimSuffix(e.Name(), ".metal")] = string(b)
	}
	return out
}

var (
	// init_kernel("badd_f32", binary_contiguous, float, float, op_add)
	instantiation = regexp.MustCompile(`^\s*init_kernel\(\s*"([A-Za-z0-9_]+)"`)
	// [[kernel]] void name(  or  kernel void name(
	kernelDef = regexp.MustCompile(`^\s*(?:\[\[kernel\]\]|kernel)\s+void\s+([A-Za-z0-9_]+)\s*\(`)
)

// KernelNames parses the host names of the kernels a .metal source
// defines: every init_kernel("name", ...) instantiation, and every
// non-template kernel function. Template definitions, which have no host
// name until instantiated, are not kernels.
func KernelNames(src string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	prev := ""
	sc := bufio.NewScanner(strings.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		name := ""
		if m := instantiation.FindStringSubmatch(text); m != nil {
			name = m[1]
		} else if m := kernelDef.FindStringSubmatch(text); m != nil && !strings.HasPrefix(strings.TrimSpace(prev), "template") {
			name = m[1]
		}
		if name != "" {
			if seen[name] {
				return nil, fmt.Errorf("line %d: kernel %s defined twice", line, name)
			}
			seen[name] = true
			names = append(names, name)
		}
		if strings.TrimSpace(text) != "" {
			prev = text
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}
