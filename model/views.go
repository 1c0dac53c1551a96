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
		"a float sum, prod or mean of a view not in row-major order on CUDA or MPS: only order-free groups are specified (Reduce.cuh picks its block from the fastest-moving dim of the same TensorIterator order the CPU uses, pytorch.cpu.reduce.view-iterator, but its thread and vector split for strided inputs is not reproduced here; MPS reduces through MPSGraph). On the CPU the order is pinned (pytorch.cpu.reduce.view-iterator), except across threads (pytorch.cpu.reduce.threads) and where the CPU's vector widths disagree (pytorch.cpu.reduce.vector-width)",
		"pytorch aten/src/ATen/native/cuda/Reduce.cuh (setReduceConfig: the fastest-moving dim, vectorization); not modeled for views")
	numpyViewOrder = newRule("numpy.reduce.view-order",
		"a float sum, prod or mean of a view not in row-major order reduces in the order NumPy's reduction iterator visits it: the axes sorted fastest first by the input's strides (a stable insertion sort; size-1 and broadcast axes, stride 0, are ambiguous and stay unless an axis moves past them; the result, allocated afterwards, takes no part), then coalesced. Along one dim: when the reduced dim is the innermost iterated axis each output is 0 + pairwise_sum of its row (the contiguous-axis plan), else every element is added in index order by the elementwise loop (the strided-axis plan, f16 rounding every step). Over every element: the iteration order, cut into loop calls by the buffering setup (one call over a coalesced 1-D iteration; an input that does not run in one stride is copied into the 8192-element buffer: calls of coresize*(8192/coresize) elements when the core grows, else one per innermost row), out = R(out + pairwise_sum(call)) (prod: out folded on in order, f16 in f32 per call; bf16 in order)",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/nditer_constr.c:2661-2790 npyiter_find_best_axis_ordering, :296-306 (sorted before the output is allocated), :2005-2328 npyiter_find_buffering_setup (cost, coresize, best_size capped to a multiple of the core); nditer_api.c:1644-1710 npyiter_coalesce_axes, :2101-2136 npyiter_copy_to_buffers (transfersize within the outer axis); numpy/_core/src/umath/reduction.c:215-234 (BUFFERED, EXTERNAL_LOOP, GROWINNER, DONT_NEGATE_STRIDES), ufunc_object.c:2494-2513 reduce_loop, :2534-2620 try_reduce_contiguous (1-D or C/F-contiguous full reductions: one call); loops.c.src:1624-1647 (HALF add/multiply: a reduce call in float, stored once), loops_utils.h.src pairwise_sum; NumPy 1.24 checked locally where the versions agree (corpus/fidelity/numpy-view-reduce.jsonl)")
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
