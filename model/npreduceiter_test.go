package model

import (
	"slices"
	"testing"
)

func TestNumPyIterAxes(t *testing.T) {
	for _, tt := range []struct {
		name           string
		shape, strides []int
		dim            int
		dims           []int // the logical dims, fastest first
		innermost      bool
	}{
		{"row-major stays", []int{2, 3}, []int{3, 1}, -1, []int{1, 0}, false},
		{"a transpose iterates its storage", []int{3, 2}, []int{1, 3}, -1, []int{0, 1}, false},
		{"a 3-d permute sorts by stride", []int{4, 2, 3}, []int{1, 12, 4}, -1, []int{0, 2, 1}, false},
		{"a broadcast axis stays outer", []int{3, 4}, []int{0, 1}, -1, []int{1, 0}, false},
		{"an ambiguous comparison never moves an axis", []int{4, 3}, []int{1, 0}, -1, []int{1, 0}, false},
		{"a broadcast axis is passed by a smaller stride", []int{2, 3, 4}, []int{1, 0, 2}, -1, []int{0, 2, 1}, false},
		{"reduced dim with stride 1 is innermost", []int{3, 2}, []int{1, 3}, 0, []int{0, 1}, true},
		{"reduced dim with the larger stride is outer", []int{3, 2}, []int{1, 3}, 1, []int{0, 1}, false},
	} {
		axes := npIterAxes(tt.shape, tt.strides, tt.dim)
		var dims []int
		for _, a := range axes {
			dims = append(dims, a.dim)
		}
		if !slices.Equal(dims, tt.dims) {
			t.Errorf("%s: axes %v, want %v", tt.name, dims, tt.dims)
		}
		if tt.dim >= 0 {
			if got := npReducedInnermost(tt.shape, tt.strides, tt.dim); got != tt.innermost {
				t.Errorf("%s: innermost %v, want %v", tt.name, got, tt.innermost)
			}
		}
	}
}

func TestNumPyFullReduceCalls(t *testing.T) {
	// the calls worked out by hand from npyiter_find_buffering_setup
	for _, tt := range []struct {
		name           string
		shape, strides []int
		cast           bool
		calls          []int
		oneAxis        bool
	}{
		{"rows that chain: one strided axis", []int{4, 16}, []int{32, 2}, false, []int{64}, true},
		{"rows with gaps: buffered, the core grows to all", []int{4, 16}, []int{33, 2}, false, []int{64}, false},
		{"broadcast rows: buffered in one call", []int{3, 16}, []int{0, 1}, false, []int{48}, false},
		{"long rows: 2*5000 > 8192, one call per row unbuffered", []int{3, 5000}, []int{10001, 2}, false, []int{5000, 5000, 5000}, false},
		{"100x100 with gaps: calls of 81 rows (8100)", []int{100, 100}, []int{201, 2}, false, []int{8100, 1900}, false},
		{"cast 1-D: buffer chunks of 8192", []int{9000}, []int{2}, true, []int{8192, 808}, true},
		{"3-d with gaps: the core stops at the buffer", []int{3, 100, 100}, []int{30000, 201, 2}, false, []int{8100, 1900, 8100, 1900, 8100, 1900}, false},
	} {
		order, calls, one := npFullReduceOrder(tt.shape, tt.strides, tt.cast)
		if !slices.Equal(calls, tt.calls) || one != tt.oneAxis {
			t.Errorf("%s: calls %v one axis %v, want %v %v", tt.name, calls, one, tt.calls, tt.oneAxis)
		}
		if len(order) != len(slices.Compact(slices.Sorted(slices.Values(order)))) {
			t.Errorf("%s: the order visits some element twice", tt.name)
		}
	}
}
