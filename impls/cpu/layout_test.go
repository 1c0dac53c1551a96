package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestLayoutWalksEveryElement checks the collapsed iteration space against
// the plain index arithmetic on random broadcast shapes with random
// (permuted, padded, offset) strides, walking from every start.
func TestLayoutWalksEveryElement(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	for iter := range 2000 {
		rank := r.IntN(5)
		out := make([]int, rank)
		for i := range out {
			out[i] = r.IntN(4) + 1
			if r.IntN(8) == 0 {
				out[i] = 0
			}
		}
		var views [2]view
		for k := range views {
			drop := r.IntN(rank + 1)
			shape := append([]int{}, out[drop:]...)
			for i := range shape {
				if r.IntN(3) == 0 {
					shape[i] = 1
				}
			}
			v := view{shape: shape, offset: r.IntN(3)}
			if r.IntN(2) == 0 {
				v.strides = make([]int, len(shape))
				acc := 1
				for _, i := range r.Perm(len(shape)) {
					v.strides[i] = acc * (r.IntN(2) + 1)
					acc = v.strides[i] * max(shape[i], 1)
				}
			}
			views[k] = v
		}
		l := newLayout(out, views[0], views[1])
		n := tensor.NumElements(out)
		want := func(k, i int) int { // storage position of input k for output i
			v := views[k]
			st := v.strides
			if st == nil {
				st = tensor.ContiguousStrides(v.shape)
			}
			pos := v.offset
			for d := len(out) - 1; d >= 0; d-- {
				c := i % out[d]
				i /= out[d]
				if j := d - (len(out) - len(v.shape)); j >= 0 && v.shape[j] != 1 {
					pos += c * st[j]
				}
			}
			return pos
		}
		lo := 0
		if n > 0 {
			lo = r.IntN(n)
		}
		next := lo
		l.walk(lo, n, func(o int, pos *[maxIn]int, m int) {
			if o != next {
				t.Fatalf("case %d: run starts at %d, want %d", iter, o, next)
			}
			for j := range m {
				for k := range 2 {
					if got := pos[k] + j*l.strides[k][l.rank-1]; got != want(k, o+j) {
						t.Fatalf("case %d out %v views %+v: element %d of input %d at %d, want %d", iter, out, views, o+j, k, got, want(k, o+j))
					}
				}
			}
			next = o + m
		})
		if n > 0 && next != n {
			t.Fatalf("case %d: walk stopped at %d of %d", iter, next, n)
		}
	}
}
