package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Benchmarks of the kernels DESIGN.md compares with NumPy (one thread,
// 2^24 elements): i64 add into a preallocated output, i64 floor_divide, f32
// add, f32 -> f16 cast, i32 sum (to i64), u8 sum, and the Python families'
// where of f32 by a bool condition (np.where allocates its output, so the
// benchmark does too) and clip of f32 by two numbers (the other ops of
// issue 16 are in bench_newops_test.go). Each runs through the
// engine's driver (the parallel split included) on contiguous operands, at
// the default worker count ("") and on one worker ("/serial"), over a sweep
// of sizes ending at 2^24. b.SetBytes counts the bytes read and written.

const benchN = 1 << 24

var benchSizes = []int{1 << 10, 1 << 16, 1 << 20, benchN}

// benchEngines returns the engines a benchmark compares.
func benchEngines() []struct {
	name string
	e    *Engine
} {
	return []struct {
		name string
		e    *Engine
	}{{"", New()}, {"/serial", New(WithWorkers(1))}}
}

// benchSweep runs f at every size and engine.
func benchSweep(b *testing.B, bytesPer int, f func(b *testing.B, e *Engine, n int)) {
	for _, n := range benchSizes {
		for _, eng := range benchEngines() {
			b.Run(fmt.Sprintf("n=%d%s", n, eng.name), func(b *testing.B) {
				b.SetBytes(int64(n * bytesPer))
				f(b, eng.e, n)
			})
		}
	}
}

func contiguousLayout(n int) layout {
	return newLayout([]int{n}, view{shape: []int{n}}, view{shape: []int{n}})
}

func BenchmarkAddI64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 24, func(b *testing.B, e *Engine, n int) {
		x, y, dst := make([]int64, n), make([]int64, n), make([]int64, n)
		for i := range x {
			x[i], y[i] = r.Int64(), r.Int64()
		}
		l := contiguousLayout(n)
		b.ResetTimer()
		for range b.N {
			runBinary(e, &l, dst, x, y, addKernel[int64](n))
		}
	})
}

func BenchmarkAddF32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 12, func(b *testing.B, e *Engine, n int) {
		x, y, dst := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		l := contiguousLayout(n)
		b.ResetTimer()
		for range b.N {
			runBinary(e, &l, dst, x, y, addKernel[float32](n))
		}
	})
}

// BenchmarkFloorDivI64 divides values drawn as NumPy's benchmark draws them
// (np.random.randint over ±2^31 by nonzero divisors of up to ±1000), and
// BenchmarkFloorDivI64Wide over the full 64-bit range.
func BenchmarkFloorDivI64(b *testing.B) { benchFloorDiv(b, false) }

func BenchmarkFloorDivI64Wide(b *testing.B) { benchFloorDiv(b, true) }

func benchFloorDiv(b *testing.B, wide bool) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 24, func(b *testing.B, e *Engine, n int) {
		x, y, dst := make([]int64, n), make([]int64, n), make([]int64, n)
		for i := range x {
			if wide {
				x[i], y[i] = r.Int64(), r.Int64()|1
			} else {
				x[i], y[i] = r.Int64N(1<<32)-1<<31, r.Int64N(2000)-1000
				if y[i] == 0 {
					y[i] = 7
				}
			}
		}
		l := contiguousLayout(n)
		b.ResetTimer()
		for range b.N {
			runBinary(e, &l, dst, x, y, kFloorDiv[int64])
		}
	})
}

func BenchmarkCastF32ToF16(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 6, func(b *testing.B, e *Engine, n int) {
		x, dst := make([]float32, n), make([]uint16, n)
		for i := range x {
			x[i] = float32(r.NormFloat64() * 100)
		}
		l := newLayout([]int{n}, view{shape: []int{n}})
		b.ResetTimer()
		for range b.N {
			runUnary(e, &l, dst, x, kNarrowF16)
		}
	})
}

func BenchmarkSumI32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 4, func(b *testing.B, e *Engine, n int) {
		x := make([]int32, n)
		for i := range x {
			x[i] = r.Int32()
		}
		b.ResetTimer()
		for range b.N {
			sinkI64 = e.sumI32Par(x)
		}
	})
}

func BenchmarkSumU8(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 1, func(b *testing.B, e *Engine, n int) {
		x := make([]uint8, n)
		for i := range x {
			x[i] = uint8(r.Uint32())
		}
		b.ResetTimer()
		for range b.N {
			sinkU64 = e.sumU8Par(x)
		}
	})
}

var (
	sinkI64   int64
	sinkU64   uint64
	sinkWhere []float32
)

// BenchmarkWhereF32 is np.where(c, x, y) of f32 by a random bool c: the
// select of 32-bit words, into a new output.
func BenchmarkWhereF32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchSweep(b, 13, func(b *testing.B, e *Engine, n int) {
		c, x, y := make([]uint8, n), benchF32s(n), make([]float32, n)
		for i := range c {
			c[i], y[i] = uint8(r.IntN(2)), float32(r.NormFloat64())
		}
		l := newLayout([]int{n}, view{shape: []int{n}}, view{shape: []int{n}}, view{shape: []int{n}})
		b.ResetTimer()
		for range b.N {
			dst := make([]float32, n)
			runTernary(e, &l, asWords[uint32](dst), c, asWords[uint32](x), asWords[uint32](y), kWhere[uint32])
			sinkWhere = dst
		}
	})
}

// BenchmarkClampF32 is np.clip(x, -0.5, 0.5, out=o) of standard normal f32
// values (about 38% inside the bounds).
func BenchmarkClampF32(b *testing.B) {
	benchSweep(b, 8, func(b *testing.B, e *Engine, n int) {
		x, dst := benchF32s(n), make([]float32, n)
		l := newLayout([]int{n}, view{shape: []int{n}})
		k := kClampConst[float32](-0.5, 0.5)
		b.ResetTimer()
		for range b.N {
			runUnary(e, &l, dst, x, k)
		}
	})
}
