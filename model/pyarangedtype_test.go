package model

import "testing"

// Expected values are worked out from the sources' formulas by hand (see
// corpus/fidelity/arange-dtype.jsonl for more, with PyTorch 1.13 and NumPy
// 1.24 where they agree).
func TestPyArangeDType(t *testing.T) {
	uicCheck(t, []uicRow{
		{"PyTorch wraps an int8 range past 127", "pytorch/cpu-arm64", "arange", "", `{"start":"126","end":"130","dtype":"i8"}`,
			`{"value":{"dtype":"i8","shape":[4],"data":[126,127,-128,-127]}}`, ""},
		{"NumPy wraps in the fill once start and start + 1 fit", "numpy/cpu-arm64", "arange", "", `{"start":"126","end":"130","dtype":"i8"}`,
			`{"value":{"dtype":"i8","shape":[4],"data":[126,127,-128,-127]}}`, ""},
		{"NumPy refuses start + 1 outside the dtype", "numpy", "arange", "", `{"start":"127","end":"129","dtype":"i8"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "Python integer 128 out of bounds for int8"},
		{"NumPy stores one element only with setitem", "numpy", "arange", "", `{"start":"127","end":"128","dtype":"i8"}`,
			`{"value":{"dtype":"i8","shape":[1],"data":[127]}}`, ""},
		{"JAX leaves the iota past the dtype open", "jax/cpu-x64", "arange", "", `{"start":"126","end":"130","dtype":"i8"}`,
			`{"value":{"dtype":"i8","shape":[4],"data":[126,127,"?","?"]}}`, ""},
		{"JAX from 0 is iota in the dtype", "jax/cpu-x32", "arange", "", `{"start":"0","end":"3","dtype":"f16"}`,
			`{"value":{"dtype":"f16","shape":[3],"data":["0.0","1.0","2.0"]}}`, ""},
		{"JAX x32 truncates u64 to u32", "jax/cpu-x32", "arange", "", `{"start":"1","end":"3","dtype":"u64"}`,
			`{"value":{"dtype":"u32","shape":[2],"data":[1,2]}}`, ""},
		{"PyTorch bf16 is exact up to 256, then open", "pytorch/cpu", "arange", "", `{"start":"255","end":"258","dtype":"bf16"}`,
			`{"value":{"dtype":"bf16","shape":[3],"data":["255.0","256.0","?"]}}`, ""},
		{"PyTorch f32 from a Python int", "pytorch/cpu", "arange", "", `{"start":"-2","end":"1","dtype":"f32"}`,
			`{"value":{"dtype":"f32","shape":[3],"data":["-2.0","-1.0","0.0"]}}`, ""},
		{"PyTorch has no u32 kernel", "pytorch/cpu", "arange", "", `{"start":"0","end":"2","dtype":"u32"}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"arange_cpu" not implemented for 'UInt32'`},
		{"PyTorch refuses a bound beyond int64", "pytorch/cpu", "arange", "", `{"start":"0","end":"9223372036854775808","dtype":"u8"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "Overflow when unpacking long"},
		{"PyTorch's int64 accumulator overflows past INT64_MAX", "pytorch/cpu", "arange", "", `{"start":"9223372036854775000","end":"9223372036854775807","dtype":"i32"}`,
			`{"value":{"dtype":"i32","shape":[1024],"data":[` + arangeDTypeWrapped(-808, 808, 216) + `]}}`, ""},
		{"NumPy f64 from a Python int beyond int64", "numpy", "arange", "", `{"start":"18446744073709551616","end":"18446744073709551618","dtype":"f64"}`,
			`{"value":{"dtype":"f64","shape":[2],"data":["18446744073709551616.0","18446744073709551616.0"]}}`, ""},
		{"a float bound is not stated", "numpy", "arange", "", `{"start":"0","end":"2.5","dtype":"i32"}`,
			`{"unsupported":{"message":""}}`, ""},
		{"a bool dtype is not stated", "pytorch/cpu", "arange", "", `{"start":"0","end":"2","dtype":"bool"}`,
			`{"unsupported":{"message":""}}`, ""},
		{"NumPy's bfloat16 is not stated", "numpy", "arange", "", `{"start":"0","end":"2","dtype":"bf16"}`,
			`{"unsupported":{"message":""}}`, ""},
		{"PyTorch CUDA is not stated", "pytorch/cuda", "arange", "", `{"start":"0","end":"2","dtype":"u8"}`,
			`{"unsupported":{"message":""}}`, ""},
	})
}

// arangeDTypeWrapped is the data of an i32 arange whose first n values count
// up from first and whose next open ones are "?".
func arangeDTypeWrapped(first, n, open int) string {
	s := ""
	for i := 0; i < n+open; i++ {
		if i > 0 {
			s += ","
		}
		if i < n {
			s += itoa(first + i)
		} else {
			s += `"?"`
		}
	}
	return s
}
