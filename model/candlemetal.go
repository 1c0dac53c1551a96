package model

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's Metal backend where its kernels and their dispatch differ from
// what one would write by hand: the kernel a layout picks, the kernels that
// do not exist, the fast-math functions, and the order of a float sum.
// Read at candle 2a13b0f3 (candle-core/src/metal_backend/mod.rs,
// candle-metal-kernels/src/...).

var (
	candleMetalVariantRule = newRule("candle.metal.binary-layout-variant",
		"a binary op or comparison on Metal loads one of nine kernels chosen from the operands' layouts: OP_T when both are contiguous, else OP_T_V with V = scalar (both scalar-like: every dim 1, or every stride 0), sc / rss (a scalar-like lhs, a contiguous / strided rhs), cs / lss (a scalar-like rhs), rstrided / lstrided (one side strided), strided; a dtype without kernels fails on that variant's name (\"Error while loading function: badd_i32_cs\")",
		"candle 2a13b0f3: candle-core/src/metal_backend/mod.rs:1942-1958 (the variant match), layout.rs:121-133 (is_scalar_like); candle-metal-kernels/src/metal_src/binary.metal:122-131 (init_binary_k instantiates all nine)")
	candleMetalUnaryStrided = newRule("candle.metal.unary-strided-coverage",
		"a unary op on a non-contiguous Metal tensor uses the strided kernel table, which has no sign and no recip for any dtype (and no sign_i64): \"Metal strided unary usign F32 not implemented\", an Err, although unary.metal instantiates sign_f32_strided",
		"candle 2a13b0f3: candle-core/src/metal_backend/mod.rs:761-819 (the strided match: no usign, no urecip), :684-746 (the contiguous one has both); candle-metal-kernels/src/metal_src/unary.metal:232,246 (init_unary_float(recip), (sign))")
	candleMetalFastMath = newRule("candle.metal.fast-math-functions",
		"Metal compiles the kernels with fast math and calls the element type's overloads (sqrt, exp, log of a half are the half-precision functions): neither is specified to the bit, so sqrt, exp, log, recip (1.0 / x in float) and float division are unspecified except at IEEE's special values (NaN, ±inf, ±0, negative sqrt/log arguments) and where the result is exact (sqrt of a square, exp(0) = 1, log(1) = 0, an exact quotient)",
		"candle 2a13b0f3: candle-metal-kernels/src/kernel.rs:192-213 (MTLMathModeFast, fast FP32 functions), src/metal_src/unary.metal:161-163,185-189 (recip, usqrt/uexp/ulog on T); Metal Shading Language spec (accuracy of the fast and half-precision functions given in ulps)")
	candleMetalIndexNarrow = newRule("candle.metal.index-select.no-i64-u8-u32",
		"index_select with I64 ids over a U8 or U32 source on Metal is an Err: the host names the kernel is_i64_u8 / is_i64_u32, indexing.metal defines no such kernel (only CUDA has them), and loading it fails with MetalKernelError::LoadFunctionError, returned as Error::Metal (\"Metal error Error while loading function: is_i64_u8\"); the load comes before the launch, so an empty selection fails the same way",
		"candle 2a13b0f3: candle-core/src/metal_backend/mod.rs:1635-1636 (the names), :1649-1664 (call_index_select(..).map_err(MetalError::from)?); candle-metal-kernels/src/metal_src/indexing.metal:262-285 (16 INDEX_OPs, no is_i64_u8/u32), src/kernels/indexing.rs:29 (load_pipeline before linear_split at :54), src/metal/library.rs:32-35 (newFunctionWithName None -> LoadFunctionError), src/err.rs:11-12; candle-core/src/error.rs:174-175 (\"Metal error {0}\"); the source-facts row 5c said otherwise before its 2026-12 correction")
	candleMetalIndexIDsContiguous = newRule("candle.metal.index-select.contiguous-ids",
		"Metal index_select of non-contiguous ids is an Err (\"Metal index_select requires contiguous ids\"), before the kernel name",
		"candle 2a13b0f3: candle-core/src/metal_backend/mod.rs:1606-1608")
	candleMetalIndexStrided = newRule("candle.metal.index-select.strided-source",
		"for a non-contiguous source, Metal's index_select kernel finds the selected element at get_strided_index(src_i, src_dim_size, src_dims, src_strides): candle passes the size of the selected dim where the number of dims belongs, so the flat index is decomposed over the first src_dim_size dims and strides (in 32-bit arithmetic): the right element only when that size equals the rank; past the rank it reads beyond the bound arrays (unspecified)",
		"candle 2a13b0f3: candle-metal-kernels/src/metal_src/indexing.metal:22-35 (get_strided_index), :67-69 (contiguous ? src_i : get_strided_index(src_i, src_dim_size, ...)); candle-core/src/metal_backend/mod.rs:1657-1659 (is_contiguous, dims, stride)")
	candleMetalSumOrder = newRule("candle.metal.reduce.sum-order",
		"a float sum on Metal is one threadgroup per output of B = min(1024, next_power_of_two(n / 2)) threads (1024: the pipelines' limit on Apple GPUs, assumed): thread t adds elements t, t + B, ... in order from 0 in the element type, threadgroup memory adds slot t + s into slot t for s = B/2, ..., 32, and then f32 and f16 finish with simd_sum over the (at most 32) lanes, whose order is the hardware's: exact only when every order of the lanes gives the same bits, otherwise unspecified; bf16 has no simd_sum and finishes with the shuffle-down tree s = 16, ..., 1, fully determined",
		"candle 2a13b0f3: candle-metal-kernels/src/kernels/reduce.rs:22,47-50 (work per threadgroup, width), src/metal_src/reduce.metal:418-439 (loader), :504-538 (block_reducer: shared memory down to 64, then shared[tid] + shared[tid + 32], then simd_reduce), :231-244 (Sum::simd_op = simd_sum), :481-502 (built-in simd ops for is_simd_t types, shuffle-down otherwise), :341-346 (bfloat: no built-in simd type)")
)

// candleLayoutContiguous is candle's Layout::is_contiguous: row-major
// strides, where a dim of size 1 may have any stride; the start offset
// does not matter.
func candleLayoutContiguous(t *tensor.Tensor) bool {
	return t.Strides == nil || candleStridesContiguous(t.Shape, t.Strides)
}

// candleMetalLayoutName is the kernel table MetalStorage's affine, powf
// and to_dtype pick for t's layout, as their "not implemented" Errs name
// it: "Metal contiguous affine I32", "Metal strided powf I32"
// (metal_backend/mod.rs:145,168,206,225,598,651 at 2a13b0f3).
func candleMetalLayoutName(t *tensor.Tensor) string {
	if candleLayoutContiguous(t) {
		return "contiguous"
	}
	return "strided"
}

// candleScalarLike is candle's Layout::is_scalar_like: every dim 1 (or
// rank 0), or every stride 0.
func candleScalarLike(t *tensor.Tensor) bool {
	all1, all0 := true, true
	for k, n := range t.Shape {
		all1 = all1 && n == 1
		all0 = all0 && t.Strides != nil && t.Strides[k] == 0
	}
	return all1 || all0
}

// candleMetalBinaryVariant is the suffix of the binary kernel candle's
// Metal host loads for operands of these layouts (a broadcast rhs is
// scalar-like whatever its storage).
func candleMetalBinaryVariant(x, y *tensor.Tensor, rhsBroadcast bool) string {
	ls, rs := candleScalarLike(x), rhsBroadcast || candleScalarLike(y)
	lc, rc := candleLayoutContiguous(x), rhsBroadcast || candleLayoutContiguous(y)
	switch {
	case ls && rs:
		return "_scalar"
	case ls && rc:
		return "_sc"
	case ls:
		return "_rss"
	case rs && lc:
		return "_cs"
	case rs:
		return "_lss"
	case lc && rc:
		return ""
	case lc:
		return "_rstrided"
	case rc:
		return "_lstrided"
	}
	return "_strided"
}

// candleMetalUnaryKernel reports a unary op that finds no Metal kernel for
// t: the strided table lacks sign and recip, the contiguous one maps sign
// of i64 to a kernel that does not exist, and neither has integer ops.
func (e *evaluation) candleMetalUnaryKernel(name string, t *tensor.Tensor) (tensor.Outcome, bool) {
	d := t.DType
	float := d == tensor.F32 || d == tensor.F16 || d == tensor.BF16
	switch {
	case !candleLayoutContiguous(t):
		if float && name != "sign" && name != "recip" {
			return tensor.Outcome{}, false
		}
		return e.fail(candleMetalUnaryStrided, tensor.UnsupportedDType, "Metal strided unary u%s %s not implemented", name, rustName(d)), true
	case name == "sign" && d == tensor.I64:
		return e.fail(candleMetalSignI64, tensor.UnsupportedDType, "Metal error Error while loading function: sign_i64"), true
	case !float:
		return e.fail(candleMetalKernels, tensor.UnsupportedDType, "Metal contiguous unary u%s %s not implemented", name, rustName(d)), true
	}
	return tensor.Outcome{}, false
}

// candleMetalFloatUnary is the fast-math functions of unary.metal, in the
// element type d: the correctly rounded value, and whether the hardware is
// bound to it (candle.metal.fast-math-functions).
func (e *evaluation) candleMetalFloatUnary(name string, x float64, d tensor.DType) (float64, bool) {
	e.use(candleMetalFastMath)
	special := math.IsNaN(x) || math.IsInf(x, 0) || x == 0
	switch name {
	case "sqrt":
		v := crSqrt(x, d)
		return v, special || x < 0 || v*v == x // v*v is exact in float64
	case "exp":
		return crExp(x, d), special
	case "log":
		return roundTo(math.Log(x), d), special || x < 0 || x == 1
	}
	// recip: static_cast<T>(1.0 / x) with a float literal, so in f32.
	q := rustFloatOp("div", 1, x, tensor.F32)
	return roundTo(q, d), candleExactQuotient(1, x, q)
}

// candleMetalSum is a float sum of xs in candle's Metal order
// (candle.metal.reduce.sum-order): the value, and false when the
// hardware's simd_sum order decides it.
func (e *evaluation) candleMetalSum(xs []float64, d tensor.DType) (float64, bool) {
	e.use(candleMetalSumOrder)
	add := func(a, b float64) float64 { return roundTo(a+b, d) }
	block := 1
	for block < len(xs)/2 { // next_power_of_two(n / 2), at least 1
		block *= 2
	}
	block = min(block, 1024)
	lanes := make([]float64, block)
	for t := range lanes {
		for i := t; i < len(xs); i += block {
			lanes[t] = add(lanes[t], xs[i])
		}
	}
	for s := block / 2; s >= 32; s /= 2 {
		for t := 0; t < s; t++ {
			lanes[t] = add(lanes[t], lanes[t+s])
		}
	}
	lanes = lanes[:min(block, 32)]
	if d == tensor.BF16 {
		for s := len(lanes) / 2; s > 0; s /= 2 {
			for t := 0; t < s; t++ {
				lanes[t] = add(lanes[t], lanes[t+s])
			}
		}
		return lanes[0], true
	}
	return rustExactSum(lanes, d)
}

// candleMetalSourceElement is the storage element Metal's index_select
// reads for the flat source index at (size_t, possibly wrapped by a
// negative i64 id): at itself from the start offset for a contiguous src,
// through candleMetalStridedSource for another; false where it reads
// outside the storage from the start offset.
func candleMetalSourceElement(src *tensor.Tensor, at uint64, dimSize int) (int, bool) {
	if !candleLayoutContiguous(src) {
		return candleMetalStridedSource(src, at, dimSize)
	}
	if at >= uint64(len(src.Data)-src.Offset) {
		return 0, false
	}
	return src.Offset + int(at), true
}

// candleMetalStridedSource is the storage element Metal's index_select
// reads for the flat source index at of a non-contiguous src
// (candle.metal.index-select.strided-source), and false where it reads
// beyond the bound dims and strides.
func candleMetalStridedSource(src *tensor.Tensor, at uint64, dimSize int) (int, bool) {
	i := uint32(at)
	var off uint32
	for k := dimSize - 1; k >= 0; k-- {
		if k >= src.Rank() || src.Shape[k] == 0 {
			return 0, false
		}
		n := uint64(src.Shape[k])
		off += uint32((uint64(i) % n) * uint64(src.Strides[k]))
		i = uint32(uint64(i) / n)
	}
	pos := src.Offset + int(off)
	return pos, pos < len(src.Data)
}
