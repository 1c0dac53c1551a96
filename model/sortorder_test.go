package model

import (
	"math"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestOrderKeysAgreeWithLess checks every order's key against its less on
// every pair of a palette of each dtype: key(i) < key(j) exactly when
// less(x, i, j), for the orders and their reverses.
func TestOrderKeysAgreeWithLess(t *testing.T) {
	orders := []struct {
		name string
		o    elemOrder
	}{
		{"numeric", numericOrder},
		{"numeric reversed", reverse(numericOrder)},
		{"nan last", nanLastOrder},
		{"nan last descending", nanLastDescOrder},
		{"nan first descending", nanFirstDescOrder},
		{"jax keys", jaxKeyOrder},
		{"jax keys reversed", reverse(jaxKeyOrder)},
		{"total", totalOrder},
		{"total reversed", reverse(totalOrder)},
	}
	floats := []float64{math.Inf(-1), -math.MaxFloat32, -2.5, -1, -math.SmallestNonzeroFloat32, math.Copysign(0, -1), 0,
		math.SmallestNonzeroFloat32, 1, 2.5, 65504, math.Inf(1), math.NaN(), math.Copysign(math.NaN(), -1)}
	ints := []int64{math.MinInt8, -2, -1, 0, 1, 2, math.MaxInt8}
	palette := map[tensor.DType]*tensor.Tensor{}
	for _, d := range []tensor.DType{tensor.F16, tensor.BF16, tensor.F32, tensor.F64} {
		x := tensor.New(d, len(floats))
		for i, v := range floats {
			x.SetFloat(i, v)
		}
		palette[d] = x
	}
	for _, d := range []tensor.DType{tensor.I8, tensor.I64} {
		x := tensor.New(d, len(ints))
		for i, v := range ints {
			x.SetInt(i, v)
		}
		palette[d] = x
	}
	u := tensor.New(tensor.U64, 5)
	for i, v := range []uint64{0, 1, 1 << 63, 1<<63 + 1, math.MaxUint64} {
		u.SetUint(i, v)
	}
	palette[tensor.U64] = u
	b := tensor.New(tensor.Bool, 2)
	b.SetUint(1, 1)
	palette[tensor.Bool] = b
	for _, o := range orders {
		for d, x := range palette {
			for i := range x.Len() {
				ki, oki := o.o.key(x, i)
				for j := range x.Len() {
					kj, okj := o.o.key(x, j)
					if !oki || !okj {
						if !math.IsNaN(x.Float(i)) && !math.IsNaN(x.Float(j)) {
							t.Errorf("%s %s: no key for %v or %v", o.name, d, x.Float(i), x.Float(j))
						}
						continue
					}
					if got, want := ki < kj, o.o.less(x, i, j); got != want {
						t.Errorf("%s %s: key says %v before %v is %v, less says %v", o.name, d, x.Float(i), x.Float(j), got, want)
					}
				}
			}
		}
	}
}
