package metal

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// candleKernelList is candle's own kernel list at the commit the profile
// names, made by scripts/candle-kernel-list.sh from candle's .metal files.
const candleKernelList = "testdata/candle-kernels.txt"

// readKernelList reads "FILE NAME" lines (# starts a comment) into a map
// from kernel name to its .metal file.
func readKernelList(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want FILE NAME, got %q", path, line, text)
		}
		if _, dup := out[fields[1]]; dup {
			return nil, fmt.Errorf("%s:%d: kernel %s listed twice", path, line, fields[1])
		}
		out[fields[1]] = fields[0]
	}
	return out, sc.Err()
}

// dtypeTokens are the dtype suffixes of candle's kernel names (gemv.metal
// spells them float32, float16, bfloat16).
var dtypeTokens = map[string]bool{"f32": true, "f16": true, "bf16": true, "f64": true, "u8": true,
	"u32": true, "i16": true, "i32": true, "i64": true, "float32": true, "float16": true, "bfloat16": true}

// kernelFamily is the op part of a kernel name, the words before its first
// dtype: "badd" of badd_f32_cs, "cast" of cast_u8_f16, "fast_sum" of
// fast_sum_i64_strided, "is" of is_u32_bf16; a gemv kernel's family
// carries its variant too, "gemv_t nc0_axpby0" (candle's host dispatches
// only nc0_axpby0, of the four candle instantiates).
func kernelFamily(name string) string {
	words := strings.Split(name, "_")
	for i, w := range words {
		if dtypeTokens[w] {
			family := strings.Join(words[:i], "_")
			if n := len(words); n > i+2 && strings.HasPrefix(words[n-2], "nc") && strings.HasPrefix(words[n-1], "axpby") {
				family += " " + words[n-2] + "_" + words[n-1]
			}
			return family
		}
	}
	return name
}

// TestKernelsAreCandles compares the kernels of kernels/*.metal with
// candle's, by name and by file: tfuzz may define no kernel candle lacks
// (an extra one would answer a call that fails in candle), and of every
// family it defines (badd, cast, is, fast_sum, ...) it must define all of
// candle's, every dtype pair and layout variant, so that a call candle
// answers does not fail here. Every violation is listed.
func TestKernelsAreCandles(t *testing.T) {
	candle, err := readKernelList(candleKernelList)
	if err != nil {
		t.Fatalf("candle's kernel list: %v", err)
	}
	ours := map[string]string{}
	for src, text := range Sources() {
		names, err := KernelNames(text)
		if err != nil {
			t.Fatalf("kernels/%s.metal: %v", src, err)
		}
		for _, n := range names {
			ours[n] = src
		}
	}
	var problems []string
	families := map[string]bool{}
	for n, src := range ours {
		families[kernelFamily(n)] = true
		switch theirs, ok := candle[n]; {
		case !ok:
			problems = append(problems, fmt.Sprintf("kernels/%s.metal defines %s, which candle does not", src, n))
		case theirs != src:
			problems = append(problems, fmt.Sprintf("%s is in kernels/%s.metal, in candle's %s.metal", n, src, theirs))
		}
	}
	checked := 0
	for n, src := range candle {
		if !families[kernelFamily(n)] {
			continue
		}
		checked++
		if _, ok := ours[n]; !ok {
			problems = append(problems, fmt.Sprintf("candle's %s.metal defines %s (family %s), kernels/ does not", src, n, kernelFamily(n)))
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Fatalf("%d differences from candle's kernels:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	t.Logf("%d kernels, the same as candle's %d in the %d families they cover", len(ours), checked, len(families))
}

func TestKernelFamily(t *testing.T) {
	for name, want := range map[string]string{
		"badd_f32_cs": "badd", "cast_u8_f16_strided": "cast", "fast_sum_i64": "fast_sum",
		"is_u32_bf16": "is", "gelu_erf_f16": "gelu_erf", "copy2d_i32": "copy2d", "softmax_f32": "softmax",
		"gemm_tn_bf16_bf16_64_32_32_2_2": "gemm_tn", "gemv_float16_bm4_bn1_sm1_sn32_tm4_tn4_nc0_axpby0": "gemv nc0_axpby0",
		"gemv_t_bfloat16_bm1_bn2_sm8_sn4_tm4_tn1_nc1_axpby1": "gemv_t nc1_axpby1",
	} {
		if got := kernelFamily(name); got != want {
			t.Errorf("kernelFamily(%s) = %s, want %s", name, got, want)
		}
	}
}
