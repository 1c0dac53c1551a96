package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// where, clamp, broadcast_* and cumsum without a dim in PyTorch, NumPy and
// JAX (full: pyfull.go). Several are spelled, in these frameworks, as ops the model
// already states (clamp with one bound is maximum or minimum, broadcast_mul
// is mul): those are evaluated as that op (sub), their rules recorded.

var (
	pyBroadcastOps = newRule("python.broadcast-ops",
		"PyTorch, NumPy and JAX always broadcast, so candle's broadcast_add ... broadcast_minimum are spelled there as +, -, *, /, maximum, minimum with the same operands",
		"spec/case-format.md §Ops and attrs added 2026-12 (\"in frameworks that always broadcast, the same as add\")")
	torchWhereCond = newRule("pytorch.where.condition",
		"torch.where needs a bool condition (RuntimeError: where expected condition to be a boolean tensor); x and y are promoted by result_type (Python numbers as wrapped numbers) and the three shapes broadcast; the kernel covers every dtype but u16/u32/u64 (\"where_cpu\" not implemented)",
		"pytorch aten/src/ATen/native/TensorCompare.cpp where_self_out (condition dtype check, result_type of self and other); aten/src/ATen/native/cpu/TensorCompareKernel.cpp where_kernel_impl (AT_DISPATCH_V2 over AT_ALL_TYPES_AND_COMPLEX, kBool, kHalf, kBFloat16: bool cond_val)")
	numpyWhere = newRule("numpy.where",
		"np.where converts the condition to bool (nonzero is true, NaN is true), promotes x and y by np.result_type with NEP 50 weak Python scalars and broadcasts the three shapes",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/multiarraymodule.c PyArray_Where (condition cast to bool, common dtype of x and y)")
	jaxWhere = newRule("jax.where",
		"jnp.where takes condition != 0 for a non-bool condition, promotes x and y with promote_dtypes (weak Python scalars) and broadcasts the three, then lax.select; it is jitted, so a Python int outside int32 (x32) / int64 (x64) overflows when parsed",
		"jax jax-v0.11.0 jax/_src/numpy/util.py:285-305 (_where: lax.ne(condition, 0), promote_dtypes, _broadcast_arrays, lax.select)")
	pyWhereNotModeled = newRule("python.where.not-modeled",
		"where with a complex Python scalar, with two Python scalars where the framework has no promotion for them here, and NumPy's Python int that does not fit the common dtype, are not stated yet",
		"tfuzz").silent()
	torchClampCheck = newRule("pytorch.clamp.bounds",
		"torch.clamp needs at least one bound (RuntimeError: torch.clamp: At least one of 'min' or 'max' must not be None) and no complex operand (clamp is not supported for complex types); with Python number bounds the result is the input's dtype if it is a float, else result_type of the input and the bounds, and each bound is converted to it with a checked conversion (RuntimeError: value cannot be converted to type uint8_t without overflow); tensor bounds are promoted with the input as a binary op's operands and all three broadcast; the kernels cover every real dtype but bool and u16/u32/u64",
		"pytorch aten/src/ATen/native/TensorCompare.cpp TORCH_META_FUNC(clamp) (manual promotion, complex check), TORCH_META_FUNC2(clamp, Tensor); aten/src/ATen/native/cpu/TensorCompareKernel.cpp clamp_scalar_kernel_impl, clamp_kernel_impl (AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf)); c10/core/Scalar.h to<T> (checked_convert)")
	torchClampValues = newRule("pytorch.clamp.values",
		"clamp computes min(max(x, lo), hi) as std::min(std::max(a, min), max): a NaN input stays NaN, min > max gives max; with two Python-number bounds either being NaN fills the result with NaN; tensor bounds propagate a NaN bound (clamp_kernel_impl's check, maximum/minimum with one bound)",
		"pytorch aten/src/ATen/native/TensorCompare.cpp:831 TORCH_IMPL_FUNC(clamp_out) (at::fill_(result, NaN) when a scalar bound is NaN), TORCH_IMPL_FUNC(clamp_Tensor_out) (one bound: maximum_stub / minimum_stub); aten/src/ATen/native/cpu/TensorCompareKernel.cpp clamp_kernel_impl (min != min || max != max -> NaN)")
	torchClampOpen = newOpenRule("pytorch.clamp.open",
		"what a single NaN Python-number bound and a tie of -0.0 with +0.0 give depends on the kernel path: the scalar loop (std::max(a, NaN) = a) and the vector one (x86 _mm256_max_ps returns a; Arm64 vmaxq_f32 returns NaN, +0.0 over -0.0) agree only on x86-64 CPUs with scalar bounds; elsewhere those elements are unspecified",
		"pytorch aten/src/ATen/native/cpu/TensorCompareKernel.cpp clamp_min_scalar_kernel_impl / clamp_max_scalar_kernel_impl (scalar std::max/min, vec::clamp_min/clamp_max); aten/src/ATen/cpu/vec/vec256/vec256_float.h and vec128/vec128_float_neon.h (maximum, clamp_min)")
	torchClampMixed = newRule("python.clamp.mixed-bounds",
		"torch.clamp with one Python-number bound and one tensor bound picks an overload by the tensor's rank (a 0-dim tensor binds to Scalar): not stated yet",
		"tfuzz (python_arg_parser overload resolution not modeled)").silent()
	numpyClip = newRule("numpy.clip",
		"np.clip drops a Python-int bound beyond an integer array's range (min <= iinfo.min, max >= iinfo.max); with no bound left it is np.positive (a copy; bool has no loop: TypeError); with one it is np.minimum(a, max) or np.maximum(a, min); with both the clip ufunc over the common dtype (NEP 50): with two constant bounds a NaN bound fills the result with NaN, else x < min gives min and x > max gives max (a NaN input stays, min > max gives max); with array bounds each element is MIN(MAX(x, min), max) propagating a NaN of either",
		"numpy v2.5.2 (48fecee5) numpy/_core/_methods.py:96-113 (_clip), numpy/_core/src/umath/clip.cpp:47-56 (_NPY_MIN/_NPY_MAX), :150-215 (_NPY_CLIP, _npy_clip_const_minmax_), numpy/_core/code_generators/generate_umath.py:682-688 (TD(noobj))")
	numpyClipLoops = newRule("numpy.clip.loop",
		"with array bounds the clip ufunc runs the constant loop when the inner loop's steps of both bounds are 0 (x < min gives min, then x > max gives max: a tie of -0.0 and +0.0 keeps x; a NaN bound fills NaN) and MIN(MAX(x, min), max) otherwise (f32/f64: MAX(a, b) = a > b ? a : b, so a tie takes the bound; f16 runs _NPY_CLIP in both loops, half_tag being no floating_point_tag: a tie keeps x). The steps: the trivial loop (every input 0-d or of one shape, N-D ones of one contiguity; a 0-d or 1-D input needing a cast is copied first, an N-D one rules it out) gives 0 for a 0-d input, a 1-D input's stride, the itemsize for N-D; otherwise the iterator gives a bound stride 0 along axes of the broadcast shape 1 and where it has size 1, so a bound of stride 0 along every longer axis steps by 0 and one with a non-zero stride along every longer axis steps by a non-zero amount (buffered or not)",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/clip.cpp:40-58 (_NPY_MAX: half npy_half_ge, float PyArray_MAX), :150-215 (_NPY_CLIP, _npy_clip_const_minmax_), :224-240 (_npy_clip: steps[1] == 0 && steps[2] == 0; is_base_of<floating_point_tag, Tag>); numpy/_core/src/common/numpy_tag.h:42-73 (half_tag has no category marker); numpy/_core/include/numpy/npy_math.h:21-22 (PyArray_MAX, PyArray_MIN); numpy/_core/src/umath/ufunc_object.c:786-846 (check_for_trivial_loop), :869-998 (try_trivial_single_output_loop: 0-d stride 0, 1-D its stride, N-D itemsize), :2257-2275, :4246-4262 (a Python scalar: a 0-d operand of the resolved descriptor); numpy/_core/src/multiarray/nditer_constr.c:1596-1617 (npyiter_fill_axisdata: stride 0 for bshape == 1 and broadcast dims), :2005-2275 (npyiter_find_buffering_setup: a single-stride buffered operand with stride 0 keeps 0, else itemsize); nditer_api.c:1644-1695 (coalescing)")
	numpyClipZeroTie = newOpenRule("numpy.clip.zero-tie",
		"with array bounds, a tie of -0.0 and +0.0 in f32/f64 is unspecified where a bound has stride 0 along some but not all axes longer than 1 of the broadcast shape (and the trivial loop does not apply): whether its inner step is 0 then depends on which axis the iterator puts innermost (npyiter_find_best_axis_ordering) and on npyiter_find_buffering_setup's cost model, which may buffer the bound (itemsize steps), not reproduced here; and every bf16 tie with an array bound (ml_dtypes' loop, not read here)",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/multiarray/nditer_constr.c:2005-2150 (npyiter_find_buffering_setup: cost (1 + n_buffered) against the core size), :2661 (npyiter_find_best_axis_ordering); numpy/_core/src/umath/clip.cpp:217-240")
	jaxClip = newRule("jax.clip",
		"jnp.clip is maximum(min, arr) then minimum(max, arr) (either skipped when None; both None returns arr), so it promotes and propagates NaN as those do; min > max gives max; a complex operand is a ValueError",
		"jax jax-v0.11.0 jax/_src/numpy/lax_numpy.py:3364-3411 (clip)")
	pyCumsumFlat = newRule("python.cumsum.no-dim",
		"cumsum without a dim: NumPy and JAX flatten the array and sum along it (a 1-D result); torch.cumsum requires dim (TypeError: cumsum() missing required argument 'dim')",
		"np.cumsum(a, axis=None) documentation (\"the default (None) is to compute the cumsum over the flattened array\"); jax jax-v0.11.0 jax/_src/numpy/reductions.py cumsum (axis None: ravel); torch.cumsum signature (dim required)")
)

// sub evaluates c2 under the same profile, recording its rules and warnings.
func (e *evaluation) sub(c2 *tensor.Case) tensor.Outcome {
	s := &evaluation{p: e.p, c: c2}
	out := e.p.eval(s)
	for _, r := range s.rules {
		if rule, ok := LookupRule(r); ok {
			e.use(rule)
		}
	}
	for _, w := range s.warnings {
		e.warn("%s", w)
	}
	e.silent = e.silent || s.silent
	return out
}

// evalPythonNew dispatches the classes added 2026-12; ok is false for the others.
func evalPythonNew(e *evaluation) (tensor.Outcome, bool) {
	switch e.op().Class {
	case tensor.ClassBroadcast:
		e.use(pyBroadcastOps)
		return e.sub(&tensor.Case{Op: tensor.BroadcastBase(e.c.Op), Args: e.c.Args, Attrs: e.c.Attrs}), true
	case tensor.ClassWhere:
		return e.pyWhere(), true
	case tensor.ClassClamp:
		return e.pyClamp(), true
	case tensor.ClassFull:
		return e.pyFull(), true
	case tensor.ClassSort:
		return e.pySort(), true // sort.go
	case tensor.ClassMaskSelect:
		return e.pyMaskSelect(), true // maskselect.go
	case tensor.ClassMatmul:
		return e.pyMatmul(), true // matmul.go
	case tensor.ClassCat:
		return e.pyCat(), true // cat.go
	case tensor.ClassFromLiteral:
		if e.c.Attrs.DType.Valid() {
			return e.pyFromLiteralDType(*e.c.Attrs.Literal, e.c.Attrs.DType), true // pyliteraldtype.go
		}
	case tensor.ClassArange:
		if e.c.Attrs.DType.Valid() {
			return e.pyArangeDType(e.c.Attrs.DType), true // pyarangedtype.go
		}
	case tensor.ClassCumsum:
		if e.c.Attrs.Dim == nil {
			return e.pyCumsumFlat(), true
		}
	}
	return tensor.Outcome{}, false
}

// pyCumsumFlat is cumsum without a dim.
func (e *evaluation) pyCumsumFlat() tensor.Outcome {
	e.use(pyCumsumFlat)
	if e.p.Framework == PyTorch {
		return tensor.ErrorOutcome(tensor.Other, "TypeError: cumsum() received an invalid combination of arguments: missing required argument 'dim'")
	}
	x := e.c.Args[0].Tensor
	flat := x.Contiguous().Reshape(x.Len())
	zero := 0
	return e.sub(&tensor.Case{Op: "cumsum", Args: []tensor.Arg{{Tensor: flat}}, Attrs: tensor.Attrs{Dim: &zero, DType: e.c.Attrs.DType, ToleranceULPs: e.c.Attrs.ToleranceULPs}})
}

// pyWhere is where(condition, x, y).
func (e *evaluation) pyWhere() tensor.Outcome {
	cond := e.input(e.c.Args[0].Tensor)
	var vals []pyArg
	for _, a := range e.c.Args[1:] {
		if a.IsScalar() {
			if a.Scalar.Kind == tensor.ScalarComplex {
				return e.unsupported(pyWhereNotModeled, "tfuzz: where with a complex scalar is not modeled")
			}
			vals = append(vals, pyArg{s: a.Scalar})
		} else {
			vals = append(vals, pyArg{t: e.input(a.Tensor)})
		}
	}
	switch e.p.Framework {
	case PyTorch:
		e.use(torchWhereCond)
		if o := e.torchMPSF64(append([]pyArg{{t: cond}}, vals...)); o != nil {
			return *o
		}
		if cond.DType != tensor.Bool {
			return e.fail(torchWhereCond, tensor.UnsupportedDType, "RuntimeError: where expected condition to be a boolean tensor, but got a tensor with dtype %s", torchName(cond.DType))
		}
	case NumPy:
		e.use(numpyWhere)
	default:
		e.use(jaxWhere)
		for i, v := range vals {
			if o := e.jaxScalarRange(v, i+1); o != nil {
				return *o
			}
		}
	}
	shape, o := e.pyBroadcastAll(append([]pyArg{{t: cond}}, vals...))
	if o != nil {
		return *o
	}
	common, o := e.pyPromote(vals)
	if o != nil {
		return *o
	}
	if !common.Valid() {
		return e.unsupported(pyWhereNotModeled, "tfuzz: %s where of two Python scalars is not modeled", e.p.Framework)
	}
	if e.p.Framework == PyTorch {
		if k := map[bool]string{true: "where_cpu", false: "where_cuda"}[e.p.Device == CPU]; isBarebonesUnsigned(common) {
			return e.torchNoKernelError(k, common)
		}
	}
	for _, v := range vals {
		if v.isScalar() && v.s.Kind == tensor.ScalarInt && common.IsInt() && !intFits(v.s.Int(), common) && e.p.Framework == NumPy {
			return e.unsupported(pyWhereNotModeled, "tfuzz: NumPy where with the Python int %s beyond %s is not modeled", v.s.Text, common)
		}
	}
	x, y := e.convertArg(vals[0], common), e.convertArg(vals[1], common)
	out := tensor.New(common, shape...)
	for i := range out.Len() {
		if isNonzero(cond, broadcastIndex(shape, i, cond.Shape)) {
			copyElem(out, i, x, broadcastIndex(shape, i, x.Shape))
		} else {
			copyElem(out, i, y, broadcastIndex(shape, i, y.Shape))
		}
	}
	return tensor.ValueOutcome(out)
}

// torchMPSF64 is MPS's refusal of a float64 tensor operand.
func (e *evaluation) torchMPSF64(args []pyArg) *tensor.Outcome {
	if e.p.Framework != PyTorch || e.p.Device != MPS {
		return nil
	}
	for _, a := range args {
		if !a.isScalar() && a.t != nil && (a.t.DType == tensor.F64 || a.t.DType == tensor.C128) {
			return outcomePtr(e.fail(torchMPSNoF64, tensor.UnsupportedDType,
				"TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead."))
		}
	}
	return nil
}

// jaxScalarRange is the OverflowError of a Python int a jitted JAX function
// cannot parse (argument position pos, 0-based).
func (e *evaluation) jaxScalarRange(a pyArg, pos int) *tensor.Outcome {
	if !a.isScalar() || a.s.Kind != tensor.ScalarInt {
		return nil
	}
	limit := tensor.I32
	if e.p.X64 {
		limit = tensor.I64
	}
	if intFits(a.s.Int(), limit) {
		return nil
	}
	return outcomePtr(e.fail(jaxIntOverflow, tensor.OutOfRange,
		"OverflowError: An overflow was encountered while parsing an argument to a jitted computation, whose argument path is x%d. Got <class 'int'> with value %s", pos, a.s.Text))
}

// pyBroadcastAll broadcasts the tensor operands' shapes.
func (e *evaluation) pyBroadcastAll(args []pyArg) ([]int, *tensor.Outcome) {
	var shape []int
	first := true
	for _, a := range args {
		if a.isScalar() || a.t == nil {
			continue
		}
		if first {
			shape, first = append([]int{}, a.t.Shape...), false
			continue
		}
		s, _, ok := broadcastShapes(shape, a.t.Shape)
		if !ok {
			return nil, outcomePtr(e.fail(broadcastRule, tensor.ShapeMismatch, "shapes %v and %v do not broadcast", shape, a.t.Shape))
		}
		shape = s
	}
	return shape, nil
}

// isNaNScalar reports a float scalar whose value is NaN.
func isNaNScalar(a tensor.Arg) bool {
	return a.IsScalar() && a.Scalar.Kind == tensor.ScalarFloat && math.IsNaN(a.Scalar.Float())
}
