package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// The reductions sum prod mean max min argmax argmin of PyTorch, NumPy and
// JAX (a.sum(dim, keepdim), np.sum(a, axis, keepdims), jnp.sum). The
// profiles differ in the result dtype (PyTorch and NumPy widen integer sums
// to 64 bits, JAX x32 to 32), in their checks (dim range, empty inputs,
// kernel coverage) and, for floats, in the accumulator and the summation
// order (reduceorder.go). Integer results wrap in the result dtype in every
// profile; max/min/argmax/argmin are exact except for ties of -0 and +0.

// redGeom says which input elements feed which output element.
type redGeom struct {
	outer, n, inner int   // input = [outer, n, inner] around the reduced dims
	outShape        []int // the result's shape
	numel           int
	dim             int  // the reduced dim (-1: every element)
	zeroDim         bool // a 0-dim input reduced along dim 0 or -1
}

// newRedGeom is the geometry of reducing shape along dim (-1: all elements).
func newRedGeom(shape []int, dim int, keep bool) redGeom {
	n := tensor.NumElements(shape)
	if dim < 0 {
		return redGeom{outer: 1, n: n, inner: 1, outShape: []int{}, numel: n, dim: -1}
	}
	g := redGeom{outer: tensor.NumElements(shape[:dim]), n: shape[dim],
		inner: tensor.NumElements(shape[dim+1:]), numel: n, dim: dim}
	for k, s := range shape {
		switch {
		case k != dim:
			g.outShape = append(g.outShape, s)
		case keep:
			g.outShape = append(g.outShape, 1)
		}
	}
	if g.outShape == nil {
		g.outShape = []int{}
	}
	return g
}

func (g redGeom) groups() int { return g.outer * g.inner }

// at is the input index of element j of output k.
func (g redGeom) at(k, j int) int { return (k/g.inner*g.n+j)*g.inner + k%g.inner }

// contiguous reports that each output's elements are adjacent in memory
// (an "inner" reduction: all elements, or every later dim of size 1).
func (g redGeom) contiguous() bool { return g.inner == 1 }

// floats returns output k's elements of the float tensor x.
func (g redGeom) floats(x *tensor.Tensor, k int) []float64 {
	xs := make([]float64, g.n)
	for j := range xs {
		xs[j] = x.Float(g.at(k, j))
	}
	return xs
}

var (
	pyReduceShape = newRule("python.reduce.shape",
		"without dim a reduction is over all elements and 0-dim (keepdim is ignored, as a.sum() has none); with dim the result drops that dim, or keeps it as size 1 with keepdim",
		"oracle2-00015, oracle2-00407, oracle2-00102, oracle2-01142; reductions.md §3 keepdim shapes")
	torchReduceDim = newRule("pytorch.reduce.dim-range",
		"PyTorch wraps dim in [-ndim, ndim-1] ([-1, 0] for a 0-dim input, which then reduces its one element to a 0-dim result): IndexError \"Dimension out of range\"",
		"ATen maybe_wrap_dim; reductions.md §3 (0-dim with dim: oracle2-00302, oracle2-00639)")
	numpyReduceAxis = newRule("numpy.reduce.axis",
		"NumPy checks the axis against ndim (AxisError); a 0-dim input takes axis 0 or -1 for every reduction but mean (its one element; cumsum gives shape [1])",
		"oracle2-00302, oracle2-00450, oracle2-00639 (cumsum 0-dim -> [1]); NumPy 1.24 checked locally for the other ops (reductions.md §3)")
	jaxReduceAxis = newRule("jax.reduce.axis",
		"JAX's canonicalize_axis rejects an axis outside [-ndim, ndim) and any axis of a 0-dim input: ValueError \"axis 0 is out of bounds for array of dimension 0\"",
		"oracle2-00302, oracle2-00639 (cumsum of a 0-dim input)")
)

// pyReduce evaluates sum, prod, mean, max, min, argmax and argmin.
func (e *evaluation) pyReduce() tensor.Outcome {
	e.dt = nil // a program's earlier step may have set it
	x := e.input(e.c.Args[0].Tensor)
	if out, failed := e.pyReduceInputCheck(x); failed {
		return out
	}
	dim := -1
	if e.c.Attrs.Dim != nil {
		dim = *e.c.Attrs.Dim
	}
	if e.c.Attrs.DType.Valid() {
		if out, failed := e.pyDTypeArgCheck(x); failed {
			return out
		}
	}
	d, zeroDim, out, failed := e.pyReduceDim(dim, x.Rank(), e.c.Attrs.Dim != nil)
	if failed {
		return out
	}
	e.use(pyReduceShape)
	g := newRedGeom(x.Shape, d, e.c.Attrs.KeepDim())
	if zeroDim {
		g = newRedGeom(x.Shape, -1, false)
		g.zeroDim = true
	}
	if e.c.Attrs.DType.Valid() {
		if x, out, failed = e.pyDTypeArg(x, g.numel); failed {
			return out
		}
	}
	if out, failed := e.pyReduceCheck(x, g); failed {
		return out
	}
	switch e.c.Op {
	case "sum", "prod":
		return e.reduceSumProd(x, g)
	case "mean":
		if e.dt != nil && !e.dt.result.IsFloat() {
			return e.meanNonFloat(x, g)
		}
		return e.reduceMean(x, g)
	case "max", "min":
		return e.reduceExtreme(x, g)
	}
	return e.reduceArgExtreme(x, g)
}

// pyReduceInputCheck handles the inputs no reduction rule covers: complex
// (not modeled) and float64 on MPS (the tensor cannot exist there).
func (e *evaluation) pyReduceInputCheck(x *tensor.Tensor) (tensor.Outcome, bool) {
	switch {
	case x.DType.IsComplex():
		return e.unsupported(notModeled, "tfuzz: %s of %s is not modeled yet for %s", e.c.Op, x.DType, e.p.Name), true
	case e.p.Device == MPS && x.DType == tensor.F64:
		return e.fail(torchMPSNoF64, tensor.UnsupportedDType,
			"TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead."), true
	}
	return tensor.Outcome{}, false
}

// pyReduceDim resolves dim (given reports the attr is present) against
// rank: the wrapped dim (-1: all elements) and whether a 0-dim input is
// reduced along its dim 0/-1, or the framework's error.
func (e *evaluation) pyReduceDim(dim, rank int, given bool) (int, bool, tensor.Outcome, bool) {
	if !given {
		return -1, false, tensor.Outcome{}, false
	}
	switch e.p.Framework {
	case PyTorch:
		r := max(rank, 1)
		if dim < -r || dim >= r {
			return 0, false, e.fail(torchReduceDim, tensor.IndexOutOfRange,
				"IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, dim), true
		}
		if rank == 0 {
			e.use(torchReduceDim)
			return -1, true, tensor.Outcome{}, false
		}
	case NumPy:
		if rank == 0 && (dim == 0 || dim == -1) && e.c.Op != "mean" {
			e.use(numpyReduceAxis)
			return -1, true, tensor.Outcome{}, false
		}
		if dim < -rank || dim >= rank || rank == 0 {
			return 0, false, e.fail(numpyReduceAxis, tensor.OutOfRange,
				"AxisError: axis %d is out of bounds for array of dimension %d", dim, rank), true
		}
	default:
		if dim < -rank || dim >= rank || rank == 0 {
			return 0, false, e.fail(jaxReduceAxis, tensor.OutOfRange,
				"ValueError: axis %d is out of bounds for array of dimension %d", dim, rank), true
		}
	}
	d, _ := normalizeDim(dim, rank)
	return d, false, tensor.Outcome{}, false
}

// --- checks ---------------------------------------------------------------------------------

var (
	torchMeanFloatOnly = newRule("pytorch.mean.float-only",
		"PyTorch mean of a bool or integer tensor raises RuntimeError \"mean(): could not infer output dtype\", before looking at emptiness",
		"oracle-00945, oracle-00994, oracle2-00088, oracle2-01357 (empty), oracle2-01366 (bool)")
	torchArgBool = newRule("pytorch.argmax.bool",
		"PyTorch argmax/argmin reject bool input: RuntimeError \"argmax(): does not support bool input\" (before the emptiness checks)",
		"oracle-01004, oracle2-00915; order: ATen source")
	torchReduceEmpty = newRule("pytorch.reduce.empty",
		"PyTorch max/min without dim of an empty tensor: RuntimeError \"Expected reduction dim to be specified for input.numel() == 0\" (EmptyTensor), argmax/argmin the same as IndexError; along an empty dim IndexError \"Expected reduction dim 0 to have non-zero size\"; other empty results return before any kernel",
		"oracle2-00054, oracle2-00425, oracle2-00999 (max_all), oracle2-00656, oracle2-00806, oracle2-00908 (amax dim), oracle2-00147, oracle2-01302 (argmax), oracle2-00171")
	torchArgTrivial = newRule("pytorch.argmax.trivial-dim",
		"PyTorch argmax/argmin along a dim of size 1 (or a 0-dim input with dim) return zeros without running a kernel, so every dtype works",
		"oracle2-00380 (u64 [1,4] dim 0 -> [0,0,0,0] on cpu and cuda), oracle2-00132")
	torchMPSWideUnsigned = newRule("pytorch.mps.reduce.wide-unsigned",
		"PyTorch MPS cannot build the graph of a sum/prod/cumsum of u16/u32/u64: \"Failed to create function state object for: ...\" (u16 and u64 by analogy with u32)",
		"seed 000 §溢出 (u32 sum on MPS)")
	numpyReduceEmpty = newRule("numpy.reduce.empty",
		"NumPy max/min of a reduction with no elements raise ValueError \"zero-size array to reduction operation maximum which has no identity\" (even for an empty result); argmax/argmin \"attempt to get argmax of an empty sequence\"",
		"oracle2-00054, oracle2-00425, oracle2-00656, oracle2-00806, oracle2-00147, oracle2-00171")
	jaxReduceEmpty = newRule("jax.reduce.empty",
		"JAX max/min over no elements raise ValueError \"zero-size array to reduction operation max which has no identity\"; argmax/argmin \"attempt to get argmax of an empty sequence\"",
		"oracle2-00054, oracle2-00656, oracle2-00147, oracle2-01302")
)

// pyReduceCheck returns the error (or the kernel-free result) the profile
// gives before computing anything.
func (e *evaluation) pyReduceCheck(x *tensor.Tensor, g redGeom) (tensor.Outcome, bool) {
	op, d := e.c.Op, x.DType
	arg := op == "argmax" || op == "argmin"
	extreme := op == "max" || op == "min"
	if e.p.Framework != PyTorch {
		if (extreme || arg) && g.n == 0 {
			r := numpyReduceEmpty
			name := map[string]string{"max": "maximum", "min": "minimum"}[op]
			if e.p.Framework == JAX {
				r, name = jaxReduceEmpty, op
			}
			if arg {
				return e.fail(r, tensor.EmptyTensor, "ValueError: attempt to get %s of an empty sequence", op), true
			}
			return e.fail(r, tensor.EmptyTensor, "ValueError: zero-size array to reduction operation %s which has no identity", name), true
		}
		return tensor.Outcome{}, false
	}
	hasDim := e.c.Attrs.Dim != nil
	switch {
	case op == "mean" && !d.IsFloat():
		return e.fail(torchMeanFloatOnly, tensor.UnsupportedDType,
			"RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", torchName(d)), true
	case arg && d == tensor.Bool:
		return e.fail(torchArgBool, tensor.UnsupportedDType, "RuntimeError: %s(): does not support bool input", op), true
	case (op == "sum" || op == "prod") && e.p.Device == MPS && isBarebonesUnsigned(d) && g.numel > 0:
		return e.fail(torchMPSWideUnsigned, tensor.UnsupportedDType, "RuntimeError: Failed to create function state object for: %s_%s", op, pyName(d)), true
	case !extreme && !arg:
		return tensor.Outcome{}, false
	case !hasDim && g.numel == 0 && extreme:
		return e.fail(torchReduceEmpty, tensor.EmptyTensor,
			"RuntimeError: %s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", op), true
	case !hasDim && g.numel == 0:
		return e.fail(torchReduceEmpty, tensor.IndexOutOfRange, "IndexError: %s(): Expected reduction dim to be specified for input.numel() == 0.", op), true
	case hasDim && !g.zeroDim && g.n == 0:
		name := map[string]string{"max": "amax", "min": "amin"}[op]
		if arg {
			name = op
		}
		return e.fail(torchReduceEmpty, tensor.IndexOutOfRange, "IndexError: %s(): Expected reduction dim %d to have non-zero size.", name, *e.c.Attrs.Dim), true
	case arg && hasDim && g.n == 1:
		e.use(torchArgTrivial)
		return tensor.ValueOutcome(tensor.New(tensor.I64, g.outShape...)), true
	case g.numel == 0:
		e.use(torchReduceEmpty)
		dt := d
		if arg {
			dt = tensor.I64
		}
		return tensor.ValueOutcome(tensor.New(dt, g.outShape...)), true
	}
	if k := e.p.torchReduceKernel(op, d, hasDim); k != "" {
		return e.torchNoKernelError(k, d), true
	}
	return tensor.Outcome{}, false
}

// --- sum and prod ---------------------------------------------------------------------------

var (
	torchIntUpcast = newRule("pytorch.reduce.int-to-i64",
		"PyTorch sum/prod/cumsum convert bool and integer inputs to i64 first (u64 above 2^63 turns negative) and reduce in i64",
		"oracle-00942, oracle-00951, oracle-00998, oracle2-01503; seed 000 §溢出 (u8 sum 300), seed 004 (i32 sum/cumsum)")
	numpyIntUpcast = newRule("numpy.reduce.int-to-64",
		"NumPy sum/prod/cumsum of bool and signed integers give np.int_ (i64), of unsigned ones np.uint (u64)",
		"oracle-00942, oracle-00951, oracle-00956, oracle-00943, oracle2-01401")
	jaxIntUpcast = newRule("jax.reduce.int-to-default",
		"JAX sum/prod of bool give the default int; narrower signed ints the default int (i32 x32, i64 x64), unsigned ones u32/u64",
		"oracle-00942, oracle-00956, oracle-00972 (i32 prod stays i32 in x32, i64 in x64)")
	pyReduceIntWrap = newRule("python.reduce.int-wrap",
		"integer sums and products are exact modulo 2^bits of the result dtype (two's complement wrap, bool counts 0/1), in any order and without a warning; an empty sum is 0, an empty product 1",
		"oracle-00951, oracle-00991, oracle2-01560, oracle-00985, oracle-01000; oracle2-00154, oracle2-01299 (empty)")
)

// sumDType is the result dtype of sum and prod of dtype d.
func (e *evaluation) sumDType(d tensor.DType) tensor.DType {
	switch {
	case e.dt != nil:
		return e.dt.result
	case d.IsFloat():
		return d
	case e.p.Framework == PyTorch:
		e.use(torchIntUpcast)
		return tensor.I64
	case e.p.Framework == NumPy:
		e.use(numpyIntUpcast)
		if d.IsUnsigned() {
			return tensor.U64
		}
		return tensor.I64
	}
	e.use(jaxIntUpcast)
	switch {
	case d.IsUnsigned() && e.p.X64:
		return tensor.U64
	case d.IsUnsigned():
		return tensor.U32
	case e.p.X64:
		return tensor.I64
	}
	return tensor.I32
}

// reduceSumProd evaluates sum and prod.
func (e *evaluation) reduceSumProd(x *tensor.Tensor, g redGeom) tensor.Outcome {
	prod := e.c.Op == "prod"
	rdt := e.sumDType(x.DType)
	if rdt == tensor.Bool {
		return e.reduceBool(x, g, prod)
	}
	out := tensor.New(rdt, g.outShape...)
	if !rdt.IsFloat() {
		e.use(pyReduceIntWrap)
		for k := range g.groups() {
			acc := uint64(0)
			if prod {
				acc = 1
			}
			for j := range g.n {
				v := uint64(x.Int(g.at(k, j)))
				if prod {
					acc *= v
				} else {
					acc += v
				}
			}
			out.SetInt(k, int64(wrapInt(acc, rdt)))
			if e.groupUnspecified(g, k) {
				out.SetUnspecified(k)
			}
		}
		return tensor.ValueOutcome(out)
	}
	for k := range g.groups() {
		xs := g.floats(x, k)
		plan := e.sumPlan(prod, false, x.DType, g, k)
		e.dtypeArgPlan(&plan, prod)
		v, ok := e.floatReduce(plan, xs)
		e.setReduced(out, k, v, ok && !e.groupUnspecified(g, k))
		e.numpyOverflowWarning(v, xs, x.DType == tensor.F16 && e.numpyReduceCalls(g) && !prod)
	}
	return tensor.ValueOutcome(out)
}

// numpyReduceCalls reports whether NumPy reduces each output's elements
// in reduce calls of the loop (out op= a run), not the elementwise loop:
// along a contiguous axis, or (a view) the iterator's innermost axis, and
// always over every element.
func (e *evaluation) numpyReduceCalls(g redGeom) bool {
	x := e.c.Args[0].Tensor
	if g.dim < 0 || g.zeroDim || rowMajorLayout(x) {
		return g.contiguous()
	}
	return npReducedInnermost(x.Shape, x.Strides, g.dim)
}

// floatPlan is how a profile reduces one output's float values.
type floatPlan struct {
	arith   Arith
	orders  []Order // candidates; the element is specified when they agree
	unsure  *Rule   // why there are several candidates
	open    *Rule   // the real order is unknown: only order-free groups are specified
	check   Arith   // the arithmetic of the order-free check
	nsz     bool    // a zero sum's sign is unspecified when a -0 took part
	negZero bool    // the sign of a sum of only -0 is unknown
	rules   []*Rule
}

// floatReduce reduces xs (values of p.arith's precision) by plan p: the
// value before the rounding to the result dtype, or false when unspecified.
func (e *evaluation) floatReduce(p floatPlan, xs []float64) (float64, bool) {
	e.use(pyFloatReduce)
	for _, r := range p.rules {
		e.use(r)
	}
	var v float64
	if p.open != nil {
		e.use(p.open)
		if !OrderFree(xs, p.check) {
			return 0, false
		}
		e.use(pyOrderFree)
		v = redSequential(xs, p.arith)
	} else {
		v = p.orders[0].Reduce(xs, p.arith)
		for _, o := range p.orders[1:] {
			if !redSame(v, o.Reduce(xs, p.arith)) {
				e.use(p.unsure)
				return 0, false
			}
		}
	}
	v = p.arith.Op(p.arith.Identity(), v)
	if v == 0 && !p.arith.Prod && (p.nsz && redNegZeros(xs) > 0 || p.negZero && redNegZeros(xs) == len(xs)) {
		e.use(pyZeroSign)
		return 0, false
	}
	return v, true
}

// redNegZeros counts the -0 values of xs.
func redNegZeros(xs []float64) int {
	n := 0
	for _, x := range xs {
		if x == 0 && math.Signbit(x) {
			n++
		}
	}
	return n
}

// setReduced stores a float result, or "?" when it is not specified.
func (e *evaluation) setReduced(out *tensor.Tensor, k int, v float64, ok bool) {
	if !ok {
		out.SetUnspecified(k)
		return
	}
	out.SetFloat(k, v)
}

// numpyOverflowWarning records NumPy's warning when finite inputs reduce to
// an infinity (f16 inner sums overflow in the cast of the f32 sum).
func (e *evaluation) numpyOverflowWarning(v float64, xs []float64, inCast bool) {
	if e.p.Framework != NumPy || !math.IsInf(v, 0) {
		return
	}
	for _, x := range xs {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
	}
	if inCast {
		e.warn("RuntimeWarning: overflow encountered in cast")
		return
	}
	e.warn("RuntimeWarning: overflow encountered in reduce")
}

// --- mean -----------------------------------------------------------------------------------

var (
	numpyMeanDType = newRule("numpy.mean.dtype",
		"NumPy mean of bool/ints is f64 (summed as float64); f32/f64 sum in the dtype and divide (s / N in f64, rounded); f16 sums in f32: R_f16(R_f32(s / N)) for an array, R_f16(s / N) for a 0-dim result; bf16 sums in bf16; empty -> NaN with RuntimeWarnings",
		"oracle-00945, oracle2-00947 (8.75), oracle-01015 (bf16 85.5), oracle2-00567, oracle2-00320, oracle2-00391, oracle2-01122")
	jaxMean = newRule("jax.mean.reciprocal",
		"JAX mean is in to_inexact_dtype (bool, ints up to 32 bits -> f32, i64/u64 -> f64): values converted to c (f32 for f16/bf16), summed as jnp.sum in c, times R_c(1/N) (XLA rewrites x / const as x * (1/const)); empty -> NaN",
		"oracle2-00722 (u64 x64: sum*(1/5) = 8.699336238638915e17), oracle2-00088, oracle2-00364, oracle2-00775, oracle-01015")
	torchCPUMean = newRule("pytorch.cpu.mean.divide",
		"PyTorch CPU mean is sum / N: f16/bf16 are converted to f32 and summed by cascade_sum in f32, q = R_f32(s / N), then rounded to the dtype; f32/f64 divide in the dtype; empty -> NaN",
		"oracle-01015 (bf16 86.0), oracle2-00407, oracle2-00567, oracle2-00955, oracle2-00320")
	torchCUDAMean = newRule("pytorch.cuda.mean.factor",
		"PyTorch CUDA mean multiplies the CUDA sum (f32 accumulator, f64 for f64) by factor = R_acc(1/N) (MeanOps), then rounds to the dtype",
		"ATen ReduceMomentKernel.cu; oracle-01015, oracle2-00407 (same values as sum/N there)")
	torchMPSMean = newOpenRule("pytorch.mps.mean.unpinned",
		"PyTorch MPS mean: whether MPSGraph divides by N or multiplies by 1/N, in f32 or in the dtype, is unknown; an element is specified when all four agree",
		"no MPS run; PyTorch mps ReduceOps.mm (mean through MPSGraph)")
)

// meanDType is the result dtype of mean of dtype d (PyTorch: floats only).
func (e *evaluation) meanDType(d tensor.DType) tensor.DType {
	switch {
	case e.dt != nil:
		return e.dt.result
	case d.IsFloat():
		return d
	case e.p.Framework == NumPy:
		return tensor.F64
	case d.Bits() == 64 && e.p.X64:
		return tensor.F64
	}
	return tensor.F32
}

// reduceMean evaluates mean.
func (e *evaluation) reduceMean(x *tensor.Tensor, g redGeom) tensor.Outcome {
	rdt := e.meanDType(x.DType)
	out := tensor.New(rdt, g.outShape...)
	acc := e.meanAcc(x.DType, rdt)
	for k := range g.groups() {
		if g.n == 0 {
			e.meanOfEmpty(len(g.outShape) == 0)
			out.SetFloat(k, math.NaN())
			continue
		}
		xs := make([]float64, g.n)
		for j := range xs {
			xs[j] = roundTo(floatOf(x, g.at(k, j)), acc)
			if x.DType.IsInt() {
				xs[j] = intToFloat(uint64(x.Int(g.at(k, j))), x.DType, acc)
			}
		}
		plan := e.sumPlan(false, e.dt == nil, x.DType, g, k) // with a dtype argument the sum is a plain sum in it
		e.dtypeArgPlan(&plan, false)
		s, ok := e.floatReduce(plan, xs)
		switch {
		case ok && e.dt != nil && e.p.Framework != PyTorch:
			s, ok = e.dtypeArgMeanDivide(s, xs)
		case ok:
			s, ok = e.meanDivide(s, g.n, x.DType, acc, len(g.outShape) == 0)
		}
		e.setReduced(out, k, s, ok && !e.groupUnspecified(g, k))
	}
	return tensor.ValueOutcome(out)
}

// meanAcc is the precision mean sums in.
func (e *evaluation) meanAcc(d, rdt tensor.DType) tensor.DType {
	switch {
	case e.dt != nil && e.p.Framework == JAX:
		return e.dt.compute
	case e.p.Framework == NumPy && d == tensor.BF16:
		return tensor.BF16
	case e.p.Framework == NumPy:
		return opmath(rdt)
	case e.p.Framework == PyTorch:
		return opmath(d)
	}
	return opmath(rdt)
}

// meanOfEmpty records the use and the warnings of a mean of no elements.
func (e *evaluation) meanOfEmpty(zeroDim bool) {
	switch e.p.Framework {
	case PyTorch:
		e.use(torchCPUMean)
	case NumPy:
		e.use(numpyMeanDType)
		e.warn("RuntimeWarning: Mean of empty slice")
		if zeroDim {
			e.warn("RuntimeWarning: invalid value encountered in scalar divide")
		} else {
			e.warn("RuntimeWarning: invalid value encountered in divide")
		}
	default:
		e.use(jaxMean)
	}
}

// meanDivide turns the sum s of n values into the mean, before the
// rounding to the result dtype.
func (e *evaluation) meanDivide(s float64, n int, d, acc tensor.DType, zeroDim bool) (float64, bool) {
	N := float64(n)
	recip := func(c tensor.DType) float64 { return roundTo(s*roundTo(1/N, c), c) }
	switch {
	case e.p.Framework == JAX:
		e.use(jaxMean)
		return recip(acc), true
	case e.p.Framework == NumPy:
		e.use(numpyMeanDType)
		if d == tensor.F16 && !zeroDim {
			return roundTo(s/N, tensor.F32), true
		}
		return s / N, true
	case e.p.Device == CUDA:
		e.use(torchCUDAMean)
		return recip(acc), true
	case e.p.Device == MPS:
		e.use(torchMPSMean)
		v := roundTo(roundTo(s/N, acc), d)
		for _, w := range []float64{roundTo(s/N, d), roundTo(recip(acc), d), recip(d)} {
			if !redSame(v, w) {
				return 0, false
			}
		}
		return v, true
	}
	e.use(torchCPUMean)
	return roundTo(s/N, acc), true
}

// --- max, min, argmax, argmin ---------------------------------------------------------------

var (
	pyExtreme = newRule("python.reduce.max-min",
		"max/min give the extreme element in the input dtype (bool: any/all); a NaN in the group makes the result NaN; ±inf compare normally",
		"oracle-01030, oracle2-00701 (NaN), oracle2-00065, oracle2-00344, oracle2-00663 (inf), oracle-01002 (bool), oracle2-00015")
	pyZeroTie = newOpenRule("python.reduce.max-min.zero-tie",
		"when the extreme is a zero and both -0 and +0 occur, which max/min return depends on the kernel (NumPy 1.24: the first for f16; for f32/f64 the last at n=2, the first at n=3): unspecified",
		"reductions.md §4 (NumPy 1.24 checked locally; no oracle case has a ±0 tie)")
	pyArgExtreme = newRule("python.reduce.argmax",
		"argmax/argmin give the index (along dim, or into the flattened input) of the first extreme; NaN is the extreme for both (the first NaN wins); ties, -0 with +0 included, go to the lower index; True > False",
		"oracle-00961, oracle-00968, oracle-00975 ([x, x] -> 0), oracle2-01301, oracle2-00424, oracle-01004; NaN: PyTorch greater_or_nan, NumPy 1.24 argmin([1, nan, nan]) = 1, jax argmax comparator (no oracle case)")
	pyArgDType = newRule("python.reduce.argmax.dtype",
		"argmax/argmin return i64 (PyTorch, NumPy, JAX x64) or i32 (JAX x32)",
		"oracle-00947 and the other argmax cases")
)

// reduceExtreme evaluates max and min.
func (e *evaluation) reduceExtreme(x *tensor.Tensor, g redGeom) tensor.Outcome {
	e.use(pyExtreme)
	out := tensor.New(x.DType, g.outShape...)
	for k := range g.groups() {
		best := e.argExtreme(x, g, k, e.c.Op == "max")
		i := g.at(k, best)
		out.SetBits(k, x.Bits(i))
		if x.DType.IsFloat() && x.Float(i) == 0 && e.zeroTie(x, g, k) {
			e.use(pyZeroTie)
			out.SetUnspecified(k)
		}
	}
	return tensor.ValueOutcome(out)
}

// zeroTie reports that output k's group holds both -0 and +0 (its extreme
// being a zero).
func (e *evaluation) zeroTie(x *tensor.Tensor, g redGeom, k int) bool {
	var neg, pos bool
	for j := range g.n {
		if v := x.Float(g.at(k, j)); v == 0 {
			neg = neg || math.Signbit(v)
			pos = pos || !math.Signbit(v)
		}
	}
	return neg && pos
}

// argExtreme returns the position in output k's group of its first
// maximum (or minimum), a NaN taking precedence.
func (e *evaluation) argExtreme(x *tensor.Tensor, g redGeom, k int, wantMax bool) int {
	best := 0
	for j := range g.n {
		i, b := g.at(k, j), g.at(k, best)
		if x.DType.IsFloat() {
			v, w := x.Float(i), x.Float(b)
			if math.IsNaN(v) {
				return j
			}
			if wantMax && v > w || !wantMax && v < w {
				best = j
			}
			continue
		}
		v, w := uint64(x.Int(i)), uint64(x.Int(b))
		if wantMax && intLess(w, v, x.DType) || !wantMax && intLess(v, w, x.DType) {
			best = j
		}
	}
	return best
}

// reduceArgExtreme evaluates argmax and argmin.
func (e *evaluation) reduceArgExtreme(x *tensor.Tensor, g redGeom) tensor.Outcome {
	e.use(pyArgExtreme)
	e.use(pyArgDType)
	idt := tensor.I64
	if e.p.Framework == JAX && !e.p.X64 {
		idt = tensor.I32
	}
	out := tensor.New(idt, g.outShape...)
	for k := range g.groups() {
		out.SetInt(k, int64(e.argExtreme(x, g, k, e.c.Op == "argmax")))
	}
	return tensor.ValueOutcome(out)
}
