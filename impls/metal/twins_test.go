package metal

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestEveryKernelHasATwin pairs the kernels of kernels/*.metal with the
// simulated device's twins by name: every kernel has a twin registered
// under its own file, and every twin has a kernel, so that a kernel cannot
// be added (or renamed, or dropped) on one side only. It reports every
// violation at once.
func TestEveryKernelHasATwin(t *testing.T) {
	var problems []string
	file := map[string]string{} // kernel name -> .metal file
	perFile := map[string]int{}
	for src, text := range Sources() {
		names, err := KernelNames(text)
		if err != nil {
			problems = append(problems, fmt.Sprintf("kernels/%s.metal: %v", src, err))
			continue
		}
		if len(names) == 0 {
			problems = append(problems, fmt.Sprintf("kernels/%s.metal defines no kernel", src))
		}
		for _, n := range names {
			if other, dup := file[n]; dup {
				problems = append(problems, fmt.Sprintf("kernel %s is defined in %s.metal and %s.metal", n, other, src))
			}
			file[n] = src
			perFile[src]++
		}
	}
	for n, src := range file {
		switch got := twinSource(n); {
		case got == "":
			problems = append(problems, fmt.Sprintf("kernels/%s.metal: kernel %s has no simulated twin", src, n))
		case got != src:
			problems = append(problems, fmt.Sprintf("kernel %s of %s.metal has its twin registered under %s", n, src, got))
		}
	}
	for _, n := range TwinNames() {
		if file[n] == "" {
			problems = append(problems, fmt.Sprintf("twin %s (%s) has no kernel in kernels/*.metal", n, twinSource(n)))
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Fatalf("%d kernel/twin mismatches:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	var counts []string
	for src, n := range perFile {
		counts = append(counts, fmt.Sprintf("%s %d", src, n))
	}
	sort.Strings(counts)
	t.Logf("%d kernels, each with its twin: %s", len(file), strings.Join(counts, ", "))
}

// TestKernelNames checks the parser on the forms the sources use.
func TestKernelNames(t *testing.T) {
	src := `
#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;
template <typename T>
[[kernel]] void generic(device T *x) {}
kernel void plain_one(device float *x) {}
[[kernel]] void plain_two(device float *x) {}
init_kernel("badd_f32", binary_contiguous, float, float, op_add)
#if defined(__HAVE_BFLOAT__)
  init_kernel( "badd_bf16", binary_contiguous, bfloat, bfloat, op_add)
#endif
// init_kernel("commented_out", f, float)
#define init_pair(op, tname, t) \
    init_kernel(#op "_" #tname, k, t) \
    init_kernel(#op "_" #tname "_strided", ks, t)
init_pair(neg, f16, half)
`
	got, err := KernelNames(src)
	if err != nil {
		t.Fatal(err)
	}
	want := "badd_bf16 badd_f32 neg_f16 neg_f16_strided plain_one plain_two"
	if strings.Join(got, " ") != want {
		t.Errorf("KernelNames = %v, want %s", got, want)
	}
	if _, err := KernelNames(src + `init_kernel("badd_f32", x, float)` + "\n"); err == nil {
		t.Error("a kernel defined twice is not reported")
	}
	if _, err := KernelNames(src + "init_pair(neg, f16)\n"); err == nil {
		t.Error("a family macro used with too few arguments is not reported")
	}
}
