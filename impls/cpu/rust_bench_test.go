package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Benchmarks of the Rust kernels: what a debug build's overflow checks cost
// over the release build's wrapping kernel (i64 add, i64 affine), and the
// group kernels (u8 sum with and without checks, i32 cumsum). Sizes sweep
// up to 2^20 elements; b.SetBytes counts the bytes read and written.

var rustBenchSizes = []int{1 << 10, 1 << 16, 1 << 20}

func rustBenchSweep(b *testing.B, bytesPer int, f func(b *testing.B, e *Engine, n int)) {
	for _, n := range rustBenchSizes {
		for _, eng := range []struct {
			name string
			e    *Engine
		}{{"", New()}, {"/serial", New(WithWorkers(1))}} {
			b.Run(fmt.Sprintf("n=%d%s", n, eng.name), func(b *testing.B) {
				b.SetBytes(int64(n * bytesPer))
				f(b, eng.e, n)
			})
		}
	}
}

func BenchmarkRustAddI64(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 1))
	for _, debug := range []bool{false, true} {
		b.Run(fmt.Sprintf("debug=%t", debug), func(b *testing.B) {
			rustBenchSweep(b, 24, func(b *testing.B, e *Engine, n int) {
				x, y, dst := make([]int64, n), make([]int64, n), make([]int64, n)
				for i := range x {
					x[i], y[i] = r.Int64N(1<<40), r.Int64N(1<<40)
				}
				l := newLayout([]int{n}, view{shape: []int{n}}, view{shape: []int{n}})
				k := rustArith[int64](opAdd, debug)
				b.ResetTimer()
				for range b.N {
					runBinary(e, &l, dst, x, y, k)
				}
			})
		})
	}
}

func BenchmarkRustAffineI64(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 2))
	for _, debug := range []bool{false, true} {
		b.Run(fmt.Sprintf("debug=%t", debug), func(b *testing.B) {
			rustBenchSweep(b, 16, func(b *testing.B, e *Engine, n int) {
				x, dst := make([]int64, n), make([]int64, n)
				for i := range x {
					x[i] = r.Int64N(1 << 40)
				}
				l := newLayout([]int{n}, view{shape: []int{n}})
				k := kAffineInt[int64](2, 1, debug)
				b.ResetTimer()
				for range b.N {
					runUnary(e, &l, dst, x, k)
				}
			})
		})
	}
}

func BenchmarkRustSumU8(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, debug := range []bool{false, true} {
		b.Run(fmt.Sprintf("debug=%t", debug), func(b *testing.B) {
			rustBenchSweep(b, 1, func(b *testing.B, e *Engine, n int) {
				x := make([]uint8, n)
				for i := range x {
					x[i] = uint8(r.IntN(2))
				}
				g := rustGeom{outer: 1, n: n, inner: 1}
				dst := make([]uint8, 1)
				b.ResetTimer()
				for range b.N {
					if debug {
						rustSumChecked(dst, x, g)
					} else {
						rustSum(dst, x, g)
					}
				}
			})
		})
	}
}

func BenchmarkRustCumsumI32(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	rustBenchSweep(b, 8, func(b *testing.B, e *Engine, n int) {
		x, dst := make([]int32, n), make([]int32, n)
		for i := range x {
			x[i] = int32(r.IntN(100))
		}
		g := rustGeom{outer: 1, n: n, inner: 1}
		b.ResetTimer()
		for range b.N {
			rustCumsum(dst, x, g)
		}
	})
}
