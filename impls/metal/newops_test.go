package metal

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Tests of the ops added 2026-12 on the simulated device, against values
// worked out by hand from candle's source (2a13b0f3).

// TestBroadcastShape checks Shape::broadcast_shape_binary_op's rule.
func TestBroadcastShape(t *testing.T) {
	tests := []struct {
		name string
		a, b []int
		want []int // nil: a shape mismatch
	}{
		{"equal", []int{2, 3}, []int{2, 3}, []int{2, 3}},
		{"a row", []int{2, 3}, []int{3}, []int{2, 3}},
		{"a column and a row", []int{2, 1}, []int{1, 3}, []int{2, 3}},
		{"a rank-0 operand", []int{}, []int{4, 2}, []int{4, 2}},
		{"a zero dim against 1", []int{0}, []int{1}, []int{0}},
		{"a zero dim against 2", []int{0}, []int{2}, nil},
		{"trailing dims differ", []int{2, 3}, []int{2}, nil},
	}
	for _, tt := range tests {
		got, ok := broadcastShape(tt.a, tt.b)
		if ok != (tt.want != nil) || (ok && !slices.Equal(got, tt.want)) {
			t.Errorf("%s: broadcastShape(%v, %v) = %v, %t; want %v", tt.name, tt.a, tt.b, got, ok, tt.want)
		}
	}
	// broadcast_as keeps the own stride where the dims agree, 0 elsewhere.
	x := devTensor{t: tFloat, shape: []int{2, 1}, strides: []int{5, 7}, offset: 1}
	if b := broadcastAs(x, []int{4, 2, 3}); !slices.Equal(b.strides, []int{0, 5, 0}) || b.offset != 1 {
		t.Errorf("broadcast_as of dims [2, 1] strides [5, 7] to [4, 2, 3]: strides %v offset %d, want [0, 5, 0] and 1", b.strides, b.offset)
	}
}

// TestWhereCondLayouts selects over contiguous, transposed and broadcast
// operands (each read through its own strides), and checks the pairs
// candle's host names a kernel for.
func TestWhereCondLayouts(t *testing.T) {
	cond := transposed(ints(tensor.U8, []int{2, 2}, 1, 0, 2, 0)) // [[1, 2], [0, 0]]
	onTrue := floats(tensor.F32, []int{2, 2}, 1, 2, 3, 4)
	onFalse := broadcast(floats(tensor.F32, []int{1}, -1), 2, 2)
	c := &tensor.Case{Op: "where", Args: []tensor.Arg{{Tensor: cond}, {Tensor: onTrue}, {Tensor: onFalse}}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormValue || !sameFloats(got.Value, 1, 2, -1, -1) {
		t.Errorf("where([[1, 2], [0, 0]], [[1, 2], [3, 4]], -1): %s, want [1, 2, -1, -1]", got)
	}
	for _, tt := range []struct {
		cond, val tensor.DType
		err       string // "" for a value
	}{
		{tensor.U8, tensor.I64, ""},
		{tensor.U32, tensor.F32, ""},
		{tensor.U32, tensor.U8, "Metal where_cond U32 U8 not implemented"}, // where_u32_u8 exists, the host does not name it
		{tensor.I64, tensor.F32, "Metal where_cond I64 F32 not implemented"},
		{tensor.U8, tensor.I32, "Metal where_cond U8 I32 not implemented"},
	} {
		c := &tensor.Case{Op: "where", Args: []tensor.Arg{{Tensor: ints(tt.cond, []int{2}, 1, 0)},
			{Tensor: ints(tt.val, []int{2}, 5, 6)}, {Tensor: ints(tt.val, []int{2}, 7, 8)}}}
		got := NewSim().Eval(Profile, c)
		switch {
		case tt.err == "" && (got.Form != tensor.FormValue || got.Value.Bits(0) != 5 || got.Value.Bits(1) != 8):
			t.Errorf("where %s over %s: %s, want [5, 8]", tt.cond, tt.val, got)
		case tt.err != "" && (got.Form != tensor.FormError || got.Message() != tt.err):
			t.Errorf("where %s over %s: %s, want the Err %q", tt.cond, tt.val, got, tt.err)
		}
	}
	if !NewSimDevice().HasKernel("where_u32_u8") || !NewSimDevice().HasKernel("where_i64_bf16") {
		t.Error("ternary.metal's kernels the host never names are missing")
	}
}

// TestConstSetStrided runs the strided const_set twin directly (Tensor::full
// always takes the contiguous kernel): the value lands at each element's
// strided offset and nowhere else.
func TestConstSetStrided(t *testing.T) {
	dev := NewSimDevice()
	buf, _ := dev.Upload(make([]byte, 6*4)) // six zeros
	value := binary.LittleEndian.AppendUint32(nil, math.Float32bits(2.5))
	// a 2 x 2 view with strides [3, 1] at offset 1: elements 1, 2, 4, 5
	args := []Arg{SizeT(4), SizeT(2), SizeTs([]int{2, 2}), SizeTs([]int{3, 1}), {Bytes: value}, BufAt(buf, 4)}
	if err := dev.Dispatch("const_set_f32_strided", args, 1, 4); err != nil {
		t.Fatal(err)
	}
	data, _, _ := dev.Download(buf)
	for i, want := range []float32{0, 2.5, 2.5, 0, 2.5, 2.5} {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:])); got != want {
			t.Errorf("element %d = %v, want %v", i, got, want)
		}
	}
}

// TestFullValues checks Tensor::full's typing of the fill value and
// MetalStorage::const_set's dtypes.
func TestFullValues(t *testing.T) {
	tests := []struct {
		value string
		dtype tensor.DType
		want  string // a value's String, or "error: MSG", "panic", "unsupported"
	}{
		{"7", 0, "error: dtype mismatch, expected I32, got I32(7)"}, // an i32 literal: no (I32, Scalar::I32) arm
		{"-3", tensor.I16, "error: dtype mismatch, expected I16, got I16(-3)"},
		{"0.5", 0, "error: unsupported const-set f64"},
		{"7", tensor.U8, "u8[2] [7, 7]"},
		{"7f32", 0, "f32[2] [7.0, 7.0]"},
		{"-1i64", 0, "i64[2] [-1, -1]"},
		{"1e3", tensor.F32, "f32[2] [1000.0, 1000.0]"},
		{"0.1", tensor.F32, "f32[2] [0.10000000149011612, 0.10000000149011612]"}, // rounded once, to f32
		{"256", tensor.U8, "unsupported"},                                        // literal out of range for u8
		{"0.5u8", 0, "unsupported"},
		{"true", 0, "unsupported"},
		{"nan", tensor.F32, "unsupported"},
	}
	for _, tt := range tests {
		c := &tensor.Case{Op: "full", Attrs: tensor.Attrs{Shape: []int{2}, Value: ptr(tt.value), DType: tt.dtype}}
		got := NewSim().Eval(Profile, c)
		var s string
		switch got.Form {
		case tensor.FormValue:
			s = got.Value.String()
		case tensor.FormError:
			s = "error: " + got.Message()
		default:
			s = got.Form.String()
		}
		if s != tt.want {
			t.Errorf("full(%q, dtype %s): %s, want %s", tt.value, tt.dtype, s, tt.want)
		}
	}
	c := &tensor.Case{Op: "full", Attrs: tensor.Attrs{Shape: []int{2, 0}, Value: ptr("7u32")}}
	if got := NewSim().Eval(Profile, c); got.Form != tensor.FormPanic || !strings.Contains(got.Message(), "divide by zero") {
		t.Errorf("full of zero elements: %s, want linear_split's panic", got)
	}
}
