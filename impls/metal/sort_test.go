package metal

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Tests of sort_last_dim and arg_sort_last_dim on the simulated device:
// the permutations candle's bitonic network gives, worked out by hand
// from sort.metal at 2a13b0f3 (ties and NaN where the network leaves
// them), and the Errs and panics of candle's host.

func sortCase(op string, desc bool, x *tensor.Tensor) *tensor.Case {
	return &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: x}}, Attrs: tensor.Attrs{Descending: &desc}}
}

func TestArgSortNetwork(t *testing.T) {
	tests := []struct {
		name string
		desc bool
		x    *tensor.Tensor
		want []uint64
	}{
		// k=2: (0,1) swaps, (2,3) keeps; k=4, j=2: (1,3) swaps; j=1: no swap.
		{"ascending ties: the second pair out of input order", false, floats(tensor.F32, []int{4}, 2, 1, 2, 1), []uint64{1, 3, 2, 0}},
		{"descending ties", true, floats(tensor.F32, []int{4}, 2, 1, 2, 1), []uint64{0, 2, 3, 1}},
		{"three elements: padding sorts last", false, ints(tensor.U8, []int{3}, 3, 1, 2), []uint64{1, 2, 0}},
		{"NaN first compares false: it stays first", false, floats(tensor.F16, []int{2}, math.NaN(), 1), []uint64{0, 1}},
		{"NaN last stays last", false, floats(tensor.BF16, []int{2}, 1, math.NaN()), []uint64{0, 1}},
		{"-0.0 and +0.0 are equal: kept", false, floats(tensor.F32, []int{2}, 0, math.Copysign(0, -1)), []uint64{0, 1}},
		{"i64 rows sorted apart", false, ints(tensor.I64, []int{2, 2}, 5, -5, -1, -2), []uint64{1, 0, 1, 0}},
		{"u32 descending", true, ints(tensor.U32, []int{3}, 1, 3, 2), []uint64{1, 2, 0}},
	}
	for _, tt := range tests {
		got := NewSim().Eval(Profile, sortCase("argsort", tt.desc, tt.x))
		if got.Form != tensor.FormValue || got.Value.DType != tensor.U32 || got.Value.HasUnspecified() {
			t.Errorf("%s: %s, want U32 %v", tt.name, got, tt.want)
			continue
		}
		var idx []uint64
		for i := 0; i < got.Value.Len(); i++ {
			idx = append(idx, got.Value.Bits(i))
		}
		if !slices.Equal(idx, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, idx, tt.want)
		}
	}
	sorted := NewSim().Eval(Profile, sortCase("sort", false, floats(tensor.F32, []int{2, 3}, 3, 1, 2, -1, 7, 0)))
	if sorted.Form != tensor.FormValue || !sameFloats(sorted.Value, 1, 2, 3, -1, 0, 7) {
		t.Errorf("sort_last_dim of [[3, 1, 2], [-1, 7, 0]]: %s, want [[1, 2, 3], [-1, 0, 7]]", sorted)
	}
}

// TestSortHost checks candle's Errs and panics, and the grid of the
// bitonic kernel: one threadgroup of ncols_pad threads per row.
func TestSortHost(t *testing.T) {
	tests := []struct {
		name string
		c    *tensor.Case
		want string // "error: MSG", "panic: MSG", "unsupported", or "u32[..]" for a value's shape
	}{
		{"f64 names a kernel sort.metal lacks", sortCase("argsort", false, floats(tensor.F64, []int{2}, 1, 2)),
			"error: Metal error Error while loading function: asort_asc_f64"},
		{"i32 descending", sortCase("sort", true, ints(tensor.I32, []int{2}, 1, 2)),
			"error: Metal error Error while loading function: asort_desc_i32"},
		{"u8 values have no gather with u32 ids", sortCase("sort", false, ints(tensor.U8, []int{2}, 2, 1)),
			"error: Metal gather U32 U8 not implemented"},
		{"a rank-0 tensor has no last dim", sortCase("argsort", false, floats(tensor.F32, []int{}, 1)), "error: empty last-dim in arg-sort"},
		{"a transposed tensor", sortCase("argsort", false, transposed(floats(tensor.F32, []int{2, 2}, 1, 2, 3, 4))),
			"error: arg_sort_last_dim requires a contiguous tensor"},
		{"a last dim of 0: nrows = el / 0", sortCase("argsort", false, floats(tensor.F32, []int{2, 0})), "panic: attempt to divide by zero"},
		{"no rows: no threadgroup, an empty result", sortCase("argsort", false, floats(tensor.F32, []int{0, 3})), "u32[0 3]"},
		{"no rows, sorted: the gather's linear_split of 0 elements", sortCase("sort", false, floats(tensor.F32, []int{0, 3})),
			"panic: attempt to divide by zero"},
		{"dim 0 of a matrix", &tensor.Case{Op: "sort", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{2, 2}, 1, 2, 3, 4)}}, Attrs: tensor.Attrs{Dim: dim(0)}},
			"unsupported"},
	}
	for _, tt := range tests {
		got := NewSim().Eval(Profile, tt.c)
		var s string
		switch got.Form {
		case tensor.FormError, tensor.FormPanic:
			s = got.Form.String() + ": " + got.Message()
		case tensor.FormValue:
			s = strings.Fields(got.Value.String())[0] + " " + strings.Fields(got.Value.String())[1]
		default:
			s = got.Form.String()
		}
		if !strings.HasPrefix(s, tt.want) {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	rec := &recorder{Device: NewSimDevice()}
	New("rec", rec).Eval(Profile, sortCase("sort", false, floats(tensor.F32, []int{3, 5}, 5, 4, 3, 2, 1)))
	if log := strings.Join(rec.log, ", "); log != "asort_asc_f32 [1 3 1]x[8 1 1], gather_u32_f32 1x15" {
		t.Errorf("sort of a [3, 5] tensor launches %q, want asort_asc_f32 [1 3 1]x[8 1 1], gather_u32_f32 1x15", log)
	}
	long := floats(tensor.F32, []int{1025})
	if NewSim().Supports(Profile, sortCase("argsort", false, long)) {
		t.Error("a row of 1025 elements (a threadgroup of 2048 threads) is supported")
	}
}
