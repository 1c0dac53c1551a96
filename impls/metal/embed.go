package metal

import (
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
	// #define init_binary(op, tname, t, u, f) \ ...
	familyDef = regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\(([^)]*)\)\s*(.*)$`)
	// init_binary(badd, f32, float, float, op_add)
	familyUse = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\(([^()]*)\)\s*;?\s*$`)
	// the name argument of an init_kernel in a macro body: #op "_" #tname "_cs"
	familyName = regexp.MustCompile(`init_kernel\(\s*((?:"[A-Za-z0-9_]*"|#\s*[A-Za-z_][A-Za-z0-9_]*|\s)+),`)
	nameToken  = regexp.MustCompile(`"([A-Za-z0-9_]*)"|#\s*([A-Za-z_][A-Za-z0-9_]*)`)
)

// family is a macro whose body instantiates kernels: its parameters and,
// per init_kernel in the body, the tokens of the name (literals and
// #parameters, joined as the preprocessor joins adjacent strings).
type family struct {
	params []string
	names  [][]string // per kernel: "lit:text" or "arg:param"
}

// KernelNames parses the host names of the kernels a .metal source
// defines: every init_kernel("name", ...) instantiation, every kernel a
// family macro instantiates where it is used (a #define whose body is
// init_kernel lines naming the kernel with # and string literals, as
// binary.metal's init_binary), and every non-template kernel function.
// Template definitions, which have no host name until instantiated, are
// not kernels.
func KernelNames(src string) ([]string, error) {
	families := map[string]family{}
	var names []string
	seen := map[string]bool{}
	add := func(line int, name string) error {
		if seen[name] {
			return fmt.Errorf("line %d: kernel %s defined twice", line, name)
		}
		seen[name] = true
		names = append(names, name)
		return nil
	}
	prev := ""
	for _, l := range logicalLines(src) {
		line, text := l.line, l.text
		if m := familyDef.FindStringSubmatch(text); m != nil {
			if f, ok := parseFamily(m[2], m[3]); ok {
				families[m[1]] = f
			}
			continue
		}
		switch {
		case instantiation.MatchString(text):
			if err := add(line, instantiation.FindStringSubmatch(text)[1]); err != nil {
				return nil, err
			}
		case kernelDef.MatchString(text) && !strings.HasPrefix(strings.TrimSpace(prev), "template"):
			if err := add(line, kernelDef.FindStringSubmatch(text)[1]); err != nil {
				return nil, err
			}
		case familyUse.MatchString(text):
			m := familyUse.FindStringSubmatch(text)
			f, ok := families[m[1]]
			if !ok {
				break
			}
			args := strings.Split(m[2], ",")
			if len(args) != len(f.params) {
				return nil, fmt.Errorf("line %d: %s takes %d arguments, got %d", line, m[1], len(f.params), len(args))
			}
			for _, toks := range f.names {
				if err := add(line, f.expand(toks, args)); err != nil {
					return nil, err
				}
			}
		}
		if strings.TrimSpace(text) != "" {
			prev = text
		}
	}
	sort.Strings(names)
	return names, nil
}

// logicalLine is a source line with its continuations (a trailing
// backslash) joined, and the number of its first physical line.
type logicalLine struct {
	line int
	text string
}

func logicalLines(src string) []logicalLine {
	var out []logicalLine
	var cur strings.Builder
	start := 0
	for i, text := range strings.Split(src, "\n") {
		if cur.Len() == 0 {
			start = i + 1
		}
		if strings.HasSuffix(text, "\\") {
			cur.WriteString(strings.TrimSuffix(text, "\\") + " ")
			continue
		}
		cur.WriteString(text)
		out = append(out, logicalLine{start, cur.String()})
		cur.Reset()
	}
	return out
}

// parseFamily reads a macro's parameters and the kernel names of its body;
// false when the body instantiates no kernel.
func parseFamily(params, body string) (family, bool) {
	var f family
	for _, p := range strings.Split(params, ",") {
		f.params = append(f.params, strings.TrimSpace(p))
	}
	for _, m := range familyName.FindAllStringSubmatch(body, -1) {
		var toks []string
		for _, t := range nameToken.FindAllStringSubmatch(m[1], -1) {
			if t[2] != "" {
				toks = append(toks, "arg:"+t[2])
			} else {
				toks = append(toks, "lit:"+t[1])
			}
		}
		f.names = append(f.names, toks)
	}
	return f, len(f.names) > 0
}

// expand is the kernel name of tokens toks with the macro's arguments args.
func (f family) expand(toks, args []string) string {
	var b strings.Builder
	for _, t := range toks {
		kind, text, _ := strings.Cut(t, ":")
		if kind == "lit" {
			b.WriteString(text)
			continue
		}
		for k, p := range f.params {
			if p == text {
				b.WriteString(strings.TrimSpace(args[k]))
			}
		}
	}
	return b.String()
}
