package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The matmul kernels against their reference loop, at the sizes where the
// fast path changes: mmFastMin (the plain loop below it), the 4 x 4 tile
// edges, and the mmKC / mmNC block edges, each one below, at and above;
// every output inside guard bands. Integers are drawn over their whole
// range (the sums wrap, in any order the same); floats are small integers,
// whose sums are exact in every order, so both paths agree bit for bit.

var (
	mmRows  = []int{1, mmFastMin - 1, mmFastMin, mmFastMin + 1, 2*mmMR + 1, 13}
	mmDepth = []int{1, mmFastMin - 1, mmFastMin, mmFastMin + 1, mmKC - 1, mmKC, mmKC + 1, 2*mmKC + 3}
	mmCols  = []int{1, mmFastMin - 1, mmFastMin, mmFastMin + 1, mmNR + 2, mmNC - 1, mmNC, mmNC + 1, mmNC + mmNR + 3}
)

func smallInts[T number](r *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = T(r.IntN(17)) - 8
	}
	return x
}

func twinMatmul[T number](t *testing.T, name string, gen func(r *rand.Rand, n int) []T) {
	r := rand.New(rand.NewPCG(3, 4))
	canary := canaryOf[T]()
	for _, m := range mmRows {
		for _, k := range mmDepth {
			for _, n := range mmCols {
				if m*k*n > 1<<20 && m > mmFastMin+1 {
					continue // the block edges are covered at the smaller row counts
				}
				a, b := gen(r, m*k), gen(r, k*n)
				want := make([]T, m*n)
				matmulRef(want, a, b, m, k, n)
				buf, dst := guarded(m*n, canary)
				matmulInto(dst, a, b, m, k, n)
				checkGuards(t, fmt.Sprintf("%s matmul %dx%dx%d", name, m, k, n), m*n, buf, canary)
				for i := range want {
					if !sameBits(dst[i], want[i]) {
						t.Fatalf("%s %dx%dx%d: element %d = %v, the reference loop gives %v", name, m, k, n, i, dst[i], want[i])
					}
				}
			}
		}
	}
}

func TestMatmulKernelTwins(t *testing.T) {
	twinMatmul(t, "i8", randInts[int8])
	twinMatmul(t, "u64", randInts[uint64])
	twinMatmul(t, "f32", smallInts[float32])
	twinMatmul(t, "f64", smallInts[float64])
}

// TestMatmulRunSplits: mmRun over broadcast batches gives every batch's
// reference product whatever the split (one worker, or rows split across
// three at the smallest threshold, pieces that start inside a batch).
func TestMatmulRunSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	engines := []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1))}
	g := mmGeometryOf([]int{3, 1, 5, 9}, []int{2, 9, 11})
	if g.batch == nil || len(g.shape) != 4 || g.shape[0] != 3 || g.shape[1] != 2 {
		t.Fatalf("geometry of [3 1 5 9] @ [2 9 11]: %+v", g)
	}
	mb := g.batches()
	a, b := randInts[int32](r, 3*5*9), randInts[int32](r, 2*9*11)
	want := make([]int32, 6*5*11)
	for bi := range mb.aOff {
		matmulRef(want[bi*55:(bi+1)*55], a[mb.aOff[bi]:], b[mb.bOff[bi]:], 5, 9, 11)
	}
	for _, e := range engines {
		canary := canaryOf[int32]()
		buf, dst := guarded(len(want), canary)
		mmRun(e, dst, a, b, mb)
		checkGuards(t, "mmRun", len(want), buf, canary)
		for i := range want {
			if dst[i] != want[i] {
				t.Fatalf("workers %d: element %d = %d, want %d", e.workers, i, dst[i], want[i])
			}
		}
	}
}

func BenchmarkMatmulF32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{64, 256} {
		x, y := make([]float32, n*n), make([]float32, n*n)
		for i := range x {
			x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		dst := make([]float32, n*n)
		mb := mmBatch{m: n, k: n, n: n, aOff: []int{0}, bOff: []int{0}}
		for _, eng := range benchEngines() {
			b.Run(fmt.Sprintf("n=%d%s", n, eng.name), func(b *testing.B) {
				b.SetBytes(int64(3 * n * n * 4))
				for range b.N {
					mmRun(eng.e, dst, x, y, mb)
				}
			})
		}
	}
}
