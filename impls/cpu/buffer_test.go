package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestMapWordsMatchesWholePasses: mapWords, a tile at a time, gives the
// words and the faults of decoding the whole input (loadInput), running the
// kernel over all of it and encoding the whole result (encode), at lengths
// around the tile and the parallel threshold, serially and split, for
// conversions that keep, widen and round the values.
func TestMapWordsMatchesWholePasses(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	sizes := []int{0, 1, 7, tileLen - 1, tileLen, tileLen + 1, 3*tileLen + 5, minChunk + 1, 1<<16 + 513, streamMin - 1, streamMin, streamMin + 13}
	engines := []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1)), New()}
	words := func(d tensor.DType, n int) *tensor.Tensor {
		x := tensor.New(d, n)
		for i := range x.Data {
			switch d {
			case tensor.F32:
				x.Data[i] = uint64(math.Float32bits(randFloats[float32](r, 1)[0]))
			case tensor.F64:
				x.Data[i] = math.Float64bits(randFloats[float64](r, 1)[0])
			default:
				x.Data[i] = r.Uint64() & wordMask(d)
			}
		}
		return x
	}
	// faultOnNeg reports faultNegExp for a negative value: a kernel whose
	// faults the tiles must merge
	faultOnNeg := func(dst, a []int64) fault {
		var f fault
		for i, v := range a {
			dst[i] = v / 3
			if v < 0 {
				f |= faultNegExp
			}
		}
		return f
	}
	for _, tc := range []struct {
		name     string
		from, to tensor.DType
		run      func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault)
	}{
		{"f32 clamp", tensor.F32, tensor.F32, func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault) {
			return mapWordsTwin(e, x, tensor.F32, kClampConst[float32](-0.5, 0.5))
		}},
		{"f32 clamp with a zero bound (ties)", tensor.F32, tensor.F32, func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault) {
			return mapWordsTwin(e, x, tensor.F32, kClampConst[float32](0, 100))
		}},
		{"f64 to f16 (rounded once) clamp", tensor.F64, tensor.F16, func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault) {
			return mapWordsTwin(e, x, tensor.F16, kClampConst[float32](-1, 1))
		}},
		{"i8 to i64 with faults", tensor.I8, tensor.I64, func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault) {
			return mapWordsTwin(e, x, tensor.I64, faultOnNeg)
		}},
		{"u16 clamp", tensor.U16, tensor.U16, func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault) {
			return mapWordsTwin(e, x, tensor.U16, kClampConst[uint16](100, 60000))
		}},
		{"i32 clamp (streamed from streamMin)", tensor.I32, tensor.I32, func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault) {
			return mapWordsTwin(e, x, tensor.I32, kClampConst[int32](-5, 1<<30))
		}},
		{"u8 to u32 clamp (streamed from streamMin)", tensor.U8, tensor.U32, func(e *Engine, x *tensor.Tensor) ([]uint64, fault, []uint64, fault) {
			return mapWordsTwin(e, x, tensor.U32, kClampConst[uint32](3, 200))
		}},
	} {
		for _, e := range engines {
			for _, n := range sizes {
				x := words(tc.from, n)
				got, gotF, want, wantF := tc.run(e, x)
				name := fmt.Sprintf("%s n=%d (workers %d, threshold %d)", tc.name, n, e.workers, e.threshold)
				if len(got) != n {
					t.Fatalf("%s: %d words", name, len(got))
				}
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("%s: word %d = %#x, the whole passes give %#x", name, i, got[i], want[i])
				}
				if gotF != wantF {
					t.Fatalf("%s: faults %b, the whole passes give %b", name, gotF, wantF)
				}
			}
		}
	}
}

// mapWordsTwin runs mapWords on x's words and the whole passes it stands
// for.
func mapWordsTwin[T number](e *Engine, x *tensor.Tensor, to tensor.DType, k unaryKernel[T, T]) (got []uint64, gotF fault, want []uint64, wantF fault) {
	got, gotF = mapWords(e, x.Data, x.DType, to, k)
	in := loadInput[T](x, to)
	res := make([]T, len(in))
	wantF = k(res, in)
	return got, gotF, encode(e, res, to, x.Shape).Data, wantF
}

// TestEncodeStreamMatchesEncodeInto runs the streaming encode of every
// widens32 pair, and of a pair it leaves to encodeInto, at the unrolled
// lengths and around the tile, the output at both 8-byte alignments, with
// guard bands.
func TestEncodeStreamMatchesEncodeInto(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 2))
	sizes := append(slices.Clone(boundarySizes), streamSizes[:2]...)
	canary := canaryOf[uint64]()
	check := func(name string, n, shift int, enc, ref func(dst []uint64)) {
		t.Helper()
		buf, dst := guarded(n+shift, canary)
		enc(dst[shift:])
		checkGuards(t, name, n+shift, buf, canary)
		if shift == 1 && dst[0] != canary {
			t.Fatalf("%s n=%d: wrote word -1", name, n)
		}
		want := make([]uint64, n)
		ref(want)
		if i := firstDiff(dst[shift:], want); i >= 0 {
			t.Fatalf("%s n=%d shift %d: word %d = %#x, encodeInto gives %#x", name, n, shift, i, dst[shift+i], want[i])
		}
	}
	for _, shift := range []int{0, 1} {
		for _, n := range sizes {
			f, i, u := randFloats[float32](r, n), randInts[int32](r, n), randInts[uint32](r, n)
			check("f32", n, shift, func(d []uint64) { encodeStream(d, f, tensor.F32) }, func(d []uint64) { encodeInto(d, f, tensor.F32) })
			check("i32", n, shift, func(d []uint64) { encodeStream(d, i, tensor.I32) }, func(d []uint64) { encodeInto(d, i, tensor.I32) })
			check("u32", n, shift, func(d []uint64) { encodeStream(d, u, tensor.U32) }, func(d []uint64) { encodeInto(d, u, tensor.U32) })
			check("f32 as f16 (not widened)", n, shift, func(d []uint64) { encodeStream(d, f, tensor.F16) }, func(d []uint64) { encodeInto(d, f, tensor.F16) })
		}
	}
}
