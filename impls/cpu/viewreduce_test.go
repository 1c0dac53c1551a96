package cpu

import (
	"slices"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

func TestNumPyViewCalls(t *testing.T) {
	// the calls worked out by hand from numpy v2.5.2's
	// npyiter_find_buffering_setup and npyiter_copy_to_buffers
	for _, tt := range []struct {
		name           string
		shape, strides []int
		cast           bool
		calls          []int // nil: the iteration merges into one axis
	}{
		{"rows that chain merge into one axis", []int{4, 16}, []int{32, 2}, false, nil},
		{"rows with gaps: buffered, one call", []int{4, 16}, []int{33, 2}, false, []int{64}},
		{"broadcast rows: buffered, one call", []int{3, 16}, []int{0, 1}, false, []int{48}},
		{"rows over 4096: one call per row", []int{3, 5000}, []int{10001, 2}, false, []int{5000, 5000, 5000}},
		{"100x100 with gaps: 81 rows a call", []int{100, 100}, []int{201, 2}, false, []int{8100, 1900}},
		{"3-d: the core stops at the buffer", []int{3, 100, 100}, []int{30000, 201, 2}, false, []int{8100, 1900, 8100, 1900, 8100, 1900}},
		{"a cast input is buffered from the start", []int{2, 3}, []int{1, 2}, true, nil},
		{"cast rows with gaps: core*(8192/core) is one row", []int{3, 5000}, []int{10001, 2}, true, []int{5000, 5000, 5000}},
		{"cast 1-D rows of 3000 with gaps: two rows a call", []int{5, 3000}, []int{6001, 2}, true, []int{6000, 6000, 3000}},
	} {
		x := &tensor.Tensor{DType: tensor.F32, Shape: tt.shape, Strides: tt.strides, View: &tensor.View{}}
		g := newRedGeom(tt.shape, -1, false)
		r := npViewRead(x, &g, tt.cast)
		if !slices.Equal(r.calls, tt.calls) {
			t.Errorf("%s: calls %v, want %v", tt.name, r.calls, tt.calls)
		}
	}
}

func TestNumPyViewInnermost(t *testing.T) {
	for _, tt := range []struct {
		name           string
		shape, strides []int
		dim            int
		elementwise    bool
		inner          int // the geometry's inner after the relayout
	}{
		{"transposed, reducing the stride-1 dim: rows", []int{3, 2}, []int{1, 3}, 0, false, 1},
		{"transposed, reducing the outer dim: elementwise", []int{3, 2}, []int{1, 3}, 1, true, 1},
		{"a broadcast reduced dim stays outer: elementwise", []int{4, 3}, []int{0, 1}, 0, true, 3},
		{"stepped last dim: rows", []int{2, 3}, []int{7, 2}, 1, false, 1},
	} {
		x := &tensor.Tensor{DType: tensor.F32, Shape: tt.shape, Strides: tt.strides, View: &tensor.View{}}
		g := newRedGeom(tt.shape, tt.dim, false)
		g.hasDim = true
		r := npViewRead(x, &g, false)
		if r.g.elementwise != tt.elementwise || r.g.inner != tt.inner {
			t.Errorf("%s: elementwise %v inner %d, want %v %d", tt.name, r.g.elementwise, r.g.inner, tt.elementwise, tt.inner)
		}
	}
}
