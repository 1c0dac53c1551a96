package cpu

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestClassesFit: every op class of the catalog has a slot in a profile's
// family table.
func TestClassesFit(t *testing.T) {
	for _, op := range tensor.Ops {
		if int(op.Class) >= numClasses {
			t.Errorf("%s: class %d does not fit numClasses = %d", op.Name, op.Class, numClasses)
		}
	}
}

// refStableOrder is the reference loop of sortRow: position k of the
// result is the smallest key not taken yet, the earliest of equal ones.
func refStableOrder(keys []uint64) []int32 {
	taken := make([]bool, len(keys))
	out := make([]int32, len(keys))
	for k := range out {
		best := -1
		for i, key := range keys {
			if !taken[i] && (best < 0 || key < keys[best]) {
				best = i
			}
		}
		taken[best] = true
		out[k] = int32(best)
	}
	return out
}

// TestSortRowTwin runs the row kernel and its reference loop at the sizes
// around the insertion / radix switch and the byte-skipping passes, on keys
// with many ties, with few distinct bytes and over the whole range, with
// guard bands around the permutation.
func TestSortRowTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := append(slices.Clone(boundarySizes), pairMin-1, pairMin, pairMin+1, radixMin-1, radixMin, radixMin+1, 2*radixMin+5)
	gens := map[string]func() uint64{
		"ties":      func() uint64 { return uint64(r.IntN(4)) },
		"high byte": func() uint64 { return uint64(r.IntN(3)) << 56 },
		"any":       r.Uint64,
		"spread":    func() uint64 { return uint64(r.IntN(5))<<(8*r.IntN(8)) | uint64(r.IntN(2)) },
	}
	for name, gen := range gens {
		for _, n := range sizes {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = gen()
			}
			want := refStableOrder(keys)
			sorted := slices.Clone(keys)
			buf, perm := guarded(n, int32(-7))
			sortRow(sorted, perm, newSortScratch(n))
			checkGuards(t, "sortRow "+name, n, buf, int32(-7))
			if !slices.Equal(perm, want) {
				t.Errorf("%s n=%d: perm %v, want %v", name, n, head(perm), head(want))
				continue
			}
			for k, p := range perm {
				if sorted[k] != keys[p] {
					t.Errorf("%s n=%d: key %d is %x, want %x", name, n, k, sorted[k], keys[p])
					break
				}
			}
		}
	}
}

func head(p []int32) []int32 { return p[:min(len(p), 12)] }

// TestSortKeyOrder: each framework's order of the float values that tell
// them apart, smallest first; a pair in the same group has equal keys.
func TestSortKeyOrder(t *testing.T) {
	nan, negZero, inf := math.NaN(), math.Copysign(0, -1), math.Inf(1)
	tests := []struct {
		name   string
		pl     sortPlan
		groups [][]float64
	}{
		{"IEEE ascending: zeros equal, NaN last", sortPlan{order: orderIEEE},
			[][]float64{{-inf}, {-1}, {negZero, 0}, {1}, {inf}, {nan, -nan}}},
		{"IEEE descending: NaN first", sortPlan{order: orderIEEE, desc: true},
			[][]float64{{nan}, {inf}, {1}, {0, negZero}, {-1}, {-inf}}},
		{"NumPy descending: NaN still last", sortPlan{order: orderIEEE, desc: true, nanLast: true},
			[][]float64{{inf}, {1}, {0, negZero}, {-inf}, {nan}}},
		{"total_cmp: -NaN first, -0.0 before +0.0", sortPlan{order: orderTotal},
			[][]float64{{math.Copysign(nan, -1)}, {-inf}, {negZero}, {0}, {inf}, {nan}}},
	}
	for _, d := range []tensor.DType{tensor.F16, tensor.BF16, tensor.F32, tensor.F64} {
		for _, tt := range tests {
			var prev uint64
			for g, group := range tt.groups {
				var key uint64
				for j, v := range group {
					k := sortKeyOf(tensor.FloatBits(v, d), d, tt.pl)
					switch {
					case j == 0 && g > 0 && k <= prev:
						t.Errorf("%s %s: %v does not sort after the group before", tt.name, d, v)
					case j > 0 && k != key:
						t.Errorf("%s %s: %v and %v have different keys", tt.name, d, group[0], v)
					}
					key = k
				}
				prev = key
			}
		}
	}
	for _, d := range []tensor.DType{tensor.I8, tensor.I64, tensor.U8, tensor.U64, tensor.Bool} {
		lo, hi := int64(0), int64(1)
		if d.IsSigned() {
			lo = d.MinInt()
		}
		x := tensor.New(d, 2)
		x.SetInt(0, lo)
		x.SetInt(1, hi)
		if sortKeyOf(x.Data[0], d, sortPlan{}) >= sortKeyOf(x.Data[1], d, sortPlan{}) {
			t.Errorf("%s: %d does not sort before %d", d, lo, hi)
		}
	}
}

// TestSortSplitMatchesSerial: rows spread over goroutines (a threshold of
// one element) give the serial engine's result, along every dim, for rows
// on both sides of the radix switch.
func TestSortSplitMatchesSerial(t *testing.T) {
	serial, split := New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1))
	r := rand.New(rand.NewPCG(3, 4))
	for _, shape := range [][]int{{7, pairMin + 3}, {pairMin - 1, 5}, {3, 4, 129}, {2, radixMin + 1}, {radixMin - 1}} {
		x := tensor.New(tensor.F32, shape...)
		for i := range x.Len() {
			x.SetFloat(i, []float64{0, math.Copysign(0, -1), math.NaN(), 1, -2}[r.IntN(5)]+float64(r.IntN(3)))
		}
		for dim := range shape {
			for _, op := range []string{"sort", "argsort"} {
				stable := true
				c := &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: x}}, Attrs: tensor.Attrs{Dim: &dim, Stable: &stable}}
				for _, p := range []string{"pytorch/cpu", "jax/cpu-x64", "burn/ndarray"} {
					a, b := serial.Eval(p, c), split.Eval(p, c)
					if cmp := tensor.Compare(a, b, 0); !cmp.Match() {
						t.Errorf("%s %v dim %d under %s: split differs: %s", op, shape, dim, p, cmp.Detail)
					}
				}
			}
		}
	}
}

// TestSortAndMaskSelectRows: hand-worked outcomes of the engine, one per
// policy it follows.
func TestSortAndMaskSelectRows(t *testing.T) {
	f32 := func(xs ...float64) *tensor.Tensor {
		x := tensor.New(tensor.F32, len(xs))
		for i, v := range xs {
			x.SetFloat(i, v)
		}
		return x
	}
	u8 := tensor.New(tensor.U8, 3)
	u8.SetInt(0, 1)
	u8.SetInt(2, 1)
	yes := true
	row := f32(3, math.NaN(), math.Copysign(0, -1), 0, -1)
	tests := []struct {
		name, profile, op string
		args              []*tensor.Tensor
		attrs             tensor.Attrs
		want              []float64 // values, or indices for argsort
	}{
		{"PyTorch descending: NaN first, equal zeros in input order", "pytorch/cpu", "argsort", []*tensor.Tensor{row},
			tensor.Attrs{Descending: &yes, Stable: &yes}, []float64{1, 0, 2, 3, 4}},
		{"NumPy descending: NaN last", "numpy", "argsort", []*tensor.Tensor{row},
			tensor.Attrs{Descending: &yes, Stable: &yes}, []float64{0, 2, 3, 4, 1}},
		{"JAX descending sort: the zeros reversed", "jax/cpu-x32", "sort", []*tensor.Tensor{row},
			tensor.Attrs{Descending: &yes, Stable: &yes}, []float64{math.NaN(), 3, 0, math.Copysign(0, -1), -1}},
		{"burn total_cmp: -0.0 before +0.0", "burn/flex-release", "argsort", []*tensor.Tensor{row},
			tensor.Attrs{}, []float64{4, 2, 3, 0, 1}},
		{"PyTorch: a u8 mask", "pytorch/cpu", "mask_select", []*tensor.Tensor{f32(10, 20, 30), u8}, tensor.Attrs{}, []float64{10, 30}},
		{"NumPy: u8 indices", "numpy/cpu-arm64", "mask_select", []*tensor.Tensor{f32(10, 20, 30), u8}, tensor.Attrs{}, []float64{20, 10, 20}},
	}
	e := New()
	for _, tt := range tests {
		c := &tensor.Case{Op: tt.op, Attrs: tt.attrs}
		for _, a := range tt.args {
			c.Args = append(c.Args, tensor.Arg{Tensor: a})
		}
		got := e.Eval(tt.profile, c)
		if got.Form != tensor.FormValue || got.Value.Len() != len(tt.want) {
			t.Errorf("%s: got %s", tt.name, got)
			continue
		}
		for i, w := range tt.want {
			var v float64
			if got.Value.DType.IsFloat() {
				v = got.Value.Float(i)
			} else {
				v = float64(got.Value.Int(i))
			}
			if !(v == w && math.Signbit(v) == math.Signbit(w) || math.IsNaN(v) && math.IsNaN(w)) {
				t.Errorf("%s: element %d is %v, want %v (%s)", tt.name, i, v, w, got)
			}
		}
	}
}

// BenchmarkSortRow sweeps the row kernel over lengths on both sides of the
// radix switch, keys with ties and over the whole range.
func BenchmarkSortRow(b *testing.B) {
	for _, n := range []int{16, pairMin - 1, pairMin, 1024, radixMin - 1, radixMin, 1 << 16} {
		r := rand.New(rand.NewPCG(5, 6))
		src := make([]uint64, n)
		for i := range src {
			src[i] = r.Uint64() >> (r.IntN(2) * 48)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			keys, perm, s := make([]uint64, n), make([]int32, n), newSortScratch(n)
			for b.Loop() {
				copy(keys, src)
				sortRow(keys, perm, s)
			}
		})
	}
}
