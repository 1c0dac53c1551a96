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
		{"PyTorch's int64 accumulator refuses a uint64 Scalar bound", "pytorch/cpu", "arange", "", `{"start":"0","end":"9223372036854775808","dtype":"u8"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "cannot be converted to type int64_t"},
		{"PyTorch's parser refuses a bound from 2^64", "pytorch/cpu", "arange", "", `{"start":"0","end":"18446744073709551616","dtype":"f32"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "int too big to convert"},
		{"PyTorch's double accumulator takes a uint64 Scalar bound", "pytorch/cpu", "arange", "", `{"start":"9223372036854775808","end":"9223372036854775810","dtype":"f64"}`,
			`{"value":{"dtype":"f64","shape":[0],"data":[]}}`, ""},
		{"PyTorch's int64 accumulator overflows past INT64_MAX", "pytorch/cpu", "arange", "", `{"start":"9223372036854775000","end":"9223372036854775807","dtype":"i32"}`,
			`{"value":{"dtype":"i32","shape":[1024],"data":[` + arangeDTypeWrapped(-808, 808, 216) + `]}}`, ""},
		{"NumPy f64 from a Python int beyond int64", "numpy", "arange", "", `{"start":"18446744073709551616","end":"18446744073709551618","dtype":"f64"}`,
			`{"value":{"dtype":"f64","shape":[2],"data":["18446744073709551616.0","18446744073709551616.0"]}}`, ""},
		{"NumPy truncates a float start, and its next, so delta is 0", "numpy", "arange", "", `{"start":"-0.5","end":"3","dtype":"i32"}`,
			`{"value":{"dtype":"i32","shape":[4],"data":[0,0,0,0]}}`, ""},
		{"NumPy refuses a truncated next outside the dtype", "numpy", "arange", "", `{"start":"255.5","end":"258","dtype":"u8"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "Python integer 256 out of bounds for uint8"},
		{"NumPy's bool arange of two elements", "numpy", "arange", "", `{"start":"-1","end":"1","dtype":"bool"}`,
			`{"value":{"dtype":"bool","shape":[2],"data":[true,false]}}`, ""},
		{"NumPy's bool arange beyond two elements has no fill", "numpy", "arange", "", `{"start":"0","end":"3","dtype":"bool"}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "at most length 2"},
		{"NumPy's length overflows for a reversed range past int64", "numpy", "arange", "", `{"start":"0","end":"-1180591620717411303424","dtype":"i32"}`,
			`{"error":{"class":"Other","message":""}}`, "Maximum allowed size exceeded"},
		{"NumPy complex keeps the imaginary part 0", "numpy", "arange", "", `{"start":"-0.5","end":"2","dtype":"c64"}`,
			`{"value":{"dtype":"c64","shape":[3],"data":[["-0.5","0.0"],["0.5","0.0"],["1.5","0.0"]]}}`, ""},
		{"NumPy's bfloat16 rounds through float and fills in float", "numpy", "arange", "", `{"start":"0.1","end":"3","dtype":"bf16"}`,
			`{"value":{"dtype":"bf16","shape":[3],"data":["0.10009765625","1.1015625","2.109375"]}}`, ""},
		{"PyTorch truncates float bounds to int64 and sizes int32 from the doubles", "pytorch/cpu", "arange", "", `{"start":"-0.5","end":"3","dtype":"i32"}`,
			`{"value":{"dtype":"i32","shape":[4],"data":[0,1,2,3]}}`, ""},
		{"PyTorch sizes int64 from the truncated bounds", "pytorch/cpu", "arange", "", `{"start":"-0.5","end":"3","dtype":"i64"}`,
			`{"value":{"dtype":"i64","shape":[3],"data":[0,1,2]}}`, ""},
		{"PyTorch refuses a size below -1 from the doubles", "pytorch/cpu", "arange", "", `{"start":"0.5","end":"-0.5","dtype":"i32"}`,
			`{"error":{"class":"Other","message":""}}`, "invalid size"},
		{"PyTorch's releases part on bounds reversed in double only", "pytorch/cpu", "arange", "", `{"start":"2.5","end":"2.0","dtype":"i32"}`,
			`{"unsupported":{"message":""}}`, ""},
		{"PyTorch f16 element 0 is the start rounded, later ones open", "pytorch/cpu", "arange", "", `{"start":"0.1","end":"3","dtype":"f16"}`,
			`{"value":{"dtype":"f16","shape":[3],"data":["0.0999755859375","?","?"]}}`, ""},
		{"PyTorch's -0.0 start is +0 in the accumulate type", "pytorch/cpu", "arange", "", `{"start":"-0.0","end":"2","dtype":"f32"}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["0.0","1.0"]}}`, ""},
		{"PyTorch has no bool kernel", "pytorch/cpu", "arange", "", `{"start":"0","end":"2","dtype":"bool"}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"arange_cpu" not implemented for 'Bool'`},
		{"PyTorch CUDA wraps as the CPU does", "pytorch/cuda", "arange", "", `{"start":"254","end":"258","dtype":"u8"}`,
			`{"value":{"dtype":"u8","shape":[4],"data":[254,255,0,1]}}`, ""},
		{"PyTorch CUDA adds in float: every element rounded once", "pytorch/cuda", "arange", "", `{"start":"16777217","end":"16777221","dtype":"f32"}`,
			`{"value":{"dtype":"f32","shape":[4],"data":["16777216.0","16777216.0","16777218.0","16777220.0"]}}`, ""},
		{"PyTorch CUDA has no complex kernel", "pytorch/cuda", "arange", "", `{"start":"0","end":"2","dtype":"c64"}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"arange_cuda" not implemented for 'ComplexFloat'`},
		{"PyTorch MPS is not stated", "pytorch/mps", "arange", "", `{"start":"0","end":"2","dtype":"u8"}`,
			`{"unsupported":{"message":""}}`, ""},
		{"JAX truncates a float start with NumPy's setitem", "jax/cpu-x64", "arange", "", `{"start":"0.5","end":"3","dtype":"i32"}`,
			`{"value":{"dtype":"i32","shape":[3],"data":[0,1,2]}}`, ""},
		{"JAX's iota refuses bool", "jax/gpu-x32", "arange", "", `{"start":"0","end":"2","dtype":"bool"}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "iota does not accept dtype bool"},
		{"JAX wraps a start in uint64's range", "jax/cpu-x64", "arange", "", `{"start":"9223372036854775808","end":"9223372036854775810","dtype":"i8"}`,
			`{"value":{"dtype":"i8","shape":[2],"data":[0,1]}}`, ""},
		{"JAX refuses a start beyond uint64 into an int dtype", "jax/cpu-x32", "arange", "", `{"start":"18446744073709551616","end":"18446744073709551618","dtype":"i32"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "Python int too large to convert to C long"},
		{"JAX f64 from a start beyond uint64", "jax/cpu-x64", "arange", "", `{"start":"18446744073709551616","end":"18446744073709551618","dtype":"f64"}`,
			`{"value":{"dtype":"f64","shape":[2],"data":["18446744073709551616.0","?"]}}`, ""},
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
