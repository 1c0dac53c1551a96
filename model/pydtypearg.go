package model

import "github.com/tfuzz/tfuzz/tensor"

// The dtype argument of sum, prod, mean and cumsum in PyTorch, NumPy and
// JAX (a.sum(dtype=D), np.sum(a, dtype=D), jnp.sum(a, dtype=D)). Each
// framework converts the input to a computation dtype with its own cast
// rules (pycast.go), reduces there with the machinery of pyreduce.go,
// reduceorder.go and pycumsum.go, and returns the requested dtype: there is
// no integer widening. What differs is the computation dtype (PyTorch CPU's
// mean sums f16/bf16 in f32; JAX does not upcast f16/bf16 once a dtype is
// given), the checks, and how mean divides.

// dtypeArg is the dtype argument of the reduction being evaluated.
type dtypeArg struct {
	result  tensor.DType // the result's dtype
	compute tensor.DType // the dtype the input is converted to and reduced in
	cast    bool         // the input's dtype was another: a conversion ran
	open    *Rule        // the float order is not pinned: only order-free groups
	unspec  []bool       // input elements left unspecified by the conversion
}

var (
	torchDTypeArg = newRule("pytorch.reduce.dtype-arg",
		"PyTorch sum/prod/cumsum(dtype=D) reduce self.to(D) in D's kernel and return D (no integer widening; integers wrap in D); a bool D adds as bool (a + b stored as bool: any) and multiplies with a && b (all); CUDA keeps an f16/bf16 input for an f32 result and accumulates it in f32, the same values",
		"pytorch 52881c80 aten/src/ATen/native/ReduceOps.cpp TORCH_META_FUNC2(sum, dim_IntList) (infer_dtype_from_optional: opt_dtype first), TORCH_IMPL_FUNC(sum_out), impl_func_cum_ops (stub(result, self.to(result.scalar_type()))); aten/src/ATen/native/ReduceOpsUtils.h make_reduction_from_out_ty (gpu_lowp_to_f32, self.to(in_dtype)); pytorch eb720578 aten/src/ATen/native/cpu/SumKernel.cpp sum_kernel_impl; aten/src/ATen/native/cpu/ReduceOpsKernel.cpp prod_kernel_impl (bool: a && b)")
	torchDTypeArgKernel = newRule("pytorch.cpu.reduce.dtype-arg.kernels",
		"PyTorch CPU has no sum kernel (\"sum_cpu\", AT_DISPATCH_INTEGRAL_TYPES_AND(Bool) and the floats) nor prod kernel (\"prod_out_cpu\") for u16/u32/u64, and no cumsum kernel (\"cumsum_out_cpu\", AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf)) for bool or u16/u32/u64: NotImplementedError once there are elements (an empty sum returns zeros, an empty product ones, before any kernel)",
		"pytorch eb720578 aten/src/ATen/native/cpu/SumKernel.cpp sum_kernel_impl; aten/src/ATen/native/cpu/ReduceOpsKernel.cpp:79-83 cumsum_cpu_kernel, prod_kernel_impl (\"prod_out_cpu\"); pytorch 52881c80 aten/src/ATen/native/ReduceOps.cpp TORCH_IMPL_FUNC(sum_out) (iter.numel() == 0: result.zero_()), impl_func_cum_ops")
	torchMeanDTypeArg = newRule("pytorch.mean.dtype-arg",
		"PyTorch mean(dtype=D) needs a float D (RuntimeError \"mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: Int\", before any dim check); CPU runs sum_out(self, dtype = f32 for an f16/bf16 D, else D), div_ by N in that dtype, then converts to D; CUDA reduces self.to(D) with mean_stub",
		"pytorch 52881c80 aten/src/ATen/native/ReduceOps.cpp TORCH_META_FUNC2(mean, dim) (what = \"Optional\"), TORCH_IMPL_FUNC(mean_out) (is_half_type ? ScalarType::Float : dtype; at::sum_out(...).div_(dim_prod); else make_reduction_from_out_ty, mean_stub)")
	torchDTypeArgOpen = newRule("pytorch.reduce.dtype-arg.not-established",
		"not established from the source, so unsupported here: MPS reductions with a dtype (MPSGraph casts and reduces; no MPS source read, no MPS run), CUDA's kernels for a bool or u16/u32/u64 dtype, and cumsum of a 0-dim input into another dtype (result.fill_(self) converts through a c10::Scalar's checked conversion)",
		"pytorch 52881c80 aten/src/ATen/native/ReduceOps.cpp impl_func_cum_ops (self.dim() == 0: result.fill_(self)); no MPS or CUDA source read for these").silent()
	numpyDTypeArg = newRule("numpy.reduce.dtype-arg",
		"np.sum/np.prod/np.cumsum(a, dtype=D) run D's add/multiply loop (bool: logical or / and) on the input cast to D with unsafe casting (NumPy's astype conversions, fractions truncated) and return D; cumsum is add.accumulate, copying the first (cast) element and adding in order in D",
		"numpy v2.5.2 (48fecee5) numpy/_core/_methods.py:47-53 (_sum, _prod: umr_sum(a, axis, dtype, ...)); numpy/_core/src/umath/ufunc_object.c:2674 (reduce: reducelike_promote_and_resolve(..., NPY_UNSAFE_CASTING)), :2749 (accumulate); numpy/_core/src/umath/reduction.c:215-290 (buffered iterator, NPY_UNSAFE_CASTING)")
	numpyDTypeArgBuffered = newOpenRule("numpy.reduce.dtype-arg.buffered",
		"with a cast, NumPy's buffered reduction iterator hands the loop chunks of cast data whose bounds (and so the pairwise blocks) are not pinned here: a float group is specified when it is order-free in D",
		"numpy v2.5.2 (48fecee5) numpy/_core/src/umath/reduction.c:215-290 (NPY_ITER_BUFFERED | NPY_ITER_EXTERNAL_LOOP | NPY_ITER_GROWINNER, buffersize)")
	numpyMeanDTypeArg = newRule("numpy.mean.dtype-arg",
		"np.mean(a, dtype=D) is umr_sum(arr, axis, D) (so the sum is rounded to D), then true_divide by rcount, an np.intp (not weak under NEP 50: the float64 loop), stored into D with unsafe casting: floats round the f64 quotient once, integers take NumPy's float -> int conversion (an empty slice's NaN included), bool is q != 0; a 0-dim result is ret.dtype.type(ret / rcount), the same conversion",
		"numpy v2.5.2 (48fecee5) numpy/_core/_methods.py:115-146 (_mean), :72-84 (_count_reduce_items: nt.intp(items)); NumPy 1.24 checked locally (np.mean(int32 [1, 2, 4], dtype=int32) = 2, empty -> -2147483648)")
	jaxDTypeArgX32 = newRule("jax.dtype-arg.x32",
		"with jax_enable_x64 off, a requested 64-bit dtype (i64, u64, f64) is truncated to its 32-bit kind with a UserWarning (jax_explicit_x64_dtypes defaults to WARN); bool and 32-bit or narrower dtypes are kept",
		"jax jax-v0.11.0 jax/_src/dtypes.py:957-981 (_maybe_canonicalize_explicit_dtype), :1104-1126 (check_and_canonicalize_user_dtype); jax/_src/config.py:1623-1626 (default WARN)")
	jaxDTypeArg = newRule("jax.reduce.dtype-arg",
		"jnp.sum/jnp.prod(a, dtype=D) convert the input to D (lax.convert_element_type: JAX's conversions) and reduce in D itself, since upcast_f16_for_computation is (dtype is None); bool reduces with bitwise_or / bitwise_and; jnp.cumsum converts to D and accumulates in it, a bool D accumulating a != 0 in the default int and converting back (a running any)",
		"jax jax-v0.11.0 jax/_src/numpy/reductions.py:100-160 (_reduction: computation_dtype, convert_element_type, bool_op), :231-237 (_reduce_sum), :318-324 (_reduce_prod), :2033-2080 (_cumulative_reduction)")
	jaxDTypeArgHalf = newOpenRule("jax.reduce.dtype-arg.half",
		"jnp reductions with an f16/bf16 dtype compute in that dtype, but XLA's CPU and GPU backends may upcast or rewrite f16/bf16 reductions and divisions internally (as they do f16/bf16 reduce windows, issue 13): a sum or product is specified when order-free in the dtype, a mean when dividing in the dtype, in f32, and multiplying by the reciprocal agree",
		"jax jax-v0.11.0 jax/_src/numpy/reductions.py:140-145 (computation_dtype = result_dtype); issue 13 (jax.cumsum.half-zero-sign)")
	jaxMeanDTypeArg = newRule("jax.mean.dtype-arg",
		"jnp.mean(a, dtype=D) sums in D (no f16 upcast with a dtype) and lax.div's by the count converted to D: a float D as jax.mean.reciprocal (times R_D(1/N)); an integer D truncating, the count wrapping in D, x / 0 = -1 (all ones) for an empty slice; a bool D is a TypeError (lax.div accepts no bool)",
		"jax jax-v0.11.0 jax/_src/numpy/reductions.py:809-873 (mean: upcast_f16_for_computation=(dtype is None)), :876-890 (_count: convert_element_type(count, dtype)), :892-921 (_mean: lax.div(sum(a, dtype=computation_dtype), normalizer))")
)

// pyDTypeArgCheck returns the outcome a reduction's dtype argument gives
// before the input is looked at (cumsum of a 0-dim input aside).
func (e *evaluation) pyDTypeArgCheck(x *tensor.Tensor) (tensor.Outcome, bool) {
	d, op := e.c.Attrs.DType, e.c.Op
	switch {
	case d.IsComplex():
		return e.unsupported(notModeled, "tfuzz: %s with a complex dtype is not modeled yet for %s", op, e.p.Name), true
	case e.p.Device == MPS && d == tensor.F64:
		return e.fail(torchMPSNoF64, tensor.UnsupportedDType,
			"TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead."), true
	case e.p.Framework == PyTorch && op == "mean" && !d.IsFloat():
		return e.fail(torchMeanDTypeArg, tensor.UnsupportedDType,
			"RuntimeError: mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: %s", torchName(d)), true
	case e.p.Device == MPS,
		e.p.Device == CUDA && (d == tensor.Bool || isBarebonesUnsigned(d)),
		e.p.Framework == PyTorch && op == "cumsum" && x.Rank() == 0 && x.DType != d:
		return e.unsupported(torchDTypeArgOpen, "tfuzz: %s(dtype=%s) is not established for %s", op, pyName(d), e.p.Name), true
	case e.p.Framework == JAX && op == "mean" && d == tensor.Bool:
		return e.fail(jaxMeanDTypeArg, tensor.UnsupportedDType,
			"TypeError: div does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, complexfloating."), true
	}
	return tensor.Outcome{}, false
}

// pyDTypeArg converts x for a reduction of numel elements with the dtype
// argument, sets e.dt, and returns the converted input, or the kernel error.
func (e *evaluation) pyDTypeArg(x *tensor.Tensor, numel int) (*tensor.Tensor, tensor.Outcome, bool) {
	d, op := e.c.Attrs.DType, e.c.Op
	a := &dtypeArg{result: d, compute: d}
	switch e.p.Framework {
	case PyTorch:
		if op == "mean" {
			e.use(torchMeanDTypeArg)
			if e.p.Device == CPU && isHalf(d) {
				a.compute = tensor.F32
			}
		} else {
			e.use(torchDTypeArg)
		}
		if k := torchDTypeArgKernelName(op, d); k != "" && numel > 0 && !(op == "cumsum" && x.Rank() == 0) {
			return nil, e.fail(torchDTypeArgKernel, tensor.UnsupportedDType, "NotImplementedError: %q not implemented for '%s'", k, torchName(d)), true
		}
	case NumPy:
		e.use(numpyDTypeArg)
		if op == "mean" {
			e.use(numpyMeanDTypeArg)
		}
	default:
		e.use(jaxDTypeArg)
		if d != tensor.Bool && !e.p.X64 && narrow32(d) != d {
			e.use(jaxDTypeArgX32)
			name := map[string]string{"sum": "sum", "prod": "prod", "mean": "mean", "cumsum": "cumsum"}[op]
			e.warnJAXTruncation(name, d)
			a.result, a.compute = narrow32(d), narrow32(d)
		}
		if op == "mean" {
			e.use(jaxMeanDTypeArg)
		}
		if isHalf(a.compute) && op != "cumsum" {
			a.open = jaxDTypeArgHalf
		}
	}
	a.cast = x.DType != a.compute
	if a.cast && e.p.Framework == NumPy && op != "cumsum" {
		a.open = numpyDTypeArgBuffered
	}
	e.dt = a
	if !a.cast {
		return x, tensor.Outcome{}, false
	}
	return e.dtypeArgConvert(x, a), tensor.Outcome{}, false
}

// torchDTypeArgKernelName names PyTorch CPU's kernel that has no instantiation
// for the dtype argument d of op ("" when one exists).
func torchDTypeArgKernelName(op string, d tensor.DType) string {
	switch {
	case op == "sum" && isBarebonesUnsigned(d):
		return "sum_cpu"
	case op == "prod" && isBarebonesUnsigned(d):
		return "prod_out_cpu"
	case op == "cumsum" && (isBarebonesUnsigned(d) || d == tensor.Bool):
		return "cumsum_out_cpu"
	}
	return ""
}

// dtypeArgConvert converts x to a.compute with the profile's cast rules,
// recording the elements the conversion leaves unspecified.
func (e *evaluation) dtypeArgConvert(x *tensor.Tensor, a *dtypeArg) *tensor.Tensor {
	out := tensor.New(a.compute, x.Shape...)
	for i := 0; i < x.Len(); i++ {
		var f convFlags
		if e.p.Framework == NumPy && e.p.Arch != Arm64 && a.compute == tensor.U32 && x.DType.IsFloat() {
			// the buffered cast's vector/scalar split is not pinned
			var v uint64
			v, f = x86FloatToInt(x.Float(i), x.DType, tensor.U32, laneUnknown)
			e.use(x86Rule(tensor.U32, laneUnknown, f))
			out.SetUint(i, v)
		} else {
			f = e.castElement(x, out, i)
		}
		if f.has(convUnspecified) {
			if a.unspec == nil {
				a.unspec = make([]bool, x.Len())
			}
			a.unspec[i] = true
		}
	}
	return out
}

// dtypeArgUnspecified reports that input element i was left unspecified by
// the dtype argument's conversion.
func (e *evaluation) dtypeArgUnspecified(i int) bool {
	return e.dt != nil && e.dt.unspec != nil && e.dt.unspec[i]
}

// groupUnspecified reports that a converted element of output k's group is
// unspecified.
func (e *evaluation) groupUnspecified(g redGeom, k int) bool {
	found := false
	for j := 0; j < g.n && !found; j++ {
		found = e.dtypeArgUnspecified(g.at(k, j))
	}
	return found
}

// dtypeArgPlan adjusts a float plan for the dtype argument: an order not
// pinned (NumPy's buffered cast, JAX's f16/bf16) leaves only order-free
// groups, checked in the result's dtype. (PyTorch CPU's accumulation buffer
// is part of its view plan: pytorch.cpu.sum.acc-buffer.)
func (e *evaluation) dtypeArgPlan(p *floatPlan, prod bool) {
	if e.dt == nil {
		return
	}
	r := e.dt.open
	if r == nil || p.open != nil {
		return
	}
	p.open, p.check = r, Arith{prod, e.dt.compute}
	if e.p.Framework == JAX {
		p.arith = p.check
	}
}

// reduceBool is sum (any) or prod (all) into a bool dtype.
func (e *evaluation) reduceBool(x *tensor.Tensor, g redGeom, prod bool) tensor.Outcome {
	out := tensor.New(tensor.Bool, g.outShape...)
	for k := range g.groups() {
		v := prod
		for j := range g.n {
			nz := isNonzero(x, g.at(k, j))
			if prod {
				v = v && nz
			} else {
				v = v || nz
			}
		}
		out.SetBool(k, v)
		if e.groupUnspecified(g, k) {
			out.SetUnspecified(k)
		}
	}
	return tensor.ValueOutcome(out)
}

// meanNonFloat is mean into an integer or bool dtype (NumPy, JAX): the sum
// in that dtype, divided as the framework divides.
func (e *evaluation) meanNonFloat(x *tensor.Tensor, g redGeom) tensor.Outcome {
	rdt := e.dt.result
	out := tensor.New(rdt, g.outShape...)
	if g.groups() > 0 && g.n == 0 && e.p.Framework == NumPy {
		e.meanOfEmpty(len(g.outShape) == 0)
	}
	for k := range g.groups() {
		var s uint64
		anyNZ := false
		for j := range g.n {
			s += uint64(x.Int(g.at(k, j)))
			anyNZ = anyNZ || isNonzero(x, g.at(k, j))
		}
		switch {
		case rdt == tensor.Bool: // NumPy: bool(any / N), NaN when empty
			out.SetBool(k, anyNZ || g.n == 0)
		case e.p.Framework == JAX:
			out.SetUint(k, xlaDiv(wrapInt(s, rdt), wrapInt(uint64(g.n), rdt), rdt))
		default:
			sf := intToFloat(wrapInt(s, rdt), rdt, tensor.F64)
			v, f := e.castFloatToInt(sf/float64(g.n), tensor.F64, rdt, k, g.groups())
			out.SetUint(k, v)
			if f.has(convUnspecified) {
				out.SetUnspecified(k)
			}
		}
		if e.groupUnspecified(g, k) {
			out.SetUnspecified(k)
		}
	}
	return tensor.ValueOutcome(out)
}

// dtypeArgMeanDivide is the mean of a group whose sum is s under the dtype
// argument, before the rounding to the result dtype (NumPy and JAX).
// xs are the group's values: JAX's f16/bf16 candidates sum them in f32 too
// (an f16 sum of two values may overflow where an f32 one does not).
func (e *evaluation) dtypeArgMeanDivide(s float64, xs []float64) (float64, bool) {
	d := e.dt.compute
	N := float64(len(xs))
	if e.p.Framework == NumPy {
		return roundTo(s, d) / N, true
	}
	Nd := roundTo(N, d)
	v := roundTo(s*roundTo(1/Nd, d), d)
	if !isHalf(d) {
		return v, true
	}
	e.use(jaxDTypeArgHalf)
	f32 := tensor.F32
	s32 := redSequential(xs, Arith{false, f32})
	for _, w := range []float64{roundTo(s/Nd, d), roundTo(roundTo(s/N, f32), d), roundTo(roundTo(s*roundTo(1/N, f32), f32), d),
		roundTo(roundTo(s32/N, f32), d), roundTo(roundTo(s32*roundTo(1/N, f32), f32), d)} {
		if !redSame(v, w) {
			return 0, false
		}
	}
	return v, true
}
