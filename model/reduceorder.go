package model

import (
	"math"
	"math/bits"

	"github.com/tfuzz/tfuzz/tensor"
)

// Summation orders of float reductions: the order each Python profile's
// kernels combine one output's values in (index order along the reduced
// dims), as plain reference loops an optimized engine can be checked
// against, and OrderFree, which says when the order does not matter. Values
// are float64s holding values of the arithmetic's precision; rounding the
// float64 result of one step again is exact rounding, since float64 has more
// than 2p+2 bits for p = 24, 11, 8.

// Arith is the arithmetic of one reduction: add or multiply, every partial
// result rounded to Prec (to nearest, ties to even, overflow to ±inf).
type Arith struct {
	Prod bool         // multiply (prod) instead of add (sum, mean, cumsum)
	Prec tensor.DType // f16, bf16, f32 or f64
}

// Identity is the value the reduction of no elements gives: +0 or 1.
func (a Arith) Identity() float64 {
	if a.Prod {
		return 1
	}
	return 0
}

// Op combines two partial results.
func (a Arith) Op(x, y float64) float64 {
	if a.Prod {
		return roundTo(x*y, a.Prec)
	}
	return roundTo(x+y, a.Prec)
}

// Order is one association order of a float reduction.
type Order struct {
	Name   string
	reduce func(xs []float64, a Arith) float64
}

// Reduce combines xs, values of a.Prec in index order, as the kernel does.
func (o Order) Reduce(xs []float64, a Arith) float64 { return o.reduce(xs, a) }

// SequentialOrder is acc = identity; acc = acc op x for each x in order.
var SequentialOrder = Order{"sequential", redSequential}

func redSequential(xs []float64, a Arith) float64 { return redFold(xs, a.Identity(), a) }

// fold is acc = init; acc = acc op x for each x in order.
func redFold(xs []float64, init float64, a Arith) float64 {
	acc := init
	for _, x := range xs {
		acc = a.Op(acc, x)
	}
	return acc
}

// --- PyTorch CPU -------------------------------------------------------------------------

// torchLoad is how cascade_sum loads an f16/bf16 vector into f32 lanes.
type torchLoad uint8

const (
	loadPlain  torchLoad = iota // f32/f64: lane l is element l
	loadPairs                   // lane l = (0 + e[2l]) + e[2l+1] (load_reduce_vec)
	loadHalves                  // lane l = e[l] + e[l+L] (load_to_float, first half + second half)
)

// TorchCPUSumOrder is ATen's cascade_sum (SumKernel.cpp) for one output:
// regBytes is the vector width (64 AVX-512, 32 AVX2, 16 NEON vec128), elem
// the dtype loaded, inner whether the group is contiguous, col of ncols the
// output's place in an outer reduction's block; pairs picks the f16 load.
func TorchCPUSumOrder(regBytes int, elem tensor.DType, inner bool, col, ncols int, pairs bool) Order {
	vec := regBytes / (elem.Bits() / 8) // elements of Vectorized<scalar_t>
	accBits := 32
	if elem == tensor.F64 {
		accBits = 64
	}
	lanes := regBytes / (accBits / 8) // lanes of Vectorized<acc_t>
	load := loadPlain
	switch {
	case elem == tensor.BF16 || (elem == tensor.F16 && !pairs):
		load = loadHalves
	case elem == tensor.F16:
		load = loadPairs
	}
	name := "pytorch-cpu-cascade"
	if !inner {
		return Order{name + "-outer", func(xs []float64, a Arith) float64 {
			if ncols >= vec && col < ncols/(4*lanes)*4*lanes || ncols < vec && col < ncols/4*4 {
				return cascadeSum(xs, a)
			}
			return rowSum(xs, a)
		}}
	}
	return Order{name, func(xs []float64, a Arith) float64 {
		if len(xs) < vec {
			return rowSum(xs, a)
		}
		return vectorizedInnerSum(xs, vec, lanes, load, a)
	}}
}

// cascadeSum is one column of multi_row_sum: the values in order with the
// 4-level cascade of accumulators.
func cascadeSum(xs []float64, a Arith) float64 { return multiRowSum(redColumns(xs, 1), a)[0] }

// columns views xs as rows of k values.
func redColumns(xs []float64, k int) [][]float64 {
	rows := make([][]float64, len(xs)/k)
	for i := range rows {
		rows[i] = xs[i*k : i*k+k]
	}
	return rows
}

// multiRowSum is ATen's multi_row_sum: column sums of rows with a 4-level
// cascade of accumulators, level_step = 2^max(4, ceil_log2(rows)/4).
func multiRowSum(rows [][]float64, a Arith) []float64 {
	const levels = 4
	size := len(rows)
	nrows := 1
	if size > 0 {
		nrows = len(rows[0])
	}
	power := max(4, redCeilLog2(size)/levels)
	step := 1 << power
	mask := step - 1
	acc := make([][]float64, levels)
	for j := range acc {
		acc[j] = make([]float64, nrows)
	}
	i := 0
	for i+step <= size {
		for range step {
			for k := range nrows {
				acc[0][k] = a.Op(acc[0][k], rows[i][k])
			}
			i++
		}
		for j := 1; j < levels; j++ {
			for k := range nrows {
				acc[j][k] = a.Op(acc[j][k], acc[j-1][k])
				acc[j-1][k] = 0
			}
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	for ; i < size; i++ {
		for k := range nrows {
			acc[0][k] = a.Op(acc[0][k], rows[i][k])
		}
	}
	for j := 1; j < levels; j++ {
		for k := range nrows {
			acc[0][k] = a.Op(acc[0][k], acc[j][k])
		}
	}
	return acc[0]
}

func redCeilLog2(x int) int {
	if x <= 1 {
		return 0
	}
	return bits.Len(uint(x - 1))
}

// rowSum is ATen's row_sum: four interleaved partial sums (ilp_factor 4)
// over whole groups of four, the tail added to the first, then combined.
func rowSum(xs []float64, a Arith) float64 {
	k := len(xs) / 4
	p := multiRowSum(redColumns(xs[:4*k], 4), a)
	if k == 0 {
		p = []float64{0, 0, 0, 0}
	}
	for _, x := range xs[4*k:] {
		p[0] = a.Op(p[0], x)
	}
	return a.Op(a.Op(a.Op(p[0], p[1]), p[2]), p[3])
}

// vectorizedInnerSum is ATen's vectorized_inner_sum: vectors of vec
// elements loaded into lanes accumulators, each lane row_summed, then the
// scalar tail summed from 0 and the lanes added to it in order.
func vectorizedInnerSum(xs []float64, vec, lanes int, load torchLoad, a Arith) float64 {
	nvec := len(xs) / vec
	lane := make([][]float64, lanes)
	for v := range nvec {
		e := xs[v*vec : v*vec+vec]
		for l := range lanes {
			var x float64
			switch load {
			case loadPairs:
				x = a.Op(a.Op(0, e[2*l]), e[2*l+1])
			case loadHalves:
				x = a.Op(e[l], e[l+lanes])
			default:
				x = e[l]
			}
			lane[l] = append(lane[l], x)
		}
	}
	final := 0.0
	for _, x := range xs[nvec*vec:] {
		final = a.Op(final, x)
	}
	for l := range lanes {
		final = a.Op(final, rowSum(lane[l], a))
	}
	return final
}

// TorchCPUProdOrder is ATen's binary_kernel_reduce_vec for prod: in order
// from 1, but a contiguous group of four vectors or more runs reduction128
// (four vector accumulators, (a0*a1)*(a2*a3), the lanes in order) before
// the scalar tail.
func TorchCPUProdOrder(regBytes int, elem tensor.DType, inner bool) Order {
	vec := regBytes / (elem.Bits() / 8)
	return Order{"pytorch-cpu-reduce-vec", func(xs []float64, a Arith) float64 {
		if !inner {
			return redSequential(xs, a)
		}
		return prodReduce128(xs, a.Identity(), vec, a)
	}}
}

// prodReduce128 is vectorized_inner_reduction of a contiguous row into
// out: with four vectors of vec elements or more, reduction128 (the first
// four vectors as accumulators, each later block of four multiplied in,
// combined (a0*a1)*(a2*a3), the lanes folded in order) multiplied into
// out, then the rest in order.
func prodReduce128(xs []float64, out float64, vec int, a Arith) float64 {
	block := 4 * vec
	count := len(xs) / block
	if count == 0 {
		return redFold(xs, out, a)
	}
	acc := append([]float64{}, xs[:block]...)
	for b := 1; b < count; b++ {
		for j := range block {
			acc[j] = a.Op(acc[j], xs[b*block+j])
		}
	}
	lanes := make([]float64, vec)
	for l := range vec {
		lanes[l] = a.Op(a.Op(acc[l], acc[vec+l]), a.Op(acc[2*vec+l], acc[3*vec+l]))
	}
	return redFold(xs[count*block:], a.Op(out, redFold(lanes[1:], lanes[0], a)), a)
}

// --- PyTorch CUDA ------------------------------------------------------------------------

// CUDABlockOrder is Reduce.cuh along the fastest dim (at most 128 elements,
// not vectorized): thread t < width folds t, t+width, ... into four
// accumulators in turn, combined ((v0+v1)+v2)+v3; shared memory halves the
// block to 32 lanes, then the shuffle tree (offsets 1, 2, 4, ...).
func CUDABlockOrder(width int) Order {
	return Order{"pytorch-cuda-block", func(xs []float64, a Arith) float64 {
		n := len(xs)
		if n == 0 {
			return a.Identity()
		}
		vals := make([]float64, width)
		for t := range width {
			vals[t] = cudaThread(xs, t, width, a)
		}
		dim := width
		if dim > 32 {
			for off := dim / 2; off >= 32; off /= 2 {
				for t := range off {
					vals[t] = a.Op(vals[t], vals[t+off])
				}
			}
			dim = 32
		}
		for off := 1; off < dim; off *= 2 {
			for t := 0; t+off < dim; t += 2 * off {
				vals[t] = a.Op(vals[t], vals[t+off])
			}
		}
		return vals[0]
	}}
}

// cudaThread is thread_reduce_impl: four accumulators from the identity
// over elements start, start+stride, ..., combined in order.
func cudaThread(xs []float64, start, stride int, a Arith) float64 {
	v := [4]float64{a.Identity(), a.Identity(), a.Identity(), a.Identity()}
	idx, n := start, len(xs)
	for ; idx+3*stride < n; idx += 4 * stride {
		for j := range 4 {
			v[j] = a.Op(v[j], xs[idx+j*stride])
		}
	}
	for j := 0; j < 4 && idx < n; j, idx = j+1, idx+stride {
		v[j] = a.Op(v[j], xs[idx])
	}
	return a.Op(a.Op(a.Op(v[0], v[1]), v[2]), v[3])
}

// CUDAThreadOrder is PyTorch's Reduce.cuh for an outer reduction with fewer
// than 256 inputs per output: one thread per output over all of them.
var CUDAThreadOrder = Order{"pytorch-cuda-thread", func(xs []float64, a Arith) float64 {
	return cudaThread(xs, 0, 1, a)
}}

// cudaBlockWidths returns the block widths of n elements per output along
// the fastest dim: set_block_dimension's min(last_pow2(n), 512 /
// block_height) and the notes' last_pow2(n) (they differ for 32 < n).
func cudaBlockWidths(n, outputs int) []int {
	const maxThreads = 512
	p2 := func(x int) int {
		if x >= maxThreads {
			return maxThreads
		}
		return redLastPow2(x)
	}
	d0, d1 := p2(n), p2(outputs)
	bh := min(d1, maxThreads/min(d0, 32))
	w := min(d0, maxThreads/bh)
	if w == d0 {
		return []int{w}
	}
	return []int{d0, w}
}

func redLastPow2(x int) int {
	if x < 1 {
		return 1
	}
	return 1 << (bits.Len(uint(x)) - 1)
}

// --- NumPy -------------------------------------------------------------------------------

// NumPyPairwiseOrder is NumPy's pairwise_sum (a sum order): under 8 values
// in order from -0.0; up to 128 in eight accumulators, combined
// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the tail; above, two halves.
var NumPyPairwiseOrder = Order{"numpy-pairwise", redPairwise}

func redPairwise(xs []float64, a Arith) float64 {
	n := len(xs)
	switch {
	case n < 8:
		res := math.Copysign(0, -1)
		for _, x := range xs {
			res = a.Op(res, x)
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], xs[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range 8 {
				r[j] = a.Op(r[j], xs[i+j])
			}
		}
		res := a.Op(a.Op(a.Op(r[0], r[1]), a.Op(r[2], r[3])), a.Op(a.Op(r[4], r[5]), a.Op(r[6], r[7])))
		for ; i < n; i++ {
			res = a.Op(res, xs[i])
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return a.Op(redPairwise(xs[:n2], a), redPairwise(xs[n2:], a))
}

// numpyBufferSize is the buffered iterator's chunk (8192 elements).
const numpyBufferSize = 8192

// NumPyChunkedOrder is pairwise_sum per chunk, each added to the output
// stored in out (f16 rounds there).
func NumPyChunkedOrder(out tensor.DType) Order {
	return Order{"numpy-pairwise-chunked", func(xs []float64, a Arith) float64 {
		acc := a.Identity()
		for lo := 0; lo < len(xs); lo += numpyBufferSize {
			acc = roundTo(a.Op(acc, redPairwise(xs[lo:min(lo+numpyBufferSize, len(xs))], a)), out)
		}
		return acc
	}}
}

// --- XLA ---------------------------------------------------------------------------------

// XLATreeOrder is XLA GPU's multi-row reduction emitter for a row of a
// power-of-two length: lane t = init op x_t, then shuffle-down offsets
// n/2, n/4, ..., 1.
var XLATreeOrder = Order{"xla-gpu-shuffle-tree", func(xs []float64, a Arith) float64 {
	lanes := make([]float64, len(xs))
	for t, x := range xs {
		lanes[t] = a.Op(a.Identity(), x)
	}
	if len(lanes) == 0 {
		return a.Identity()
	}
	for off := len(lanes) / 2; off >= 1; off /= 2 {
		for t := range off {
			lanes[t] = a.Op(lanes[t], lanes[t+off])
		}
	}
	return lanes[0]
}}

// --- order-free groups -------------------------------------------------------------------

// orderFree tracks whether every association order of the values so far
// (with identity elements anywhere) gives one result, up to a zero's sign:
// a NaN, +inf with -inf (prod: 0 with inf), at most two values, exact
// partial results (sum: multiples of a quantum 2^q whose magnitudes add up
// to less than 2^(q+p); prod: odd significand parts within p bits, products
// in the normal range), or an infinity (prod: a zero) with the rest far
// from overflow.
type orderFree struct {
	a                    Arith
	n                    int
	nan, posInf, inf     bool
	negInf, zero         bool
	exact                bool
	q                    int     // sum: exponent of the common quantum
	mag                  uint64  // sum: sum of magnitudes in units of 2^q
	absSum               float64 // sum: sum of finite magnitudes (overflow guard)
	oddBits, hiE, loE    int     // prod: significand bits, exponents above and below 1
	fmtP, fmtMin, fmtMax int
}

func newOrderFree(a Arith) *orderFree {
	f := binaryFormats[a.Prec]
	return &orderFree{a: a, exact: true, fmtP: f.p, fmtMin: f.emin, fmtMax: f.emax}
}

// add takes the next value of the group.
func (o *orderFree) add(x float64) {
	o.n++
	switch {
	case math.IsNaN(x):
		o.nan = true
	case math.IsInf(x, 0):
		o.inf = true
		o.posInf = o.posInf || x > 0
		o.negInf = o.negInf || x < 0
	case x == 0:
		o.zero = true
	case o.a.Prod:
		o.addFactor(x)
	default:
		o.addTerm(x)
	}
}

// decompose returns |x| = odd * 2^q with odd an odd integer, and the
// exponent e of its leading bit (|x| in [2^e, 2^(e+1))).
func redDecompose(x float64) (odd uint64, q, e int) {
	frac, exp := math.Frexp(math.Abs(x))
	m := uint64(math.Ldexp(frac, 53))
	tz := bits.TrailingZeros64(m)
	return m >> tz, exp - 53 + tz, exp - 1
}

func (o *orderFree) addTerm(x float64) {
	o.absSum += math.Abs(x)
	if !o.exact {
		return
	}
	odd, q, _ := redDecompose(x)
	if o.mag == 0 {
		o.q = q
	}
	if q < o.q {
		if s := o.q - q; s >= o.fmtP || o.mag >= 1<<(o.fmtP-s) {
			o.exact = false
			return
		}
		o.mag <<= o.q - q
		o.q = q
	}
	s := q - o.q
	if s >= o.fmtP || odd >= 1<<(o.fmtP-s) {
		o.exact = false
		return
	}
	o.mag += odd << s
	o.exact = o.mag < 1<<o.fmtP && o.q+o.fmtP-1 <= o.fmtMax
}

func (o *orderFree) addFactor(x float64) {
	odd, _, e := redDecompose(x)
	o.oddBits += bits.Len64(odd)
	if e >= 0 {
		o.hiE += e + 1
	} else {
		o.loE += e
	}
}

// free reports whether the values so far give one result in every order.
func (o *orderFree) free() bool {
	switch {
	case o.nan || o.n <= 2:
		return true
	case o.a.Prod:
		noOverflow := o.hiE <= o.fmtMax
		noUnderflow := o.loE >= o.fmtMin
		switch {
		case o.zero && o.inf:
			return true
		case o.zero:
			return noOverflow
		case o.inf:
			return noUnderflow
		}
		return o.oddBits <= o.fmtP && o.hiE <= o.fmtMax+1 && noUnderflow
	case o.posInf && o.negInf:
		return true
	case o.inf:
		return o.absSum <= tensor.MaxFloat(o.a.Prec)/4
	}
	return o.exact
}

// OrderFree reports whether every association order of xs in arithmetic a
// gives the same result (up to the sign of a zero result).
func OrderFree(xs []float64, a Arith) bool {
	o := newOrderFree(a)
	for _, x := range xs {
		o.add(x)
	}
	return o.free()
}

// sameFloat reports whether two results are the same value (any NaN is).
func redSame(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
}

// --- which order each profile runs --------------------------------------------------------

var (
	pyFloatReduce = newRule("python.reduce.float",
		"float sums and products round each partial result to the accumulator; NaN propagates, overflow gives ±inf; the output starts at the identity (a sum of only -0.0 is +0.0); a product's zero sign is the XOR of the signs; empty: 0 or 1",
		"oracle-01026..01030, oracle-01033, oracle2-01394 (-0.0 prod), oracle2-00160, oracle2-01142 (empty); reductions.md §8")
	pyOrderFree = newRule("python.reduce.order-free",
		"where the order is not pinned, a group is specified when every order gives one result: NaN, +inf with -inf (prod: 0 with inf), at most two values, exact partial results, or an infinity (prod: a zero) that fixes it",
		"IEEE 754 arithmetic")
	pyZeroSign = newOpenRule("python.reduce.zero-sign",
		"a zero sum's sign is unspecified where adds are no-signed-zeros (XLA GPU reduction emitter, with a -0 in the group) or the identity is unknown (MPS, only -0)",
		"reductions.md §5.5 (XLA marks the emitter's adds nsz), §10.4")
	torchCPUSum = newRule("pytorch.cpu.sum.cascade",
		"PyTorch CPU sum is cascade_sum in f32 (f16/bf16/f32) or f64: row_sum (4 interleaved sums, multi_row_sum's 4-level cascade), vectorized_inner_sum for contiguous groups of a vector or more, vectorized/scalar_outer_sum across columns",
		"oracle-01012 (bf16 258), oracle-01033 (inf), reductions.md §5.1; ATen SumKernel.cpp")
	torchCPUProd = newRule("pytorch.cpu.prod.reduce-vec",
		"PyTorch CPU prod is binary_kernel_reduce_vec in the dtype (f16/bf16 round every step): in order from 1, with reduction128 for contiguous groups of four vectors or more",
		"reductions.md §5.1; ATen Reduce.h (no oracle case distinguishes the orders)")
	torchCPUWidth = newOpenRule("pytorch.cpu.reduce.vector-width",
		"PyTorch CPU picks AVX-512 or AVX2 kernels at run time, and the f16 cascade's load pattern is not pinned: an element is specified when all variants agree",
		"reductions.md §10.1 (the oracle cannot tell them apart)")
	torchArm64Width = newOpenRule("pytorch.arm64.reduce.vector-width",
		"PyTorch on Arm64 runs the CPU kernels with 16- or 32-byte NEON vectors (by build): an element is specified when both agree",
		"assumed from ATen cpu/vec (vec128 NEON, vec256); no Arm64 run")
	torchThreads = newOpenRule("pytorch.cpu.reduce.threads",
		"PyTorch CPU with several threads splits a reduction of 32768+ elements (GRAIN_SIZE): a single output's range (two_pass_reduction) or a strided reduction's column blocks; the order is not pinned",
		"ATen TensorIterator parallel_reduce; the oracle ran with one thread")
	torchCUDAReduce = newRule("pytorch.cuda.reduce.block",
		"PyTorch CUDA reduces in f32 (f64 for f64): along the fastest dim (up to 128 elements) block_width threads of four strided accumulators, then shared memory and a shuffle tree; a strided one (under 256 inputs) one thread per output",
		"oracle-01033 (1e308 where the CPU gives inf), oracle-01012; ATen Reduce.cuh")
	torchCUDAWidth = newOpenRule("pytorch.cuda.reduce.block-width",
		"PyTorch CUDA's block width for 32 < n <= 128 with many outputs is min(last_pow2(n), 512/block_height) (set_block_dimension), last_pow2(n) in the notes: specified when both agree",
		"ATen Reduce.cuh setReduceConfig (source, not verified)")
	torchCUDAUnpinned = newOpenRule("pytorch.cuda.reduce.unpinned",
		"PyTorch CUDA vectorizes and splits reductions of more than 128 contiguous (256 strided) elements per output: the order is not pinned",
		"reductions.md §5.2, §10.2")
	torchMPSReduce = newOpenRule("pytorch.mps.reduce.unpinned",
		"PyTorch MPS reduces through MPSGraph (order and accumulator unknown): only groups order-free in the dtype are specified",
		"no MPS run")
	numpyPairwiseSum = newRule("numpy.sum.pairwise",
		"NumPy sums a contiguous axis with pairwise_sum (f16 in f32, rounded once), a strided axis in order from 0 (f16 rounding every step)",
		"reductions.md §5.3 (NumPy 1.24 differential: 4000/4000 per seed); oracle-01033")
	numpyChunks = newOpenRule("numpy.sum.buffer-chunks",
		"NumPy's buffered iterator may call pairwise_sum per 8192-element chunk: specified when chunked and whole sums agree",
		"reductions.md §5.3 (not verified)")
	numpyStepRounding = newRule("numpy.reduce.sequential",
		"NumPy prod runs in order from 1 in the dtype (contiguous f16 in f32, rounded once); bf16 (ml_dtypes) sums and multiplies in order, rounding every step",
		"oracle-01012 (bf16 256), oracle-01015 (bf16 mean 85.5); reductions.md §5.3")
	jaxF16Upcast = newRule("jax.reduce.f16-upcast",
		"JAX sums and multiplies f16/bf16 in f32 (_upcast_f16) and rounds once; f32/f64 in the dtype",
		"oracle-01012 (bf16 258), oracle2-01040")
	jaxCPUOrder = newRule("jax.cpu.reduce.sequential",
		"XLA CPU reduces up to 32 elements per output in order from the init value",
		"oracle-01033 (x64: inf), oracle2-00947 (0.0); reductions.md §5.4")
	jaxLong = newOpenRule("jax.reduce.long-unpinned",
		"XLA may split reductions of more than 32 elements per output (tree-reduction rewriter, row emitter): the order is not pinned",
		"reductions.md §5.4, §5.5, §10.3")
	jaxGPUElemental = newRule("jax.gpu.reduce.elemental",
		"XLA GPU reduces a row of n < 32 with 32 % n != 0, or under 32 strided rows, with the elemental loop: in order from the init",
		"oracle-01033 jax/gpu-x64 (inf), oracle2-00277 (n = 6)")
	jaxGPUTree = newOpenRule("jax.gpu.reduce.shuffle-tree",
		"XLA GPU reduces one row of n in {1, 2, 4, ..., 32} with the multi-row emitter: lane t = init + x_t, shuffle-down offsets n/2 .. 1 (several rows may vectorize: not pinned)",
		"oracle2-00947 (GPU 9.25 = ((x0+x2)+(x1+x3))/4)")
)

// torchGrainSize is at::internal::GRAIN_SIZE.
const torchGrainSize = 32768

// sumPlan returns how the profile sums (or multiplies) output k's values
// of dtype d; mean selects mean's accumulation.
func (e *evaluation) sumPlan(prod, mean bool, d tensor.DType, g redGeom, k int) floatPlan {
	switch r := e.viewOrderRule(); {
	case r == nil:
		return e.layoutSumPlan(prod, mean, d, g, k)
	case e.p.Framework == NumPy:
		return e.numpyViewSumPlan(prod, mean, d, g)
	}
	return e.torchViewSumPlan(prod, mean, d, g, k)
}

// torchViewSumPlan is sumPlan for a PyTorch view not in row-major order:
// on the CPU the kernels' loops over TensorIterator's iteration
// (torchviewreduce.go); on CUDA and MPS only order-free groups.
func (e *evaluation) torchViewSumPlan(prod, mean bool, d tensor.DType, g redGeom, k int) floatPlan {
	if e.p.Device == CPU && g.numel > 0 {
		return e.torchCPUViewPlan(prod, mean, d, g, k)
	}
	p := e.layoutSumPlan(prod, mean, d, g, k)
	if p.open == nil {
		p.open, p.check = torchViewOrder, p.arith
	}
	return p
}

// numpyViewSumPlan is sumPlan for a NumPy view not in row-major order: the
// order its reduction iterator visits the elements in (npreduceiter.go).
// Along one dim, the plan of a contiguous axis when the reduced dim is the
// iterator's innermost, of a strided one otherwise; over every element,
// the iteration order in the loop calls the buffering setup gives.
func (e *evaluation) numpyViewSumPlan(prod, mean bool, d tensor.DType, g redGeom) floatPlan {
	x := e.c.Args[0].Tensor
	cast := mean && (d == tensor.F16 || !d.IsFloat()) // _mean sums f16 as f4, integers as f8
	if !d.IsFloat() {
		d = tensor.F64
	}
	if g.dim >= 0 && !g.zeroDim {
		p := numpySumPlan(prod, mean, d, g.n, npReducedInnermost(x.Shape, x.Strides, g.dim))
		p.rules = append(p.rules, numpyViewOrder)
		return p
	}
	p := numpySumPlan(prod, mean, d, g.n, true)
	p.rules = append(p.rules, numpyViewOrder)
	order, calls, oneAxis := npFullReduceOrder(x.Shape, x.Strides, cast)
	if oneAxis {
		// one strided axis: the calls of a contiguous array (numpy.sum.buffer-chunks)
		for i, o := range p.orders {
			p.orders[i] = permutedOrder(o, order)
		}
		return p
	}
	out := d
	if mean {
		out = opmath(d) // the sum's output is the f4 (f8) it is cast to
	}
	if d == tensor.BF16 {
		out = tensor.BF16
	}
	pairwise := p.orders[0].Name == NumPyPairwiseOrder.Name
	p.orders, p.unsure = []Order{NumPyIterOrder(order, calls, out, pairwise)}, nil
	return p
}

// layoutSumPlan is sumPlan for an input in row-major order.
func (e *evaluation) layoutSumPlan(prod, mean bool, d tensor.DType, g redGeom, k int) floatPlan {
	switch {
	case e.p.Framework == NumPy:
		if !d.IsFloat() {
			d = tensor.F64
		}
		return numpySumPlan(prod, mean, d, g.n, g.contiguous())
	case e.p.Framework == JAX:
		if mean {
			d = e.meanDType(d)
		}
		return e.jaxSumPlan(prod, d, g)
	case e.p.Device == CUDA:
		return cudaSumPlan(prod, d, g)
	case e.p.Device == MPS:
		a := Arith{prod, d}
		return floatPlan{arith: a, open: torchMPSReduce, check: a, negZero: true}
	}
	return e.torchCPUSumPlan(prod, mean, d, g, k)
}

// torchCPUSumPlan: cascade_sum or reduce_vec, at each vector width the
// CPU may run (and both f16 loads), unless threads may split the work.
func (e *evaluation) torchCPUSumPlan(prod, mean bool, d tensor.DType, g redGeom, k int) floatPlan {
	p := floatPlan{arith: Arith{false, opmath(d)}, unsure: torchCPUWidth, rules: []*Rule{torchCPUSum}}
	if prod {
		p.arith, p.rules = Arith{true, d}, []*Rule{torchCPUProd}
	}
	if g.numel >= torchGrainSize && (g.groups() == 1 || !g.contiguous()) {
		p.open, p.check = torchThreads, p.arith
		return p
	}
	widths := []int{64, 32}
	if e.p.Arch == Arm64 {
		widths, p.unsure = []int{16, 32}, torchArm64Width
	}
	elem := d
	if mean {
		elem = opmath(d) // mean converts f16/bf16 to f32 before summing
	}
	contig := g.contiguous()
	for _, w := range widths {
		if prod {
			p.orders = append(p.orders, TorchCPUProdOrder(w, d, contig))
			continue
		}
		p.orders = append(p.orders, TorchCPUSumOrder(w, elem, contig, k%g.inner, g.inner, true))
		if elem == tensor.F16 {
			p.orders = append(p.orders, TorchCPUSumOrder(w, elem, contig, k%g.inner, g.inner, false))
		}
	}
	return p
}

// cudaSumPlan: the block tree along the fastest dim, one thread per output
// otherwise, not pinned past 128 (256 strided) elements.
func cudaSumPlan(prod bool, d tensor.DType, g redGeom) floatPlan {
	p := floatPlan{arith: Arith{prod, opmath(d)}, unsure: torchCUDAWidth, rules: []*Rule{torchCUDAReduce}}
	switch {
	case g.contiguous() && g.n <= 128:
		for _, w := range cudaBlockWidths(g.n, g.groups()) {
			p.orders = append(p.orders, CUDABlockOrder(w))
		}
	case !g.contiguous() && g.n < 256:
		p.orders = []Order{CUDAThreadOrder}
	default:
		p.open, p.check = torchCUDAUnpinned, p.arith
	}
	return p
}

// numpySumPlan: pairwise along a contiguous axis, in order otherwise;
// bf16 and prod in order (d: f64 for the integer mean).
func numpySumPlan(prod, mean bool, d tensor.DType, n int, contig bool) floatPlan {
	seq := func(a Arith, r *Rule) floatPlan {
		return floatPlan{arith: a, orders: []Order{SequentialOrder}, rules: []*Rule{r}}
	}
	switch {
	case d == tensor.BF16:
		return seq(Arith{prod, d}, numpyStepRounding)
	case prod && d == tensor.F16 && contig:
		return seq(Arith{true, tensor.F32}, numpyStepRounding)
	case prod:
		return seq(Arith{true, d}, numpyStepRounding)
	case d == tensor.F16 && !mean && !contig:
		return seq(Arith{false, d}, numpyPairwiseSum)
	case !contig:
		return seq(Arith{false, opmath(d)}, numpyPairwiseSum)
	}
	p := seq(Arith{false, opmath(d)}, numpyPairwiseSum)
	p.orders[0], p.unsure = NumPyPairwiseOrder, numpyChunks
	if n > numpyBufferSize {
		out := d
		if mean {
			out = opmath(d)
		}
		p.orders = append(p.orders, NumPyChunkedOrder(out))
	}
	return p
}

// jaxSumPlan: XLA CPU in order up to 32 elements; XLA GPU by emitter.
func (e *evaluation) jaxSumPlan(prod bool, d tensor.DType, g redGeom) floatPlan {
	p := floatPlan{arith: Arith{prod, opmath(d)}, orders: []Order{SequentialOrder}}
	p.check = p.arith
	if d == tensor.F16 || d == tensor.BF16 {
		p.rules = append(p.rules, jaxF16Upcast)
	}
	n, inner := g.n, g.contiguous()
	switch {
	case e.p.Device == CPU && n <= 32:
		p.rules = append(p.rules, jaxCPUOrder)
	case e.p.Device == CPU:
		p.open = jaxLong
	case inner && n < 32 && 32%max(n, 1) != 0 || !inner && n < 32:
		p.rules = append(p.rules, jaxGPUElemental)
	case inner && n <= 32 && (g.groups() == 1 || n <= 2):
		p.orders, p.nsz = []Order{XLATreeOrder}, !prod
		p.rules = append(p.rules, jaxGPUTree)
	case inner && n <= 32:
		p.open, p.nsz = jaxGPUTree, !prod
	default:
		p.open, p.nsz = jaxLong, !prod
	}
	return p
}
