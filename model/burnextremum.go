package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn's max, min, argmax and argmin: which kernel runs decides the dtype of
// the indices, the panic over zero elements and which of two equal extrema
// (+0 and -0) comes out. Read at burn 2c06be35 (crates/burn-flex,
// crates/burn-ndarray, crates/burn-tensor) and macerator 0.3.4 (f0419815),
// the SIMD library of Flex's f32 kernels, on the profiles' Arm64 host.

var (
	burnExtremumRule = newRule("burn.reduce.extremum",
		"max/min keep the dtype and argmax/argmin take a dim; a NaN in the group wins (max/min give NaN, argmax/argmin the index of the first NaN), otherwise the first extremum by a strict comparison; which of +0 and -0 max/min return is the kernel's (burn.reduce.extremum-zero)",
		"burn 2c06be35 crates/burn-flex/src/ops/reduce.rs:501-512 (select_float_extremum keeps a NaN), :1804, :1857 (the f32 last-dim scans return at the first NaN), :2066 (the SIMD argmax scan stops at the first NaN or extremum), extremum_dim_with_indices (is_better = !b.is_nan() && (a.is_nan() || a > b)); crates/burn-ndarray/src/ops/base.rs:1207 (max_float_view keeps a NaN), :1734-1745 (arg_view: first NaN, else strict >); crates/burn-tensor/src/tensor/api/orderable.rs:560-566 (documented: NaNs take precedence, the lowest coordinate wins)")
	burnExtremumZero = newRule("burn.reduce.extremum-zero",
		"max/min over +0 and -0: Flex's f32 kernels over all elements, and over a last dim of 512 or more, are macerator's NEON max (vmaxq/vmaxvq: -0 < +0) over the body of whole 4-lane vectors, then a strict scalar scan of the rest; every other Flex kernel and ndarray's max_dim (a gather at argmax) keep the first of equal values; ndarray's full max/min (reduce(|a, b| if a > b {a} else {b})) keep the last",
		"burn 2c06be35 crates/burn-flex/src/ops/reduce.rs:597-607 (max_f32_contiguous -> kernels::max_f32 with the default simd feature), :1778 (EXTREMUM_SIMD_ROW_THRESHOLD 512), crates/burn-flex/src/simd/kernels.rs:179-226 (macerator_max: acc.max(v) per vector, reduce_max, then `if x > result`), crates/burn-flex/Cargo.toml (default simd); macerator v0.3.4 (f0419815) src/backend/aarch64.rs:170-171, 237-238 (vminq/vmaxq, vminvq/vmaxvq); crates/burn-ndarray/src/ops/base.rs:1199-1213, crates/burn-backend/src/backend/ops/tensor.rs:1609-1614 (float_max_dim = gather at float_argmax)")
	burnArgDType = newRule("burn.argmax.int-dtype",
		"argmax/argmin of a Float tensor return the device's default Int dtype (Flex I32, ndarray I64): Flex's kernel makes I64 (INDEX_DTYPE) indices and float_argmax casts them to the out_dtype the tensor API passes (settings.int_dtype); of an Int tensor they stay I64 (Flex INDEX_DTYPE; ndarray the tensor's own I64)",
		"burn 2c06be35 crates/burn-tensor/src/bridge/ops/float.rs:776-785 (Dispatch::float_argmax(tensor, dim, settings.int_dtype)), bridge/ops/int.rs:432-433, crates/burn-flex/src/ops/float.rs:907-918 (int_cast to out_dtype), crates/burn-flex/src/backend.rs:47-50 (DeviceSettings F32, I32), crates/burn-ndarray/src/backend.rs:24-27 (F32, I64)")
	burnEmptyExtremum = newRule("burn.reduce.extremum-empty",
		"max/min of all elements of an empty tensor panic; max/min/argmax/argmin along a dim panic when that dim has size 0 (another zero-sized dim alone gives an empty result), on every backend",
		"burn 2c06be35 crates/burn-flex/src/ops/reduce.rs:432-435, 467-470 (\"max: cannot reduce an empty tensor\"), :729-732, 785-788 (\"argmax: dimension {dim} has size 0\"), :1572-1575, 1618-1621 (\"max_dim: dimension {dim} has size 0\"); crates/burn-ndarray/src/ops/base.rs:1194, 1213 (\"Cannot compute max of empty tensor\"), :1719-1722 (\"Cannot compute arg over an empty axis\", checked before map_axis)")
)

// burnTie is which of several equal extrema a burn kernel returns (only +0
// and -0 differ in their bits).
type burnTie uint8

const (
	burnTieFirst burnTie = iota // a strict comparison from the first element
	burnTieLast                 // ndarray's reduce(|a, b| if a > b { a } else { b })
	burnTieNEON                 // macerator: fmax over whole 4-lane vectors, then a strict scan
)

// neonLanes is the number of f32 lanes of a NEON register.
const neonLanes = 4

// burnExtremum is max/min (values) and argmax/argmin (indices); dims marks
// the reduced dims (every dim when the case has no dim).
func (e *evaluation) burnExtremum(op string, t *tensor.Tensor, dims []bool, groups [][]int, outShape, shape []int) tensor.Outcome {
	e.use(burnExtremumRule)
	isArg := op == "argmax" || op == "argmin"
	dim := -1
	for k, r := range dims {
		if r && e.c.Attrs.Dim != nil {
			dim = k
		}
	}
	if o, empty := e.burnExtremumEmpty(op, t, dim); empty {
		return o
	}
	outD := t.DType
	if isArg {
		e.use(burnArgDType)
		outD = tensor.I64
		if t.DType.IsFloat() {
			outD = e.burnIntDType()
		}
	}
	out := tensor.New(outD, outShape...)
	wantMax := op == "max" || op == "argmax"
	tie := e.burnTieOf(t, dim)
	for o, g := range groups {
		switch {
		case isArg:
			out.SetUint(o, uint64(burnArgExtremum(t, g, wantMax)))
		case t.DType.IsFloat():
			xs := make([]float64, len(g))
			for k, i := range g {
				xs[k] = t.Float(i)
			}
			v := burnExtremeValue(xs, wantMax, tie)
			if v == 0 && burnHasBothZeros(xs) {
				e.use(burnExtremumZero)
			}
			out.SetFloat(o, v)
		default:
			best := 0
			for k, i := range g {
				if k > 0 && candleBetter(t, g[best], i, wantMax) {
					best = k
				}
			}
			out.SetBits(o, t.Bits(g[best]))
		}
	}
	return tensor.ValueOutcome(rustWithShape(out, shape))
}

// burnExtremumEmpty is the panic of a reduction over zero elements.
func (e *evaluation) burnExtremumEmpty(op string, t *tensor.Tensor, dim int) (tensor.Outcome, bool) {
	if (dim < 0 && t.Len() > 0) || (dim >= 0 && t.Shape[dim] > 0) {
		return tensor.Outcome{}, false
	}
	e.use(burnEmptyExtremum)
	switch {
	case !e.burnFlex() && dim < 0:
		return tensor.PanicOutcome("Cannot compute %s of empty tensor", op), true
	case !e.burnFlex():
		return tensor.PanicOutcome("Cannot compute arg over an empty axis"), true
	case dim < 0:
		return tensor.PanicOutcome("%s: cannot reduce an empty tensor", op), true
	case op == "max" || op == "min":
		return tensor.PanicOutcome("%s_dim: dimension %d has size 0", op, dim), true
	}
	return tensor.PanicOutcome("%s: dimension %d has size 0", op, dim), true
}

// burnTieOf picks the kernel's rule for equal extrema.
func (e *evaluation) burnTieOf(t *tensor.Tensor, dim int) burnTie {
	switch {
	case !e.burnFlex() && dim < 0:
		return burnTieLast
	case !e.burnFlex() || t.DType != tensor.F32:
		return burnTieFirst
	case dim < 0 || dim == t.Rank()-1 && t.Shape[dim] >= 512:
		return burnTieNEON
	}
	return burnTieFirst
}

// burnExtremeValue is the max (or min) of xs as the kernel tie returns it;
// any NaN makes it NaN.
func burnExtremeValue(xs []float64, wantMax bool, tie burnTie) float64 {
	for _, x := range xs {
		if math.IsNaN(x) {
			return math.NaN()
		}
	}
	better := func(a, b float64) bool { return wantMax && a > b || !wantMax && a < b }
	switch tie {
	case burnTieLast:
		v := xs[0]
		for _, x := range xs[1:] {
			if !better(v, x) {
				v = x
			}
		}
		return v
	case burnTieNEON:
		body := len(xs) - len(xs)%neonLanes
		v := math.Inf(1)
		if wantMax {
			v = math.Inf(-1)
		}
		for _, x := range xs[:body] {
			v = orderedExtreme(v, x, wantMax)
		}
		for _, x := range xs[body:] {
			if better(x, v) {
				v = x
			}
		}
		return v
	}
	v := xs[0]
	for _, x := range xs[1:] {
		if better(x, v) {
			v = x
		}
	}
	return v
}

// orderedExtreme is the larger (or smaller) of a and b with -0 < +0, as the
// Arm fmax/fmin instructions order them (neither is NaN).
func orderedExtreme(a, b float64, wantMax bool) float64 {
	if a == b && a == 0 {
		if math.Signbit(a) != wantMax {
			return a
		}
		return b
	}
	if (a > b) == wantMax {
		return a
	}
	return b
}

// burnArgExtremum is the position in g of the first NaN, else of the first
// extremum (strict comparisons).
func burnArgExtremum(t *tensor.Tensor, g []int, wantMax bool) int {
	best := 0
	for k, i := range g {
		if t.DType.IsFloat() && math.IsNaN(t.Float(i)) {
			return k
		}
		if k > 0 && candleBetter(t, g[best], i, wantMax) {
			best = k
		}
	}
	return best
}

// burnHasBothZeros reports whether xs holds +0 and -0.
func burnHasBothZeros(xs []float64) bool {
	pos, neg := false, false
	for _, x := range xs {
		if x == 0 {
			pos, neg = pos || !math.Signbit(x), neg || math.Signbit(x)
		}
	}
	return pos && neg
}
