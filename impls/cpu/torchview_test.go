package cpu

import (
	"slices"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Strides read off PyTorch 1.13 (Tensor.stride() of the view and of its
// .double() copy); axes worked by hand from TensorIterator.cpp.

func TestTorchStridesOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    tensor.View
		want []int
	}{
		{"a new leading dim of size 1 takes the next size times stride", tensor.View{Base: []int{3, 4}, Slice: [][3]int{{0, 3, 1}, {0, 1, 1}}, Expand: []int{1, 3, 5}}, []int{12, 4, 0}},
		{"two new leading dims", tensor.View{Base: []int{3, 4}, Expand: []int{1, 1, 3, 4}}, []int{12, 12, 4, 1}},
		{"a broadcast leading dim stays 0", tensor.View{Base: []int{3, 4}, Expand: []int{2, 1, 3, 4}}, []int{0, 12, 4, 1}},
		{"no expand: the view's strides", tensor.View{Base: []int{4, 6}, Permute: []int{1, 0}, Slice: [][3]int{{0, 6, 2}, {1, 4, 1}}}, []int{2, 6}},
	} {
		storage := tensor.New(tensor.F32, tt.v.Base...)
		x, err := tensor.NewView(storage, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if got := torchStridesOf(x); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestDenseStrides(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		shape, strides, want []int
	}{
		{"dense and permuted: kept", []int{3, 2}, []int{1, 3}, []int{1, 3}},
		{"a stepped transpose keeps its order", []int{3, 4}, []int{2, 6}, []int{1, 3}},
		{"a stepped permuted 4-d view", []int{2, 2, 5, 3}, []int{60, 10, 1, 20}, []int{30, 5, 1, 10}},
		{"a broadcast dim keeps its place", []int{3, 4}, []int{0, 1}, []int{4, 1}},
		{"zero strides do not move (infer_dense_strides' example)", []int{6, 5, 4, 3, 2}, []int{6, 0, 120, 0, 1}, []int{6, 36, 180, 2, 1}},
		{"1-d stepped", []int{5}, []int{3}, []int{1}},
	} {
		if got := denseStrides(tt.shape, tt.strides); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestTiAxes(t *testing.T) {
	for _, tt := range []struct {
		name            string
		shape, src, dst []int
		want            []tiAxis
	}{
		{"a transposed full reduction merges into one axis", []int{5, 3}, []int{1, 5}, []int{0, 0}, []tiAxis{{15, 1, 0}}},
		{"the reduced dim first", []int{5, 3}, []int{1, 5}, []int{1, 0}, []tiAxis{{3, 5, 0}, {5, 1, 1}}},
		{"rows with gaps", []int{2, 2}, []int{5, 2}, []int{0, 0}, []tiAxis{{2, 2, 0}, {2, 5, 0}}},
		{"kept dims by the result's strides", []int{2, 3, 4}, []int{1, 8, 2}, []int{3, 1, 0}, []tiAxis{{4, 2, 0}, {3, 8, 1}, {2, 1, 3}}},
		{"size-1 dims vanish", []int{1, 5, 1}, []int{7, 3, 9}, []int{0, 0, 0}, []tiAxis{{5, 3, 0}}},
		{"a broadcast reduced dim stays apart", []int{4, 3}, []int{0, 1}, []int{0, 1}, []tiAxis{{4, 0, 0}, {3, 1, 1}}},
	} {
		if got := tiAxes(tt.shape, tt.src, tt.dst); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestResultStrides(t *testing.T) {
	for _, tt := range []struct {
		name  string
		shape []int
		dim   int
		keep  bool
		want  []int
	}{
		{"every dim", []int{2, 3}, -1, false, []int{0, 0}},
		{"the middle dim", []int{2, 3, 4}, 1, false, []int{4, 0, 1}},
		{"keepdim: still 0", []int{2, 3, 4}, 1, true, []int{4, 0, 1}},
		{"keepdim over a size-1 dim", []int{3, 1}, 1, true, []int{1, 1}},
	} {
		if got := resultStrides(tt.shape, tt.dim, tt.keep); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTorchStridedReduce checks sums of views against PyTorch 1.13's
// results (one thread, AVX2), which differ from the logical order's.
func TestTorchStridedReduce(t *testing.T) {
	big := float32(16777216)
	for _, tt := range []struct {
		name string
		v    tensor.View
		data []float32
		want []float32
	}{
		// rows with gaps (strides 5, 2 do not chain): scalar_inner_sum, a
		// row_sum per row added into the output in turn: R(2^24 + 1) = 2^24,
		// then 2^24 + R(1 - 2^24) = 1; the logical order gives 0
		{"rows with gaps", tensor.View{Base: []int{2, 5}, Slice: [][3]int{{0, 2, 1}, {0, 3, 2}}},
			[]float32{big, 9, 1, 9, 9, 1, 9, -big, 9, 9}, []float32{1}},
		// a transposed storage over every element: one axis in storage
		// order, row_sum of 4 lanes ((2^24 - 2^24) + 1) + 1 = 2; the
		// logical order gives 1
		{"a transposed storage", tensor.View{Base: []int{2, 2}, Permute: []int{1, 0}},
			[]float32{big, -big, 1, 1}, []float32{2}},
	} {
		storage := tensor.New(tensor.F32, tt.v.Base...)
		for i, v := range tt.data {
			storage.SetFloat(i, float64(v))
		}
		x, err := tensor.NewView(storage, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		g := newRedGeom(x.Shape, -1, false)
		p := lookupProfile("pytorch/cpu")
		pl := planFloatRed(p, false, false, tensor.F32, &g)
		ts := torchStridedRead(x, &g, false)
		if ts == nil {
			t.Fatalf("%s: read row-major", tt.name)
		}
		if got := torchStridedReduce[float32](New(), x, ts, &g, &pl); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
