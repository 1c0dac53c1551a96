package cpu

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// The reductions of PyTorch, NumPy and JAX: sum prod mean max min argmax
// argmin, with dim and keepdim (a.sum(dim, keepdim), np.sum(a, axis,
// keepdims), jnp.sum). Planning decides, from dtypes, shapes and attrs, the
// result dtype, every error, and for floats the accumulator and summation
// order (sumorder.go); the runners (pyreduce_run.go) then reduce the input,
// read once into row-major order, as [outer, n, inner]: output k = o*inner +
// t reduces the n values x[o, j, t].

func init() {
	attach(pythonProfiles(), tensor.ClassReduce, &family{supports: pyReduceSupports, eval: pyReduceEval})
}

// pyReduceSupports declines complex inputs (the model does not state them).
func pyReduceSupports(p *profile, c *tensor.Case) bool {
	return !c.Args[0].Tensor.DType.IsComplex() && dtypeArgSupports(p, c)
}

// redGeom is a reduction's geometry: input = [outer, n, inner] around the
// reduced dim (all elements: [1, numel, 1]).
type redGeom struct {
	outer, n, inner int
	shape           []int // the result's shape
	numel           int
	dim             int  // the reduced dim (-1: all elements)
	zeroDim         bool // a 0-dim input reduced along its dim 0 / -1
	hasDim          bool // the dim attr was given
	elementwise     bool // NumPy adds each output's values one by one (a view's reduced dim is not innermost)
}

func (g *redGeom) groups() int { return g.outer * g.inner }

// contiguous reports that each output's values are adjacent in row-major
// order (an "inner" reduction).
func (g *redGeom) contiguous() bool { return g.inner == 1 }

// newRedGeom is the geometry of reducing shape along d (-1: all elements),
// keeping the reduced dim as size 1 when keep is set.
func newRedGeom(shape []int, d int, keep bool) redGeom {
	n := tensor.NumElements(shape)
	g := redGeom{outer: 1, n: n, inner: 1, numel: n, shape: []int{}, dim: d}
	if d >= 0 {
		// shape = before ++ [n] ++ after; the result drops n (or keeps a 1)
		before, after := shape[:d], shape[d+1:]
		g.outer, g.n, g.inner = tensor.NumElements(before), shape[d], tensor.NumElements(after)
		g.shape = append(g.shape, before...)
		if keep {
			g.shape = append(g.shape, 1)
		}
		g.shape = append(g.shape, after...)
	}
	return g
}

// pyRedDim resolves the dim attr of a reduction or cumsum against the rank:
// the wrapped dim (-1 without one), whether a 0-dim input is reduced along
// its dim 0 / -1 (then as all elements), or the framework's error.
func pyRedDim(p *profile, op opID, dim *int, rank int) (d int, zeroDim bool, o tensor.Outcome, failed bool) {
	if dim == nil {
		return -1, false, o, false
	}
	v := *dim
	switch p.fw {
	case fwPyTorch: // policy pytorch.reduce.dim-range: a 0-dim input counts as 1-D
		r := max(rank, 1)
		if v < -r || v >= r {
			return 0, false, tensor.ErrorOutcome(tensor.IndexOutOfRange,
				"IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, v), true
		}
		if rank == 0 {
			return -1, true, o, false
		}
	case fwNumPy: // policy numpy.reduce.axis: 0-dim takes axis 0/-1, except in mean
		if rank == 0 && (v == 0 || v == -1) && op != opMean {
			return -1, true, o, false
		}
		if v < -rank || v >= rank || rank == 0 {
			return 0, false, tensor.ErrorOutcome(tensor.OutOfRange,
				"AxisError: axis %d is out of bounds for array of dimension %d", v, rank), true
		}
	default: // policy jax.reduce.axis
		if v < -rank || v >= rank || rank == 0 {
			return 0, false, tensor.ErrorOutcome(tensor.OutOfRange,
				"ValueError: axis %d is out of bounds for array of dimension %d", v, rank), true
		}
	}
	if v < 0 {
		v += rank
	}
	return v, false, o, false
}

func pyReduceEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	x := pyInput(p, c.Args[0].Tensor)
	op := parseOp(c.Op)
	if c.Attrs.DType.Valid() {
		if o, failed := dtypeArgEarly(p, op, c.Attrs.DType); failed {
			return o
		}
	}
	d, zeroDim, o, failed := pyRedDim(p, op, c.Attrs.Dim, x.Rank())
	if failed {
		return o
	}
	// policy python.reduce.shape
	keep := c.Attrs.KeepDim()
	if zooBuild && zoo("argmax-keepdim") && (op == opArgmax || op == opArgmin) {
		keep = false // zoo: argmax and argmin ignore keepdim
	}
	g := newRedGeom(x.Shape, d, keep)
	g.zeroDim, g.hasDim = zeroDim, c.Attrs.Dim != nil
	if c.Attrs.DType.Valid() {
		return pyReduceDTypeArg(e, p, op, x, &g, c.Attrs.DType)
	}
	if o, failed := pyReduceCheck(p, op, x.DType, &g); failed {
		return o
	}
	switch op {
	case opSum, opProd:
		return tensor.ValueOutcome(reduceSumProd(e, p, op == opProd, x, &g))
	case opMean:
		return tensor.ValueOutcome(reduceMean(e, p, x, &g))
	case opMax, opMin:
		return tensor.ValueOutcome(reduceExtreme(e, x, &g, op == opMax))
	}
	return tensor.ValueOutcome(reduceArg(e, p, x, &g, op == opArgmax))
}

// pyReduceCheck returns the error, or the result computed without a kernel,
// that the profile gives before reducing anything.
func pyReduceCheck(p *profile, op opID, d tensor.DType, g *redGeom) (tensor.Outcome, bool) {
	arg := op == opArgmax || op == opArgmin
	extreme := op == opMax || op == opMin
	if p.fw != fwPyTorch {
		// policies numpy.reduce.empty, jax.reduce.empty
		if (extreme || arg) && g.n == 0 {
			if arg {
				return tensor.ErrorOutcome(tensor.EmptyTensor, "ValueError: attempt to get %s of an empty sequence", opName(op)), true
			}
			return tensor.ErrorOutcome(tensor.EmptyTensor, "ValueError: zero-size array to reduction operation %s which has no identity", opName(op)), true
		}
		return tensor.Outcome{}, false
	}
	switch {
	case op == opMean && !d.IsFloat(): // policy pytorch.mean.float-only
		return tensor.ErrorOutcome(tensor.UnsupportedDType,
			"RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", torchName(d)), true
	case arg && d == tensor.Bool: // policy pytorch.argmax.bool
		return tensor.ErrorOutcome(tensor.UnsupportedDType, "RuntimeError: %s(): does not support bool input", opName(op)), true
	case !extreme && !arg:
		return tensor.Outcome{}, false
	// policy pytorch.reduce.empty
	case !g.hasDim && g.numel == 0 && extreme:
		return tensor.ErrorOutcome(tensor.EmptyTensor,
			"RuntimeError: %s(): Expected reduction dim to be specified for input.numel() == 0.", opName(op)), true
	case !g.hasDim && g.numel == 0:
		return tensor.ErrorOutcome(tensor.IndexOutOfRange,
			"IndexError: %s(): Expected reduction dim to be specified for input.numel() == 0.", opName(op)), true
	case g.hasDim && !g.zeroDim && g.n == 0:
		return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: %s(): Expected reduction dim to have non-zero size.", opName(op)), true
	case arg && g.hasDim && g.n == 1: // policy pytorch.argmax.trivial-dim: no kernel runs
		return tensor.ValueOutcome(tensor.New(tensor.I64, g.shape...)), true
	case g.numel == 0: // an empty result returns before any kernel
		rd := d
		if arg {
			rd = tensor.I64
		}
		return tensor.ValueOutcome(tensor.New(rd, g.shape...)), true
	}
	if k := torchReduceMissing(op, d, g.hasDim); k != "" {
		return torchNoKernel(k, d), true
	}
	return tensor.Outcome{}, false
}

// torchReduceMissing names the CPU kernel that has no instantiation for a
// max/min/argmax/argmin of d (policy pytorch.coverage.no-kernel): the
// barebones unsigned types have none; max/min name the kernel of the form
// with or without a dim.
func torchReduceMissing(op opID, d tensor.DType, hasDim bool) string {
	if !barebonesUnsigned(d) {
		return ""
	}
	switch {
	case op == opArgmax:
		return "argmax_cpu"
	case op == opArgmin:
		return "argmin_cpu"
	case hasDim:
		return opName(op) + "_values_cpu"
	}
	return opName(op) + "_all"
}

// sumDType is the result dtype of sum and prod (and, but for JAX, cumsum)
// of d: floats keep their dtype; PyTorch widens bool and integers to i64,
// NumPy to i64 or u64 (policy numpy.reduce.int-to-64), JAX to its default
// int or uint (policy jax.reduce.int-to-default).
func sumDType(p *profile, d tensor.DType) tensor.DType {
	if d.IsFloat() {
		return d
	}
	acc := intSumAccumulators[p.fw]
	if p.fw == fwJAX && !p.x64 {
		acc = [2]tensor.DType{tensor.I32, tensor.U32}
	}
	if d.IsUnsigned() {
		return acc[1]
	}
	return acc[0]
}

// intSumAccumulators are the (signed, unsigned) integer result dtypes of
// sum and prod: PyTorch always i64 (policy pytorch.reduce.int-to-i64),
// NumPy and JAX with x64 the 64-bit type of the same signedness.
var intSumAccumulators = map[framework][2]tensor.DType{
	fwPyTorch: {tensor.I64, tensor.I64},
	fwNumPy:   {tensor.I64, tensor.U64},
	fwJAX:     {tensor.I64, tensor.U64},
}

// meanDType is the result dtype of mean of d (PyTorch accepts floats only).
func meanDType(p *profile, d tensor.DType) tensor.DType {
	switch {
	case d.IsFloat():
		return d
	case p.fw == fwNumPy:
		return tensor.F64
	case d.Bits() == 64 && p.x64:
		return tensor.F64
	}
	return tensor.F32
}

// opmathOf is the precision a kernel computes the float dtype d in.
func opmathOf(d tensor.DType) tensor.DType {
	if d == tensor.F64 {
		return tensor.F64
	}
	return tensor.F32
}

// redOrder is the association order of a float reduction.
type redOrder uint8

const (
	ordSeq        redOrder = iota // in index order from the identity
	ordFree                       // the profile leaves it open: any order (unrolled, split)
	ordPairwise                   // NumPy pairwise_sum
	ordTorchSum                   // cascade_sum of a contiguous group
	ordTorchOuter                 // cascade_sum of a strided group (per column)
	ordTorchProd                  // binary_kernel_reduce_vec with reduction128
)

// stepRound is the rounding applied after every step of a reduction.
type stepRound uint8

const (
	roundNone stepRound = iota
	roundToF16
	roundToBF16
)

// stepRoundOf is the per-step rounding of arithmetic in the float dtype d.
func stepRoundOf(d tensor.DType) stepRound {
	switch d {
	case tensor.F16:
		return roundToF16
	case tensor.BF16:
		return roundToBF16
	}
	return roundNone
}

// floatRedPlan is how one profile reduces the float groups of one op: the
// accumulator (acc: f32 or f64; with a step rounding, f16/bf16 values in
// float32), the order for the geometry, and PyTorch's vector shape.
type floatRedPlan struct {
	prod       bool
	acc        tensor.DType
	step       stepRound
	order      redOrder
	vec, lanes int // PyTorch: elements per Vectorized<scalar_t>, lanes of Vectorized<acc_t>
}

// splittable reports whether one group may be split across goroutines
// without changing the result the model specifies.
func (pl *floatRedPlan) splittable() bool {
	return pl.order == ordPairwise || pl.order == ordFree && pl.step == roundNone
}

// planFloatRed returns the plan of sum (prod: product; mean: mean's sum)
// of a float dtype d (NumPy and JAX mean: the dtype the values are
// converted to before summing, f64 for NumPy's integers) over g.
func planFloatRed(p *profile, prod, mean bool, d tensor.DType, g *redGeom) floatRedPlan {
	pl := floatRedPlan{prod: prod, acc: opmathOf(d)}
	switch p.fw {
	case fwPyTorch:
		return planTorchRed(pl, mean, d, g)
	case fwNumPy:
		return planNumPyRed(pl, mean, d, g)
	}
	// policies jax.reduce.f16-upcast, jax.cpu.reduce.sequential,
	// jax.reduce.long-unpinned
	if g.n > 32 {
		pl.order = ordFree
	}
	return pl
}

// planTorchRed: cascade_sum (policy pytorch.cpu.sum.cascade) or
// binary_kernel_reduce_vec (policy pytorch.cpu.prod.reduce-vec) at
// torchVecBytes; the order is open when threads may split the work (policy
// pytorch.cpu.reduce.threads).
func planTorchRed(pl floatRedPlan, mean bool, d tensor.DType, g *redGeom) floatRedPlan {
	elem := d
	if mean {
		elem = opmathOf(d) // mean converts f16/bf16 to f32 before summing
	}
	if pl.prod {
		pl.acc, pl.step = opmathOf(d), stepRoundOf(d) // prod runs in the dtype
		elem = d
	}
	pl.vec = torchVecBytes / (elem.Bits() / 8)
	pl.lanes = torchVecBytes / (pl.acc.Bits() / 8)
	switch {
	case g.numel >= torchGrain && (g.groups() == 1 || !g.contiguous()):
		pl.order = ordFree
	case pl.prod && g.contiguous():
		pl.order = ordTorchProd
	case pl.prod:
		pl.order = ordSeq
	case g.contiguous():
		pl.order = ordTorchSum
	default:
		pl.order = ordTorchOuter
	}
	return pl
}

// planNumPyRed: pairwise_sum along a contiguous axis, in order otherwise
// (policy numpy.sum.pairwise); products in order (policy
// numpy.reduce.sequential); bf16 (ml_dtypes) in bf16, rounding every step.
func planNumPyRed(pl floatRedPlan, mean bool, d tensor.DType, g *redGeom) floatRedPlan {
	contig := g.contiguous() && !g.elementwise
	switch {
	case d == tensor.BF16:
		pl.step = roundToBF16
	case pl.prod && d == tensor.F16 && contig:
		// in f32, rounded once
	case pl.prod:
		pl.step = stepRoundOf(d)
	case d == tensor.F16 && !mean && !contig:
		pl.step = roundToF16 // the elementwise HALF_add loop
	case contig:
		pl.order = ordPairwise
	}
	return pl
}
