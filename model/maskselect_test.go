package model

import "testing"

// TestMaskSelect: t[mask] per framework, one row per rule, against outcomes
// worked out by hand from the sources the rules cite (the seed's u8 row
// among them).
func TestMaskSelect(t *testing.T) {
	row := `{"dtype": "f32", "shape": [3], "data": ["10.0", "20.0", "30.0"]}`
	grid := `{"dtype": "i32", "shape": [2, 2], "data": [1, 2, 3, 4]}`
	u8 := `{"dtype": "u8", "shape": [3], "data": [1, 0, 1]}`
	mask := func(x, m string) string { return `{"op": "mask_select", "args": [` + x + `, ` + m + `], "attrs": {}}` }
	checkRows(t, []outcomeRow{
		{"torch: a uint8 index is a mask (seed 000)", "pytorch/mps", mask(row, u8),
			`{"value": {"dtype": "f32", "shape": [2], "data": ["10.0", "30.0"]}}`},
		{"NumPy: a uint8 array is integer indices", "numpy", mask(row, u8),
			`{"value": {"dtype": "f32", "shape": [3], "data": ["20.0", "10.0", "20.0"]}}`},
		{"JAX: likewise, u8 read as integers", "jax/cpu-x32", mask(row, u8),
			`{"value": {"dtype": "f32", "shape": [3], "data": ["20.0", "10.0", "20.0"]}}`},
		{"torch: a bool mask of the leading dim selects rows", "pytorch/cpu",
			mask(grid, `{"dtype": "bool", "shape": [2], "data": [false, true]}`),
			`{"value": {"dtype": "i32", "shape": [1, 2], "data": [3, 4]}}`},
		{"torch: a mask of the wrong size", "pytorch/cpu",
			mask(row, `{"dtype": "bool", "shape": [2], "data": [true, false]}`),
			`{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"NumPy: a boolean axis of size 0 is not checked", "numpy",
			mask(row, `{"dtype": "bool", "shape": [0], "data": []}`),
			`{"value": {"dtype": "f32", "shape": [0], "data": []}}`},
		{"torch: a boolean axis of size 0 is checked", "pytorch/cpu",
			mask(row, `{"dtype": "bool", "shape": [0], "data": []}`),
			`{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"torch: int64 indices wrap once", "pytorch/cpu",
			mask(row, `{"dtype": "i64", "shape": [2], "data": [-1, 0]}`),
			`{"value": {"dtype": "f32", "shape": [2], "data": ["30.0", "10.0"]}}`},
		{"torch: int16 is not an index dtype", "pytorch/cpu",
			mask(row, `{"dtype": "i16", "shape": [1], "data": [0]}`),
			`{"error": {"class": "IndexDType", "message": ""}}`},
		{"torch: out of bounds", "pytorch/cpu-arm64",
			mask(row, `{"dtype": "i32", "shape": [1], "data": [3]}`),
			`{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"JAX: out of bounds fills NaN", "jax/cpu-x64",
			mask(row, `{"dtype": "i64", "shape": [2], "data": [3, -4]}`),
			`{"value": {"dtype": "f32", "shape": [2], "data": ["nan", "nan"]}}`},
		{"NumPy: a float index", "numpy",
			mask(row, `{"dtype": "f32", "shape": [1], "data": ["0.0"]}`),
			`{"error": {"class": "IndexDType", "message": ""}}`},
		{"too many mask dims", "numpy/cpu-arm64",
			mask(row, `{"dtype": "bool", "shape": [3, 1], "data": [true, true, true]}`),
			`{"error": {"class": "IndexOutOfRange", "message": ""}}`},
		{"a 0-dim true mask adds a dim", "jax/cpu-x32",
			mask(row, `{"dtype": "bool", "shape": [], "data": [true]}`),
			`{"value": {"dtype": "f32", "shape": [1, 3], "data": ["10.0", "20.0", "30.0"]}}`},
		{"torch: a 0-dim int index selects a row", "pytorch/cpu",
			mask(grid, `{"dtype": "i8", "shape": [], "data": [-1]}`),
			`{"value": {"dtype": "i32", "shape": [2], "data": [3, 4]}}`},
		{"candle has no mask selection", "candle/cpu-release", mask(row, u8),
			`{"unsupported": {"message": ""}}`},
		{"burn: mask_select of a same-shape Bool mask, 1-D result", "burn/flex-release",
			mask(grid, `{"dtype": "bool", "shape": [2, 2], "data": [true, false, false, true]}`),
			`{"value": {"dtype": "i32", "shape": [2], "data": [1, 4]}}`},
		{"burn: a mask of another shape panics", "burn/ndarray",
			mask(grid, `{"dtype": "bool", "shape": [1, 2], "data": [true, false]}`),
			`{"panic": {"message": ""}}`},
		{"burn: a u8 mask does not compile", "burn/flex-debug", mask(row, u8),
			`{"unsupported": {"message": ""}}`},
	})
}
