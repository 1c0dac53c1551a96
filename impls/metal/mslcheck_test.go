package metal

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The offline MSL check: Debian's clang parses every .metal file as C++
// against a stub <metal_stdlib> (testdata/mslstub) and instantiates every
// kernel. It is weak evidence (the stub declares Metal's functions without
// their semantics, and only Metal's compiler on a Mac is the real check,
// scripts/mac-check.sh), but it catches template, overload and name errors
// on Linux. scripts/msl-check.sh runs it with TFUZZ_MSL_CHECK=required, so
// that a missing clang fails instead of skipping.

// mslClangArgs are clang's flags: C++17 (MSL 3 is based on C++14/17), no
// system headers, the macros of an Apple GPU with bfloat.
var mslClangArgs = []string{"-x", "c++", "-std=c++17", "-nostdinc", "-Wno-unknown-attributes",
	"-Itestdata/mslstub", "-D__HAVE_BFLOAT__", "-D__METAL_VERSION__=310"}

var (
	// Metal-only syntax the check removes before clang parses a source:
	// the kernel attributes of an explicit instantiation (plain C++ allows
	// no attribute there), a threadgroup memory argument's index (its
	// attribute's name is the address space, which the stub defines away),
	// and a constructor defaulted in the threadgroup address space
	// (constexpr in MSL, not for C++17's uninitialized members).
	mslHostName    = regexp.MustCompile(`\[\[host_name\([^]]*\)\]\]`)
	mslKernelAttr  = regexp.MustCompile(`\[\[kernel\]\]`)
	mslTgIndex     = regexp.MustCompile(`\[\[threadgroup\(\d+\)\]\]`)
	mslThreadgroup = regexp.MustCompile(`(?m)^.*constexpr \w+\(\) threadgroup = default;.*$`)
	// host_name("badd_" "f32" "_cs") after preprocessing.
	mslHostNameUse = regexp.MustCompile(`host_name\(((?:\s*"[A-Za-z0-9_]*")+)\s*\)`)
)

// mslForClang rewrites the Metal-only syntax of src away.
func mslForClang(src string) string {
	src = mslHostName.ReplaceAllString(src, "")
	src = mslKernelAttr.ReplaceAllString(src, "")
	src = mslTgIndex.ReplaceAllString(src, "")
	return mslThreadgroup.ReplaceAllString(src, "")
}

// clangBinary returns clang++ (or clang), failing the test when the check
// is required and skipping it otherwise.
func clangBinary(t *testing.T) string {
	for _, name := range []string{"clang++", "clang"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TFUZZ_MSL_CHECK") == "required" {
		t.Fatal("TFUZZ_MSL_CHECK=required, and there is no clang++ or clang on PATH")
	}
	t.Skip("no clang on PATH: the offline MSL check is skipped (apt-get install clang; scripts/msl-check.sh requires it)")
	return ""
}

// runClang runs clang with args on src (read from stdin) and returns its
// stdout, or its output and error.
func runClang(clang, src string, args ...string) (string, error) {
	cmd := exec.Command(clang, append(append([]string{}, mslClangArgs...), append(args, "-")...)...)
	cmd.Stdin = strings.NewReader(src)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String() + errOut.String(), err
	}
	return out.String(), nil
}

// clangHostNames preprocesses src with clang and returns the host names of
// the kernels it instantiates, adjacent string literals joined.
func clangHostNames(clang, src string) ([]string, error) {
	pre, err := runClang(clang, src, "-E", "-P")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, m := range mslHostNameUse.FindAllStringSubmatch(pre, -1) {
		names = append(names, strings.NewReplacer(`"`, "", " ", "", "\t", "").Replace(m[1]))
	}
	sort.Strings(names)
	return names, nil
}

// TestKernelsParseWithClang parses and instantiates every kernel of
// kernels/*.metal with clang, and checks that the kernels clang's
// preprocessor instantiates are the ones KernelNames reads (and so the
// ones the twins and candle's list are compared with).
func TestKernelsParseWithClang(t *testing.T) {
	clang := clangBinary(t)
	srcs := Sources()
	files := make([]string, 0, len(srcs))
	for f := range srcs {
		files = append(files, f)
	}
	sort.Strings(files)
	total := 0
	for _, f := range files {
		src := srcs[f]
		if out, err := runClang(clang, mslForClang(src), "-fsyntax-only"); err != nil {
			t.Errorf("kernels/%s.metal does not parse: %v\n%s", f, err, out)
			continue
		}
		got, err := clangHostNames(clang, src)
		if err != nil {
			t.Errorf("kernels/%s.metal: clang -E: %v\n%s", f, err, strings.Join(got, " "))
			continue
		}
		want, err := KernelNames(src)
		if err != nil {
			t.Errorf("kernels/%s.metal: %v", f, err)
			continue
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("kernels/%s.metal: clang instantiates %d kernels, KernelNames reads %d:\n  clang: %v\n  read:  %v", f, len(got), len(want), got, want)
		}
		total += len(got)
	}
	t.Logf("%s parsed %d files and instantiated %d kernels", filepath.Base(clang), len(files), total)
}

// TestClangCheckCanFail feeds the check kernels with errors it must catch:
// an op that does not exist, a SIMD shuffle of a 64-bit value (Metal has
// none), a kernel instantiated under a name but with the wrong functor.
func TestClangCheckCanFail(t *testing.T) {
	clang := clangBinary(t)
	unary := Sources()["unary"]
	reduce := Sources()["reduce"]
	broken := map[string]string{
		"unknown functor": unary + "\ninit_kernel(\"nope_f32\", unary_contiguous, float, u_nope)\n",
		"int64 shuffle without its overload": strings.Replace(reduce,
			"METAL_FUNC int64_t simd_shuffle_down(", "METAL_FUNC int64_t no_simd_shuffle_down(", 1),
		"an undeclared function": strings.Replace(unary, "unary_op(u_sqrt, sqrt(x))", "unary_op(u_sqrt, sqrtf(x))", 1),
	}
	for name, src := range broken {
		if _, err := runClang(clang, mslForClang(src), "-fsyntax-only"); err == nil {
			t.Errorf("%s: the check accepts it", name)
		}
	}
}

var (
	// [[kernel]] void name(params) {
	mslKernelFunc = regexp.MustCompile(`\[\[(?:kernel)?\]\]\s*void\s+(\w+)\s*\(([^{]*)\)\s*\{`)
	// template [[host_name("a" "b")]] [[kernel]] decltype(func<...
	mslInstance = regexp.MustCompile(`host_name\(((?:\s*"[A-Za-z0-9_]*")+)\s*\)\]\]\s*\[\[(?:kernel)?\]\]\s*decltype\((\w+)<`)
)

// mslBindings is a kernel's bound arguments in the twins' signature
// notation: 'b' for a device pointer (setBuffer), 'c' for constant data
// and references (setBytes); the [[...]] builtins are not bound.
func mslBindings(params string) string {
	var sig strings.Builder
	for _, p := range strings.Split(params, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "" || strings.Contains(p, "[["):
		case strings.HasPrefix(p, "device") && strings.Contains(p, "*"):
			sig.WriteByte('b')
		default:
			sig.WriteByte('c')
		}
	}
	return sig.String()
}

// TestTwinsBindKernelsParameters checks every twin's argument signature
// against its kernel's parameter list (the kernel functions read from the
// sources, the instantiations from clang's preprocessed ones, family
// macros expanded): the host binds what the kernel declares, in its order, and the
// twin reads the same (a twin taking one argument too few or too many
// would read the wrong binding on the simulated device only).
func TestTwinsBindKernelsParameters(t *testing.T) {
	clang := clangBinary(t)
	checked := 0
	for f, src := range Sources() {
		pre, err := runClang(clang, src, "-E", "-P")
		if err != nil {
			t.Fatalf("kernels/%s.metal: clang -E: %v\n%s", f, err, pre)
		}
		funcs := map[string]string{} // from the source: the stub's macros erase the address spaces
		for _, m := range mslKernelFunc.FindAllStringSubmatch(src, -1) {
			funcs[m[1]] = mslBindings(m[2])
		}
		for _, m := range mslInstance.FindAllStringSubmatch(pre, -1) {
			name := strings.NewReplacer(`"`, "", " ", "", "\t", "", "\n", "").Replace(m[1])
			want, ok := funcs[m[2]]
			tw := twins[name]
			switch {
			case !ok:
				t.Errorf("kernels/%s.metal: %s instantiates %s, whose parameters were not found", f, name, m[2])
				continue
			case tw == nil:
				continue // TestEveryKernelHasATwin reports it
			}
			var got strings.Builder
			for _, b := range tw.buffers {
				got.WriteByte("cb"[map[bool]int{false: 0, true: 1}[b]])
			}
			if got.String() != want {
				t.Errorf("kernels/%s.metal: %s (%s) binds %s, its twin reads %s", f, name, m[2], want, got.String())
			}
			checked++
		}
	}
	if checked < len(twins) {
		t.Errorf("checked %d kernels' parameters, want all %d twins", checked, len(twins))
	}
}
