package model

import (
	"testing"
)

// sortRow is the row the sort tests share: NaN, both zeros twice, ties.
const sortRow = `{"dtype": "f32", "shape": [6], "data": ["3.0", "nan", "-0.0", "0.0", "-1.0", "0.0"]}`

// TestSortOps: sort and argsort under every family of profiles, one row
// per rule, against outcomes worked out by hand from the sources the rules
// cite.
func TestSortOps(t *testing.T) {
	sortCase := func(op, attrs string) string {
		return `{"op": "` + op + `", "args": [` + sortRow + `], "attrs": {` + attrs + `}}`
	}
	checkRows(t, []outcomeRow{
		{"torch: NaN last ascending, unstable zero ties open", "pytorch/cpu", sortCase("sort", ""),
			`{"value": {"dtype": "f32", "shape": [6], "data": ["-1.0", "?", "?", "?", "3.0", "nan"]}}`},
		{"torch: stable keeps -0.0 before the zeros after it", "pytorch/cpu", sortCase("sort", `"stable": true`),
			`{"value": {"dtype": "f32", "shape": [6], "data": ["-1.0", "-0.0", "0.0", "0.0", "3.0", "nan"]}}`},
		{"torch: NaN first descending", "pytorch/cpu-arm64", sortCase("argsort", `"descending": true, "stable": true`),
			`{"value": {"dtype": "i64", "shape": [6], "data": [1, 0, 2, 3, 5, 4]}}`},
		{"torch: unstable argsort leaves the tie group open", "pytorch/cpu", sortCase("argsort", ""),
			`{"value": {"dtype": "i64", "shape": [6], "data": [4, "?", "?", "?", 0, 1]}}`},
		{"torch CUDA: zeros open even when stable", "pytorch/cuda", sortCase("argsort", `"stable": true`),
			`{"value": {"dtype": "i64", "shape": [6], "data": [4, "?", "?", "?", 0, 1]}}`},
		{"torch MPS: a row with NaN is open", "pytorch/mps", sortCase("sort", `"stable": true`),
			`{"value": {"dtype": "f32", "shape": [6], "data": ["?", "?", "?", "?", "?", "?"]}}`},
		{"torch CUDA: no complex sort", "pytorch/cuda",
			`{"op": "sort", "args": [{"dtype": "c64", "shape": [1], "data": [["1.0", "0.0"]]}], "attrs": {}}`,
			`{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"torch: a 0-dim tensor sorts to itself with index 0", "pytorch/cpu",
			`{"op": "argsort", "args": [{"dtype": "c64", "shape": [], "data": [["1.0", "2.0"]]}], "attrs": {}}`,
			`{"value": {"dtype": "i64", "shape": [], "data": [0]}}`},
		{"torch: dim out of range", "pytorch/cpu", sortCase("sort", `"dim": 1`),
			`{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"NumPy: descending keeps NaN last", "numpy", sortCase("sort", `"descending": true, "stable": true`),
			`{"value": {"dtype": "f32", "shape": [6], "data": ["3.0", "-0.0", "0.0", "0.0", "-1.0", "nan"]}}`},
		{"NumPy: argsort indices are int64, stable ties in order", "numpy/cpu-arm64", sortCase("argsort", `"stable": true`),
			`{"value": {"dtype": "i64", "shape": [6], "data": [4, 2, 3, 5, 0, 1]}}`},
		{"NumPy: sort of a 0-d array is an AxisError", "numpy",
			`{"op": "sort", "args": [{"dtype": "i8", "shape": [], "data": [3]}], "attrs": {}}`,
			`{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"NumPy: argsort ravels a 0-d array", "numpy",
			`{"op": "argsort", "args": [{"dtype": "i8", "shape": [], "data": [3]}], "attrs": {}}`,
			`{"value": {"dtype": "i64", "shape": [1], "data": [0]}}`},
		{"NumPy: complex NaN parts last", "numpy",
			`{"op": "sort", "args": [{"dtype": "c64", "shape": [3], "data": [["nan", "0.0"], ["1.0", "nan"], ["1.0", "0.0"]]}], "attrs": {}}`,
			`{"value": {"dtype": "c64", "shape": [3], "data": [["1.0", "0.0"], ["1.0", "nan"], ["nan", "0.0"]]}}`},
		{"JAX: a stable descending sort reverses equal elements", "jax/cpu-x64", sortCase("sort", `"descending": true, "stable": true`),
			`{"value": {"dtype": "f32", "shape": [6], "data": ["nan", "3.0", "0.0", "0.0", "-0.0", "-1.0"]}}`},
		{"JAX: a stable descending argsort keeps them in order, int32 with x64 off", "jax/gpu-x32", sortCase("argsort", `"descending": true, "stable": true`),
			`{"value": {"dtype": "i32", "shape": [6], "data": [1, 0, 2, 3, 5, 4]}}`},
		{"JAX: a 0-dim array is a ValueError", "jax/cpu-x32",
			`{"op": "sort", "args": [{"dtype": "f32", "shape": [], "data": ["1.0"]}], "attrs": {}}`,
			`{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"candle CPU: stable in both directions, U32 indices", "candle/cpu-release",
			`{"op": "argsort", "args": [{"dtype": "f32", "shape": [5], "data": ["0.0", "-0.0", "2.0", "0.0", "-1.0"]}], "attrs": {"descending": true}}`,
			`{"value": {"dtype": "u32", "shape": [5], "data": [2, 0, 1, 3, 4]}}`},
		{"candle: the last dim only", "candle/cpu-debug",
			`{"op": "sort", "args": [{"dtype": "i64", "shape": [2, 2], "data": [1, 2, 3, 4]}], "attrs": {"dim": 0}}`,
			`{"unsupported": {"message": ""}}`},
		{"candle: a NaN row is not stated", "candle/cpu-release", sortCase("sort", ""),
			`{"unsupported": {"message": "not modeled"}}`},
		{"candle: an empty last dim panics in rayon", "candle/cpu-release",
			`{"op": "sort", "args": [{"dtype": "u8", "shape": [2, 0], "data": []}], "attrs": {}}`,
			`{"panic": {"message": ""}}`},
		{"candle: a 0-dim tensor is an Err", "candle/cpu-release",
			`{"op": "sort", "args": [{"dtype": "u8", "shape": [], "data": [1]}], "attrs": {}}`,
			`{"error": {"class": "Other", "message": ""}}`},
		{"candle Metal: no f64 kernel", "candle/metal",
			`{"op": "argsort", "args": [{"dtype": "f64", "shape": [2], "data": ["1.0", "0.0"]}], "attrs": {}}`,
			`{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"candle Metal: u8 argsort runs, ties open", "candle/metal",
			`{"op": "argsort", "args": [{"dtype": "u8", "shape": [3], "data": [5, 1, 5]}], "attrs": {}}`,
			`{"value": {"dtype": "u32", "shape": [3], "data": [1, "?", "?"]}}`},
		{"candle Metal: u8 sort has no gather", "candle/metal",
			`{"op": "sort", "args": [{"dtype": "u8", "shape": [3], "data": [5, 1, 5]}], "attrs": {}}`,
			`{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"burn: total_cmp puts -0.0 before 0.0 and NaN last", "burn/flex-debug", sortCase("sort", ""),
			`{"value": {"dtype": "f32", "shape": [6], "data": ["-1.0", "-0.0", "0.0", "0.0", "3.0", "nan"]}}`},
		{"burn Flex: Float argsort is I32, ties open", "burn/flex-release", sortCase("argsort", `"stable": true`),
			`{"value": {"dtype": "i32", "shape": [6], "data": [4, 2, "?", "?", 0, 1]}}`},
		{"burn Flex: Int argsort keeps the I64 indices", "burn/flex-release",
			`{"op": "argsort", "args": [{"dtype": "i64", "shape": [3], "data": [3, 1, 2]}], "attrs": {"descending": true}}`,
			`{"value": {"dtype": "i64", "shape": [3], "data": [0, 2, 1]}}`},
		{"burn ndarray: Float argsort is I64", "burn/ndarray",
			`{"op": "argsort", "args": [{"dtype": "f64", "shape": [2], "data": ["1.0", "0.5"]}], "attrs": {}}`,
			`{"value": {"dtype": "i64", "shape": [2], "data": [1, 0]}}`},
		{"burn: no Bool sort", "burn/ndarray",
			`{"op": "sort", "args": [{"dtype": "bool", "shape": [2], "data": [true, false]}], "attrs": {}}`,
			`{"unsupported": {"message": ""}}`},
		{"tenferro: not stated", "tenferro/eager", sortCase("sort", ""),
			`{"unsupported": {"message": "not modeled"}}`},
	})
}
