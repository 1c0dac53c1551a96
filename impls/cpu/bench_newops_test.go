package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Benchmarks of the ops added 2026-12 that scripts/bench-vs-numpy.sh
// compares with NumPy: cat of two halves of 2^24 elements (storage words,
// 8 bytes each whatever the dtype), candle's where_cond of 2^24 elements
// (the select of words, allocation included, as np.where allocates), a
// broadcast_add of a [4096, 4096] f32 matrix and a row (the binary
// family's broadcast path), and the f32 matmul of 256 x 256 matrices
// (BenchmarkMatmulF32 in matmul_test.go).

// BenchmarkCatI64 concatenates two contiguous halves along dim 0.
func BenchmarkCatI64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 16, func(b *testing.B, e *Engine, n int) {
		x, y, dst := make([]uint64, n/2), make([]uint64, n-n/2), make([]uint64, n)
		for i := range x {
			x[i] = r.Uint64()
		}
		for i := range y {
			y[i] = r.Uint64()
		}
		srcs, blocks := [][]uint64{x, y}, []int{len(x), len(y)}
		b.ResetTimer()
		for range b.N {
			catCopy(e, dst, srcs, blocks, 1)
		}
	})
}

// BenchmarkCatRowsI64 concatenates two [rows, 64] halves along dim 1: the
// output alternates 64-word runs of each.
func BenchmarkCatRowsI64(b *testing.B) {
	benchSweep(b, 16, func(b *testing.B, e *Engine, n int) {
		rows := n / 128
		x, y, dst := make([]uint64, rows*64), make([]uint64, rows*64), make([]uint64, rows*128)
		srcs, blocks := [][]uint64{x, y}, []int{64, 64}
		b.ResetTimer()
		for range b.N {
			catCopy(e, dst, srcs, blocks, rows)
		}
	})
}

// BenchmarkWhereU8F32 is candle's where_cond of a u8 condition and two f32
// tensors.
func BenchmarkWhereU8F32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 13, func(b *testing.B, e *Engine, n int) {
		cond, x, y := tensor.New(tensor.U8, n), tensor.New(tensor.F32, n), tensor.New(tensor.F32, n)
		for i := 0; i < n; i++ {
			cond.Data[i] = r.Uint64() & 1
			x.Data[i] = uint64(math.Float32bits(float32(r.NormFloat64())))
			y.Data[i] = uint64(math.Float32bits(float32(r.NormFloat64())))
		}
		c := &tensor.Case{Op: "where", Args: []tensor.Arg{{Tensor: cond}, {Tensor: x}, {Tensor: y}}}
		b.ResetTimer()
		for range b.N {
			if out := candleWhere(e, candleCPURelease, c); out.Form != tensor.FormValue {
				b.Fatal(out)
			}
		}
	})
}

// BenchmarkBroadcastAddF32 adds a row of 4096 to each row of a square
// matrix of n elements (a broadcast_add in NumPy's spelling x + row).
func BenchmarkBroadcastAddF32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 8, func(b *testing.B, e *Engine, n int) {
		cols := min(n, 4096)
		rows := n / cols
		x, row, dst := make([]float32, rows*cols), make([]float32, cols), make([]float32, rows*cols)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		for i := range row {
			row[i] = float32(r.NormFloat64())
		}
		l := newLayout([]int{rows, cols}, view{shape: []int{rows, cols}}, view{shape: []int{cols}})
		b.ResetTimer()
		for range b.N {
			runBinary(e, &l, dst, x, row, addKernel[float32](n))
		}
	})
}

// TestBenchNewOpsKernels: the benchmarked paths compute what they claim
// (catCopy against its reference loop on the benchmark's shapes, split or
// not), so that a benchmark never times a wrong kernel.
func TestBenchNewOpsKernels(t *testing.T) {
	for _, e := range []*Engine{New(WithWorkers(1)), New(WithWorkers(4), WithParallelThreshold(1))} {
		for _, tc := range []struct {
			blocks []int
			outer  int
		}{{[]int{500, 701}, 1}, {[]int{64, 64}, 37}, {[]int{0, 3, 0, 5}, 9}, {[]int{1, 0}, 130}} {
			srcs := make([][]uint64, len(tc.blocks))
			width := 0
			for i, n := range tc.blocks {
				srcs[i] = make([]uint64, n*tc.outer)
				for j := range srcs[i] {
					srcs[i][j] = uint64(i<<32 | j)
				}
				width += n
			}
			want := make([]uint64, width*tc.outer)
			catRef(want, srcs, tc.blocks, tc.outer)
			canary := canaryOf[uint64]()
			buf, dst := guarded(len(want), canary)
			catCopy(e, dst, srcs, tc.blocks, tc.outer)
			checkGuards(t, fmt.Sprintf("catCopy %v x %d", tc.blocks, tc.outer), len(want), buf, canary)
			for i := range want {
				if dst[i] != want[i] {
					t.Fatalf("catCopy %v x %d (workers %d): word %d = %x, the reference gives %x", tc.blocks, tc.outer, e.workers, i, dst[i], want[i])
				}
			}
		}
	}
}
