package cpu

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Benchmarks of whole ops (the *Op benchmarks scripts/bench-vs-numpy.sh
// prints beside the kernels'): a case of tensor.Tensor operands, one 8-byte
// word an element, evaluated through Engine.Eval on the numpy profile, so
// that what is timed is what a campaign runs: the plan, every decode and
// encode pass, and the result's allocation. NumPy's side is the same call
// as the kernel row's (np.where allocates its result; clip, add and
// concatenate write into a preallocated one). b.SetBytes counts the words
// read and written.

// opBench holds the f32 operands of the op benchmarks, made once per size
// (2^24 elements of each are 128 MB).
type opBench struct {
	x, y, cond *tensor.Tensor
}

var (
	opBenchMu sync.Mutex
	opBenches = map[int]*opBench{}
)

// opBenchOf returns the operands of n elements: standard normal x and y,
// a random bool condition.
func opBenchOf(n int) *opBench {
	opBenchMu.Lock()
	defer opBenchMu.Unlock()
	if o := opBenches[n]; o != nil {
		return o
	}
	r := rand.New(rand.NewPCG(1, 2))
	o := &opBench{x: tensor.New(tensor.F32, n), y: tensor.New(tensor.F32, n), cond: tensor.New(tensor.Bool, n)}
	for i := range n {
		o.x.Data[i] = uint64(math.Float32bits(float32(r.NormFloat64())))
		o.y.Data[i] = uint64(math.Float32bits(float32(r.NormFloat64())))
		o.cond.Data[i] = r.Uint64() & 1
	}
	opBenches[n] = o
	return o
}

// benchOp times Engine.Eval of the case mk builds from n-element operands.
func benchOp(b *testing.B, bytesPer int, mk func(o *opBench, n int) *tensor.Case) {
	benchSweep(b, bytesPer, func(b *testing.B, e *Engine, n int) {
		c := mk(opBenchOf(n), n)
		if !e.Supports("numpy", c) {
			b.Fatalf("the engine declines %s", c.Describe())
		}
		b.ResetTimer()
		for range b.N {
			if out := e.Eval("numpy", c); out.Form != tensor.FormValue {
				b.Fatal(out)
			}
		}
	})
}

// BenchmarkWhereF32Op is np.where(c, x, y) of f32 by a bool c.
func BenchmarkWhereF32Op(b *testing.B) {
	benchOp(b, 32, func(o *opBench, _ int) *tensor.Case {
		return &tensor.Case{Op: "where", Args: args(o.cond, o.x, o.y)}
	})
}

// BenchmarkClampF32Op is np.clip(x, -0.5, 0.5) of f32.
func BenchmarkClampF32Op(b *testing.B) {
	benchOp(b, 16, func(o *opBench, _ int) *tensor.Case {
		return &tensor.Case{Op: "clamp", Args: []tensor.Arg{{Tensor: o.x},
			{Scalar: &tensor.Scalar{Text: "-0.5", Kind: tensor.ScalarFloat}}, {Scalar: &tensor.Scalar{Text: "0.5", Kind: tensor.ScalarFloat}}}}
	})
}

// BenchmarkBroadcastAddF32Op is broadcast_add of a [n/4096, 4096] f32
// matrix and a row of 4096 (x + row in NumPy).
func BenchmarkBroadcastAddF32Op(b *testing.B) {
	benchOp(b, 16, func(o *opBench, n int) *tensor.Case {
		cols := min(n, 4096)
		sq := &tensor.Tensor{DType: tensor.F32, Shape: []int{n / cols, cols}, Data: o.x.Data}
		row := &tensor.Tensor{DType: tensor.F32, Shape: []int{cols}, Data: o.y.Data[:cols]}
		return &tensor.Case{Op: "broadcast_add", Args: args(sq, row)}
	})
}

// BenchmarkCatF32Op is the cat along dim 0 of two f32 halves of n elements.
func BenchmarkCatF32Op(b *testing.B) {
	benchOp(b, 16, func(o *opBench, n int) *tensor.Case {
		h := n / 2
		x := &tensor.Tensor{DType: tensor.F32, Shape: []int{h}, Data: o.x.Data[:h]}
		y := &tensor.Tensor{DType: tensor.F32, Shape: []int{n - h}, Data: o.y.Data[h:]}
		dim := 0
		return &tensor.Case{Op: "cat", Args: args(x, y), Attrs: tensor.Attrs{Dim: &dim}}
	})
}
