package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// cumsum of PyTorch, NumPy and JAX: a.cumsum(dim), np.cumsum(a, axis),
// jnp.cumsum(a, axis); without a dim see pyCumsumFlat. The result has the input's
// shape; integers wrap in the result dtype (JAX keeps the input's integer
// dtype, the others widen to 64 bits); floats differ in the accumulator
// (PyTorch CPU: f64 for f32, f32 for f16/bf16) and in the first element
// (NumPy copies it, so a -0 survives).

var (
	pyCumsumShape = newRule("python.cumsum.shape",
		"cumsum keeps the input's shape (NumPy gives shape [1] for a 0-dim input, PyTorch a 0-dim result) and runs along dim, 0 when absent; an empty input gives an empty result",
		"oracle2-00018, oracle2-01263, oracle2-00302, oracle2-00639, oracle2-00992")
	jaxCumsumDType = newRule("jax.cumsum.keep-int-dtype",
		"JAX cumsum keeps an integer dtype and wraps in it (u8 [200, 100] -> [200, 44]); only bool becomes the default int (i32 x32, i64 x64)",
		"oracle-00943, oracle-00957, oracle-00964, oracle-00971 (i32 stays i32 in x64), oracle2-01401")
	pyCumsumInt = newRule("python.cumsum.int-wrap",
		"integer cumsum stores the running sum modulo 2^bits of the result dtype at every position, without a warning",
		"oracle-00943, oracle-00985, oracle2-01503; seed 004 (i32 cumsum -> i64)")
	torchCPUCumsum = newRule("pytorch.cpu.cumsum.wide-acc",
		"PyTorch CPU cumsum accumulates in order from +0 in at::acc_type<T, false> (f64 for f32 and f64, f32 for f16/bf16), each output rounded to the dtype",
		"oracle-01020 (f32 [2^24, 1, 1] -> 16777218), oracle-01013 (bf16 -> 258); reductions.md §7")
	torchCUDACumsum = newOpenRule("pytorch.cuda.cumsum.dtype",
		"PyTorch CUDA cumsum adds in the dtype (f16/bf16 rounded every step) from +0: in order along a strided dim (scan_outer_dim); along the fastest dim (CUB scan of one row, a tree across threads for many rows) the first three outputs are in order and later ones are specified only when order-free; whether an output of only -0 keeps its sign is not pinned",
		"oracle-01013, oracle-01020, oracle-01034, oracle2-00324; reductions.md §7, §10.2, §10.4")
	torchMPSCumsum = newOpenRule("pytorch.mps.cumsum.unpinned",
		"PyTorch MPS cumsum runs MPSGraph's cumulative sum, whose order and accumulator are unknown: an output is specified when its prefix is order-free in the dtype (and not all -0)",
		"no MPS run")
	numpyCumsum = newRule("numpy.cumsum.sequential",
		"NumPy cumsum copies the first element (a -0 survives) and adds each next one in order in the dtype, f16 and bf16 rounding at every step",
		"oracle-01013, oracle-01020, oracle-01034, oracle2-00992; NumPy 1.24 checked for f16 (reductions.md §7)")
	jaxHalfCumsumZero = newOpenRule("jax.cumsum.half-zero-sign",
		"JAX's f16/bf16 cumsum: whether an output whose prefix holds only -0 is +0 or -0 is not pinned. JAX's source fixes +0: cumsum lowers on every platform to reduce_window_sum from an init of 0 with the window padded by n-1 init values (the GPU lowering's chlo.scan path is disabled: _is_supported_cumred returns False; associative_scan serves only the JVPs of cumprod, cummin, cummax and cumlogsumexp, cumsum being linear), and f16/bf16 are not upcast (_cumulative_reduction converts to the input's dtype), so +0 + -0 = +0 in the dtype. Issue 13 reports recorded outcomes that depart from that; the visible oracle (corpus/oracle) holds no JAX f16/bf16 cumsum of a -0, so the departure, which would come from XLA's HLO passes on half-precision reduce windows (not in JAX's source), cannot be stated from evidence here: unspecified",
		"jax jax-v0.11.0 jax/_src/lax/control_flow/loops.py:2993-3022 (_is_supported_cumred: return False; _cumred_gpu_lowering falls back to cumred_reduce_window_impl), :3064-3075 (cumred_reduce_window_impl: padding (n-1, 0)), :3099-3115 (the default lowering; ad.deflinear2 for cumsum), :3127-3139 (associative_scan only in _cumulative_jvp_rule of the other four), :3146-3155 (platform='gpu'); jax/_src/lax/windowed_reductions.py:696-697 (init value 0); jax/_src/numpy/reductions.py:2033-2083 (_cumulative_reduction: no _upcast_f16); issue 13")
	jaxCumsum = newOpenRule("jax.cumsum.reduce-window",
		"JAX cumsum (lax.cumsum, reduce_window) adds in order from +0 in the dtype, f16/bf16 not upcast; XLA may rewrite windows of more than 32 elements, where an output is specified only when its prefix is order-free",
		"oracle-01013, oracle-01020, oracle-01034, oracle2-00324, oracle2-00992; reductions.md §7, §10.3")
)

// pyCumsum evaluates cumsum.
func (e *evaluation) pyCumsum() tensor.Outcome {
	e.dt = nil // a program's earlier step may have set it
	x := e.input(e.c.Args[0].Tensor)
	if out, failed := e.pyReduceInputCheck(x); failed {
		return out
	}
	dim := 0
	if e.c.Attrs.Dim != nil {
		dim = *e.c.Attrs.Dim
	}
	if e.c.Attrs.DType.Valid() {
		if out, failed := e.pyDTypeArgCheck(x); failed {
			return out
		}
	}
	d, zeroDim, out, failed := e.pyReduceDim(dim, x.Rank(), true)
	if failed {
		return out
	}
	e.use(pyCumsumShape)
	shape := x.Shape
	g := newRedGeom(shape, d, true)
	if zeroDim {
		g = newRedGeom(shape, -1, false)
		if e.p.Framework == NumPy {
			shape = []int{1}
		}
	}
	if e.p.Device == MPS && isBarebonesUnsigned(x.DType) && g.numel > 0 {
		return e.fail(torchMPSWideUnsigned, tensor.UnsupportedDType, "RuntimeError: Failed to create function state object for: cumsum_%s", pyName(x.DType))
	}
	if e.c.Attrs.DType.Valid() {
		if x, out, failed = e.pyDTypeArg(x, g.numel); failed {
			return out
		}
	}
	res := tensor.New(e.cumsumDType(x.DType), shape...)
	for k := range g.groups() {
		switch {
		case res.DType == tensor.Bool:
			e.cumsumAny(x, res, g, k)
		case !res.DType.IsFloat():
			e.cumsumInt(x, res, g, k)
		default:
			vals, ok := e.cumsumFloat(g.floats(x, k), x.DType, g.contiguous())
			for j, v := range vals {
				e.setReduced(res, g.at(k, j), v, ok[j])
			}
		}
		e.cumsumUnspecified(res, g, k)
	}
	return tensor.ValueOutcome(res)
}

// cumsumDType is the result dtype of cumsum of dtype d.
func (e *evaluation) cumsumDType(d tensor.DType) tensor.DType {
	if e.dt != nil {
		return e.dt.result
	}
	if e.p.Framework != JAX || d == tensor.Bool {
		if e.p.Framework == JAX {
			e.use(jaxCumsumDType)
		}
		return e.sumDType(d)
	}
	if !d.IsFloat() {
		e.use(jaxCumsumDType)
	}
	return d
}

// cumsumInt stores the wrapped running sums of output group k.
func (e *evaluation) cumsumInt(x, res *tensor.Tensor, g redGeom, k int) {
	e.use(pyCumsumInt)
	acc := uint64(0)
	for j := range g.n {
		i := g.at(k, j)
		acc += uint64(x.Int(i))
		res.SetInt(i, int64(wrapInt(acc, res.DType)))
	}
}

// cumsumAny stores the running "any" of output group k (a bool dtype
// argument: logical or, or a count converted to bool).
func (e *evaluation) cumsumAny(x, res *tensor.Tensor, g redGeom, k int) {
	v := false
	for j := range g.n {
		i := g.at(k, j)
		v = v || isNonzero(x, i)
		res.SetBool(i, v)
	}
}

// cumsumUnspecified marks the running sums after an input element that the
// dtype argument's conversion left unspecified.
func (e *evaluation) cumsumUnspecified(res *tensor.Tensor, g redGeom, k int) {
	from := g.n
	for j := range g.n {
		if e.dtypeArgUnspecified(g.at(k, j)) {
			from = j
			break
		}
	}
	for j := from; j < g.n; j++ {
		res.SetUnspecified(g.at(k, j))
	}
}

// cumsumFloat returns the running sums of xs (values of dtype d, along a
// contiguous dim or not) before the rounding to d, and which are specified.
func (e *evaluation) cumsumFloat(xs []float64, d tensor.DType, contiguous bool) ([]float64, []bool) {
	out := make([]float64, len(xs))
	ok := make([]bool, len(xs))
	a := Arith{false, d}
	copyFirst := false
	pinned := len(xs) // outputs before this position are in order
	signKnown := true // the sign of an all -0 prefix is pinned
	halfZero := false // JAX f16/bf16: that sign is not pinned (jaxHalfCumsumZero)
	switch {
	case e.p.Framework == NumPy:
		e.use(numpyCumsum)
		copyFirst = true
	case e.p.Framework == JAX:
		e.use(jaxCumsum)
		pinned = 32
		halfZero = d == tensor.F16 || d == tensor.BF16
	case e.p.Device == CUDA:
		e.use(torchCUDACumsum)
		if contiguous {
			pinned = 3
		}
		signKnown = false
	case e.p.Device == MPS:
		e.use(torchMPSCumsum)
		pinned, signKnown = 0, false
	default:
		e.use(torchCPUCumsum)
		a.Prec = opmath(d)
		if d == tensor.F32 {
			a.Prec = tensor.F64
		}
	}
	free := newOrderFree(Arith{false, d})
	acc, allNegZero := 0.0, true
	for j, x := range xs {
		if j == 0 && copyFirst {
			acc = x
		} else {
			acc = a.Op(acc, x)
		}
		out[j] = acc
		free.add(x)
		allNegZero = allNegZero && x == 0 && math.Signbit(x)
		inOrder := j < pinned || free.free()
		ok[j] = inOrder && (signKnown || !allNegZero) && !(halfZero && allNegZero)
		switch {
		case halfZero && allNegZero:
			e.use(jaxHalfCumsumZero)
		case inOrder && j >= pinned:
			e.use(pyOrderFree)
		case inOrder && !ok[j]:
			e.use(pyZeroSign)
		}
	}
	e.numpyAccumulateWarning(out, xs)
	return out, ok
}

// numpyAccumulateWarning records NumPy's warning when a running sum of
// finite values overflows.
func (e *evaluation) numpyAccumulateWarning(out, xs []float64) {
	if e.p.Framework != NumPy {
		return
	}
	for j, v := range out {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			if !math.IsInf(xs[j], 0) && !math.IsNaN(xs[j]) && !math.IsNaN(v) {
				e.warn("RuntimeWarning: overflow encountered in accumulate")
			}
			return
		}
	}
}
