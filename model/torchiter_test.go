package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// The strides below were read off PyTorch 1.13 (Tensor.stride()) for the
// same views and copies; the iterations are worked by hand from
// TensorIterator.cpp's reorder_dimensions and coalesce_dimensions.

func TestTorchViewLayout(t *testing.T) {
	for _, tt := range []struct {
		name           string
		v              tensor.View
		shape, strides []int
	}{
		{"permuted and stepped", tensor.View{Base: []int{4, 6}, Permute: []int{1, 0}, Slice: [][3]int{{0, 6, 2}, {1, 4, 1}}}, []int{3, 3}, []int{2, 6}},
		{"a dim sliced to one element keeps stride times step", tensor.View{Base: []int{3, 4}, Slice: [][3]int{{1, 2, 1}, {0, 4, 3}}}, []int{1, 2}, []int{4, 3}},
		{"a new leading dim of size 1", tensor.View{Base: []int{3, 4}, Slice: [][3]int{{0, 3, 1}, {0, 1, 1}}, Expand: []int{1, 3, 5}}, []int{1, 3, 5}, []int{12, 4, 0}},
		{"a new leading dim broadcast", tensor.View{Base: []int{3, 4}, Expand: []int{2, 1, 3, 4}}, []int{2, 1, 3, 4}, []int{0, 12, 4, 1}},
		{"a 0-dim storage", tensor.View{Base: []int{}, Expand: []int{2, 1}}, []int{2, 1}, []int{0, 0}},
	} {
		shape, strides := torchViewLayout(&tt.v)
		if !slices.Equal(shape, tt.shape) || !slices.Equal(strides, tt.strides) {
			t.Errorf("%s: %v %v, want %v %v", tt.name, shape, strides, tt.shape, tt.strides)
		}
	}
}

func TestTorchCopyStrides(t *testing.T) {
	for _, tt := range []struct {
		name                string
		shape, strides, out []int
	}{
		{"a dense permutation keeps its strides", []int{3, 2}, []int{1, 3}, []int{1, 3}},
		{"a stepped transpose keeps the permutation", []int{3, 4}, []int{2, 6}, []int{1, 3}},
		{"4 dims, channels-last-like", []int{2, 2, 5, 3}, []int{60, 10, 1, 20}, []int{30, 5, 1, 10}},
		{"a broadcast dim stays in place", []int{3, 4}, []int{0, 1}, []int{4, 1}},
		{"the source's example: zero strides do not move", []int{6, 5, 4, 3, 2}, []int{6, 0, 120, 0, 1}, []int{6, 36, 180, 2, 1}},
		{"1-d stepped", []int{5}, []int{3}, []int{1}},
	} {
		if got := torchCopyStrides(tt.shape, tt.strides); !slices.Equal(got, tt.out) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.out)
		}
	}
}

func TestTorchReduceIter(t *testing.T) {
	type dim struct{ n, in, out int }
	for _, tt := range []struct {
		name           string
		shape, strides []int
		dim            int
		keep           bool
		want           []dim
		at             [][]int
	}{
		{"a transposed storage coalesces into one dim", []int{5, 3}, []int{1, 5}, -1, false,
			[]dim{{15, 1, 0}}, [][]int{{0, 3, 6, 9, 12, 1, 4, 7, 10, 13, 2, 5, 8, 11, 14}}},
		{"the reduced dim goes first, the kept one after it", []int{5, 3}, []int{1, 5}, 1, false,
			[]dim{{3, 5, 0}, {5, 1, 1}}, [][]int{{0, 1, 2}, {0, 3, 6, 9, 12}}},
		{"rows with gaps stay two dims", []int{2, 2}, []int{5, 2}, -1, false,
			[]dim{{2, 2, 0}, {2, 5, 0}}, [][]int{{0, 1}, {0, 2}}},
		{"kept dims in the result's order, not the storage's", []int{2, 3, 4}, []int{1, 8, 2}, 2, false,
			[]dim{{4, 2, 0}, {3, 8, 1}, {2, 1, 3}}, [][]int{{0, 1, 2, 3}, {0, 4, 8}, {0, 12}}},
		{"keepdim over a size-1 dim is no reduction", []int{3, 1}, []int{1, 3}, 1, true,
			[]dim{{3, 1, 1}}, [][]int{{0, 1, 2}}},
		{"a broadcast reduced dim is not merged", []int{4, 3}, []int{0, 1}, 0, false,
			[]dim{{4, 0, 0}, {3, 1, 1}}, [][]int{{0, 3, 6, 9}, {0, 1, 2}}},
	} {
		dims := torchReduceIter(tt.shape, tt.strides, tt.dim, tt.keep)
		var got []dim
		var at [][]int
		for _, d := range dims {
			got = append(got, dim{d.n, d.in, d.out})
			at = append(at, d.at)
		}
		if !slices.Equal(got, tt.want) || fmt.Sprint(at) != fmt.Sprint(tt.at) {
			t.Errorf("%s: %v %v, want %v %v", tt.name, got, at, tt.want, tt.at)
		}
	}
}

func TestTorchLoops(t *testing.T) {
	// rows with gaps: scalar_inner_sum (stride 2 < 5), one row_sum per row
	// into the one output; a transposed reduction along its contiguous dim:
	// rows of 5 < 8, row_sum; rows of 8: vectorized_inner_sum; reduced
	// across stepped rows of 4 contiguous columns (< 8): scalar_outer_sum
	// cascades the whole group of 4
	for _, tt := range []struct {
		name           string
		shape, strides []int
		dim            int
		prod           bool
		want           string
	}{
		{"rows with gaps", []int{2, 2}, []int{5, 2}, -1, false, "[[{1 [0 1]} {1 [2 3]}]]"},
		{"a transposed reduction along its contiguous dim", []int{5, 3}, []int{1, 5}, 0, false, "[[{1 [0 1 2 3 4]}] [{1 [0 1 2 3 4]}] [{1 [0 1 2 3 4]}]]"},
		{"a contiguous reduced row", []int{2, 8}, []int{16, 1}, 1, false, "[[{0 [0 1 2 3 4 5 6 7]}] [{0 [0 1 2 3 4 5 6 7]}]]"},
		{"four columns across stepped rows cascade", []int{5, 4}, []int{8, 1}, 0, false, "[[{2 [0 1 2 3 4]}] [{2 [0 1 2 3 4]}] [{2 [0 1 2 3 4]}] [{2 [0 1 2 3 4]}]]"},
		{"prod along a strided dim runs in order", []int{3, 2}, []int{1, 3}, 1, true, "[[{5 [0 1]}] [{5 [0 1]}] [{5 [0 1]}]]"},
	} {
		dims := torchReduceIter(tt.shape, tt.strides, tt.dim, false)
		g := newRedGeom(tt.shape, tt.dim, false)
		if got := fmt.Sprint(torchLoops(dims, g, tt.prod, 8, 8)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestTorchIteratorMatchesLayoutPlan checks the iterator's loops against
// the plans of row-major inputs (pinned by the oracle's recorded PyTorch
// outcomes): over a contiguous view the two give every output the same
// value and the same unspecified elements.
func TestTorchIteratorMatchesLayoutPlan(t *testing.T) {
	p, _ := Lookup("pytorch/cpu")
	rng := rand.New(rand.NewPCG(13, 5))
	vals := map[tensor.DType][]float64{
		tensor.F32:  {16777216, -16777216, 8388608, 0.5, 1, 3, 7, -1},
		tensor.F64:  {1 << 53, -(1 << 53), 1 << 52, 0.5, 1, 3, 7, -1},
		tensor.F16:  {32768, -32768, 16384, 1.0 / 1024, 3.0 / 1024, 1},
		tensor.BF16: {16777216, -16777216, 8388608, 0.5, 1, 3, 7},
	}
	prodVals := []float64{1.0009765625, 0.75, 1.25, 3, 0.3, 1.5}
	for trial := range 400 {
		d := []tensor.DType{tensor.F32, tensor.F64, tensor.F16, tensor.BF16}[rng.IntN(4)]
		op := []string{"sum", "prod", "mean"}[rng.IntN(3)]
		r := 1 + rng.IntN(3)
		shape := make([]int, r)
		for i := range shape {
			shape[i] = []int{1, 2, 3, 5, 8, 17, 40, 70}[rng.IntN(8)]
			if tensor.NumElements(shape[:i+1]) > 3000 {
				shape[i] = 1
			}
		}
		x := tensor.New(d, shape...)
		for i := range x.Len() {
			vs := vals[d]
			if op == "prod" {
				vs = prodVals
			}
			x.SetFloat(i, vs[rng.IntN(len(vs))])
		}
		v, err := tensor.NewView(x, tensor.View{Base: shape})
		if err != nil {
			t.Fatal(err)
		}
		c := &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: v}}}
		dim := -1
		if rng.IntN(2) == 0 {
			dim = rng.IntN(r)
			c.Attrs.Dim = &dim
		}
		g := newRedGeom(shape, dim, false)
		prod, mean := op == "prod", op == "mean"
		e := &evaluation{p: p, c: c}
		for k := range g.groups() {
			xs := g.floats(x, k)
			if mean {
				for j := range xs {
					xs[j] = roundTo(xs[j], opmath(d))
				}
			}
			want, wantOK := e.floatReduce(e.layoutSumPlan(prod, mean, d, g, k), xs)
			got, gotOK := e.floatReduce(e.torchCPUViewPlan(prod, mean, d, g, k), xs)
			if gotOK != wantOK || wantOK && !redSame(got, want) {
				t.Fatalf("trial %d: %s %s %v dim %d output %d: %v %v, want %v %v", trial, op, d, shape, dim, k, got, gotOK, want, wantOK)
			}
		}
	}
}
