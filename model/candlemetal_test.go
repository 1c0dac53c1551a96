package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Rows for the rules of candlemetal.go, derived by hand from candle's
// Metal kernels and dispatch at 2a13b0f3.

// f32Vector is a JSON f32 vector of n ones, with the given elements set.
func f32Vector(n int, set map[int]string) string {
	xs := make([]string, n)
	for i := range xs {
		xs[i] = `"1"`
		if v, ok := set[i]; ok {
			xs[i] = `"` + v + `"`
		}
	}
	return fmt.Sprintf(`{"dtype":"f32","shape":[%d],"data":[%s]}`, n, strings.Join(xs, ","))
}

func TestCandleMetalKernels(t *testing.T) {
	u8 := `{"dtype":"u8","shape":[3],"data":[10,20,30]}`
	u32 := `{"dtype":"u32","shape":[3],"data":[10,20,30]}`
	i64ids := `{"dtype":"i64","shape":[2],"data":[2,0]}`
	zeros := map[int]string{}
	for i := 0; i < 64; i++ {
		zeros[i] = "0"
	}
	zeros[0], zeros[1], zeros[2] = "1073741824", "-1073741824", "1"
	rustCheck(t, []rustRow{
		{"i64 ids over u8: no is_i64_u8 kernel", "candle/metal",
			`{"op":"index_select","args":[` + u8 + `,` + i64ids + `],"attrs":{"dim":0}}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "indexing.metal:262-285 defines no is_i64_u8; the host asks for it (mod.rs:1635)"},
		{"i64 ids over u32: no is_i64_u32 kernel", "candle/metal",
			`{"op":"index_select","args":[` + u32 + `,` + i64ids + `],"attrs":{"dim":0}}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "mod.rs:1636"},
		{"no i64 ids over u8, even empty ones: the load comes before the launch", "candle/metal",
			`{"op":"index_select","args":[` + u8 + `,{"dtype":"i64","shape":[0],"data":[]}],"attrs":{"dim":0}}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "kernels/indexing.rs:29 load_pipeline, :54 linear_split"},
		{"i64 ids over u8 on the CPU work", "candle/cpu-release",
			`{"op":"index_select","args":[` + u8 + `,` + i64ids + `],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"u8","shape":[2],"data":[30,10]}}`, "cpu_backend index_select"},
		{"u32 ids over u8 on Metal work", "candle/metal",
			`{"op":"index_select","args":[` + u8 + `,{"dtype":"u32","shape":[2],"data":[2,0]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"u8","shape":[2],"data":[30,10]}}`, "is_u32_u8 exists"},
		{"f16 sqrt(2): the half overload is not fixed to the bit", "candle/metal",
			`{"op":"sqrt","args":[{"dtype":"f16","shape":[2],"data":["2","4"]}]}`,
			`{"value":{"dtype":"f16","shape":[2],"data":["?","2"]}}`, "sqrt(4) is exact, sqrt(2) is the half library's"},
		{"f32 sqrt(2) too, although its square rounds back to 2", "candle/metal",
			`{"op":"sqrt","args":[{"dtype":"f32","shape":[1],"data":["2"]}]}`,
			`{"value":{"dtype":"f32","shape":[1],"data":["?"]}}`, "a fast sqrt may miss the correctly rounded root by an ulp"},
		{"f16 exp: exp(0) = 1, exp(1) open", "candle/metal",
			`{"op":"exp","args":[{"dtype":"f16","shape":[2],"data":["0","1"]}]}`,
			`{"value":{"dtype":"f16","shape":[2],"data":["1","?"]}}`, "fast-math exp"},
		{"f32 sum of 64 in candle's order", "candle/metal",
			`{"op":"sum","args":[` + f32Vector(64, map[int]string{0: "1073741824", 32: "-1073741824"}) + `]}`,
			`{"value":{"dtype":"f32","shape":[],"data":["62"]}}`, "32 lanes: lane 0 = 2^30 - 2^30, 31 lanes of 1 + 1; simd_sum of them is exact in any order"},
		{"f32 sum of 4096 in candle's order", "candle/metal",
			`{"op":"sum","args":[` + f32Vector(4096, map[int]string{0: "1073741824", 512: "-1073741824"}) + `]}`,
			`{"value":{"dtype":"f32","shape":[],"data":["4088"]}}`, "1024 lanes of four elements; lane 0 loses its three 1s to 2^30, lane 512 to -2^30; s = 512 cancels them"},
		{"the same sum on the CPU is open", "candle/cpu-release",
			`{"op":"sum","args":[` + f32Vector(64, map[int]string{0: "1073741824", 32: "-1073741824"}) + `]}`,
			`{"value":{"dtype":"f32","shape":[],"data":["?"]}}`, "SIMD partial sums in an order the model does not pin"},
		{"an order-dependent simd_sum is open", "candle/metal",
			`{"op":"sum","args":[` + f32Vector(64, zeros) + `]}`,
			`{"value":{"dtype":"f32","shape":[],"data":["?"]}}`, "lanes 2^30, -2^30, 1: (2^30 + 1) - 2^30 = 0 but 2^30 - 2^30 + 1 = 1"},
		{"a missing binary dtype names the scalar variant", "candle/metal",
			`{"op":"add","args":[{"dtype":"i32","shape":[1],"data":[1]},{"dtype":"i32","shape":[1],"data":[2]}]}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "mod.rs:1949: both scalar-like -> badd_i32_scalar"},
	})
	got := Eval("candle/metal", mustCase(t, `{"op":"maximum","args":[{"dtype":"i32","shape":[3],"data":[1,2,3]},{"scalar":"2","kind":"int"}]}`))
	if !strings.Contains(got.Message(), "bmaximum_i32_cs") {
		t.Errorf("i32 maximum with a scalar: %s, want the Err of bmaximum_i32_cs (a contiguous lhs, a broadcast rhs)", got)
	}
}

func mustCase(t *testing.T, s string) *tensor.Case {
	t.Helper()
	c, err := tensor.DecodeCase([]byte(s))
	if err != nil {
		t.Fatalf("bad case: %v", err)
	}
	return c
}

// transposedF32 is the transpose of a rows x cols f32 matrix holding xs:
// the same storage with swapped dims and strides.
func transposedF32(rows, cols int, xs ...float64) *tensor.Tensor {
	t := tensor.New(tensor.F32, rows, cols)
	for i, x := range xs {
		t.SetFloat(i, x)
	}
	return &tensor.Tensor{DType: tensor.F32, Shape: []int{cols, rows}, Strides: []int{1, cols}, Data: t.Data}
}

// TestCandleMetalViews states the strided paths for views built directly
// (the case format has no views yet).
func TestCandleMetalViews(t *testing.T) {
	s := transposedF32(2, 2, 1, 4, 9, 16) // [[1, 9], [4, 16]]
	tests := []struct {
		name string
		c    *tensor.Case
		want string // an outcome's String()
	}{
		{"strided sign: no kernel in the strided table", &tensor.Case{Op: "sign", Args: []tensor.Arg{{Tensor: s}}},
			"error"},
		{"strided recip (s / t): none either", &tensor.Case{Op: "div", Args: []tensor.Arg{{Scalar: &tensor.Scalar{Text: "1.0", Kind: tensor.ScalarFloat}}, {Tensor: s}}},
			"error"},
		{"strided sqrt works", &tensor.Case{Op: "sqrt", Args: []tensor.Arg{{Tensor: s}}},
			"f32[2 2] [1.0, 3.0, 2.0, 4.0]"},
	}
	for _, tt := range tests {
		got := Eval("candle/metal", tt.c)
		if tt.want == "error" {
			if got.Form != tensor.FormError || got.Class != tensor.UnsupportedDType || !strings.Contains(got.Message(), "strided unary") {
				t.Errorf("%s: %s, want \"Metal strided unary ... not implemented\"", tt.name, got)
			}
			continue
		}
		if got.Form != tensor.FormValue || got.Value.String() != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	if got := Eval("candle/cpu-release", &tensor.Case{Op: "sign", Args: []tensor.Arg{{Tensor: s}}}); got.Form != tensor.FormValue {
		t.Errorf("strided sign on the CPU: %s, want a value", got)
	}
	// index_select over a 2 x 1 x 2 view x[i][0][k] = 2k + i of storage
	// [0, 1, 2, 3] along dim 1 (size 1): candle decomposes the flat index
	// over dims[0] only and reads storage 0, 1, 0, 1.
	x := tensor.New(tensor.F32, 4)
	for i := 0; i < 4; i++ {
		x.SetFloat(i, float64(i))
	}
	view := &tensor.Tensor{DType: tensor.F32, Shape: []int{2, 1, 2}, Strides: []int{1, 4, 2}, Data: x.Data}
	ids := tensor.New(tensor.U32, 1)
	c := &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: view}, {Tensor: ids}}, Attrs: tensor.Attrs{Dim: intPtr(1)}}
	if got := Eval("candle/metal", c); got.Form != tensor.FormValue || got.Value.String() != "f32[2 1 2] [0.0, 1.0, 0.0, 1.0]" {
		t.Errorf("index_select over a strided source: %s, want candle's [0, 1, 0, 1]", got)
	}
	if got := Eval("candle/cpu-release", c); got.Form != tensor.FormError || got.Class != tensor.Other {
		t.Errorf("the same on the CPU: %s, want candle's Err RequiresContiguous (cpu_backend/mod.rs:724-729)", got)
	}
}

func intPtr(v int) *int { return &v }
