package metal

import (
	"math"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Tests of the places where candle's own kernels and dispatch differ from
// what one would write by hand (issue 17), each against a value worked out
// by hand from candle's source at 2a13b0f3, not by the simulator's code.

// candleOrderSum returns n f32 elements whose sum in candle's order differs
// from the sum in any sequential order: element 0 is 2^30, element `far`
// is -2^30 (the first element of another lane, which candle's threadgroup
// memory adds to lane 0 before anything small), the rest 1.
func candleOrderSum(n, far int) *tensor.Tensor {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 1
	}
	xs[0], xs[far] = 1<<30, -(1 << 30)
	return floats(tensor.F32, []int{n}, xs...)
}

func TestSumFollowsCandlesOrder(t *testing.T) {
	tests := []struct {
		name string
		x    *tensor.Tensor
		want float64
		why  string
	}{
		{"64 elements: 32 lanes, no threadgroup memory", candleOrderSum(64, 32), 62,
			"lane 0 folds 2^30 and -2^30 (elements 0 and 32) to 0, lanes 1..31 fold 1 + 1; simd_sum of {0, 2 x 31} is 62 in any order"},
		{"4096 elements: 1024 threads, halving from 512", candleOrderSum(4096, 512), 4088,
			"lane 0 is 2^30 (its three 1s vanish: the ulp of 2^30 is 128), lane 512 is -2^30, the others 4; s = 512 adds lane 512 into lane 0, leaving 1022 lanes of 4"},
		{"5 elements, 2 threads", floats(tensor.F32, []int{5}, 1e8, 1, -1e8, 1, 3), 5,
			"lane 0 folds 1e8, -1e8, 3 to 3, lane 1 folds 1 + 1; 3 + 2 in any order"},
	}
	for _, tt := range tests {
		c := &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: tt.x}}}
		got := NewSim().Eval(Profile, c)
		if got.Form != tensor.FormValue || got.Value.IsUnspecified(0) || got.Value.Float(0) != tt.want {
			t.Errorf("%s: sum = %s, want %g (%s)", tt.name, got, tt.want, tt.why)
		}
	}
	u8 := make([]int64, 300)
	for i := range u8 {
		u8[i] = 200
	}
	c := &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: ints(tensor.U8, []int{300}, u8...)}}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormValue || got.Value.IsUnspecified(0) || got.Value.Int(0) != 60000%256 {
		t.Errorf("u8 sum of 300 x 200: %s, want %d (wrapping, the same in every order)", got, 60000%256)
	}
}

// TestSimdSumOrderIsOpen checks that a float sum whose lanes give
// different results in different orders is unspecified, and that the
// reference device states it.
func TestSimdSumOrderIsOpen(t *testing.T) {
	// 64 elements, 32 lanes: lane 0 = 2^30, lane 1 = -2^30, lane 2 = 1:
	// (2^30 + 1) - 2^30 = 0 in f32 but 2^30 - 2^30 + 1 = 1.
	xs := make([]float64, 64)
	xs[0], xs[1], xs[2] = 1<<30, -(1 << 30), 1
	c := &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{64}, xs...)}}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormValue || !got.Value.IsUnspecified(0) {
		t.Errorf("an order-dependent simd_sum: %s, want unspecified", got)
	}
	if got := New("ref", NewSimDevice(WithReferenceMath())).Eval(Profile, c); got.Form != tensor.FormValue || got.Value.IsUnspecified(0) {
		t.Errorf("the reference device leaves it unspecified: %s", got)
	}
	// bf16 has no simd_sum: the shuffle-down tree fixes the order.
	ys := []float64{256, 1, -256, 1}
	c = &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: floats(tensor.BF16, []int{4}, ys...)}}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormValue || got.Value.IsUnspecified(0) || got.Value.Float(0) != 2 {
		t.Errorf("bf16 sum: %s, want 2 (lanes 256 - 256 and 1 + 1, then the tree)", got)
	}
}

// TestFastMathIsOpen checks which values of the fast-math functions the
// simulator states: IEEE specials and exact results only.
func TestFastMathIsOpen(t *testing.T) {
	one := func(op string, d tensor.DType, x float64) *tensor.Case {
		return &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: floats(d, []int{1}, x)}}}
	}
	scalarDiv := func(d tensor.DType, s string, x float64) *tensor.Case {
		return &tensor.Case{Op: "div", Args: []tensor.Arg{{Scalar: &tensor.Scalar{Text: s, Kind: tensor.ScalarFloat}}, {Tensor: floats(d, []int{1}, x)}}}
	}
	tests := []struct {
		name  string
		c     *tensor.Case
		fixed bool
		want  float64
	}{
		{"f16 sqrt(4): exact", one("sqrt", tensor.F16, 4), true, 2},
		{"f16 sqrt(2): the half overload, not fixed", one("sqrt", tensor.F16, 2), false, 0},
		{"f32 sqrt(2)", one("sqrt", tensor.F32, 2), false, 0},
		{"f16 sqrt(-1): NaN", one("sqrt", tensor.F16, -1), true, math.NaN()},
		{"f16 exp(0): 1", one("exp", tensor.F16, 0), true, 1},
		{"f16 exp(1)", one("exp", tensor.F16, 1), false, 0},
		{"f32 exp(-inf): 0", one("exp", tensor.F32, math.Inf(-1)), true, 0},
		{"bf16 exp(0.5)", one("exp", tensor.BF16, 0.5), false, 0},
		{"f16 2 / x = recip * 2, recip(4) exact", scalarDiv(tensor.F16, "2.0", 4), true, 0.5},
		{"f16 recip(3) in float: not fixed", scalarDiv(tensor.F16, "1.0", 3), false, 0},
		{"f16 floor: exact", one("floor", tensor.F16, -2.5), true, -3},
		{"f16 square: correctly rounded half multiply", one("square", tensor.F16, 3), true, 9},
	}
	for _, tt := range tests {
		got := NewSim().Eval(Profile, tt.c)
		if got.Form != tensor.FormValue {
			t.Errorf("%s: %s", tt.name, got)
			continue
		}
		v := got.Value
		switch {
		case v.IsUnspecified(0) == tt.fixed:
			t.Errorf("%s: %s, want it fixed: %v", tt.name, got, tt.fixed)
		case tt.fixed && !(v.Float(0) == tt.want || math.IsNaN(v.Float(0)) && math.IsNaN(tt.want)):
			t.Errorf("%s: %s, want %g", tt.name, got, tt.want)
		}
	}
	ref := New("ref", NewSimDevice(WithReferenceMath()))
	if got := ref.Eval(Profile, one("sqrt", tensor.F16, 2)); got.Form != tensor.FormValue || got.Value.IsUnspecified(0) || got.Value.Float(0) != 1.4140625 {
		t.Errorf("reference f16 sqrt(2) = %s, want 1.4140625 (correctly rounded)", got)
	}
}

func TestIndexSelectKernelsAreCandles(t *testing.T) {
	src := func(d tensor.DType) *tensor.Tensor { return ints(d, []int{3}, 10, 20, 30) }
	for _, d := range []tensor.DType{tensor.U8, tensor.U32} {
		for _, ids := range []*tensor.Tensor{ints(tensor.I64, []int{2}, 2, 0), ints(tensor.I64, []int{0})} {
			c := &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: src(d)}, {Tensor: ids}}, Attrs: tensor.Attrs{Dim: dim(0)}}
			got := NewSim().Eval(Profile, c)
			if got.Form != tensor.FormError || got.Class != tensor.UnsupportedDType || !strings.Contains(got.Message(), "is_i64_"+d.String()) {
				t.Errorf("i64 ids (%d) over %s: %s, want candle's Err loading is_i64_%s", ids.Len(), d, got, d)
			}
		}
	}
	c := &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: src(tensor.I64)}, {Tensor: ints(tensor.I64, []int{2}, 2, 0)}}, Attrs: tensor.Attrs{Dim: dim(0)}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormValue || got.Value.Int(0) != 30 || got.Value.Int(1) != 10 {
		t.Errorf("i64 ids over i64: %s, want [30, 10]", got)
	}
}

// TestIndexSelectStridedSource runs index_select over transposed sources:
// candle's kernel decomposes the flat source index over src_dim dims, the
// size of the selected dim where the rank belongs.
func TestIndexSelectStridedSource(t *testing.T) {
	// storage [[0, 1, 2], [3, 4, 5]] viewed as its transpose s (3 x 2):
	// s = [[0, 3], [1, 4], [2, 5]], dims [3, 2], strides [1, 3].
	s := transposed(floats(tensor.F32, []int{2, 3}, 0, 1, 2, 3, 4, 5))
	run := func(x *tensor.Tensor, d int, ids ...int64) tensor.Outcome {
		c := &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: x}, {Tensor: ints(tensor.U32, []int{len(ids)}, ids...)}}, Attrs: tensor.Attrs{Dim: dim(d)}}
		return NewSim().Eval(Profile, c)
	}
	// dim 1 has size 2, the rank: the offsets are the view's own.
	// Selecting column 1 of s: at = 2l + 1 for rows l = 0, 1, 2, which
	// strided_offset(at, 2, [3, 2], [1, 3]) maps to 3, 4, 5.
	if got := run(s, 1, 1); got.Form != tensor.FormValue || !sameFloats(got.Value, 3, 4, 5) {
		t.Errorf("s[:, [1]] = %s, want [3, 4, 5]", got)
	}
	// dim 0 has size 3, past the rank: strided_offset reads dims[2] and
	// strides[2], beyond the two bound: unspecified.
	if got := run(s, 0, 2); got.Form != tensor.FormValue || !got.Value.IsUnspecified(0) || !got.Value.IsUnspecified(1) {
		t.Errorf("s[[2], :] = %s, want unspecified elements (dims read past the rank)", got)
	}
	// A 3-dim view selecting along a dim of size 1 decomposes over dims[0]
	// only: x (2 x 1 x 2) = storage [0 .. 3] with strides [1, 4, 2]
	// (x[i][0][k] = 2k + i), dim 1: at = 2l + r for l, r in 0..1 is
	// strided_offset(at, 1, dims, strides) = (at % 2) * 1, so elements 0,
	// 1, 0, 1 where the view holds 0, 2, 1, 3.
	x := &tensor.Tensor{DType: tensor.F32, Shape: []int{2, 1, 2}, Strides: []int{1, 4, 2}, Data: floats(tensor.F32, []int{4}, 0, 1, 2, 3).Data}
	if got := run(x, 1, 0); got.Form != tensor.FormValue || !sameFloats(got.Value, 0, 1, 0, 1) {
		t.Errorf("x[:, [0], :] = %s, want candle's [0, 1, 0, 1]", got)
	}
}

// TestUnaryStridedTable checks candle's strided unary table: no sign, no
// recip, every other float op.
func TestUnaryStridedTable(t *testing.T) {
	s := transposed(floats(tensor.F32, []int{2, 2}, 1, 4, 9, 16))
	for _, op := range []string{"sign", "recip"} {
		var c *tensor.Case
		if op == "sign" {
			c = &tensor.Case{Op: "sign", Args: []tensor.Arg{{Tensor: s}}}
		} else {
			c = &tensor.Case{Op: "div", Args: []tensor.Arg{{Scalar: &tensor.Scalar{Text: "1.0", Kind: tensor.ScalarFloat}}, {Tensor: s}}}
		}
		got := NewSim().Eval(Profile, c)
		if got.Form != tensor.FormError || got.Class != tensor.UnsupportedDType || !strings.Contains(got.Message(), "strided unary u"+op) {
			t.Errorf("%s of a strided tensor: %s, want \"Metal strided unary u%s F32 not implemented\"", op, got, op)
		}
	}
	c := &tensor.Case{Op: "sqrt", Args: []tensor.Arg{{Tensor: s}}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormValue || !sameFloats(got.Value, 1, 3, 2, 4) {
		t.Errorf("sqrt of the transpose of [[1, 4], [9, 16]]: %s, want [1, 3, 2, 4]", got)
	}
	c = &tensor.Case{Op: "sign", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{2}, -2, 0)}}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormValue || !sameFloats(got.Value, -1, 0) {
		t.Errorf("sign of a contiguous tensor: %s, want [-1, 0]", got)
	}
}

// TestBinaryVariantValues computes every layout variant's elements.
func TestBinaryVariantValues(t *testing.T) {
	a := floats(tensor.F32, []int{2, 3}, 1, 2, 3, 4, 5, 6) // a.t() = [[1, 4], [2, 5], [3, 6]]
	b := floats(tensor.F32, []int{3, 2}, 10, 20, 30, 40, 50, 60)
	seven := broadcast(floats(tensor.F32, []int{1}, 7), 3, 2)
	tests := []struct {
		name string
		l, r *tensor.Tensor
		want []float64
	}{
		{"lstrided", transposed(a), b, []float64{11, 24, 32, 45, 53, 66}},
		{"rstrided", b, transposed(a), []float64{11, 24, 32, 45, 53, 66}},
		{"strided", transposed(a), transposed(a), []float64{2, 8, 4, 10, 6, 12}},
		{"cs", b, seven, []float64{17, 27, 37, 47, 57, 67}},
		{"sc", seven, b, []float64{17, 27, 37, 47, 57, 67}},
		{"lss", transposed(a), seven, []float64{8, 11, 9, 12, 10, 13}},
		{"rss", seven, transposed(a), []float64{8, 11, 9, 12, 10, 13}},
		{"scalar", floats(tensor.F32, []int{1, 1}, 2), floats(tensor.F32, []int{1, 1}, 3), []float64{5}},
	}
	for _, tt := range tests {
		c := &tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: tt.l}, {Tensor: tt.r}}}
		rec := &recorder{Device: NewSimDevice()}
		got := New("rec", rec).Eval(Profile, c)
		if got.Form != tensor.FormValue || !sameFloats(got.Value, tt.want...) {
			t.Errorf("%s: %s, want %v", tt.name, got, tt.want)
		}
		if len(rec.log) != 1 || !strings.HasPrefix(rec.log[0], "badd_f32_"+tt.name+" ") {
			t.Errorf("%s: launched %v", tt.name, rec.log)
		}
	}
	// A missing dtype fails on the variant candle picks.
	i32 := &tensor.Tensor{DType: tensor.I32, Shape: []int{3}, Strides: []int{0}, Data: []uint64{5}}
	c := &tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: ints(tensor.I32, []int{3}, 1, 2, 3)}, {Tensor: i32}}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormError || !strings.Contains(got.Message(), "badd_i32_cs") {
		t.Errorf("i32 + a broadcast i32: %s, want the Err of loading badd_i32_cs", got)
	}
}

// sameFloats reports whether x holds exactly the values want, all specified.
func sameFloats(x *tensor.Tensor, want ...float64) bool {
	if x.Len() != len(want) {
		return false
	}
	for i, w := range want {
		if x.IsUnspecified(i) || x.Float(i) != w {
			return false
		}
	}
	return true
}
