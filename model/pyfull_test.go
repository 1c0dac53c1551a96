package model

import "testing"

// full of Python ints at and past the 64-bit limits. Expected outcomes are
// worked out from the sources the rules cite (corpus/fidelity/full-bigint.jsonl
// has more, with what PyTorch 1.13 and NumPy 1.24 do locally).
func TestPyFullInt(t *testing.T) {
	uicCheck(t, []uicRow{
		{"PyTorch parses 2^63 as a uint64 Scalar", "pytorch/cpu", "full", "", `{"shape":[1],"value":"9223372036854775808","dtype":"f64"}`,
			`{"value":{"dtype":"f64","shape":[1],"data":["9223372036854775808.0"]}}`, ""},
		{"PyTorch's parser refuses 2^64 on every device", "pytorch/mps", "full", "", `{"shape":[1],"value":"18446744073709551616","dtype":"f32"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "int too big to convert"},
		{"PyTorch's parser refuses an int below -2^63", "pytorch/cuda", "full", "", `{"shape":[1],"value":"-9223372036854775809"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "can't convert negative int to unsigned"},
		{"PyTorch infers int64 for a uint64 Scalar and refuses it", "pytorch/cpu", "full", "", `{"shape":[1],"value":"9223372036854775808"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "int64_t without overflow"},
		{"PyTorch keeps a uint64 Scalar in u64", "pytorch/cpu-arm64", "full", "", `{"shape":[1],"value":"18446744073709551615","dtype":"u64"}`,
			`{"value":{"dtype":"u64","shape":[1],"data":[18446744073709551615]}}`, ""},
		{"PyTorch's f16 check comes before rounding", "pytorch/cpu", "full", "", `{"shape":[1],"value":"65505","dtype":"f16"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "at::Half"},
		{"PyTorch's CUDA fill of u64 is not stated", "pytorch/cuda", "full", "", `{"shape":[1],"value":"1","dtype":"u64"}`,
			`{"unsupported":{"message":""}}`, ""},
		{"NumPy's uint64 from np.asarray", "numpy", "full", "", `{"shape":[1],"value":"18446744073709551615"}`,
			`{"value":{"dtype":"u64","shape":[1],"data":[18446744073709551615]}}`, ""},
		{"NumPy's object dtype has no case-format dtype", "numpy", "full", "", `{"shape":[1],"value":"18446744073709551616"}`,
			`{"unsupported":{"message":""}}`, ""},
		{"NumPy's bool takes int64's setitem", "numpy", "full", "", `{"shape":[1],"value":"9223372036854775808","dtype":"bool"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "too large to convert to C long"},
		{"NumPy's bool below int64's limit is nonzero", "numpy", "full", "", `{"shape":[1],"value":"-9223372036854775808","dtype":"bool"}`,
			`{"value":{"dtype":"bool","shape":[1],"data":[true]}}`, ""},
		{"NumPy's u64 refuses a negative int", "numpy/cpu-arm64", "full", "", `{"shape":[1],"value":"-1","dtype":"u64"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "out of bounds for uint64"},
		{"ml_dtypes' bf16 setitem raises TypeError", "numpy", "full", "", `{"shape":[1],"value":"-9223372036854775809","dtype":"bf16"}`,
			`{"error":{"class":"Other","message":""}}`, "expected number, got int"},
		{"JAX wraps 2^64 - 1 into int64", "jax/cpu-x64", "full", "", `{"shape":[1],"value":"18446744073709551615"}`,
			`{"value":{"dtype":"i64","shape":[1],"data":[-1]}}`, ""},
		{"JAX's object array refuses an int dtype", "jax/gpu-x32", "full", "", `{"shape":[1],"value":"18446744073709551616","dtype":"u8"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "too large to convert to C long"},
		{"JAX narrows an explicit i64 and wraps", "jax/cpu-x32", "full", "", `{"shape":[1],"value":"4294967297","dtype":"i64"}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[1]}}`, ""},
		{"JAX's bf16 of an int64 array goes through float", "jax/cpu-x64", "full", "", `{"shape":[1],"value":"16842753","dtype":"bf16"}`,
			`{"value":{"dtype":"bf16","shape":[1],"data":["16777216.0"]}}`, ""},
	})
}
