package metal

import (
	"math"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Tests of matmul on the simulated device: the kernels, tiles and grids
// candle's call_mlx_gemm and call_mlx_gemv pick (mlx_gemm.rs at
// 2a13b0f3), the Errs before any kernel, and values worked out by hand
// from the kernels' order of float operations.

func matmulCase(a, b *tensor.Tensor) *tensor.Case {
	return &tensor.Case{Op: "matmul", Args: []tensor.Arg{{Tensor: a}, {Tensor: b}}}
}

// iotaT is a tensor of dtype d and shape holding 1, 2, 3, ...
func iotaT(d tensor.DType, shape ...int) *tensor.Tensor {
	x := tensor.New(d, shape...)
	for i := 0; i < x.Len(); i++ {
		if d.IsFloat() {
			x.SetFloat(i, float64(i+1))
		} else {
			x.SetInt(i, int64(i+1))
		}
	}
	return x
}

// batchBroadcast is x ([k, n]) as the view x.broadcast_as([b, k, n]):
// batch stride 0.
func batchBroadcast(x *tensor.Tensor, b int) *tensor.Tensor {
	st := tensor.ContiguousStrides(x.Shape)
	return &tensor.Tensor{DType: x.DType, Shape: append([]int{b}, x.Shape...), Strides: append([]int{0}, st...), Data: x.Data}
}

func TestMatmulLaunches(t *testing.T) {
	tests := []struct {
		name string
		arch string // "": the default, an M1 (applegpu_g13g, BasePro)
		a, b *tensor.Tensor
		want string
	}{
		{"m < 16 takes the 32 x 32 tile", "", iotaT(tensor.F32, 2, 3), iotaT(tensor.F32, 3, 2),
			"gemm_nn_f32_f32_32_32_16_2_2 [1 1 1]x[32 2 2]"},
		{"B transposed: nt", "", iotaT(tensor.F16, 2, 3), transposed(iotaT(tensor.F16, 2, 3)),
			"gemm_nt_f16_f16_32_32_16_2_2 [1 1 1]x[32 2 2]"},
		{"A transposed: tn", "", transposed(iotaT(tensor.BF16, 3, 2)), iotaT(tensor.BF16, 3, 2),
			"gemm_tn_bf16_bf16_32_32_16_2_2 [1 1 1]x[32 2 2]"},
		{"BasePro f32 nn, m >= 16", "", iotaT(tensor.F32, 20, 3), iotaT(tensor.F32, 3, 70),
			"gemm_nn_f32_f32_64_64_16_2_2 [2 1 1]x[32 2 2]"},
		{"BasePro nt", "", iotaT(tensor.F32, 20, 3), transposed(iotaT(tensor.F32, 70, 3)),
			"gemm_nt_f32_f32_64_32_32_2_2 [3 1 1]x[32 2 2]"},
		{"BasePro half", "", iotaT(tensor.F16, 20, 3), iotaT(tensor.F16, 3, 2),
			"gemm_nn_f16_f16_64_64_16_1_2 [1 1 1]x[32 2 1]"},
		{"Max f32 nn, small", "applegpu_g15s", iotaT(tensor.F32, 20, 3), iotaT(tensor.F32, 3, 2),
			"gemm_nn_f32_f32_64_32_32_2_2 [1 1 1]x[32 2 2]"},
		{"Max f32 nt, small", "applegpu_g15s", iotaT(tensor.F32, 20, 3), transposed(iotaT(tensor.F32, 2, 3)),
			"gemm_nt_f32_f32_32_64_16_1_2 [1 1 1]x[32 2 1]"},
		{"Ultra bf16 nn, small", "applegpu_g14d", iotaT(tensor.BF16, 20, 3), iotaT(tensor.BF16, 3, 2),
			"gemm_nn_bf16_bf16_64_64_16_1_2 [1 1 1]x[32 2 1]"},
		{"unknown letter: Medium, f16 nt", "applegpu_g13x", iotaT(tensor.F16, 20, 3), transposed(iotaT(tensor.F16, 2, 3)),
			"gemm_nt_f16_f16_64_32_32_2_2 [1 1 1]x[32 2 2]"},
		{"a batch: one threadgroup layer per item", "", iotaT(tensor.F32, 3, 2, 4), iotaT(tensor.F32, 3, 4, 2),
			"gemm_nn_f32_f32_32_32_16_2_2 [1 1 3]x[32 2 2]"},
		{"B shared by the batch: folded into m", "", iotaT(tensor.F32, 3, 8, 4), batchBroadcast(iotaT(tensor.F32, 4, 2), 3),
			"gemm_nn_f32_f32_64_64_16_2_2 [1 1 1]x[32 2 2]"},
		{"m = 1: B is the matrix, read along its rows: gemv_t", "", iotaT(tensor.F32, 1, 3), iotaT(tensor.F32, 3, 4),
			"gemv_t_float32_bm1_bn2_sm8_sn4_tm4_tn4_nc0_axpby0 [1 1 1]x[32 2 1]"},
		{"m = 1, B transposed: gemv", "", iotaT(tensor.F16, 1, 3), transposed(iotaT(tensor.F16, 2, 3)),
			"gemv_float16_bm1_bn1_sm8_sn4_tm1_tn4_nc0_axpby0 [1 1 1]x[32 1 1]"},
		{"n = 1: A is the matrix: gemv", "", iotaT(tensor.F32, 4, 3), iotaT(tensor.F32, 3, 1),
			"gemv_float32_bm1_bn1_sm8_sn4_tm4_tn4_nc0_axpby0 [1 1 1]x[32 1 1]"},
		{"n = 1, A transposed: gemv_t over A", "", transposed(iotaT(tensor.BF16, 3, 4)), iotaT(tensor.BF16, 3, 1),
			"gemv_t_bfloat16_bm1_bn2_sm8_sn4_tm4_tn4_nc0_axpby0 [1 1 1]x[32 2 1]"},
		{"k > 64 and k >= 16 out: eight simdgroups along k", "", iotaT(tensor.F32, 2, 80), iotaT(tensor.F32, 80, 1),
			"gemv_float32_bm1_bn8_sm1_sn32_tm1_tn4_nc0_axpby0 [2 1 1]x[32 8 1]"},
		{"k > 64, k < 16 out: four simdgroups along the rows", "", iotaT(tensor.F32, 8, 80), iotaT(tensor.F32, 80, 1),
			"gemv_float32_bm4_bn1_sm1_sn32_tm4_tn4_nc0_axpby0 [1 1 1]x[32 1 4]"},
		{"m = n = 1: A is the matrix", "", iotaT(tensor.F32, 2, 1, 3), iotaT(tensor.F32, 2, 3, 1),
			"gemv_float32_bm1_bn1_sm8_sn4_tm1_tn4_nc0_axpby0 [1 1 2]x[32 1 1]"},
	}
	for _, tt := range tests {
		var opts []SimOption
		if tt.arch != "" {
			opts = append(opts, WithArchitecture(tt.arch))
		}
		rec := &recorder{Device: NewSimDevice(opts...)}
		out := New("rec", rec).Eval(Profile, matmulCase(tt.a, tt.b))
		if got := strings.Join(rec.log, ", "); got != tt.want || out.Form != tensor.FormValue {
			t.Errorf("%s: launches %q, want %q (outcome %s)", tt.name, got, tt.want, out)
		}
	}
}

func TestMatmulHost(t *testing.T) {
	strided := &tensor.Tensor{DType: tensor.F32, Shape: []int{2, 2}, Strides: []int{4, 2}, Data: iotaT(tensor.F32, 8).Data}
	tests := []struct {
		name string
		a, b *tensor.Tensor
		want string // "error: MSG" or "panic: MSG", or a value's dtype and shape
	}{
		{"ranks differ", iotaT(tensor.F32, 2, 2), iotaT(tensor.F32, 1, 2, 2), "error: shape mismatch in matmul, lhs: [2, 2], rhs: [1, 2, 2]"},
		{"a vector", iotaT(tensor.F32, 2), iotaT(tensor.F32, 2), "error: shape mismatch in matmul, lhs: [2], rhs: [2]"},
		{"k differs", iotaT(tensor.F32, 2, 3), iotaT(tensor.F32, 2, 2), "error: shape mismatch in matmul"},
		{"batch products differ", iotaT(tensor.F32, 2, 2, 2), iotaT(tensor.F32, 3, 2, 2), "error: shape mismatch in matmul"},
		{"batch dims differ, products agree: a's dims", iotaT(tensor.F32, 2, 3, 1, 1), iotaT(tensor.F32, 3, 2, 1, 1), "f32[2 3 1 1]"},
		{"dtypes differ", iotaT(tensor.F32, 2, 2), iotaT(tensor.F16, 2, 2), "error: dtype mismatch in matmul, lhs: F32, rhs: F16"},
		{"k = 0: zeros after the dtype check", iotaT(tensor.I64, 2, 0), iotaT(tensor.I64, 0, 3), "i64[2 3]"},
		{"k = 0, dtypes differ", iotaT(tensor.I64, 2, 0), iotaT(tensor.U8, 0, 3), "error: dtype mismatch in matmul, lhs: I64, rhs: U8"},
		{"no kernel for i64", iotaT(tensor.I64, 2, 2), iotaT(tensor.I64, 2, 2), "error: Metal error mlx matmul doesn't support I64"},
		{"no kernel for f64", iotaT(tensor.F64, 2, 2), iotaT(tensor.F64, 2, 2), "error: Metal error mlx matmul doesn't support F64"},
		{"a column step of 2", strided, iotaT(tensor.F32, 2, 2), "error: Metal error Invalid matmul arguments [4, 2] [2, 1] (2, 2, 2)"},
	}
	for _, tt := range tests {
		got := NewSim().Eval(Profile, matmulCase(tt.a, tt.b))
		var s string
		switch got.Form {
		case tensor.FormError, tensor.FormPanic:
			s = got.Form.String() + ": " + got.Message()
		case tensor.FormValue:
			s = got.Value.String()
		default:
			s = got.Form.String()
		}
		if !strings.HasPrefix(s, tt.want) {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	zero := NewSim().Eval(Profile, matmulCase(iotaT(tensor.I64, 2, 0), iotaT(tensor.I64, 0, 3)))
	for i := 0; zero.Form == tensor.FormValue && i < zero.Value.Len(); i++ {
		if zero.Value.Int(i) != 0 {
			t.Errorf("k = 0: element %d is %d, want 0", i, zero.Value.Int(i))
		}
	}
}

// TestMatmulValues runs [[1, 2], [3, 4]] @ [[5, 6], [7, 8]] through each
// kernel family and dtype, and the sums whose value the kernels' order
// decides: a gemv lane's k, then the shuffle-down tree, in float.
func TestMatmulValues(t *testing.T) {
	p := 0x1p24
	row := func(d tensor.DType, n int, at map[int]float64) *tensor.Tensor {
		x := tensor.New(d, 1, n)
		for i, v := range at {
			x.SetFloat(i, v)
		}
		return x
	}
	ones := func(d tensor.DType, shape ...int) *tensor.Tensor {
		x := tensor.New(d, shape...)
		for i := 0; i < x.Len(); i++ {
			x.SetFloat(i, 1)
		}
		return x
	}
	a := func(d tensor.DType) *tensor.Tensor { return floats(d, []int{2, 2}, 1, 2, 3, 4) }
	b := func(d tensor.DType) *tensor.Tensor { return floats(d, []int{2, 2}, 5, 6, 7, 8) }
	bT := func(d tensor.DType) *tensor.Tensor { return transposed(floats(d, []int{2, 2}, 5, 7, 6, 8)) }
	aT := func(d tensor.DType) *tensor.Tensor { return transposed(floats(d, []int{2, 2}, 1, 3, 2, 4)) }
	tests := []struct {
		name string
		a, b *tensor.Tensor
		want string // the elements as ElementString writes them, "?" unspecified
	}{
		{"gemm nn f32", a(tensor.F32), b(tensor.F32), "19.0 22.0 43.0 50.0"},
		{"gemm nt f16", a(tensor.F16), bT(tensor.F16), "19.0 22.0 43.0 50.0"},
		{"gemm tn bf16", aT(tensor.BF16), b(tensor.BF16), "19.0 22.0 43.0 50.0"},
		{"gemm tt f32", aT(tensor.F32), bT(tensor.F32), "19.0 22.0 43.0 50.0"},
		{"gemv rows", a(tensor.F32), floats(tensor.F32, []int{2, 1}, 5, 7), "19.0 43.0"},
		{"gemv_t columns", floats(tensor.F16, []int{1, 2}, 1, 2), b(tensor.F16), "19.0 22.0"},
		// f16: the float sum 2049 rounds once, to even
		{"gemm accumulates in float, rounds once", floats(tensor.F16, []int{2, 2}, 2048, 1, 0, 0), ones(tensor.F16, 2, 2),
			"2048.0 2048.0 0.0 0.0"},
		// lanes 0..3 own k 0-3, 4-7, 8-11, 12-15: 2^24 | 1 | 0 | 1; the tree adds
		// lane 1 + lane 3 = 2 before 2^24 + 2, which a loop left to right rounds away
		{"gemv: a lane per 4 k, then the tree", row(tensor.F32, 16, map[int]float64{0: p, 4: 1, 12: 1}), ones(tensor.F32, 16, 1),
			"16777218.0"},
		// gemv_t: 8 lane rows of TM = 4 k each; the tree by 4, 2, 1 adds lanes
		// 1 and 5 (k 4 and 20) first
		{"gemv_t: the tree over lane rows", row(tensor.F32, 24, map[int]float64{0: p, 4: 1, 20: 1}), ones(tensor.F32, 24, 2),
			"16777218.0 16777218.0"},
		// one simdgroup multiply-accumulate: the hardware's order of 2^24 + 1 + 1
		{"gemm: a step that rounds is open", floats(tensor.F32, []int{2, 3}, p, 1, 1, 0, 0, 0), ones(tensor.F32, 3, 2),
			"? ? 0.0 0.0"},
		// NaN wherever infinities of both signs meet, whatever the order; a
		// finite step that overflows is open, and so is the infinity after it
		{"gemm: +inf and -inf products", floats(tensor.F32, []int{2, 2}, math.Inf(1), math.Inf(-1), 1, 1), ones(tensor.F32, 2, 2),
			"nan nan 2.0 2.0"},
		{"gemm: an overflow, then an infinity: NaN or inf", floats(tensor.F32, []int{2, 9}, 3e38, 3e38, 0, 0, 0, 0, 0, 0, math.Inf(-1)), ones(tensor.F32, 9, 2),
			"? ? 0.0 0.0"},
		{"gemm: an overflow next to infinities of both signs", floats(tensor.F32, []int{2, 10}, 3e38, 3e38, 0, 0, 0, 0, 0, 0, math.Inf(-1), math.Inf(1)), ones(tensor.F32, 10, 2),
			"nan nan 0.0 0.0"},
		{"gemv: an exact infinity after subnormal products", row(tensor.F32, 3, map[int]float64{0: 0x1p-130, 2: math.Inf(1)}), ones(tensor.F32, 3, 1),
			"inf"},
	}
	for _, tt := range tests {
		got := NewSim().Eval(Profile, matmulCase(tt.a, tt.b))
		if got.Form != tensor.FormValue {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
			continue
		}
		var els []string
		for i := 0; i < got.Value.Len(); i++ {
			els = append(els, got.Value.ElementString(i))
		}
		if s := strings.Join(els, " "); s != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, s, tt.want)
		}
	}
}
