package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Tests of the select of storage words (selectnt.go): the plain and the
// streaming kernel against the reference loop written as a branch, at the
// unrolled and streamed lengths and around streamMin, at both 8-byte
// alignments of the output, with guard bands; selectRun serially and split;
// and the Python where's stored plan against the decoding path on the same
// cases.

// refSelect is the reference loop of selectnt.go.
func refSelect(cond, t, f []uint64, mask uint64) []uint64 {
	dst := make([]uint64, len(cond))
	for i := range cond {
		if cond[i]&mask != 0 {
			dst[i] = t[i]
		} else {
			dst[i] = f[i]
		}
	}
	return dst
}

// randCondWords draws condition words that the masks below split: zero,
// the sign bit alone (-0.0), NaN and the other float bits, small integers,
// bits above an integer dtype's width, anything.
func randCondWords(r *rand.Rand, n int) []uint64 {
	palette := []uint64{0, 1, 1 << 31, 1 << 63, 0x7fc00000, 0x7ff8000000000000, 0x8000, 0x100, 0xff, 1 << 32}
	c := make([]uint64, n)
	for i := range c {
		if r.IntN(4) == 0 {
			c[i] = r.Uint64()
		} else {
			c[i] = palette[r.IntN(len(palette))]
		}
	}
	return c
}

// selectMasks are the masks the engine passes: candle's and an integer
// condition's (all bits, or an integer dtype's), a float condition's.
var selectMasks = []struct {
	name string
	mask uint64
}{
	{"all bits (candle, i64)", math.MaxUint64},
	{"u8", 0xff},
	{"f32 without the sign", 1<<31 - 1},
	{"f64 without the sign", math.MaxInt64},
	{"f16 without the sign", 1<<15 - 1},
}

func TestSelectWordsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	sizes := append(slices.Clone(boundarySizes), streamSizes...)
	kernels := []struct {
		name  string
		k     func(dst, cond, t, f []uint64, mask uint64)
		sizes []int
	}{
		{"plain", selectWords, boundarySizes},
		{"stream", selectWordsStream, sizes},
	}
	if !haveStreaming {
		kernels = kernels[:1] // selectRun never streams here
	}
	canary := canaryOf[uint64]()
	for _, k := range kernels {
		for _, m := range selectMasks {
			for _, shift := range []int{0, 1} { // shift 1: an output off 16-byte alignment, a one-word head
				for _, n := range k.sizes {
					name := fmt.Sprintf("%s select, mask %s, shift %d", k.name, m.name, shift)
					cond, x, y := randCondWords(r, n), randInts[uint64](r, n), randInts[uint64](r, n)
					buf, dst := guarded(n+shift, canary)
					k.k(dst[shift:], cond, x, y, m.mask)
					checkGuards(t, name, n+shift, buf, canary)
					if shift == 1 && dst[0] != canary {
						t.Fatalf("%s n=%d: wrote word -1", name, n)
					}
					want := refSelect(cond, x, y, m.mask)
					if i := firstDiff(dst[shift:], want); i >= 0 {
						t.Fatalf("%s n=%d: word %d (cond %#x) = %#x, the reference gives %#x", name, n, i, cond[i], dst[shift+i], want[i])
					}
				}
			}
		}
	}
}

func firstDiff(a, b []uint64) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestSelectRunSplits runs selectRun serially and split into pieces across
// the parallel threshold and streamMin.
func TestSelectRunSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2))
	for _, e := range []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1)), New()} {
		for _, n := range []int{0, 1, 4095, 4096, 4097, 1<<16 + 3, streamMin - 1, streamMin, streamMin + 9} {
			cond, x, y := randCondWords(r, n), randInts[uint64](r, n), randInts[uint64](r, n)
			dst := make([]uint64, n)
			selectRun(e, dst, cond, x, y, 1<<31-1)
			if i := firstDiff(dst, refSelect(cond, x, y, 1<<31-1)); i >= 0 {
				t.Fatalf("selectRun n=%d (workers %d, threshold %d): word %d differs from the reference", n, e.workers, e.threshold, i)
			}
		}
	}
}

// TestWhereStoredMatchesDecoded evaluates each case with the stored plan
// and again with the decoding path (the plan's stored flag cleared): the
// words must be the same, and the plan must be stored exactly where the
// row says.
func TestWhereStoredMatchesDecoded(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3))
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	randTensor := func(d tensor.DType, n int) *tensor.Tensor {
		x := tensor.New(d, n)
		for i := range x.Data {
			switch {
			case d == tensor.F32:
				x.Data[i] = uint64(math.Float32bits(randFloats[float32](r, 1)[0]))
			case d == tensor.F64:
				x.Data[i] = math.Float64bits(randFloats[float64](r, 1)[0])
			default:
				x.Data[i] = r.Uint64() & wordMask(d)
				if d == tensor.Bool {
					x.Data[i] &= 1
				}
			}
		}
		return x
	}
	floatCond := func(d tensor.DType, n int) *tensor.Tensor {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = []float64{0, negZero, nan, 1, -2.5}[r.IntN(5)]
		}
		return floats(d, vals...)
	}
	// strided is a [n] view of every other element of a [2n] tensor, from element 1
	strided := func(x *tensor.Tensor) *tensor.Tensor {
		n := x.Len()
		big := tensor.New(x.DType, 2*n+1)
		for i := range n {
			big.Data[1+2*i] = x.Data[i]
		}
		big.Shape, big.Strides, big.Offset = []int{n}, []int{2}, 1
		return big
	}
	big := streamMin + 5
	tests := []struct {
		name, profile string
		cond, x, y    *tensor.Tensor
		stored        bool
	}{
		{"numpy f32 by bool", "numpy", randTensor(tensor.Bool, 100), randTensor(tensor.F32, 100), randTensor(tensor.F32, 100), true},
		{"numpy f32 by bool, streamed", "numpy", randTensor(tensor.Bool, big), randTensor(tensor.F32, big), randTensor(tensor.F32, big), true},
		{"numpy i16 by an f32 condition (NaN true, -0.0 false)", "numpy", floatCond(tensor.F32, 300), randTensor(tensor.I16, 300), randTensor(tensor.I16, 300), true},
		{"numpy f64 by an f64 condition", "numpy", floatCond(tensor.F64, 77), randTensor(tensor.F64, 77), randTensor(tensor.F64, 77), true},
		{"numpy u64 by an i8 condition", "numpy", randTensor(tensor.I8, 4097), randTensor(tensor.U64, 4097), randTensor(tensor.U64, 4097), true},
		{"numpy bool by an f16 condition", "numpy", floatCond(tensor.F16, 65), randTensor(tensor.Bool, 65), randTensor(tensor.Bool, 65), true},
		{"pytorch i32 by bool, strided operands", "pytorch/cpu", strided(randTensor(tensor.Bool, 513)), strided(randTensor(tensor.I32, 513)), randTensor(tensor.I32, 513), true},
		{"jax x32 i32 by a u32 condition", "jax/cpu-x32", randTensor(tensor.U32, 129), randTensor(tensor.I32, 129), randTensor(tensor.I32, 129), true},
		{"jax x32 narrows i64 values: decoded", "jax/cpu-x32", randTensor(tensor.Bool, 129), randTensor(tensor.I64, 129), randTensor(tensor.I64, 129), false},
		{"jax x32 narrows an f64 condition, values stored", "jax/cpu-x32", floatCond(tensor.F64, 129), randTensor(tensor.F32, 129), randTensor(tensor.F32, 129), true},
		{"numpy i8 with u8 promotes: decoded", "numpy", randTensor(tensor.Bool, 50), randTensor(tensor.I8, 50), randTensor(tensor.U8, 50), false},
		{"numpy f16 values: decoded (NaN quieted)", "numpy", randTensor(tensor.Bool, 50), floats(tensor.F16, slices.Repeat([]float64{nan, 1}, 25)...), floats(tensor.F16, slices.Repeat([]float64{2, nan}, 25)...), false},
		{"numpy broadcast y: decoded", "numpy", randTensor(tensor.Bool, 50), randTensor(tensor.F32, 50), randTensor(tensor.F32, 1), false},
	}
	engines := []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1))}
	for _, tc := range tests {
		p := lookupProfile(tc.profile)
		c := &tensor.Case{Op: "where", Args: args(tc.cond, tc.x, tc.y)}
		w, o, ok := planWhere(p, c, pyInput)
		if w == nil || !ok {
			t.Fatalf("%s: not planned (%v)", tc.name, o)
		}
		if w.stored != tc.stored {
			t.Fatalf("%s: stored %t, want %t", tc.name, w.stored, tc.stored)
		}
		for _, e := range engines {
			got := w.run(e)
			plain := *w
			plain.stored = false
			want := plain.run(e)
			if got.Form != tensor.FormValue || want.Form != tensor.FormValue {
				t.Fatalf("%s: outcomes %v and %v", tc.name, got, want)
			}
			if got.Value.DType != want.Value.DType || !slices.Equal(got.Value.Shape, want.Value.Shape) {
				t.Fatalf("%s: %s%v, the decoding path gives %s%v", tc.name, got.Value.DType, got.Value.Shape, want.Value.DType, want.Value.Shape)
			}
			if i := firstDiff(got.Value.Data, want.Value.Data); i >= 0 {
				t.Fatalf("%s (workers %d): word %d = %#x, the decoding path gives %#x", tc.name, e.workers, i, got.Value.Data[i], want.Value.Data[i])
			}
		}
	}
}
