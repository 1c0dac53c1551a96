package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// PyTorch CPU's float sum, prod and mean of a view that is not in
// row-major order, as its kernels run over TensorIterator's iteration
// (torchiter.go): parallel_reduce hands the loop one 2-d block (the two
// fastest dims) per position of the other dims, in order, and the kernel
// picks its loop from the block's strides. Each output accumulates what
// the blocks give it (the output is filled with the identity first and
// each store adds or multiplies into it). Per output this is a list of
// touches: a kernel over some of its elements, in the kernel's order.

var (
	torchViewIter = newRule("pytorch.cpu.reduce.view-iterator",
		"on the CPU a float sum, prod or mean of a view not in row-major order runs its kernel over TensorIterator's iteration: the view's strides (a slice multiplies the stride by its step, expand gives a broadcast dim stride 0), the output contiguous with stride 0 on the reduced dims; reorder_dimensions insertion-sorts the dims fastest first, the output's strides deciding before the input's (reduced dims first; the kept ones in the result's order; equal strides put the larger dim later; a zero stride is ambiguous and passes), coalesce_dimensions merges neighbours whose strides chain in both; parallel_reduce (under GRAIN_SIZE elements) calls the 2-d loop once per position of the dims after the first two, in order. cascade_sum moves a reduced dim 1 first, then per block: no reduced dim: out + x; input stride 1 along the reduced dim and size0 >= vec: vectorized_inner_sum per row; input stride 1 along dim 1 and size1 >= vec: vectorized_outer_sum (columns in whole blocks of 4 vectors of the accumulator: multi_row_sum's cascade, the rest row_sum); a smaller input stride along the reduced dim: scalar_inner_sum (row_sum); else scalar_outer_sum (columns in groups of 4: the cascade, the rest row_sum); each row or column's sum is added to its output, in column order where several share it. prod's binary_kernel_reduce_vec: input stride 1 along the reduced dim: vectorized_inner_reduction (reduction128 over whole blocks of 4 vectors, then the rest in order), else in order",
		"pytorch c30d1cc7 aten/src/ATen/TensorIterator.cpp reorder_dimensions (should_swap, the insertion sort), compute_strides, coalesce_dimensions, serial_for_each, DimCounter::max_2d_step; aten/src/ATen/native/ReduceOpsUtils.h review_reduce_result (stride 0 inserted), resize_reduction (contiguous result); pytorch 018dc419 aten/src/ATen/native/cpu/SumKernel.cpp cascade_sum, vectorized_inner_sum, vectorized_outer_sum, scalar_inner_sum, scalar_outer_sum, CastStoreAccumulate; pytorch 02560b86 aten/src/ATen/native/cpu/Reduce.h binary_kernel_reduce_vec (is_contiguous_reduction, vectorized_inner_reduction, vectorized_outer_reduction, basic_loop); PyTorch 1.13 (Debian, AVX2, one thread) checked locally on 2100 random views (ranks 1 to 5; permuted, stepped with gaps, broadcast, new leading dims; f32/f64/f16/bf16 sum, prod, mean, with and without dim and keepdim, a quarter with a dtype argument): of 194594 result elements the model gives 188769, every one equal to PyTorch's, and leaves 5825 to pytorch.cpu.reduce.vector-width; of the 3382 elements where the view's result differs from v.contiguous()'s it gives 2789, all equal (the rule before this one gave 40074 of the elements as \"?\"); cases in corpus/fidelity/pytorch-view-reduce.jsonl")
	torchConvertedView = newRule("pytorch.cpu.reduce.converted-view",
		"on the CPU a reduction that converts its input first (an f16/bf16 mean sums self.to(f32), a dtype argument D other than the input's reduces self.to(D)) reduces a copy: _to_copy with MemoryFormat::Preserve keeps self's strides when it is non-overlapping and dense, else gives it infer_dense_strides (the dims sorted by stride as TensorIterator sorts them, dense in that order), any rank; the copy is then reduced by pytorch.cpu.reduce.view-iterator",
		"pytorch ReduceOpsUtils.h make_reduction (self.scalar_type() == in_dtype ? self : self.to(in_dtype)); pytorch 52881c80 aten/src/ATen/native/ReduceOps.cpp mean_out (CPU: sum_out in f32 for f16/bf16, div_); TensorConversions.cpp _to_copy (is_non_overlapping_and_dense: empty_strided(self.strides()), else infer_dense_strides); pytorch 18162424 aten/src/ATen/ExpandUtils.cpp infer_dense_strides; c10/core/Contiguity.h _compute_non_overlapping_and_dense; PyTorch 1.13 checked locally: v.permute(1, 0)[::2].half().stride() keeps the permutation, a 4-d copy too ((60, 10, 1, 20) -> (30, 5, 1, 10)); of the 2100 random views of pytorch.cpu.reduce.view-iterator, 370 converted ones (154 of 4 or 5 dims): 32444 elements given, all equal, 773 left to the vector width (the rule before this one copied a permuted view that is not dense contiguous: 3 elements wrong)")
	torchAccBufferView = newRule("pytorch.cpu.sum.acc-buffer",
		"on the CPU an f16/bf16 sum over every dim of a view (of that dtype: a dtype argument that converts reduces a dense copy, whose dims coalesce into one) whose iteration keeps 2 or more dims (should_use_acc_buffer: the 2-d loop's output strides are both 0) sums self.to(Float), laid out by pytorch.cpu.reduce.converted-view, into an f32 buffer by pytorch.cpu.reduce.view-iterator and copies it to the result (one rounding)",
		"pytorch 52881c80 aten/src/ATen/native/ReduceOps.cpp should_use_acc_buffer, TORCH_IMPL_FUNC(sum_out) (pytorch/pytorch#83149); not in PyTorch 1.13, which adds into the f16/bf16 output per row: checked locally against 1.13's v.float().sum() rounded to the dtype, the same computation (52 of the 2100 random views: 17 elements given, all equal, 35 left to the vector width; 14 elements differ from 1.13's own f16/bf16 result)")
)

// torchKern is the loop that reduces one touch.
type torchKern uint8

const (
	tkInner   torchKern = iota // vectorized_inner_sum of a row
	tkRow                      // row_sum: scalar_inner_sum, and the columns past the cascade's blocks
	tkCascade                  // one column of multi_row_sum: vectorized_outer_sum's blocks, scalar_outer_sum's groups of 4
	tkAdd                      // not a true reduction: out + x
	tkProdVec                  // vectorized_inner_reduction: reduction128, then in order
	tkProdSeq                  // basic_loop: out * x in order
)

// torchTouch is one kernel's work on one output: its elements, as
// positions in the output's group, in the kernel's order.
type torchTouch struct {
	kern torchKern
	pos  []int
}

// torchLoops returns each output's touches when the kernels run over dims
// with vec elements per vector of the input dtype and lanes per vector of
// the accumulator.
func torchLoops(dims []torchIterDim, g redGeom, prod bool, vec, lanes int) [][]torchTouch {
	outs := make([][]torchTouch, g.groups())
	pad := torchIterDim{n: 1, at: []int{0}}
	d0, d1 := pad, pad
	var outer []torchIterDim
	switch len(dims) {
	case 0:
	case 1:
		d0 = dims[0]
	default:
		d0, d1, outer = dims[0], dims[1], dims[2:]
	}
	posOf := func(l int) int {
		if g.dim < 0 || g.zeroDim {
			return l
		}
		return l / g.inner % g.n
	}
	buf := make([]int, 0, g.numel)
	block := func(at, out int) {
		s0, s1 := d0, d1
		if !prod && s0.out != 0 && s1.out == 0 {
			s0, s1 = s1, s0 // cascade_sum moves the reduction to the first dim
		}
		if s0.out != 0 { // no reduced dim in the block: each element into its own output
			kern := tkAdd
			if prod {
				kern = tkProdSeq
			}
			for j := range s1.n {
				for i := range s0.n {
					k := out + i*s0.out + j*s1.out
					buf = append(buf, posOf(at+s1.at[j]+s0.at[i]))
					outs[k] = append(outs[k], torchTouch{kern, buf[len(buf)-1:]})
				}
			}
			return
		}
		for j := range s1.n {
			lo := len(buf)
			for i := range s0.n {
				buf = append(buf, posOf(at+s1.at[j]+s0.at[i]))
			}
			k := out + j*s1.out
			outs[k] = append(outs[k], torchTouch{torchPickLoop(s0, s1, j, prod, vec, lanes), buf[lo:]})
		}
	}
	idx := make([]int, len(outer))
	for {
		at, out := 0, 0
		for i, d := range outer {
			at += d.at[idx[i]]
			out += idx[i] * d.out
		}
		block(at, out)
		i := 0
		for ; i < len(outer); i++ {
			if idx[i]++; idx[i] < outer[i].n {
				break
			}
			idx[i] = 0
		}
		if i == len(outer) {
			return outs
		}
	}
}

// torchPickLoop is the loop that reduces row (or column) j of a block
// whose first dim s0 is reduced.
func torchPickLoop(s0, s1 torchIterDim, j int, prod bool, vec, lanes int) torchKern {
	switch {
	case prod && s0.in == 1:
		return tkProdVec
	case prod:
		return tkProdSeq // vectorized_outer_reduction and basic_loop: in order along each column
	case s0.in == 1 && s0.n >= vec:
		return tkInner
	case s1.in == 1 && s1.n >= vec:
		if j < s1.n/(4*lanes)*4*lanes {
			return tkCascade
		}
		return tkRow
	case s0.in < s1.in:
		return tkRow
	case j < s1.n/4*4:
		return tkCascade
	}
	return tkRow
}

// torchTouchOrder reduces one output's touches in turn into its value,
// which starts at the identity.
func torchTouchOrder(ts []torchTouch, vec, lanes int, load torchLoad) Order {
	return Order{"pytorch-cpu-iterator", func(xs []float64, a Arith) float64 {
		out := a.Identity()
		var ys []float64
		for _, t := range ts {
			ys = ys[:0]
			for _, p := range t.pos {
				ys = append(ys, xs[p])
			}
			switch t.kern {
			case tkInner:
				out = a.Op(out, vectorizedInnerSum(ys, vec, lanes, load, a))
			case tkRow:
				out = a.Op(out, rowSum(ys, a))
			case tkCascade:
				out = a.Op(out, cascadeSum(ys, a))
			case tkAdd:
				out = a.Op(out, ys[0])
			case tkProdVec:
				out = prodReduce128(ys, out, vec, a)
			default:
				out = redFold(ys, out, a)
			}
		}
		return out
	}}
}

// torchViewKey identifies the reduction a torchViewPlans was built for.
type torchViewKey struct {
	x                *tensor.Tensor
	dim              int
	prod, mean, keep bool
	converted        bool // a dtype argument converted the input
	d                tensor.DType
}

// torchViewPlans is what every output of one reduction of a view shares:
// the arithmetic, the rules, and per candidate vector width (and f16
// load) each output's touches.
type torchViewPlans struct {
	key     torchViewKey
	arith   Arith
	rules   []*Rule
	threads bool
	cands   []torchViewCand
}

type torchViewCand struct {
	vec, lanes int
	load       torchLoad
	outs       [][]torchTouch
}

// torchCPUViewPlan is sumPlan for a PyTorch CPU view not in row-major
// order: output k's touches at each vector width the CPU may run.
func (e *evaluation) torchCPUViewPlan(prod, mean bool, d tensor.DType, g redGeom, k int) floatPlan {
	x := e.c.Args[0].Tensor
	key := torchViewKey{x, g.dim, prod, mean, e.c.Attrs.KeepDim(), e.dt != nil && e.dt.cast, d}
	if e.tview == nil || e.tview.key != key {
		e.tview = e.torchViewPlans(key, g)
	}
	v := e.tview
	p := floatPlan{arith: v.arith, unsure: torchCPUWidth, rules: v.rules}
	if e.p.Arch == Arm64 {
		p.unsure = torchArm64Width
	}
	if v.threads {
		p.open, p.check = torchThreads, p.arith
		return p
	}
	for _, c := range v.cands {
		p.orders = append(p.orders, torchTouchOrder(c.outs[k], c.vec, c.lanes, c.load))
	}
	return p
}

// torchViewPlans builds the plans of key's reduction over g.
func (e *evaluation) torchViewPlans(key torchViewKey, g redGeom) *torchViewPlans {
	x := key.x
	elem := key.d // the dtype the iterator's input has
	converted := key.mean && isHalf(elem) || key.converted
	if key.mean && isHalf(elem) {
		elem = tensor.F32
	}
	v := &torchViewPlans{key: key, arith: Arith{false, opmath(elem)}, rules: []*Rule{torchCPUSum, torchViewIter}}
	if key.prod {
		v.arith, v.rules[0] = Arith{true, elem}, torchCPUProd
	}
	if g.numel >= torchGrainSize {
		v.threads = true
		return v
	}
	shape, strides := torchViewLayout(x.View)
	if converted {
		strides = torchCopyStrides(shape, strides)
		v.rules = append(v.rules, torchConvertedView)
	}
	dim := g.dim
	if g.zeroDim {
		dim = -1
	}
	dims := torchReduceIter(shape, strides, dim, key.keep)
	if !key.prod && !converted && isHalf(elem) && len(dims) >= 2 && dims[0].out == 0 && dims[1].out == 0 {
		elem = tensor.F32
		dims = torchReduceIter(shape, torchCopyStrides(shape, strides), dim, key.keep)
		v.rules = append(v.rules, torchAccBufferView)
	}
	widths := []int{64, 32}
	if e.p.Arch == Arm64 {
		widths = []int{16, 32}
	}
	for _, w := range widths {
		vec, lanes := w/(elem.Bits()/8), w/(v.arith.Prec.Bits()/8)
		outs := torchLoops(dims, g, key.prod, vec, lanes)
		switch {
		case key.prod || elem != tensor.F16 && elem != tensor.BF16:
			v.cands = append(v.cands, torchViewCand{vec, lanes, loadPlain, outs})
		case elem == tensor.F16:
			v.cands = append(v.cands, torchViewCand{vec, lanes, loadPairs, outs}, torchViewCand{vec, lanes, loadHalves, outs})
		default:
			v.cands = append(v.cands, torchViewCand{vec, lanes, loadHalves, outs})
		}
	}
	return v
}
