package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Benchmarks of the reduction family: the float summation orders on typed
// slices (one group, one thread), the column and scan kernels, and whole
// Eval calls (decoding the case's words and encoding the result included)
// at the default worker count and on one worker. Sizes sweep to 2^24;
// b.SetBytes counts the bytes of typed input read.

var redBenchSizes = []int{1 << 10, 1 << 16, 1 << 20, 1 << 24}

func redSweep(b *testing.B, bytesPer int, f func(b *testing.B, n int)) {
	for _, n := range redBenchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n * bytesPer))
			f(b, n)
		})
	}
}

var sinkF32 float32

func benchF32s(n int) []float32 {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

func BenchmarkSumOrderF32(b *testing.B) {
	orders := []struct {
		name string
		f    func([]float32) float32
	}{
		{"torch-cascade", func(x []float32) float32 { return torchInnerSum(x, 8, 8) }},
		{"torch-cascade-halves", func(x []float32) float32 { return torchInnerSum(x, 16, 8) }},
		{"numpy-pairwise", pairwiseSum[float32]},
		{"free", freeSum[float32]},
		{"sequential", func(x []float32) float32 { return seqSum(x, 0, roundNone) }},
		{"sequential-bf16", func(x []float32) float32 { return seqSum(x, 0, roundToBF16) }},
	}
	for _, o := range orders {
		b.Run(o.name, func(b *testing.B) {
			redSweep(b, 4, func(b *testing.B, n int) {
				x := benchF32s(n)
				b.ResetTimer()
				for range b.N {
					sinkF32 = o.f(x)
				}
			})
		})
	}
}

func BenchmarkColumnKernelsF32(b *testing.B) {
	b.Run("colSeq-1024-cols", func(b *testing.B) {
		redSweep(b, 4, func(b *testing.B, n int) {
			x := benchF32s(n)
			acc := make([]float32, 1024)
			b.ResetTimer()
			for range b.N {
				colSeq(acc, x, n/1024, 1024, false, roundNone)
			}
		})
	})
	b.Run("scanRow", func(b *testing.B) {
		redSweep(b, 4, func(b *testing.B, n int) {
			x := benchF32s(n)
			b.ResetTimer()
			for range b.N {
				scanRow(x, false, roundNone)
			}
		})
	})
	b.Run("firstExtreme", func(b *testing.B) {
		redSweep(b, 4, func(b *testing.B, n int) {
			x := benchF32s(n)
			b.ResetTimer()
			for range b.N {
				sinkF32 = float32(firstExtreme(x, true))
			}
		})
	})
}

// BenchmarkEvalReduce runs whole cases: the word decoding of the case format
// is part of what a user of Eval pays.
func BenchmarkEvalReduce(b *testing.B) {
	cases := []struct {
		name, profile, op string
		d                 tensor.DType
		dim               *int
		shape             func(n int) []int
	}{
		{"i32-sum", "numpy", "sum", tensor.I32, nil, vec},
		{"u8-sum", "numpy", "sum", tensor.U8, nil, vec},
		{"f32-sum-numpy", "numpy", "sum", tensor.F32, nil, vec},
		{"f32-sum-torch", "pytorch/cpu", "sum", tensor.F32, nil, vec},
		{"f32-sum-dim0-torch", "pytorch/cpu", "sum", tensor.F32, intp(0), func(n int) []int { return []int{n / 1024, 1024} }},
		{"f32-sum-dim1-numpy", "numpy", "sum", tensor.F32, intp(1), func(n int) []int { return []int{n / 1024, 1024} }},
		{"f32-cumsum-jax", "jax/cpu-x32", "cumsum", tensor.F32, intp(0), vec},
		{"f32-argmax", "numpy", "argmax", tensor.F32, nil, vec},
	}
	for _, tc := range cases {
		for _, eng := range []struct {
			name string
			e    *Engine
		}{{"", New()}, {"/serial", New(WithWorkers(1))}} {
			b.Run(tc.name+eng.name, func(b *testing.B) {
				redSweep(b, tc.d.Bits()/8, func(b *testing.B, n int) {
					r := rand.New(rand.NewPCG(1, 2))
					x := tensor.New(tc.d, tc.shape(n)...)
					for i := range x.Data {
						if tc.d.IsFloat() {
							x.SetFloat(i, r.NormFloat64())
						} else {
							x.SetInt(i, int64(r.Uint64()))
						}
					}
					c := redCase(tc.op, x, tc.dim, nil)
					b.ResetTimer()
					for range b.N {
						if o := eng.e.Eval(tc.profile, c); o.Form != tensor.FormValue {
							b.Fatal(o)
						}
					}
				})
			})
		}
	}
}
