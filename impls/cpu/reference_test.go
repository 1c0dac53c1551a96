package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// Twin tests, math/big style: every fast kernel has a plain reference loop,
// and both run at the sizes where the fast path changes (unroll width 4 and
// 8, 64-byte SWAR blocks and their 32-block flush, the 512-element tiles,
// the streaming threshold with every alignment of the output, the parallel
// threshold ± 1).

// boundarySizes are lengths around every path change of the kernels.
var boundarySizes = func() []int {
	s := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129,
		511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 2111, 4095, 4096, 4097}
	return s
}()

// streamSizes are lengths around the streaming-store threshold.
var streamSizes = []int{streamMin - 1, streamMin, streamMin + 1, streamMin + 7, streamMin + 15, streamMin + 17}

func randInts[T integer](r *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		switch r.IntN(4) {
		case 0:
			x[i] = T(r.IntN(9)) - 4
		case 1:
			x[i] = minOf[T]()
		default:
			x[i] = T(r.Uint64())
		}
	}
	return x
}

func randFloats[T floating](r *rand.Rand, n int) []T {
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.Inf(1), math.Inf(-1), math.NaN(), 1e-40, 65504, 3.5}
	x := make([]T, n)
	for i := range x {
		if r.IntN(4) == 0 {
			x[i] = T(specials[r.IntN(len(specials))])
		} else {
			x[i] = T(r.NormFloat64() * 100)
		}
	}
	return x
}

// sameBits compares element bit patterns (floats: NaN matches NaN).
func sameBits[T number](a, b T) bool {
	switch x := any(a).(type) {
	case float32:
		y := any(b).(float32)
		return x != x && y != y || math.Float32bits(x) == math.Float32bits(y)
	case float64:
		y := any(b).(float64)
		return x != x && y != y || math.Float64bits(x) == math.Float64bits(y)
	}
	return a == b
}

// checkTwin runs kernel and reference on the same inputs at every size and
// reports the first mismatch of each size.
func checkTwin[T, R number](t *testing.T, name string, sizes []int, gen func(n int) ([]T, []T),
	kernel func(dst []R, a, b []T) fault, ref func(a, b T) R) {
	t.Helper()
	for _, n := range sizes {
		a, b := gen(n)
		got := make([]R, n)
		kernel(got, a, b)
		for i := range got {
			if want := ref(a[i], b[i]); !sameBits(got[i], want) {
				t.Errorf("%s n=%d: element %d of (%v, %v): got %v, want %v", name, n, i, a[i], b[i], got[i], want)
				break
			}
		}
	}
}

func TestArithKernelsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	ints := func(n int) ([]int64, []int64) { return randInts[int64](r, n), randInts[int64](r, n) }
	bytes := func(n int) ([]int8, []int8) { return randInts[int8](r, n), randInts[int8](r, n) }
	f32s := func(n int) ([]float32, []float32) { return randFloats[float32](r, n), randFloats[float32](r, n) }
	f64s := func(n int) ([]float64, []float64) { return randFloats[float64](r, n), randFloats[float64](r, n) }
	checkTwin(t, "add i64", boundarySizes, ints, kAdd[int64], func(a, b int64) int64 { return a + b })
	checkTwin(t, "sub i64", boundarySizes, ints, kSub[int64], func(a, b int64) int64 { return a - b })
	checkTwin(t, "mul i8", boundarySizes, bytes, kMul[int8], func(a, b int8) int8 { return a * b })
	checkTwin(t, "add f32", boundarySizes, f32s, kAdd[float32], func(a, b float32) float32 { return a + b })
	checkTwin(t, "mul f64", boundarySizes, f64s, kMul[float64], func(a, b float64) float64 { return a * b })
	checkTwin(t, "max-ieee f64", boundarySizes, f64s, kMaxIEEE[float64], func(a, b float64) float64 {
		switch {
		case a != a || b != b:
			return math.NaN()
		case a == 0 && b == 0:
			if math.Signbit(a) {
				return b
			}
			return a
		case a > b:
			return a
		}
		return b
	})
	checkTwin(t, "lt f32", boundarySizes, f32s, kLt[float32], func(a, b float32) uint8 { return b2u(a < b) })
}

// TestStreamingAddMatchesReference runs the streaming adds around their
// threshold with the output at every 4-byte alignment (the head loop).
func TestStreamingAddMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for shift := range 4 {
		sub := func(n int) int { return n + shift }
		var sizes []int
		for _, n := range streamSizes {
			sizes = append(sizes, sub(n))
		}
		checkTwin(t, "streaming add i64", sizes, func(n int) ([]int64, []int64) {
			return randInts[int64](r, n), randInts[int64](r, n)
		}, func(dst, a, b []int64) fault {
			k := shift % 2 // an unaligned output when odd
			kAdd(dst[:k], a[:k], b[:k])
			return kAddI64(dst[k:], a[k:], b[k:])
		}, func(a, b int64) int64 { return a + b })
		checkTwin(t, "streaming add f32", sizes, func(n int) ([]float32, []float32) {
			return randFloats[float32](r, n), randFloats[float32](r, n)
		}, func(dst, a, b []float32) fault {
			kAdd(dst[:shift], a[:shift], b[:shift])
			return kAddF32(dst[shift:], a[shift:], b[shift:])
		}, func(a, b float32) float32 { return a + b })
	}
}

// TestStreamingRowsMatchReference runs the kernels a large op streams
// every call with (a broadcast op's rows, a tile) at every small length,
// the streamed body empty, partial and whole, at every 4-byte alignment.
func TestStreamingRowsMatchReference(t *testing.T) {
	if !haveStreaming {
		return // addKernel never returns them here
	}
	r := rand.New(rand.NewPCG(1, 3))
	for shift := range 4 {
		checkTwin(t, "streamed rows i64", boundarySizes, func(n int) ([]int64, []int64) {
			return randInts[int64](r, n+shift), randInts[int64](r, n+shift)
		}, func(dst, a, b []int64) fault {
			k := min(shift%2, len(dst))
			kAdd(dst[:k], a[:k], b[:k])
			return kAddI64Stream(dst[k:], a[k:], b[k:])
		}, func(a, b int64) int64 { return a + b })
		checkTwin(t, "streamed rows f32", boundarySizes, func(n int) ([]float32, []float32) {
			return randFloats[float32](r, n+shift), randFloats[float32](r, n+shift)
		}, func(dst, a, b []float32) fault {
			k := min(shift, len(dst))
			kAdd(dst[:k], a[:k], b[:k])
			return kAddF32Stream(dst[k:], a[k:], b[k:])
		}, func(a, b float32) float32 { return a + b })
	}
}

// divRef is floor, trunc, Python and C remainders computed with math/big.
func divRef(op opID, a, b int64) int64 {
	x, y := big.NewInt(a), big.NewInt(b)
	q, m := new(big.Int).QuoRem(x, y, new(big.Int)) // truncated
	switch op {
	case opTruncDiv:
		return wrap64(q)
	case opFmod:
		return m.Int64()
	}
	if m.Sign() != 0 && m.Sign() != y.Sign() { // floor
		q.Sub(q, big.NewInt(1))
		m.Add(m, y)
	}
	if op == opRem {
		return m.Int64()
	}
	return wrap64(q)
}

func wrap64(v *big.Int) int64 {
	return int64(new(big.Int).And(v, new(big.Int).SetUint64(math.MaxUint64)).Uint64())
}

func TestIntDivKernelsMatchBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	gen := func(n int) ([]int64, []int64) {
		a, b := randInts[int64](r, n), randInts[int64](r, n)
		for i := range b {
			if b[i] == 0 {
				b[i] = -1 // MIN / -1 included; zero divisors are tested by the table tests
			}
		}
		return a, b
	}
	for _, c := range []struct {
		name string
		op   opID
		k    binaryKernel[int64, int64]
	}{{"floor_div", opFloorDiv, kFloorDiv[int64]}, {"trunc_div", opTruncDiv, kTruncDiv[int64]},
		{"rem", opRem, kRem[int64]}, {"fmod", opFmod, kFmod[int64]}} {
		checkTwin(t, c.name, boundarySizes, gen, c.k, func(a, b int64) int64 { return divRef(c.op, a, b) })
	}
}

func TestNarrowF16MatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	for _, n := range boundarySizes {
		src := randFloats[float32](r, n)
		for i := range src { // cover the fast path's edges
			switch r.IntN(6) {
			case 0:
				src[i] = math.Float32frombits(r.Uint32())
			case 1:
				src[i] = math.Float32frombits(0x38800000 + uint32(r.IntN(3)) - 1)
			case 2:
				src[i] = math.Float32frombits(0x477ff000 + uint32(r.IntN(0x2000)))
			}
		}
		dst := make([]uint16, n)
		narrowF16(dst, src)
		for i := range dst {
			if want := f32ToF16(src[i]); dst[i] != want && !(src[i] != src[i] && dst[i]&0x7c00 == 0x7c00 && dst[i]&0x3ff != 0) {
				t.Fatalf("n=%d: narrowF16(%x) = %x, want %x", n, math.Float32bits(src[i]), dst[i], want)
			}
		}
	}
}

func TestSumsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	sizes := append(append([]int{}, boundarySizes...), 32*64-1, 32*64, 32*64+1, 64*64+65, 1<<16-1, 1<<16, 1<<16+1)
	for _, n := range sizes {
		x := randInts[int32](r, n)
		var want int64
		for _, v := range x {
			want += int64(v)
		}
		if got := sumI32(x); got != want {
			t.Errorf("sumI32 n=%d: got %d, want %d", n, got, want)
		}
		u := make([]uint8, n)
		var wantU uint64
		for i := range u {
			u[i] = uint8(r.Uint32())
			if r.IntN(3) == 0 {
				u[i] = 255 // lanes near overflow
			}
			wantU += uint64(u[i])
		}
		if got := sumU8(u); got != wantU {
			t.Errorf("sumU8 n=%d: got %d, want %d", n, got, wantU)
		}
		for _, e := range []*Engine{New(WithWorkers(2), WithParallelThreshold(n)), New(WithWorkers(3), WithParallelThreshold(1))} {
			if got := e.sumI32Par(x); got != want {
				t.Errorf("sumI32Par n=%d: got %d, want %d", n, got, want)
			}
			if got := e.sumU8Par(u); got != wantU {
				t.Errorf("sumU8Par n=%d: got %d, want %d", n, got, wantU)
			}
		}
	}
}

// TestParallelSplitDoesNotChangeResults runs a driver at the parallel
// threshold ± 1 and compares with one worker.
func TestParallelSplitDoesNotChangeResults(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 6))
	for _, threshold := range []int{1000, DefaultParallelThreshold} {
		par := New(WithWorkers(4), WithParallelThreshold(threshold))
		ser := New(WithWorkers(1))
		for _, n := range []int{threshold - 1, threshold, threshold + 1, 3*minChunk + 5} {
			a, b := randInts[int32](r, n), randInts[int32](r, n)
			for i := range b {
				if b[i] == 0 {
					b[i] = 3
				}
			}
			l := contiguousLayout(n)
			got, want := make([]int32, n), make([]int32, n)
			fg := runBinary(par, &l, got, a, b, kFloorDiv[int32])
			fw := runBinary(ser, &l, want, a, b, kFloorDiv[int32])
			if fg != fw {
				t.Errorf("n=%d: faults %b vs %b", n, fg, fw)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("threshold %d n=%d: element %d differs", threshold, n, i)
				}
			}
		}
	}
}
