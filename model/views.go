package model

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// Views (case format, added 2026-12): an input built from its storage with
// the framework's own view ops. PyTorch and NumPy keep the view (the
// kernels read the strided layout); JAX has value semantics (the view is
// the contiguous array of its elements); candle builds it with narrow,
// permute and broadcast_as, which have no step; burn with slice (steps
// included), permute and expand; tenferro's view ops are not stated.

var (
	torchView = newRule("pytorch.view",
		"a view input is built with t.permute(..), t[start:stop:step] and t.expand(..) on the storage tensor: a strided tensor sharing its storage, which every op reads element by element; kernels follow the strides",
		"spec/case-format.md §Views; PyTorch docs, Tensor Views (permute, slicing with a step, expand return views)")
	numpyView = newRule("numpy.view",
		"a view input is built with np.transpose(a, perm), a[start:stop:step] and np.broadcast_to(a, shape) on the storage array: a strided view sharing its storage (broadcast_to with zero strides), which every op reads element by element",
		"spec/case-format.md §Views; NumPy docs, Copies and views (basic slicing, transpose and broadcast_to return views)")
	jaxView = newRule("jax.view.value-semantics",
		"JAX arrays are values: jnp.transpose, slicing and jnp.broadcast_to return new arrays, so a view input behaves as the contiguous array of its elements",
		"spec/case-format.md §Views (JAX has value semantics); JAX docs, Sharp bits (arrays are immutable, indexing returns copies)")
	candleView = newRule("candle.view",
		"a view input is built with permute, narrow (a contiguous range of one dim) and broadcast_as on the storage tensor: the same storage with a new layout (start offset, strides; 0 for broadcast dims)",
		"candle 2a13b0f3: candle-core/src/tensor.rs:880-916 (narrow: layout().narrow, storage shared), :2321-2345 (permute), :2451-2467 (broadcast_as / expand)")
	candleNoStep = newRule("candle.view.no-strided-slice",
		"candle has no strided slice: narrow takes a start and a length, and no Tensor method takes a step, so a view slicing with step > 1 has no spelling (does not compile)",
		"candle 2a13b0f3: candle-core/src/tensor.rs:880 (narrow(dim, start, len)); spec/case-format.md §Views (candle has no strided slice)")
	candleCPUIndexContiguous = newRule("candle.cpu.index-select.requires-contiguous",
		"on the CPU, index_select of a source that is not contiguous (candle's is_contiguous: row-major strides, a size-1 dim's stride free, the offset free) is an Err \"index-select only supports contiguous tensors\", after the ids dtype check and before any id is read",
		"candle 2a13b0f3: candle-core/src/cpu_backend/mod.rs:724-729 (IndexSelect::f: contiguous_offsets() or Error::RequiresContiguous), candle-core/src/error.rs:148-149")
	candleViewCumsum = newRule("candle.view.cumsum-layout",
		"candle's cumsum is a matmul of the transposed input with a triangular matrix; which layouts of a non-contiguous input the CPU and Metal matmuls accept (MatMulNonContiguous) is not stated here",
		"candle 2a13b0f3: candle-core/src/tensor.rs cumsum (transpose, matmul); not modeled").silent()
	burnView = newRule("burn.view",
		"a view input is built with slice (s![start..stop;step], zero-copy in Flex for a positive step), permute and expand on the storage tensor; ops read the elements through the layout",
		"burn 2c06be35 crates/burn-flex/src/ops/slice.rs:10-23 (positive steps: metadata only), crates/burn-std/src/tensor/slice.rs:88-124 (s![range;step]); burn-tensor api permute, expand")
	rustViewHostData = newRule("rust.view.host-data",
		"from_vec takes host data (a Rust Vec); a view is a tensor built by view ops, not a Vec, so from_vec of a view does not compile",
		"spec/case-format.md §Views (views are built with the framework's view ops) and the op catalog (from_vec: the host data)")
	tfView = newRule("tenferro.view.unspecified",
		"tenferro's view ops (permute, broadcast, slicing) and the layouts its kernels accept are not stated by the seed or the source facts (the pinned snapshot is an API skeleton)",
		"source-facts.md (tenferro snapshot 008f1bbd: TensorView::permute/broadcast are stubs); not modeled").silent()
	torchViewOrder = newOpenRule("pytorch.reduce.view-order",
		"a float sum, prod or mean of a view whose elements are not in row-major order in memory (permuted, sliced with a step, expanded): only order-free groups are specified. The order is fixed by the source but not reproduced here yet: TensorIterator's reorder_dimensions moves the reduced dims to the front (the output's stride 0), orders the rest by the output's strides (allocated contiguous in the view's order) and then the input's, and SumKernel picks the inner or outer cascade from the reordered strides; so a permuted dense view reduces as its storage does along the mapped dim only when the kept dims of size > 1 keep their storage order, and a stepped slice or an expand changes the vectorized paths",
		"pytorch c30d1cc7 aten/src/ATen/TensorIterator.cpp reorder_dimensions (should_swap: is_reduction_ && is_output moves reduced dims first; strides compared operand by operand, output first), aten/src/ATen/native/cpu/SumKernel.cpp cascade_sum (in_strides[0] == sizeof: vectorized inner, in_strides[1]: vectorized outer, else scalar inner/outer by stride); cuda/Reduce.cuh (fastest-moving dim); not modeled")
	numpyViewOrder = newOpenRule("numpy.reduce.view-order",
		"a float sum, prod or mean of a view whose elements are not in row-major order in memory: only order-free groups are specified. The order is fixed by the source but not reproduced here yet: the reduction's iterator sorts the axes by the input's strides (the output, allocated afterwards in the iterator's order, takes no part), so a permuted dense view reduces exactly as its storage does along the mapped axes, the innermost of them the pairwise_sum loop; a stepped slice makes the inner loop strided (no pairwise sum), and an expand gives stride-0 axes",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/nditer_constr.c:2661 npyiter_find_best_axis_ordering (axes sorted by stride, stride-0 operands ambiguous), :396 (coalescing); numpy/_core/src/umath/reduction.c:197, :228-232 (out NULL, NPY_ITER_ALLOCATE: the result follows the iterator order); numpy/_core/src/umath/loops_utils.h.src pairwise_sum (the inner reduce loop); not modeled")
)

// hasView reports whether some tensor argument of c is a view.
func hasView(c *tensor.Case) bool {
	for _, a := range c.Args {
		if a.Tensor != nil && a.Tensor.View != nil {
			return true
		}
	}
	return false
}

// views decides what the profile makes of the case's view inputs before
// the op runs: no spelling (an outcome, done), or the case the op sees.
func (e *evaluation) views() (tensor.Outcome, bool) {
	c := e.c
	if !hasView(c) {
		return tensor.Outcome{}, false
	}
	op := e.op()
	switch e.p.Framework {
	case PyTorch:
		e.use(torchView)
	case NumPy:
		e.use(numpyView)
	case JAX:
		e.use(jaxView)
		d := *c
		d.Args = make([]tensor.Arg, len(c.Args))
		for i, a := range c.Args {
			d.Args[i] = a
			if a.Tensor != nil && a.Tensor.View != nil {
				d.Args[i].Tensor = a.Tensor.Clone()
			}
		}
		e.c = &d
	case Candle, Burn:
		if op.Class == tensor.ClassFromVec {
			return e.unsupported(rustViewHostData, "from_vec takes a Vec, not a view"), true
		}
		for _, a := range c.Args {
			v := viewOf(a)
			switch {
			case v == nil:
			case e.p.Framework == Candle && steppedSlice(v):
				return e.unsupported(candleNoStep, "candle has no strided slice (step > 1): %s", v), true
			case e.p.Framework == Burn && len(v.Base) == 0:
				return e.unsupported(burnNoRank0, "burn has no rank-0 tensors (the view's storage)"), true
			}
		}
		if e.p.Framework == Burn {
			e.use(burnView)
			break
		}
		e.use(candleView)
		if op.Class == tensor.ClassCumsum && !candleLayoutContiguous(c.Args[0].Tensor) {
			return e.unsupported(candleViewCumsum, "tfuzz: not modeled: candle cumsum of a non-contiguous view"), true
		}
	case Tenferro:
		return e.unsupported(tfView, "tfuzz: unspecified for tenferro: a view input"), true
	}
	return tensor.Outcome{}, false
}

func viewOf(a tensor.Arg) *tensor.View {
	if a.Tensor == nil {
		return nil
	}
	return a.Tensor.View
}

// steppedSlice reports whether the view slices some dim with a step > 1.
func steppedSlice(v *tensor.View) bool {
	for _, s := range v.Slice {
		if s[2] > 1 {
			return true
		}
	}
	return false
}

// rowMajorLayout reports whether t's elements lie in storage in row-major
// order with the row-major gaps (any offset; a dim of size 0 or 1 takes any
// stride): contiguous, or a slice that keeps whole trailing dims. Kernels
// then visit them as they would a contiguous tensor's.
func rowMajorLayout(t *tensor.Tensor) bool {
	return t.Strides == nil || candleStridesContiguous(t.Shape, t.Strides)
}

// viewOrderRule is the rule that unpins a float reduction's order over the
// case's input when its layout is not row-major (nil: the layout does not
// change the order).
func (e *evaluation) viewOrderRule() *Rule {
	if len(e.c.Args) == 0 || e.c.Args[0].Tensor == nil || rowMajorLayout(e.c.Args[0].Tensor) {
		return nil
	}
	switch e.p.Framework {
	case PyTorch:
		return torchViewOrder
	case NumPy:
		return numpyViewOrder
	}
	return nil
}
