package model

import (
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestNewOps: the ops added 2026-12, one row per rule, against outcomes
// worked out by hand from the sources the rules cite.
func TestNewOps(t *testing.T) {
	i8 := func(data string) string { return `{"dtype": "i8", "shape": [3], "data": ` + data + `}` }
	f32 := func(data string) string { return `{"dtype": "f32", "shape": [3], "data": ` + data + `}` }
	tests := []struct {
		name, profile, line string
		want                string // an outcome object
	}{
		{"torch << at and past the width and negative", "pytorch/cpu",
			`{"op": "shift_left", "args": [` + i8(`[1, 1, 3]`) + `, ` + i8(`[7, 8, -1]`) + `], "attrs": {}}`,
			`{"value": {"dtype": "i8", "shape": [3], "data": [-128, 0, 0]}}`},
		{"torch >> sign-fills out of range", "pytorch/cuda",
			`{"op": "shift_right", "args": [` + i8(`[-8, -8, 8]`) + `, ` + i8(`[1, 9, -1]`) + `], "attrs": {}}`,
			`{"value": {"dtype": "i8", "shape": [3], "data": [-4, -1, 0]}}`},
		{"torch has no float shift", "pytorch/cpu",
			`{"op": "shift_left", "args": [` + f32(`["1.0", "2.0", "3.0"]`) + `, {"scalar": "1", "kind": "int"}], "attrs": {}}`,
			`{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"MPS leaves out-of-range counts open", "pytorch/mps",
			`{"op": "shift_left", "args": [` + i8(`[1, 1, 1]`) + `, ` + i8(`[2, 8, -1]`) + `], "attrs": {}}`,
			`{"value": {"dtype": "i8", "shape": [3], "data": [4, "?", "?"]}}`},
		{"NumPy bool shifts in int8", "numpy",
			`{"op": "shift_left", "args": [{"dtype": "bool", "shape": [1], "data": [true]}, {"dtype": "bool", "shape": [1], "data": [true]}], "attrs": {}}`,
			`{"value": {"dtype": "i8", "shape": [1], "data": [2]}}`},
		{"JAX >> of u8 is logical", "jax/cpu-x32",
			`{"op": "shift_right", "args": [{"dtype": "u8", "shape": [2], "data": [255, 255]}, {"dtype": "u8", "shape": [2], "data": [4, 8]}], "attrs": {}}`,
			`{"value": {"dtype": "u8", "shape": [2], "data": [15, 0]}}`},
		{"burn Flex masks the count to 64 bits", "burn/flex-release",
			`{"op": "shift_left", "args": [{"dtype": "i32", "shape": [3], "data": [1, 1, 1]}, {"dtype": "i32", "shape": [3], "data": [32, 64, 65]}], "attrs": {}}`,
			`{"value": {"dtype": "i32", "shape": [3], "data": [0, 1, 2]}}`},
		{"candle has no shifts", "candle/cpu-release",
			`{"op": "shift_left", "args": [{"dtype": "u8", "shape": [1], "data": [1]}, {"dtype": "u8", "shape": [1], "data": [1]}], "attrs": {}}`,
			`{"unsupported": {"message": ""}}`},
		{"torch.where needs a bool condition", "pytorch/cpu",
			`{"op": "where", "args": [{"dtype": "u8", "shape": [1], "data": [1]}, ` + f32(`["1.0", "2.0", "3.0"]`) + `, {"scalar": "0.5", "kind": "float"}], "attrs": {}}`,
			`{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"np.where: NaN is true, weak scalar", "numpy",
			`{"op": "where", "args": [` + f32(`["nan", "0.0", "-0.0"]`) + `, {"scalar": "1", "kind": "int"}, ` + i8(`[5, 6, 7]`) + `], "attrs": {}}`,
			`{"value": {"dtype": "i8", "shape": [3], "data": [1, 6, 7]}}`},
		{"torch.where promotes and broadcasts", "pytorch/cpu",
			`{"op": "where", "args": [{"dtype": "bool", "shape": [1], "data": [true]}, ` + i8(`[1, 2, 3]`) + `, {"scalar": "0.5", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["1.0", "2.0", "3.0"]}}`},
		{"torch.clamp: min > max gives max", "pytorch/cpu",
			`{"op": "clamp", "args": [` + f32(`["-1.0", "nan", "5.0"]`) + `, {"scalar": "4.0", "kind": "float"}, {"scalar": "2.0", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["2.0", "nan", "2.0"]}}`},
		{"torch.clamp: a NaN scalar bound fills NaN", "pytorch/cpu",
			`{"op": "clamp", "args": [` + f32(`["-1.0", "0.0", "5.0"]`) + `, {"scalar": "nan", "kind": "float"}, {"scalar": "2.0", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["nan", "nan", "nan"]}}`},
		{"torch.clamp: one NaN bound is ignored on x86", "pytorch/cpu",
			`{"op": "clamp", "args": [` + f32(`["-1.0", "0.0", "5.0"]`) + `, null, {"scalar": "nan", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["-1.0", "0.0", "5.0"]}}`},
		{"torch.clamp: and open on Arm64", "pytorch/cpu-arm64",
			`{"op": "clamp", "args": [` + f32(`["-1.0", "0.0", "5.0"]`) + `, null, {"scalar": "nan", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["?", "?", "?"]}}`},
		{"torch.clamp: no bound", "pytorch/cpu",
			`{"op": "clamp", "args": [` + f32(`["-1.0", "0.0", "5.0"]`) + `, null, null], "attrs": {}}`,
			`{"error": {"class": "Other", "message": ""}}`},
		{"torch.clamp: a bound that does not fit u8", "pytorch/cpu",
			`{"op": "clamp", "args": [{"dtype": "u8", "shape": [1], "data": [7]}, {"scalar": "0", "kind": "int"}, {"scalar": "300", "kind": "int"}], "attrs": {}}`,
			`{"error": {"class": "OutOfRange", "message": ""}}`},
		{"np.clip: a NaN constant bound fills NaN", "numpy",
			`{"op": "clamp", "args": [` + f32(`["-1.0", "nan", "5.0"]`) + `, {"scalar": "nan", "kind": "float"}, {"scalar": "2.0", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["nan", "nan", "nan"]}}`},
		{"np.clip drops an int bound past the dtype", "numpy",
			`{"op": "clamp", "args": [` + i8(`[-128, 0, 127]`) + `, {"scalar": "-1000", "kind": "int"}, {"scalar": "1000", "kind": "int"}], "attrs": {}}`,
			`{"value": {"dtype": "i8", "shape": [3], "data": [-128, 0, 127]}}`},
		{"jnp.clip is maximum then minimum", "jax/cpu-x32",
			`{"op": "clamp", "args": [` + f32(`["-1.0", "nan", "5.0"]`) + `, {"scalar": "0.0", "kind": "float"}, {"scalar": "2.0", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["0.0", "nan", "2.0"]}}`},
		{"candle broadcast_mul f32 by f64 (seed 003)", "candle/cpu-release",
			`{"op": "broadcast_mul", "args": [` + f32(`["1.0", "2.0", "3.0"]`) + `, {"dtype": "f64", "shape": [1], "data": ["0.5"]}], "attrs": {}}`,
			`{"error": {"class": "DTypeMismatch", "message": ""}}`},
		{"candle broadcast_mul by f32 [1] (seed 003)", "candle/cpu-debug",
			`{"op": "broadcast_mul", "args": [` + f32(`["1.0", "2.0", "3.0"]`) + `, {"dtype": "f32", "shape": [1], "data": ["0.5"]}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["0.5", "1.0", "1.5"]}}`},
		{"candle broadcast shape error", "candle/cpu-debug",
			`{"op": "broadcast_add", "args": [` + f32(`["1.0", "2.0", "3.0"]`) + `, {"dtype": "f32", "shape": [2], "data": ["0.5", "1.0"]}], "attrs": {}}`,
			`{"error": {"class": "ShapeMismatch", "message": ""}}`},
		{"torch broadcast_add is +", "pytorch/cpu",
			`{"op": "broadcast_add", "args": [` + i8(`[1, 2, 3]`) + `, {"dtype": "f32", "shape": [1], "data": ["0.5"]}], "attrs": {}}`,
			`{"value": {"dtype": "f32", "shape": [3], "data": ["1.5", "2.5", "3.5"]}}`},
		{"candle where_cond: a float condition", "candle/cpu-release",
			`{"op": "where", "args": [` + f32(`["1.0", "0.0", "1.0"]`) + `, ` + i8(`[1, 2, 3]`) + `, ` + i8(`[4, 5, 6]`) + `], "attrs": {}}`,
			`{"unsupported": {"message": ""}}`},
		{"candle where_cond: u8 condition", "candle/cpu-release",
			`{"op": "where", "args": [{"dtype": "u8", "shape": [3], "data": [1, 0, 9]}, {"dtype": "i64", "shape": [3], "data": [1, 2, 3]}, {"dtype": "i64", "shape": [3], "data": [4, 5, 6]}], "attrs": {}}`,
			`{"value": {"dtype": "i64", "shape": [3], "data": [1, 5, 3]}}`},
		{"candle Metal where_cond: no u32 x i64 kernel name", "candle/metal",
			`{"op": "where", "args": [{"dtype": "u32", "shape": [1], "data": [1]}, {"dtype": "i64", "shape": [1], "data": [1]}, {"dtype": "i64", "shape": [1], "data": [4]}], "attrs": {}}`,
			`{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"candle clamp with int scalars as", "candle/cpu-release",
			`{"op": "clamp", "args": [{"dtype": "i64", "shape": [3], "data": [-5, 1, 9]}, {"scalar": "0.5", "kind": "float"}, {"scalar": "2.7", "kind": "float"}], "attrs": {}}`,
			`{"value": {"dtype": "i64", "shape": [3], "data": [0, 1, 2]}}`},
		{"candle Tensor::full(7u8, 3) (seed 003)", "candle/cpu-release",
			`{"op": "full", "args": [], "attrs": {"value": "7u8", "shape": [3]}}`,
			`{"value": {"dtype": "u8", "shape": [3], "data": [7, 7, 7]}}`},
		{"candle Metal has no f64 const_set", "candle/metal",
			`{"op": "full", "args": [], "attrs": {"value": "0.5", "shape": [3]}}`,
			`{"error": {"class": "UnsupportedDType", "message": ""}}`},
		{"torch.full infers i64", "pytorch/cpu",
			`{"op": "full", "args": [], "attrs": {"value": "7", "shape": [2]}}`,
			`{"value": {"dtype": "i64", "shape": [2], "data": [7, 7]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tensor.DecodeCase([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			want, err := tensor.DecodeOutcome([]byte(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			got := Eval(tt.profile, c)
			if got.Form == tensor.FormUnsupported && want.Form == tensor.FormUnsupported {
				return
			}
			if r := tensor.Compare(want, got, 0); !r.Match() {
				t.Errorf("%s under %s: got %s, want %s (rules %v)", c.Describe(), tt.profile, tensor.EncodeOutcome(got), tt.want, got.Rules)
			}
		})
	}
}
