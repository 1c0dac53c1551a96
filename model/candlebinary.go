package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle's binary operators: tensor op tensor (equal shapes and dtypes, no
// promotion) and tensor op f64 (affine). Integer arithmetic is Rust's on the
// CPU and the GPU's on Metal.

var (
	candleSameShape = newRule("candle.binary.same-shape",
		"candle's operators (+ - * / maximum minimum, comparisons) require equal shapes, checked first (\"shape mismatch in add, lhs: [3], rhs: [1]\"); broadcasting is the separate broadcast_* methods",
		"spec/case-format.md (candle's operators require equal shapes); seed 003 §没有类型提升 (broadcast_mul); tensor.rs same_shape_binary_op")
	candleNoPromotion = newRule("candle.binary.no-promotion",
		"candle never promotes: two tensors of different dtypes are an Err \"dtype mismatch in add, lhs: F32, rhs: F64\" (comparisons: \"in cmp\")",
		"seed 003 §没有类型提升 (f32 + f64, f32 + i64, f32 + bf16); seed 000 §下标的 dtype (argmax U32 + I64); source-facts extra 7")
	candleEmptyBinary = newRule("candle.binary.empty-returns-lhs",
		"an arithmetic operator or maximum/minimum on zero elements returns the lhs unchanged, before any dtype check; affine and unary ops on zero elements return their input",
		"source-facts extra 5 (binary ops with elem_count()==0 return self.clone()); tensor.rs binary_op!, affine, unary_op!")
	candleIntDiv = newRule("candle.int.div-trunc",
		"candle's / on integer tensors is Rust's (CPU) or Metal's integer division: truncation toward zero, an integer result",
		"seed 000 §除法：只有截断 (i64 [-7,-7,7,7] / [2,-2,2,-2] = [-3,3,3,-3], CPU and Metal); source-facts #1, #5a")
	candleMetalIntDivZero = newOpenRule("candle.metal.int-div-by-zero",
		"Metal integer division by zero does not trap: i64 x / 0 = 0 and u32 x / 0 = 4294967295 (all ones); other dtypes unspecified; i64 MIN / -1 = MIN",
		"seed 000 §除以 0 和 MIN / -1 (Metal rows i64 [7,-7]/0 = [0,0], u32 [7,9]/0 = all ones; prose: Metal MIN / -1 is MIN)")
	candleMetalWrap = newRule("candle.metal.int-wraps",
		"Metal kernels have no overflow checks: integer + - * and sums wrap in debug and release builds",
		"seed 000 §溢出 (candle Metal rows equal CPU release in both builds)")
	candleFloatIEEE = newOpenRule("candle.float.ieee",
		"float + - * / are IEEE operations of the element type (f16/bf16 through f32, which rounds the same as one correct rounding); Metal's fast-math float division is unspecified unless the quotient is exact",
		"seed 003 §和标量运算 (f32 * 2.5); half crate arithmetic; Metal fast-math division (precision not specified)")
	candleMinMax = newRule("candle.binary.minmax",
		"CPU maximum is `if a < b { b } else { a }` and minimum `if a > b { b } else { a }` (NaN or a tie gives the lhs); Metal's MAX/MIN are `x > y ? x : y` / `x < y ? x : y` (NaN or a tie gives the rhs)",
		"source-facts #1, #5a, extra 4")
	candleCmp = newOpenRule("candle.cmp.u8",
		"comparisons return U8 0/1 with IEEE semantics on the CPU (NaN compares false, != true); Metal's fast-math comparisons of NaN are unspecified",
		"source-facts extra 7, #5a; seed 000 §除法 (lt returns a U8 mask)")
	candleMetalEmptyLaunch = newRule("candle.metal.empty-launch-panics",
		"a comparison, to_dtype or index_select with zero output elements on Metal panics (\"attempt to divide by zero\"): unlike the arithmetic operators, affine and unary ops, their Tensor methods do not return early on zero elements, and the kernel launch computes linear_split(pipeline, 0), i.e. 0.div_ceil(min(max_threads, 0)); the shape, dtype and missing-kernel checks come first",
		"candle 2a13b0f3: candle-metal-kernels/src/utils.rs:30-33 (linear_split: width = min(max, size); size.div_ceil(width)); tensor.rs:1127-1140 (cmp: no elem_count() == 0 return, unlike binary_op! at :94-99), :2479-2488 (to_dtype), :1918-1936 (index_select); kernels/binary.rs:35,64, kernels/cast.rs:30,67, kernels/indexing.rs:54 (linear_split after load_pipeline)")
	candleMetalKernels = newRule("candle.metal.kernel-coverage",
		"Metal kernels exist only for some dtypes: binary and comparison ops, affine and reductions for f32 f16 bf16 u8 u32 i64; unary ops for f32 f16 bf16 (see candle.metal.sign-i64-no-kernel); casts among f32 f16 bf16 i64 u32 u8; index_select for ids u8/u32/i64 over u8 u32 i64 f32 f16 bf16; matmul (cumsum) for f32 f16 bf16: anything else is an Err",
		"source-facts #4, #5a, #5b, #5c, extra 10; seed 000 §下标的 dtype (Metal rows); metal_backend/mod.rs")
	candleScalarF64 = newRule("candle.scalar.f64-only",
		"candle's + - * / take an f64 scalar only (an f32 or integer variable does not compile: E0277); maximum, minimum and comparisons take any WithDType scalar, converted with to_dtype (Rust `as`) to the tensor's dtype first; a scalar on the left exists only for + - * / of f64",
		"seed 003 §和标量运算：只认 f64 (E0277 for f32); source-facts extra 3; tensor.rs bin_trait!, binary_op_scalar!, cmp")
	candleAffineCPU = newRule("candle.cpu.affine-coefficients-as",
		"tensor op f64 is affine(mul, add) (+: (1, s), -: (1, -s), *: (s, 0), /: (1/s, 0), s - t: (-1, s)); the CPU first converts mul and add to the element type with T::from_f64 (`as`: saturating, NaN -> 0 for integers) and computes v * mul + add in the element type (Rust overflow rules)",
		"seed 000 §整数张量和浮点标量 (i64 * 0.5 = 0, * 2.5 = * 2, + 0.5 unchanged), §动脑筋答案 (u32 - 1.0 unchanged); source-facts #2, #3, extra 1")
	candleAffineMetal = newOpenRule("candle.metal.affine-fma-f32",
		"Metal affine passes mul and add as f32 and computes static_cast<T>(fma(float(x), mul, add)): integers go through f32 (losing bits above 2^24) and are truncated toward zero; a negative result in an unsigned type gives 0; NaN and out-of-range results are unspecified",
		"seed 000 §整数张量和浮点标量 (Metal i64 * 0.5 = -3, + 0.5 = -6, 2^24+1 + 1.0 = 2^24), §动脑筋答案 (u32 3 - 4.0 = 0); source-facts #4")
	candleHalfFromF64 = newOpenRule("candle.half-from-f64-unpinned",
		"f16/bf16 values built from an f64 (to_dtype from F64, affine coefficients) use the half crate's from_f64, whose rounding depends on the platform (hardware conversion, or a software path that first drops the low 32 mantissa bits): unspecified where a single rounding, rounding through f32 and rounding of the truncated value differ",
		"source-facts #8 (F64 -> BF16 is bf16::from_f64); half crate convert.rs (not pinned by a seed)")
	candlePow = newOpenRule("candle.pow",
		"Tensor::pow(t, e) is exp(e * log(t)): integer tensors reach the CPU's missing integer log (a todo! panic) or Metal's missing kernel; powf(f64) is an Err for integer tensors; float results go through log/exp and are unspecified",
		"source-facts extra 2 (log todo!, powf UnsupportedDTypeForOp for ints); tensor.rs pow")
	candleUnaryTodo = newRule("candle.cpu.int-unary-todo",
		"on the CPU, exp, log, neg, recip, sqr and sqrt of an integer tensor hit todo!(\"no unary function for u8\") and panic",
		"source-facts extra 2; op.rs unary_op!")
)

// candleBinaryName is the op name candle's messages use.
var candleBinaryName = map[string]string{"add": "add", "sub": "sub", "mul": "mul", "div": "div",
	"maximum": "maximum", "minimum": "minimum"}

func candleIsCmp(op string) bool {
	switch op {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return true
	}
	return false
}

// candleBinary evaluates the binary family.
func (e *evaluation) candleBinary() tensor.Outcome {
	op := e.c.Op
	switch op {
	case "floor_div":
		return e.unsupported(candleNoOp, "candle 0.11 has no // (no floor_divide on Tensor)")
	case "rem", "fmod":
		return e.unsupported(candleNoOp, "candle 0.11 has no remainder: candle-core/src implements no Rem for Tensor and has no remainder / fmod method")
	case "trunc_div":
		return e.unsupported(candleNoOp, "candle has no trunc_div: its integer / (the div op) truncates")
	case "bitwise_and", "bitwise_or", "bitwise_xor", "shift_left", "shift_right":
		return e.unsupported(candleNoOp, "candle 0.11 has no bitwise ops (and no shifts) on Tensor")
	}
	a, b := e.c.Args[0], e.c.Args[1]
	if a.IsScalar() || b.IsScalar() {
		return e.candleScalarBinary(op)
	}
	if op == "pow" {
		return e.candlePowTensor(a.Tensor, b.Tensor)
	}
	return e.candleTensorBinary(op, a.Tensor, b.Tensor)
}

// candleTensorBinary is lhs op rhs for two tensors.
func (e *evaluation) candleTensorBinary(op string, x, y *tensor.Tensor) tensor.Outcome {
	name := candleBinaryName[op]
	if candleIsCmp(op) {
		name = "cmp"
	}
	if !sameShape(x.Shape, y.Shape) {
		return e.fail(candleSameShape, tensor.ShapeMismatch, "shape mismatch in %s, lhs: %s, rhs: %s", name, candleShape(x.Shape), candleShape(y.Shape))
	}
	if x.Len() == 0 && !candleIsCmp(op) {
		e.use(candleEmptyBinary)
		return tensor.ValueOutcome(x.Clone())
	}
	if x.DType != y.DType {
		return e.fail(candleNoPromotion, tensor.DTypeMismatch, "dtype mismatch in %s, lhs: %s, rhs: %s", name, rustName(x.DType), rustName(y.DType))
	}
	if out, bad := e.candleMetalBinaryKernel(op, x, y, false); bad {
		return out
	}
	return e.candleElementwise(op, x, y)
}

// candleMetalBinaryKernel reports a missing Metal binary kernel, named as
// the layouts of x and y (y broadcast from a scalar when rhsBroadcast)
// choose it.
func (e *evaluation) candleMetalBinaryKernel(op string, x, y *tensor.Tensor, rhsBroadcast bool) (tensor.Outcome, bool) {
	d := x.DType
	if !e.candleOnMetal() || candleMetalCore(d) {
		return tensor.Outcome{}, false
	}
	kernel := "b" + op
	if candleIsCmp(op) {
		kernel = op
	}
	e.use(candleMetalVariantRule)
	return e.fail(candleMetalKernels, tensor.UnsupportedDType, "Metal error Error while loading function: %s_%s%s (no kernel for %s)",
		kernel, d, candleMetalBinaryVariant(x, y, rhsBroadcast), rustName(d)), true
}

// candleMetalEmptyLaunch is the panic of a Metal kernel launched over zero
// threads (linear_split divides by zero).
func (e *evaluation) candleMetalEmptyLaunch(op string) tensor.Outcome {
	e.use(candleMetalEmptyLaunch)
	return tensor.PanicOutcome("attempt to divide by zero (linear_split of a zero-element %s launch)", op)
}

// candleMetalCore reports the six dtypes Metal's binary, affine, cast and
// reduce kernels cover.
func candleMetalCore(d tensor.DType) bool {
	switch d {
	case tensor.F32, tensor.F16, tensor.BF16, tensor.U8, tensor.U32, tensor.I64:
		return true
	}
	return false
}

// candleElementwise computes x op y for equal shapes and dtypes.
func (e *evaluation) candleElementwise(op string, x, y *tensor.Tensor) tensor.Outcome {
	if x.Len() == 0 && candleIsCmp(op) && e.candleOnMetal() {
		return e.candleMetalEmptyLaunch("cmp")
	}
	d := x.DType
	outD := d
	if candleIsCmp(op) {
		outD = tensor.U8
		e.use(candleCmp)
	}
	out := tensor.New(outD, x.Shape...)
	for i := 0; i < x.Len(); i++ {
		var p *tensor.Outcome
		switch {
		case candleIsCmp(op):
			e.candleCompare(op, x, y, out, i)
		case op == "maximum" || op == "minimum":
			e.candleMinMaxElement(op, x, y, out, i)
		case d.IsInt():
			p = e.candleIntElement(op, x.Uint(i), y.Uint(i), out, i)
		default:
			e.candleFloatElement(op, x.Float(i), y.Float(i), out, i)
		}
		if p != nil {
			return *p
		}
		if x.IsUnspecified(i) || y.IsUnspecified(i) {
			out.SetUnspecified(i) // an operand the model already left open
		}
	}
	return tensor.ValueOutcome(out)
}

// candleIntElement stores x op y of integers; a CPU panic is returned.
func (e *evaluation) candleIntElement(op string, a, b uint64, out *tensor.Tensor, i int) *tensor.Outcome {
	d := out.DType
	if op == "div" {
		e.use(candleIntDiv)
	}
	r := rustIntBinary(op, a, b, d)
	if e.candleOnMetal() {
		e.use(candleMetalWrap)
		out.SetUint(i, r.v)
		if op == "div" && b == 0 {
			e.use(candleMetalIntDivZero)
			switch d {
			case tensor.I64:
				out.SetUint(i, 0)
			case tensor.U32:
				out.SetUint(i, math.MaxUint32)
			default:
				out.SetUnspecified(i)
			}
		}
		return nil
	}
	if r.panics(e.p.Debug) {
		if r.debugOnly {
			e.use(rustOverflow)
		} else {
			e.use(rustDivPanic)
		}
		p := tensor.PanicOutcome("%s", r.panicMsg)
		return &p
	}
	if r.panicMsg != "" {
		e.use(rustOverflow)
	}
	out.SetUint(i, r.v)
	return nil
}

// candleFloatElement stores x op y of floats.
func (e *evaluation) candleFloatElement(op string, a, b float64, out *tensor.Tensor, i int) {
	e.use(candleFloatIEEE)
	d := out.DType
	v := rustFloatOp(op, a, b, d)
	out.SetFloat(i, v)
	if op == "div" && e.candleOnMetal() && !candleExactQuotient(a, b, v) {
		out.SetUnspecified(i)
	}
}

// candleExactQuotient reports whether q = a / b is exact or special (then a
// fast-math division gets it right too).
func candleExactQuotient(a, b, q float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) || a == 0 || b == 0 {
		return true
	}
	if math.IsInf(q, 0) || q == 0 {
		return false
	}
	return q*b == a // exact: q and b have at most 24 significant bits
}

// candleMinMaxElement stores maximum/minimum by the backend's selection rule.
func (e *evaluation) candleMinMaxElement(op string, x, y, out *tensor.Tensor, i int) {
	e.use(candleMinMax)
	less := func(p, q *tensor.Tensor) bool { // p[i] < q[i]
		if p.DType.IsFloat() {
			return p.Float(i) < q.Float(i)
		}
		return intLess(p.Uint(i), q.Uint(i), p.DType)
	}
	var pickRHS bool
	switch {
	case !e.candleOnMetal() && op == "maximum":
		pickRHS = less(x, y)
	case !e.candleOnMetal():
		pickRHS = less(y, x)
	case op == "maximum":
		pickRHS = !less(y, x) // x > y ? x : y
	default:
		pickRHS = !less(x, y) // x < y ? x : y
	}
	src := x
	if pickRHS {
		src = y
	}
	out.SetBits(i, src.Bits(i))
}

// candleCompare stores the U8 result of a comparison.
func (e *evaluation) candleCompare(op string, x, y, out *tensor.Tensor, i int) {
	var lt, eq, unordered bool
	if x.DType.IsFloat() {
		a, b := x.Float(i), y.Float(i)
		lt, eq = a < b, a == b
		unordered = math.IsNaN(a) || math.IsNaN(b)
	} else {
		lt, eq = intLess(x.Uint(i), y.Uint(i), x.DType), x.Bits(i) == y.Bits(i)
	}
	gt := !lt && !eq && !unordered
	r := comparison(op, lt, eq, gt)
	out.SetBool(i, r)
	if unordered && e.candleOnMetal() {
		out.SetUnspecified(i)
	}
}

// candleScalarBinary evaluates a binary op with a host scalar operand.
func (e *evaluation) candleScalarBinary(op string) tensor.Outcome {
	left := e.c.Args[0].IsScalar()
	s, t := e.c.Args[1].Scalar, e.c.Args[0].Tensor
	if left {
		s, t = e.c.Args[0].Scalar, e.c.Args[1].Tensor
	}
	switch op {
	case "add", "sub", "mul", "div":
		if s.Kind != tensor.ScalarFloat || (s.Host != "" && s.Host != "f64") {
			return e.unsupported(candleScalarF64, "error[E0277]: the trait bound `%s: Borrow<candle_core::Tensor>` is not satisfied (required for `&candle_core::Tensor` to implement `std::ops::%s<%s>`)",
				candleScalarType(s), candleTraitName[op], candleScalarType(s))
		}
		e.use(candleScalarF64)
		v := s.Float()
		if left && op == "div" {
			return e.candleScalarOverTensor(v, t)
		}
		mul, add := candleAffineCoefficients(op, v, left)
		return e.candleAffine(t, mul, add)
	case "pow":
		if left || s.Kind != tensor.ScalarFloat || (s.Host != "" && s.Host != "f64") {
			return e.unsupported(candlePow, "candle has only Tensor::powf(f64) for a scalar exponent")
		}
		return e.candlePowf(t)
	}
	if left {
		return e.unsupported(candleScalarF64, "a scalar has no %s method taking a Tensor", op)
	}
	st, out := e.candleScalarTensor(s, t)
	if out != nil {
		return *out
	}
	if (op == "maximum" || op == "minimum") && t.Len() == 0 {
		e.use(candleEmptyBinary)
		return tensor.ValueOutcome(t.Clone())
	}
	if bad, isBad := e.candleMetalBinaryKernel(op, t, st, true); isBad {
		return bad
	}
	return e.candleElementwise(op, t, st)
}

var candleTraitName = map[string]string{"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div"}

// candleScalarType is the Rust type of a scalar operand.
func candleScalarType(s *tensor.Scalar) string {
	switch {
	case s.Host != "":
		return s.Host
	case s.Kind == tensor.ScalarBool:
		return "bool"
	case s.Kind == tensor.ScalarInt:
		return "{integer}"
	}
	return "f64"
}

// candleAffineCoefficients returns the affine of tensor op s (s op tensor when left).
func candleAffineCoefficients(op string, s float64, left bool) (mul, add float64) {
	switch {
	case op == "add":
		return 1, s
	case op == "sub" && left:
		return -1, s
	case op == "sub":
		return 1, -s
	case op == "mul":
		return s, 0
	}
	return 1 / s, 0 // div
}

// candleScalarTensor is the scalar of maximum/minimum/cmp as a tensor of the
// operand's shape: Tensor::new(s) of its Rust type, then to_dtype (`as`).
func (e *evaluation) candleScalarTensor(s *tensor.Scalar, t *tensor.Tensor) (*tensor.Tensor, *tensor.Outcome) {
	typ := candleScalarType(s)
	switch typ {
	case "{integer}":
		typ = "i32"
	case "bool":
		out := e.unsupported(candleDTypes, "the trait `WithDType` is not implemented for `bool`")
		return nil, &out
	}
	d, ok := rustTypeDType(typ)
	if !ok || !candleHasDType(d) {
		out := e.unsupported(candleDTypes, "the trait `WithDType` is not implemented for `%s`", typ)
		return nil, &out
	}
	lit, err := parseRustLiteral(s.Text)
	if err != nil || lit.root.List {
		out := e.rustLitCompileError("bad scalar " + s.Text)
		return nil, &out
	}
	if _, msg := rustLitType(lit.elems, typ); msg != "" {
		out := e.rustLitCompileError(msg)
		return nil, &out
	}
	e.use(candleScalarF64)
	host := rustLitTensor(lit.elems, []int{1}, d)
	conv := tensor.New(t.DType, 1)
	if d == t.DType {
		conv = host
	} else {
		e.rustConvert(host, 0, conv, candleHalfPath(d))
	}
	full := tensor.New(t.DType, t.Shape...)
	for i := 0; i < full.Len(); i++ {
		full.SetBits(i, conv.Bits(0))
		if conv.IsUnspecified(0) {
			full.SetUnspecified(i)
		}
	}
	return full, nil
}

// candleHalfPath is how candle's CPU to_dtype reaches f16/bf16 from src:
// integers through f32 (source-facts #8), f64 by half's from_f64.
func candleHalfPath(src tensor.DType) rustHalfPath {
	if src == tensor.F64 {
		return rustHalfEither
	}
	return rustHalfViaF32
}

// candleAffine is t.affine(mul, add).
func (e *evaluation) candleAffine(t *tensor.Tensor, mul, add float64) tensor.Outcome {
	if t.Len() == 0 {
		e.use(candleEmptyBinary)
		return tensor.ValueOutcome(t.Clone())
	}
	if e.candleOnMetal() {
		return e.candleMetalAffine(t, mul, add)
	}
	e.use(candleAffineCPU)
	d := t.DType
	out := tensor.New(d, t.Shape...)
	if d.IsInt() {
		m, a := rustAsInt(mul, d), rustAsInt(add, d)
		for i := 0; i < t.Len(); i++ {
			r1 := rustIntBinary("mul", t.Uint(i), m, d)
			r2 := rustIntBinary("add", r1.v, a, d)
			for _, r := range []rustIntResult{r1, r2} {
				if r.panicMsg != "" {
					e.use(rustOverflow)
				}
				if r.panics(e.p.Debug) {
					return tensor.PanicOutcome("%s", r.panicMsg)
				}
			}
			out.SetUint(i, r2.v)
		}
		return tensor.ValueOutcome(out)
	}
	ms, as := candleFromF64(mul, d), candleFromF64(add, d)
	if len(ms) > 1 || len(as) > 1 {
		e.use(candleHalfFromF64)
	}
	for i := 0; i < t.Len(); i++ {
		v := t.Float(i)
		first := rustFloatOp("add", rustFloatOp("mul", v, ms[0], d), as[0], d)
		out.SetFloat(i, first)
		if t.IsUnspecified(i) {
			out.SetUnspecified(i)
		}
		for _, m := range ms {
			for _, a := range as {
				if !sameFloat(first, rustFloatOp("add", rustFloatOp("mul", v, m, d), a, d)) {
					out.SetUnspecified(i)
				}
			}
		}
	}
	return tensor.ValueOutcome(out)
}

// candleFromF64 returns the possible values of T::from_f64(x) for a float
// dtype (one, except for f16/bf16: see candle.half-from-f64-unpinned).
func candleFromF64(x float64, d tensor.DType) []float64 {
	if d != tensor.F16 && d != tensor.BF16 {
		return []float64{roundTo(x, d)}
	}
	direct, _ := floatToFloat(x, d)
	via, _ := floatToFloatVia(x, tensor.F32, d)
	trunc, _ := floatToFloat(math.Float64frombits(math.Float64bits(x)&^0xFFFFFFFF), d)
	if math.IsNaN(x) {
		trunc = direct
	}
	cands := []float64{direct}
	for _, c := range []float64{via, trunc} {
		if !sameFloat(c, direct) {
			cands = append(cands, c)
		}
	}
	return cands
}

// candleMetalAffine is the Metal affine kernel.
func (e *evaluation) candleMetalAffine(t *tensor.Tensor, mul, add float64) tensor.Outcome {
	d := t.DType
	if !candleMetalCore(d) {
		return e.fail(candleMetalKernels, tensor.UnsupportedDType, "Metal %s affine %s not implemented", candleMetalLayoutName(t), rustName(d))
	}
	e.use(candleAffineMetal)
	m, a := roundTo(mul, tensor.F32), roundTo(add, tensor.F32)
	out := tensor.New(d, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		if t.IsUnspecified(i) {
			out.SetUnspecified(i)
			continue
		}
		candleMetalStore(out, i, candleFmaF32(candleMetalFloat(t, i), m, a))
	}
	return tensor.ValueOutcome(out)
}

// candleMetalFloat is float(x) in a Metal kernel: integers rounded to f32.
func candleMetalFloat(t *tensor.Tensor, i int) float64 {
	if t.DType.IsInt() {
		v, _ := intToFloatRNE(t.Uint(i), t.DType, tensor.F32)
		return v
	}
	return t.Float(i)
}

// candleMetalStore is static_cast<T>(y) of a Metal float y: RNE to a float
// dtype; toward zero to an integer, negative -> 0 for unsigned types, NaN
// and out-of-range values unspecified.
func candleMetalStore(out *tensor.Tensor, i int, y float64) {
	d := out.DType
	if d.IsFloat() {
		out.SetFloat(i, y)
		return
	}
	tr := math.Trunc(y)
	switch {
	case math.IsNaN(y):
		out.SetUnspecified(i)
	case d.IsUnsigned() && tr < 0:
		out.SetUint(i, 0)
	case d.IsSigned() && tr >= float64(d.MinInt()) && tr < -float64(d.MinInt()):
		out.SetInt(i, int64(tr))
	case d.IsUnsigned() && tr < math.Ldexp(1, d.Bits()):
		out.SetUint(i, uint64(tr))
	default:
		out.SetUnspecified(i)
	}
}

// fmaF32 is fma(x, m, a) of three f32 values, rounded once to f32.
func candleFmaF32(x, m, a float64) float64 {
	if math.IsNaN(x+m+a) || math.IsInf(x, 0) || math.IsInf(m, 0) || math.IsInf(a, 0) {
		return roundTo(math.FMA(x, m, a), tensor.F32)
	}
	p := new(big.Float).SetPrec(400).Mul(big.NewFloat(x), big.NewFloat(m))
	p.Add(p, big.NewFloat(a))
	if p.Sign() == 0 {
		return roundTo(x*m+a, tensor.F32) // the sign of an exact zero as IEEE gives it
	}
	return roundBigTo(p, tensor.F32)
}

// candleScalarOverTensor is s / t = t.recip()? * s.
func (e *evaluation) candleScalarOverTensor(s float64, t *tensor.Tensor) tensor.Outcome {
	r := e.candleUnaryOp("recip", t)
	if r.Form != tensor.FormValue {
		return r
	}
	return e.candleAffine(r.Value, s, 0)
}

// candlePowTensor is t.pow(e) = e.mul(&t.log()?)?.exp().
func (e *evaluation) candlePowTensor(x, y *tensor.Tensor) tensor.Outcome {
	e.use(candlePow)
	logx := e.candleUnaryOp("log", x)
	if logx.Form != tensor.FormValue {
		return logx
	}
	prod := e.candleTensorBinary("mul", y, logx.Value)
	if prod.Form != tensor.FormValue || prod.Value.Len() == 0 {
		return prod
	}
	out := prod.Value.Clone()
	for i := 0; i < out.Len(); i++ {
		out.SetUnspecified(i)
	}
	return tensor.ValueOutcome(out)
}

// candlePowf is t.powf(e): an Err for integer tensors, unspecified values.
func (e *evaluation) candlePowf(t *tensor.Tensor) tensor.Outcome {
	e.use(candlePow)
	if t.Len() == 0 {
		return tensor.ValueOutcome(t.Clone())
	}
	d := t.DType
	if e.candleOnMetal() && d != tensor.F32 && d != tensor.F16 && d != tensor.BF16 {
		return e.fail(candleMetalKernels, tensor.UnsupportedDType, "Metal %s powf %s not implemented", candleMetalLayoutName(t), rustName(d))
	}
	if d.IsInt() {
		return e.fail(candlePow, tensor.UnsupportedDType, "unsupported dtype %s for op powf", rustName(d))
	}
	out := t.Clone()
	for i := 0; i < out.Len(); i++ {
		out.SetUnspecified(i)
	}
	return tensor.ValueOutcome(out)
}
