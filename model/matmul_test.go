package model

import (
	"fmt"
	"strings"
	"testing"
)

// tj writes a tensor of the case format: dtype, shape, data (JSON text).
func tj(dtype, shape, data string) string {
	return fmt.Sprintf(`{"dtype": %q, "shape": %s, "data": %s}`, dtype, shape, data)
}

// mmCase and catCase write the cases of the tables below.
func mmCase(a, b string) string {
	return `{"op": "matmul", "args": [` + a + `, ` + b + `], "attrs": {}}`
}
func catCase(dim int, ts ...string) string {
	return fmt.Sprintf(`{"op": "cat", "args": [%s], "attrs": {"dim": %d}}`, strings.Join(ts, ", "), dim)
}

const (
	errDType = `{"error": {"class": "DTypeMismatch", "message": ""}}`
	errShape = `{"error": {"class": "ShapeMismatch", "message": ""}}`
	errKind  = `{"error": {"class": "UnsupportedDType", "message": ""}}`
	errOther = `{"error": {"class": "Other", "message": ""}}`
	errIndex = `{"error": {"class": "IndexOutOfRange", "message": ""}}`
	aPanic   = `{"panic": {"message": ""}}`
	noSpell  = `{"unsupported": {"message": ""}}`
	notModel = `{"unsupported": {"message": "not modeled"}}`
)

func val(dtype, shape, data string) string { return `{"value": ` + tj(dtype, shape, data) + `}` }

// TestMatmulPython: torch.matmul, np.matmul and jnp.matmul, one row per rule.
func TestMatmulPython(t *testing.T) {
	f32r := tj("f32", "[1, 3]", `["1", "2", "3"]`)
	f64c := tj("f64", "[3, 1]", `["0.5", "0.5", "0.5"]`)
	b22 := tj("bool", "[2, 2]", `[true, false, false, false]`)
	checkRows(t, []outcomeRow{
		{"seed 003: torch f32 @ f64", "pytorch/cpu-arm64", mmCase(f32r, f64c), errDType},
		{"torch 0-dim operand", "pytorch/cpu", mmCase(tj("f32", "[]", `["1"]`), tj("f32", "[1]", `["1"]`)), errShape},
		{"torch mm checks the shapes before the dtypes", "pytorch/cpu", mmCase(f32r, tj("f64", "[2, 1]", `["1", "1"]`)), errShape},
		{"torch dot checks the dtypes before the lengths", "pytorch/cpu", mmCase(tj("f32", "[3]", `["1", "2", "3"]`), tj("f64", "[2]", `["1", "1"]`)), errDType},
		{"torch bmm: k = 0 gives zeros of the second dtype before the dtype check", "pytorch/cpu",
			mmCase(tj("f32", "[2, 1, 0]", `[]`), tj("f64", "[2, 0, 2]", `[]`)), val("f64", "[2, 1, 2]", `["0", "0", "0", "0"]`)},
		{"torch folds 3-D @ 2-D into mm, which checks the dtypes", "pytorch/cpu",
			mmCase(tj("f32", "[2, 1, 0]", `[]`), tj("f64", "[0, 2]", `[]`)), errDType},
		{"torch CPU has no bool mm", "pytorch/cpu", mmCase(b22, b22), errKind},
		{"torch bool mm with k = 0 returns before the kernel", "pytorch/cpu",
			mmCase(tj("bool", "[2, 0]", `[]`), tj("bool", "[0, 1]", `[]`)), val("bool", "[2, 1]", `[false, false]`)},
		{"torch bool dot has no shortcut", "pytorch/cpu", mmCase(tj("bool", "[0]", `[]`), tj("bool", "[0]", `[]`)), errKind},
		{"torch i8 wraps", "pytorch/cpu", mmCase(tj("i8", "[1, 2]", `[100, 100]`), tj("i8", "[2, 1]", `[2, 1]`)), val("i8", "[1, 1]", `[44]`)},
		{"torch CUDA has no integer matmul", "pytorch/cuda", mmCase(tj("i64", "[1, 1]", `[1]`), tj("i64", "[1, 1]", `[1]`)), errKind},
		{"torch MPS integer matmul is not stated", "pytorch/mps", mmCase(tj("i32", "[1, 1]", `[1]`), tj("i32", "[1, 1]", `[1]`)), notModel},
		{"exact sums are stated, inexact ones are ?", "pytorch/cpu",
			mmCase(tj("f32", "[2, 2]", `["1", "0.1", "0.5", "0.25"]`), tj("f32", "[2, 1]", `["3", "3"]`)), val("f32", "[2, 1]", `["?", "2.25"]`)},
		{"NaN propagates, 0 * inf and an all -0 sum are ?", "numpy",
			mmCase(tj("f32", "[4, 2]", `["nan", "1", "1", "inf", "-0.0", "-1", "1", "-1"]`), tj("f32", "[2, 1]", `["2", "0"]`)),
			val("f32", "[4, 1]", `["nan", "?", "?", "2"]`)},
		{"a sum that cancels is +0", "numpy",
			mmCase(tj("f64", "[1, 3]", `["1", "-1", "-0.0"]`), tj("f64", "[3]", `["1", "1", "1"]`)), val("f64", "[1]", `["0"]`)},
		{"k = 0 is +0", "jax/cpu-x64", mmCase(tj("f32", "[2, 0]", `[]`), tj("f32", "[0]", `[]`)), val("f32", "[2]", `["0", "0"]`)},
		{"a sum past 2^24 in f32 is ?", "numpy",
			mmCase(tj("f32", "[1, 2]", `["16777216", "1"]`), tj("f32", "[2]", `["1", "1"]`)), val("f32", "[1]", `["?"]`)},
		{"complex is ?", "numpy", mmCase(`{"dtype": "c64", "shape": [1], "data": [["1", "1"]]}`, `{"dtype": "c64", "shape": [1], "data": [["1", "0"]]}`),
			`{"value": {"dtype": "c64", "shape": [], "data": ["?"]}}`},
		{"NumPy bool matmul is the OR of ANDs", "numpy", mmCase(b22, tj("bool", "[2]", `[true, true]`)), val("bool", "[2]", `[true, false]`)},
		{"NumPy promotes i64 @ u64 to f64", "numpy", mmCase(tj("i64", "[1]", `[3]`), tj("u64", "[1]", `[2]`)), val("f64", "[]", `["6"]`)},
		{"NumPy broadcasts batch dims", "numpy",
			mmCase(tj("i32", "[2, 1, 1, 1]", `[1, 2]`), tj("i32", "[3, 1, 1]", `[1, 10, 100]`)), val("i32", "[2, 3, 1, 1]", `[1, 10, 100, 2, 20, 200]`)},
		{"NumPy batch dims that do not broadcast", "numpy", mmCase(tj("i32", "[2, 1, 1]", `[1, 2]`), tj("i32", "[3, 1, 1]", `[1, 1, 1]`)), errShape},
		{"NumPy core dims differ", "numpy", mmCase(tj("i32", "[2]", `[1, 2]`), tj("i32", "[3]", `[1, 1, 1]`)), errShape},
		{"NumPy 0-d", "numpy", mmCase(tj("i32", "[]", `[1]`), tj("i32", "[1]", `[1]`)), errShape},
		{"NumPy bf16 matmul is not stated", "numpy", mmCase(tj("bf16", "[1]", `["1"]`), tj("bf16", "[1]", `["1"]`)), notModel},
		{"JAX x32 narrows i64 and wraps in i32", "jax/cpu-x32",
			mmCase(tj("i64", "[1]", `[65536]`), tj("i64", "[1]", `[65536]`)), val("i32", "[]", `[0]`)},
		{"JAX GPU f32 is ? off TF32 values", "jax/gpu-x32",
			mmCase(tj("f32", "[2, 1]", `["3", "1.0000001"]`), tj("f32", "[1]", `["2"]`)), val("f32", "[2]", `["6", "?"]`)},
		{"JAX bool matmul is not stated", "jax/cpu-x64", mmCase(b22, b22), notModel},
		{"JAX batch dims that do not broadcast", "jax/cpu-x64", mmCase(tj("f32", "[2, 1, 1]", `["1", "2"]`), tj("f32", "[3, 1, 1]", `["1", "1", "1"]`)), errShape},
	})
}

// TestMatmulRust: candle's and burn's matmul.
func TestMatmulRust(t *testing.T) {
	f32 := func(shape, data string) string { return tj("f32", shape, data) }
	checkRows(t, []outcomeRow{
		{"seed 003: candle f32.matmul(f64)", "candle/cpu-release", mmCase(f32("[1, 3]", `["1", "2", "3"]`), tj("f64", "[3, 1]", `["0.5", "0.5", "0.5"]`)), errDType},
		{"candle has no 1-D matmul", "candle/cpu-release", mmCase(f32("[2]", `["1", "2"]`), f32("[2]", `["1", "2"]`)), errShape},
		{"candle ranks must be equal", "candle/cpu-release", mmCase(f32("[1, 1, 1]", `["1"]`), f32("[1, 1]", `["1"]`)), errShape},
		{"candle compares only the batch products", "candle/cpu-release",
			mmCase(f32("[2, 3, 1, 1]", `["1", "2", "3", "4", "5", "6"]`), f32("[3, 2, 1, 1]", `["1", "1", "1", "1", "1", "2"]`)),
			val("f32", "[2, 3, 1, 1]", `["1", "2", "3", "4", "5", "12"]`)},
		{"candle empty result with one dtype: zeros", "candle/cpu-release", mmCase(tj("u8", "[2, 0]", `[]`), tj("u8", "[0, 1]", `[]`)), val("u8", "[2, 1]", `[0, 0]`)},
		{"candle empty result still checks the dtypes", "candle/cpu-release", mmCase(tj("u8", "[2, 0]", `[]`), tj("u32", "[0, 1]", `[]`)), errDType},
		{"candle accelerate has no integer matmul", "candle/cpu-debug", mmCase(tj("u32", "[1, 1]", `[2]`), tj("u32", "[1, 1]", `[3]`)), errKind},
		{"candle accelerate has no f16 matmul", "candle/cpu-release", mmCase(tj("f16", "[1, 1]", `["2"]`), tj("f16", "[1, 1]", `["3"]`)), errKind},
		{"candle CPU rejects rank 5 batch strides", "candle/cpu-release", mmCase(f32("[1, 1, 1, 1, 1]", `["2"]`), f32("[1, 1, 1, 1, 1]", `["3"]`)), errOther},
		{"candle Metal has no f64 matmul", "candle/metal", mmCase(tj("f64", "[1, 1]", `["2"]`), tj("f64", "[1, 1]", `["3"]`)), errKind},
		{"candle Metal bf16 exact", "candle/metal", mmCase(tj("bf16", "[1, 2]", `["2", "0.5"]`), tj("bf16", "[2, 1]", `["3", "4"]`)), val("bf16", "[1, 1]", `["8"]`)},
		{"burn Flex I32 wraps", "burn/flex-debug", mmCase(tj("i32", "[1, 1]", `[65536]`), tj("i32", "[1, 1]", `[65536]`)), val("i32", "[1, 1]", `[0]`)},
		{"burn ndarray leaves an overflowing sum open", "burn/ndarray",
			mmCase(tj("i64", "[1, 2]", `[4611686018427387904, 1]`), tj("i64", "[2, 1]", `[2, 3]`)), val("i64", "[1, 1]", `["?"]`)},
		{"burn ndarray divides by m*k", "burn/ndarray", mmCase(f32("[0, 2]", `[]`), f32("[2, 3]", `["1", "1", "1", "1", "1", "1"]`)), aPanic},
		{"burn ndarray's vec-mat reshape divides by B*K", "burn/ndarray", mmCase(f32("[0, 1, 2]", `[]`), f32("[1, 2, 3]", `["1", "1", "1", "1", "1", "1"]`)), aPanic},
		{"burn Flex with an empty batch", "burn/flex-release", mmCase(f32("[0, 1, 2]", `[]`), f32("[1, 2, 3]", `["1", "1", "1", "1", "1", "1"]`)), val("f32", "[0, 1, 3]", `[]`)},
		{"burn inner dims differ: check! panics", "burn/flex-release", mmCase(f32("[1, 2]", `["1", "1"]`), f32("[3, 1]", `["1", "1", "1"]`)), aPanic},
		{"burn rank 1 panics in the backend", "burn/flex-release", mmCase(f32("[2]", `["1", "1"]`), f32("[2]", `["1", "1"]`)), aPanic},
		{"burn Flex debug asserts broadcastable batch dims", "burn/flex-debug", mmCase(f32("[2, 1, 1]", `["1", "1"]`), f32("[3, 1, 1]", `["1", "1", "1"]`)), aPanic},
		{"burn Flex release does not", "burn/flex-release", mmCase(f32("[2, 1, 1]", `["1", "1"]`), f32("[3, 1, 1]", `["1", "1", "1"]`)), notModel},
		{"burn has no Bool matmul", "burn/flex-release", mmCase(tj("bool", "[1, 1]", `[true]`), tj("bool", "[1, 1]", `[true]`)), noSpell},
		{"burn Float with Int does not compile", "burn/flex-release", mmCase(f32("[1, 1]", `["1"]`), tj("i32", "[1, 1]", `[1]`)), noSpell},
		{"tenferro is not stated", "tenferro/direct", mmCase(f32("[1, 1]", `["1"]`), f32("[1, 1]", `["1"]`)), notModel},
	})
}

// TestCat: cat in every family.
func TestCat(t *testing.T) {
	f32 := tj("f32", "[2]", `["1", "2"]`)
	big := tj("i64", "[1]", `[16777217]`)
	m23 := tj("i32", "[2, 3]", `[1, 2, 3, 4, 5, 6]`)
	m21 := tj("i32", "[2, 1]", `[7, 8]`)
	checkRows(t, []outcomeRow{
		{"torch promotes the list (i64 -> f32 rounds)", "pytorch/cpu", catCase(0, f32, big), val("f32", "[3]", `["1", "2", "16777216"]`)},
		{"torch skips a legacy [0] tensor of another rank", "pytorch/cpu", catCase(1, m23, tj("u8", "[0]", `[]`), m21), val("i32", "[2, 4]", `[1, 2, 3, 7, 4, 5, 6, 8]`)},
		{"torch: the skipped tensor still promotes", "pytorch/cpu", catCase(0, tj("i8", "[0]", `[]`), tj("u8", "[1]", `[200]`)), val("i16", "[1]", `[200]`)},
		{"torch rejects a 0-dim tensor", "pytorch/cpu", catCase(0, f32, tj("f32", "[]", `["1"]`)), errShape},
		{"torch dim out of range", "pytorch/cpu", catCase(2, m23, m21), errIndex},
		{"torch uint16 with int32 does not promote", "pytorch/cpu", catCase(0, tj("u16", "[1]", `[1]`), tj("i32", "[1]", `[1]`)), errKind},
		{"torch sizes must match except along dim", "pytorch/cuda", catCase(0, m23, m21), errShape},
		{"torch all skipped: [0] of the promoted dtype", "pytorch/cpu", catCase(0, tj("u8", "[0]", `[]`), tj("f32", "[0]", `[]`)), val("f32", "[0]", `[]`)},
		{"NumPy promotes to f64 (i64 with f32)", "numpy", catCase(-1, f32, big), val("f64", "[3]", `["1", "2", "16777217"]`)},
		{"NumPy promotes the sequence, not a left fold", "numpy", catCase(0, tj("i8", "[1]", `[-1]`), tj("u8", "[1]", `[255]`), tj("f16", "[1]", `["0.5"]`)), val("f16", "[3]", `["-1", "255", "0.5"]`)},
		{"NumPy checks only the first array for 0-d", "numpy", catCase(0, tj("f32", "[]", `["1"]`), f32), errShape},
		{"NumPy axis out of bounds", "numpy", catCase(1, f32, f32), errIndex},
		{"NumPy concatenates along dim 1", "numpy", catCase(1, m23, m21), val("i32", "[2, 4]", `[1, 2, 3, 7, 4, 5, 6, 8]`)},
		{"JAX x32 narrows the i64 first", "jax/cpu-x32", catCase(0, tj("i64", "[1]", `[4294967297]`), tj("i32", "[1]", `[2]`)), val("i32", "[2]", `[1, 2]`)},
		{"JAX one array is returned as it is", "jax/cpu-x64", catCase(-1, m23), val("i32", "[2, 3]", `[1, 2, 3, 4, 5, 6]`)},
		{"JAX ranks differ", "jax/cpu-x64", catCase(0, f32, m23), errShape},
		{"candle one tensor: no check at all", "candle/cpu-release", catCase(5, tj("u8", "[2]", `[1, 2]`)), val("u8", "[2]", `[1, 2]`)},
		{"candle checks shapes before dtypes", "candle/cpu-release", catCase(0, tj("f32", "[2, 3]", `["1", "1", "1", "1", "1", "1"]`), tj("u8", "[2, 1]", `[1, 1]`)), errShape},
		{"candle requires one dtype", "candle/cpu-debug", catCase(0, f32, tj("f64", "[1]", `["3"]`)), errDType},
		{"candle dim past a later tensor's rank", "candle/cpu-release", catCase(1, tj("u8", "[1, 1]", `[1]`), tj("u8", "[1]", `[1]`)), errIndex},
		{"candle Metal has no f64 copy2d", "candle/metal", catCase(0, tj("f64", "[1]", `["1"]`), tj("f64", "[1]", `["2"]`)), errKind},
		{"candle Metal f64 alone in the output is one blit", "candle/metal", catCase(0, tj("f64", "[1]", `["1"]`), tj("f64", "[0]", `[]`)), val("f64", "[1]", `["1"]`)},
		{"burn: shapes differ outside dim panics", "burn/flex-release", catCase(0, m23, m21), aPanic},
		{"burn: Float with Int does not compile", "burn/flex-debug", catCase(0, f32, tj("i32", "[1]", `[1]`)), noSpell},
		{"burn: negative dim, empties dropped", "burn/ndarray", catCase(-1, m23, tj("i32", "[2, 0]", `[]`), m21), val("i64", "[2, 4]", `[1, 2, 3, 7, 4, 5, 6, 8]`)},
		{"burn: dim out of range panics", "burn/flex-release", catCase(2, m23, m21), aPanic},
	})
}
