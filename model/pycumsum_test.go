package model

import "testing"

func TestPyCumsum(t *testing.T) {
	const (
		f32x3  = `{"dtype":"f32","shape":[3],"data":["16777216.0","1.0","1.0"]}`
		bf3    = `{"dtype":"bf16","shape":[3],"data":["256.0","1.0","1.0"]}`
		u8x2   = `{"dtype":"u8","shape":[2],"data":[200,100]}`
		u32s   = `{"dtype":"u32","shape":[],"data":[6]}`
		negz   = `{"dtype":"f32","shape":[2],"data":["-0.0","-0.0"]}`
		f32x4  = `{"dtype":"f32","shape":[4],"data":["16777216.0","1.0","1.0","1.0"]}`
		f32x42 = `{"dtype":"f32","shape":[4,2],"data":["16777216.0","1.0","1.0","2.0","1.0","3.0","1.0","4.0"]}`
		f16x32 = `{"dtype":"f16","shape":[3,2],"data":["-909.8522","-1.7","0.5","-inf","-183.6218","-7.0"]}`
		dim0   = `{"dim":0}`
	)
	big := "16777216.0"
	redCheck(t, []redRow{
		{"PyTorch CPU accumulates f32 in f64 (oracle-01020)", "pytorch/cpu", "cumsum", f32x3, dim0,
			redVal("f32", "[3]", `["16777216.0","16777216.0","16777218.0"]`)},
		{"PyTorch CUDA adds in the dtype (oracle-01020)", "pytorch/cuda", "cumsum", f32x3, dim0,
			redVal("f32", "[3]", `["16777216.0","16777216.0","16777216.0"]`)},
		{"Arm64 follows the CPU rule", "pytorch/cpu-arm64", "cumsum", f32x3, dim0,
			redVal("f32", "[3]", `["16777216.0","16777216.0","16777218.0"]`)},
		{"PyTorch CPU bf16 in f32 (oracle-01013)", "pytorch/cpu", "cumsum", bf3, dim0, redVal("bf16", "[3]", `["256.0","256.0","258.0"]`)},
		{"JAX bf16 is not upcast (oracle-01013)", "jax/gpu-x32", "cumsum", bf3, dim0, redVal("bf16", "[3]", `["256.0","256.0","256.0"]`)},
		{"NumPy bf16 rounds every step (oracle-01013)", "numpy", "cumsum", bf3, dim0, redVal("bf16", "[3]", `["256.0","256.0","256.0"]`)},
		{"JAX keeps u8 and wraps (oracle-00943)", "jax/cpu-x64", "cumsum", u8x2, dim0, redVal("u8", "[2]", `[200,44]`)},
		{"NumPy widens u8 to u64 (oracle-00943)", "numpy", "cumsum", u8x2, dim0, redVal("u64", "[2]", `[200,300]`)},
		{"PyTorch widens u8 to i64 (oracle-00943)", "pytorch/cuda", "cumsum", u8x2, dim0, redVal("i64", "[2]", `[200,300]`)},
		{"i32 widens to i64 (seed 004)", "pytorch/cpu", "cumsum", `{"dtype":"i32","shape":[2],"data":[1500000000,1500000000]}`, dim0,
			redVal("i64", "[2]", `[1500000000,3000000000]`)},
		{"no dim: PyTorch requires one", "pytorch/cpu", "cumsum", `{"dtype":"i32","shape":[2],"data":[1,2]}`, "", redErr("Other")},
		{"no dim: NumPy flattens", "numpy", "cumsum", `{"dtype":"i8","shape":[2,2],"data":[1,2,3,4]}`, "", redVal("i64", "[4]", `[1,3,6,10]`)},
		{"no dim: JAX flattens", "jax/cpu-x64", "cumsum", `{"dtype":"i32","shape":[2,1],"data":[1,2]}`, "", redVal("i32", "[2]", `[1,3]`)},
		{"NumPy 0-dim gives shape [1] (oracle2-00302)", "numpy", "cumsum", u32s, dim0, redVal("u64", "[1]", `[6]`)},
		{"PyTorch 0-dim stays 0-dim (oracle2-00302)", "pytorch/cpu", "cumsum", u32s, dim0, redVal("i64", "[]", `[6]`)},
		{"JAX rejects axis 0 of a 0-dim input (oracle2-00302)", "jax/gpu-x64", "cumsum", u32s, dim0, redErr("OutOfRange")},
		{"JAX bool becomes the default int (oracle2-01401)", "jax/cpu-x32", "cumsum", `{"dtype":"bool","shape":[0],"data":[]}`, dim0, redVal("i32", "[0]", `[]`)},
		{"along dim 1 (oracle2-00992)", "pytorch/cuda", "cumsum", f16x32, `{"dim":1}`,
			redVal("f16", "[3,2]", `["-910.0","-911.5","0.5","-inf","-183.625","-190.625"]`)},
		{"NumPy copies a leading -0", "numpy", "cumsum", negz, dim0, redVal("f32", "[2]", `["-0.0","-0.0"]`)},
		{"PyTorch CPU starts from +0", "pytorch/cpu", "cumsum", negz, dim0, redVal("f32", "[2]", `["0.0","0.0"]`)},
		{"JAX starts from +0", "jax/cpu-x32", "cumsum", negz, dim0, redVal("f32", "[2]", `["0.0","0.0"]`)},
		{"PyTorch CUDA: the sign of a leading -0 is not pinned", "pytorch/cuda", "cumsum", negz, dim0, redVal("f32", "[2]", `["?","?"]`)},
		{"PyTorch CUDA along the fastest dim: in order for three outputs", "pytorch/cuda", "cumsum", f32x4, dim0,
			redVal("f32", "[4]", `["16777216.0","16777216.0","16777216.0","?"]`)},
		{"PyTorch CUDA along a strided dim: in order", "pytorch/cuda", "cumsum", f32x42, dim0,
			redVal("f32", "[4,2]", `["16777216.0","1.0","16777216.0","3.0","16777216.0","6.0","16777216.0","10.0"]`)},
		{"PyTorch CUDA: [4,1] along dim 0 is one contiguous row", "pytorch/cuda", "cumsum", `{"dtype":"f32","shape":[4,1],"data":["16777216.0","1.0","1.0","1.0"]}`, dim0,
			redVal("f32", "[4,1]", `["16777216.0","16777216.0","16777216.0","?"]`)},
		{"PyTorch MPS: only order-free prefixes", "pytorch/mps", "cumsum", f32x4, dim0,
			redVal("f32", "[4]", `["16777216.0","16777216.0","?","?"]`)},
		{"JAX beyond 32 outputs: only order-free prefixes", "jax/cpu-x64", "cumsum", redRepeat("f32", []string{big}, "1.0", 33), dim0,
			redVal("f32", "[34]", `[`+redRepeatData(big, 32)+`,"?","?"]`)},
		{"JAX beyond 32 outputs: exact prefixes", "jax/gpu-x32", "cumsum", redRepeat("f32", nil, "2.0", 34), dim0,
			redVal("f32", "[34]", `[`+redRunning(2, 34)+`]`)},
		{"MPS cannot cumsum u64 (seed 000, by analogy)", "pytorch/mps", "cumsum", `{"dtype":"u64","shape":[1],"data":[1]}`, dim0, redErr("UnsupportedDType")},
	})
}

// redRepeatData is n quoted copies of v, comma-separated.
func redRepeatData(v string, n int) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += ","
		}
		s += `"` + v + `"`
	}
	return s
}

// redRunning is the running sums of n copies of step, quoted.
func redRunning(step, n int) string {
	s := ""
	for i := 1; i <= n; i++ {
		if i > 1 {
			s += ","
		}
		s += `"` + itoa(i*step) + `.0"`
	}
	return s
}
