package metal

import (
	"slices"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Tests of Tensor::cat on the simulated device: the copies candle's
// cat_contiguous and cat0 pick (blit, copy2d, the strided copy kernel),
// their values, and the dtypes without a kernel, worked out by hand from
// candle-core/src/tensor_cat.rs and metal_backend/mod.rs at 2a13b0f3.

func catCase(dim int, xs ...*tensor.Tensor) *tensor.Case {
	c := &tensor.Case{Op: "cat", Attrs: tensor.Attrs{Dim: &dim}}
	for _, x := range xs {
		c.Args = append(c.Args, tensor.Arg{Tensor: x})
	}
	return c
}

// narrowedRows is base's rows 1..: contiguous, at offset one row.
func narrowedRows(base *tensor.Tensor) *tensor.Tensor {
	st := tensor.ContiguousStrides(base.Shape)
	shape := append([]int{base.Shape[0] - 1}, base.Shape[1:]...)
	return &tensor.Tensor{DType: base.DType, Shape: shape, Strides: st, Offset: st[0], Data: base.Data}
}

// narrowedCols is base's columns 1.. of a rank-2 base: strides [cols, 1]
// at offset 1, not contiguous, with an outer stride for dim 1.
func narrowedCols(base *tensor.Tensor) *tensor.Tensor {
	return &tensor.Tensor{DType: base.DType, Shape: []int{base.Shape[0], base.Shape[1] - 1}, Strides: []int{base.Shape[1], 1}, Offset: 1, Data: base.Data}
}

func TestCatCopies(t *testing.T) {
	a := floats(tensor.F32, []int{2, 2}, 1, 2, 3, 4)
	b := floats(tensor.F32, []int{2, 1}, 5, 6)
	base := floats(tensor.F32, []int{2, 3}, 10, 11, 12, 13, 14, 15)
	tests := []struct {
		name string
		c    *tensor.Case
		want []float64
		log  string // the copies, as the recorder writes them
	}{
		{"dim 0, both contiguous: copy2d, neither fills the output (dst_s 6)", catCase(0, a, floats(tensor.F32, []int{1, 2}, 7, 8)),
			[]float64{1, 2, 3, 4, 7, 8}, "copy2d_f32 threads [1 4 1]x[1 4 1], copy2d_f32 threads [1 2 1]x[1 2 1]"},
		{"dim 0, one tensor fills the output, the other empty: a blit", catCase(0, a, floats(tensor.F32, []int{0, 2})),
			[]float64{1, 2, 3, 4}, "blit 16"},
		{"dim 1: rows of 2 and 1 into rows of 3 with copy2d", catCase(1, a, b),
			[]float64{1, 2, 5, 3, 4, 6}, "copy2d_f32 threads [2 2 1]x[2 2 1], copy2d_f32 threads [2 1 1]x[2 1 1]"},
		{"dim 1, a narrowed column view: its outer stride 3", catCase(1, narrowedCols(base), b),
			[]float64{11, 12, 5, 14, 15, 6}, "copy2d_f32 threads [2 2 1]x[2 2 1], copy2d_f32 threads [2 1 1]x[2 1 1]"},
		{"dim 0, a transposed view: cat0, the strided copy kernel", catCase(0, transposed(a), floats(tensor.F32, []int{1, 2}, 7, 8)),
			[]float64{1, 3, 2, 4, 7, 8}, "copy_f32_strided 1x4, blit 8"},
		{"dim 0, narrowed columns: cat0, uniform blocks, copy2d", catCase(0, narrowedCols(base), a),
			[]float64{11, 12, 14, 15, 1, 2, 3, 4}, "copy2d_f32 threads [2 2 1]x[2 2 1], blit 16"},
		{"dim 1, a transposed view: cat0 of transpose(0, 1) views, blits", catCase(1, transposed(a), b),
			[]float64{1, 3, 5, 2, 4, 6}, "blit 16, blit 8"},
		{"one tensor: itself", catCase(0, transposed(a)), []float64{1, 3, 2, 4}, ""},
		{"dim 0, a narrowed row view: contiguous, a blit from its offset", catCase(0, narrowedRows(base), floats(tensor.F32, []int{1, 3}, 7, 8, 9)),
			[]float64{13, 14, 15, 7, 8, 9}, "copy2d_f32 threads [1 3 1]x[1 2 1], copy2d_f32 threads [1 3 1]x[1 2 1]"},
	}
	for _, tt := range tests {
		rec := &recorder{Device: NewSimDevice()}
		got := New("rec", rec).Eval(Profile, tt.c)
		if got.Form != tensor.FormValue || !sameFloats(got.Value, tt.want...) {
			t.Errorf("%s: %s, want %v", tt.name, got, tt.want)
		}
		if log := strings.Join(rec.log, ", "); log != tt.log {
			t.Errorf("%s: copies %q, want %q", tt.name, log, tt.log)
		}
	}
}

// TestCatDTypes checks the dtypes candle's copies lack: no f64 copy2d
// (only a tensor that fills the whole output is a blit, of any dtype), no
// strided copy of f64, i32, i16.
func TestCatDTypes(t *testing.T) {
	i32 := ints(tensor.I32, []int{2, 2}, 1, 2, 3, 4)
	f64 := floats(tensor.F64, []int{2, 2}, 1, 2, 3, 4)
	tests := []struct {
		name string
		c    *tensor.Case
		want string // a value's String, or the Err's message
	}{
		{"f64 along dim 0: copy2d", catCase(0, f64, f64), "Metal copy2d F64 not implemented"},
		{"f64 along dim 1: copy2d", catCase(1, f64, f64), "Metal copy2d F64 not implemented"},
		{"f64 along dim 1, the other empty: dst_s = d2, a blit", catCase(1, f64, floats(tensor.F64, []int{2, 0})), "f64[2 2] [1.0, 2.0, 3.0, 4.0]"},
		{"i32 along dim 1: copy2d_i32", catCase(1, i32, i32), "i32[2 4] [1, 2, 1, 2, 3, 4, 3, 4]"},
		{"a transposed i32 along dim 1: copy_strided", catCase(1, transposed(i32), i32), "Metal copy_strided I32 not implemented"},
		{"a transposed f64 along dim 0: copy_strided", catCase(0, transposed(f64), f64), "Metal copy_strided F64 not implemented"},
		{"narrowed f64 columns along dim 0: uniform blocks, copy2d", catCase(0, narrowedCols(floats(tensor.F64, []int{2, 3}, 1, 2, 3, 4, 5, 6)), f64),
			"Metal copy2d F64 not implemented"},
		{"f32 then u8", catCase(0, floats(tensor.F32, []int{1}, 1), ints(tensor.U8, []int{1}, 2)), "dtype mismatch in cat, lhs: F32, rhs: U8"},
	}
	for _, tt := range tests {
		got := NewSim().Eval(Profile, tt.c)
		s := got.Message()
		if got.Form == tensor.FormValue {
			s = got.Value.String()
		}
		if s != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestCatLayouts checks Layout::outer_stride_for_dim, strided_blocks and
// get_block_dims on layouts worked out by hand.
func TestCatLayouts(t *testing.T) {
	view := func(shape, strides []int, off int) devTensor {
		return devTensor{t: tFloat, shape: shape, strides: strides, offset: off}
	}
	for _, tt := range []struct {
		name  string
		x     devTensor
		dim   int
		outer int // -1: None
	}{
		{"contiguous, dim 0: the product", view([]int{2, 3}, []int{3, 1}, 0), 0, 6},
		{"contiguous, dim 1: the row", view([]int{2, 3}, []int{3, 1}, 0), 1, 3},
		{"narrowed columns, dim 1: the storage row", view([]int{2, 2}, []int{3, 1}, 1), 1, 3},
		{"narrowed columns, dim 0: None", view([]int{2, 2}, []int{3, 1}, 1), 0, -1},
		{"transposed: None", view([]int{2, 2}, []int{1, 2}, 0), 1, -1},
		{"a size-1 dim with another stride: None (exact strides)", view([]int{2, 1}, []int{1, 5}, 0), 1, -1},
		{"outer dims not contiguous among themselves: None", view([]int{2, 2, 2}, []int{8, 3, 1}, 0), 2, -1},
	} {
		got, ok := outerStrideForDim(tt.x, tt.dim)
		if !ok {
			got = -1
		}
		if got != tt.outer {
			t.Errorf("outer_stride_for_dim %s: %d, want %d", tt.name, got, tt.outer)
		}
	}
	if b, ok := uniformBlocks(view([]int{3, 1, 4}, []int{8, 100, 1}, 2)); !ok || b != (blocks{start: 2, blockLen: 4, count: 3, srcStride: 8}) {
		t.Errorf("strided_blocks of [3, 1, 4] strides [8, 100, 1]: %+v %t, want 3 blocks of 4, 8 apart, from 2", b, ok)
	}
	if _, ok := uniformBlocks(view([]int{2, 2, 2}, []int{1, 2, 4}, 0)); ok {
		t.Error("strided_blocks of a reversed layout: uniform blocks, want multiple index dims")
	}
	for _, tt := range []struct{ d0, d1, want0, want1 int }{
		{2, 2, 2, 2}, {2, 1, 2, 1}, {5, 3, 4, 2}, {1, 1, 1, 1}, {4096, 4096, 32, 32}, {3000, 1, 1024, 1},
	} {
		if got := blockDims(tt.d0, tt.d1, 1); !slices.Equal(got[:], []int{tt.want0, tt.want1, 1}) {
			t.Errorf("get_block_dims(%d, %d, 1) = %v, want [%d %d 1]", tt.d0, tt.d1, got, tt.want0, tt.want1)
		}
	}
}
