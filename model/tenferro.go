package model

import (
	"fmt"
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// tenferro 0.8 in its three ways of running an op: a TracedTensor graph
// (built, compiled, then run), an eager session, and direct Tensor methods
// on an engine. traced and eager insert conversions by tenferro's promotion
// lattice; direct ops do not promote. Integer arithmetic wraps and a zero
// divisor is an error; a float scalar factor is scale_real. Sources: seed
// 001; source-facts rows 12a-12d and "tenferro" 13. Only what these state
// is modeled: everything else (reductions, cumsum, index_select, arange,
// zeros, most unary ops) is unspecified (tenferro.unspecified).

func init() {
	for _, p := range []*Profile{
		{Name: "tenferro/traced", Framework: Tenferro, Device: CPU, Arch: Arm64,
			Doc:      "tenferro 0.8 TracedTensor graph (promotion at graph build, value checks at run)",
			Evidence: "seed 001 (tenferro rows); source-facts.md rows 12a-12d, 13"},
		{Name: "tenferro/eager", Framework: Tenferro, Device: CPU, Arch: Arm64,
			Doc:      "tenferro 0.8 eager session (promotion before execution)",
			Evidence: "seed 001 (eager rows); source-facts.md rows 12a-12d, 13"},
		{Name: "tenferro/direct", Framework: Tenferro, Device: CPU, Arch: Arm64,
			Doc:      "tenferro 0.8 direct Tensor ops on an engine (no promotion)",
			Evidence: "seed 001 (direct rows); source-facts.md rows 12a-12d, 13"},
	} {
		p.eval = evalTenferro
		register(p)
	}
}

var (
	tfDTypes = newRule("tenferro.dtypes",
		"tenferro's dtypes are F32, F64, I32, I64, Bool, C32 (c64) and C64 (c128); other host data has no tensor",
		"source-facts extra 13; seed 001 §两个数组相遇 (C32 / C64 names)")
	tfLattice = newRule("tenferro.promote.lattice",
		"traced and eager ops promote by tenferro's lattice: Bool + x -> x, I32 + I64 -> I64, any integer with any float -> F64 (\"F32 does not have enough mantissa bits\"), F32 + F64 -> F64, a complex with F32/C32/Bool -> C32, otherwise -> C64",
		"seed 001 §两个数组相遇：提升格 (all seven pairs, traced and eager); source-facts #12a")
	tfDirect = newRule("tenferro.direct.no-promotion",
		"direct Tensor ops do not promote: operands of different dtypes are an Err \"add: dtype mismatch: expected I32, actual F32\"",
		"seed 001 §两个数组相遇 (direct rows)")
	tfIntArith = newRule("tenferro.int.wrapping",
		"integer add/sub/mul/div/rem/neg/abs are wrapping_*: overflow wraps, MIN / -1 = MIN, MIN % -1 = 0; / truncates and % has the dividend's sign; a zero divisor anywhere is an Err found by a pre-scan (cpu_division_by_zero), not a panic; a negative integer exponent is an Err (NegativeIntegerExponent)",
		"source-facts extra 13 (module path not pinned: less certain than the numbered rows)")
	tfFloat = newOpenRule("tenferro.float.ieee",
		"float + - * / are IEEE operations of the promoted dtype; maximum/minimum propagate NaN; comparisons return Bool; complex + - are per part",
		"seed 001 §弱类型 (F32 * F64 tensor 0.1 = F64 [0.1, 0.30000000000000004]); source-facts extra 13")
	tfScaleReal = newRule("tenferro.scale-real",
		"a float scalar factor is scale_real(f64): the dtype stays; F32 multiplies by factor as f32 (JAX's weak-scalar bits), F64 by the factor, complex per part; I32/I64 round the factor half away from zero (an Err when it is not finite or does not fit) and multiply wrapping; tenferro has no other scalar operands",
		"seed 001 §弱类型：Python 标量和 scale_real (F32 .scale_real(0.1) bits 0x3dcccccd 0x3e99999a, traced and direct); source-facts #12d")
	tfCast = newRule("tenferro.cast.checked",
		"cast is explicit and lossy but checked at run time: float -> I32 is an Err for NaN, ±inf and values outside [i32::MIN, i32::MAX] (before truncation: 2147483647.5 is rejected), float -> I64 outside [-2^63, 2^63); in range it truncates toward zero; I64 -> I32 wraps unchecked; float -> float rounds to nearest even (1e300 -> F32 inf); -> Bool is x != 0",
		"seed 001 §astype 拆成两个：convert 和 cast (traced cast rows); source-facts #12c")
	tfConvert = newRule("tenferro.convert.widening-only",
		"convert accepts only conversions the lattice allows (promote(from, to) == to); anything else is an Err \"unsupported dtype conversion from F64 to F32: checked convert only accepts conversions allowed by dtype promotion; use explicit cast for lossy dtype projection\" (traced at graph build, direct with a \"convert:\" prefix)",
		"seed 001 §astype (traced and direct convert rows); source-facts #12b")
	tfLiteral = newRule("tenferro.create.from-vec",
		"tensors are built from a flat Rust Vec and a shape (from_vec_col_major); the dtype is the Vec's element type (vec![1.0] F64, vec![1] I32, vec![1_i64] I64, vec![1.0_f32] F32)",
		"seed 001 §默认 dtype：一个开关，还是一个字面量")
	tfUnspecified = newOpenRule("tenferro.unspecified",
		"neither the seed nor the source facts state this tenferro behaviour (its op, its dtype rule or its values): unspecified rather than guessed",
		"seed 001, source-facts.md (silent)").silent()
)

// tfMode is "traced", "eager" or "direct".
func (e *evaluation) tfMode() string { return e.p.Name[len("tenferro/"):] }

func tfHasDType(d tensor.DType) bool {
	switch d {
	case tensor.F32, tensor.F64, tensor.I32, tensor.I64, tensor.Bool, tensor.C64, tensor.C128:
		return true
	}
	return false
}

// tfUnspec is the outcome of a behaviour the evidence does not state.
func (e *evaluation) tfUnspec(format string, args ...any) tensor.Outcome {
	return e.unsupported(tfUnspecified, "tfuzz: unspecified for tenferro: "+format, args...)
}

// evalTenferro dispatches a case.
func evalTenferro(e *evaluation) tensor.Outcome {
	for _, a := range e.c.Args {
		if a.Tensor != nil && !tfHasDType(a.Tensor.DType) {
			return e.unsupported(tfDTypes, "tenferro has no %s dtype", a.Tensor.DType)
		}
	}
	switch e.op().Class {
	case tensor.ClassBinary:
		return e.tfBinary()
	case tensor.ClassUnary:
		return e.tfUnary()
	case tensor.ClassCast:
		return e.tfCast()
	case tensor.ClassFromLiteral:
		return e.tfFromLiteral(*e.c.Attrs.Literal)
	case tensor.ClassFromVec:
		t := e.c.Args[0].Tensor
		if tensor.NumElements(e.c.Attrs.Shape) != t.Len() {
			return e.tfUnspec("from_vec_col_major with %d values for shape %v", t.Len(), e.c.Attrs.Shape)
		}
		e.use(tfLiteral)
		return tensor.ValueOutcome(rustWithShape(t, e.c.Attrs.Shape))
	}
	return e.tfUnspec("%s", e.c.Op)
}

// tfPromote is the lattice of tenferro.promote.lattice.
func tfPromote(a, b tensor.DType) tensor.DType {
	switch {
	case a == b:
		return a
	case a == tensor.Bool:
		return b
	case b == tensor.Bool:
		return a
	case a.IsComplex() && b.IsComplex():
		return tensor.C128
	case a.IsComplex() || b.IsComplex():
		other := a
		if a.IsComplex() {
			other = b
		}
		if other == tensor.F32 || other == tensor.C64 {
			return tensor.C64
		}
		return tensor.C128
	case a.IsInt() && b.IsInt():
		return tensor.I64
	}
	return tensor.F64 // int with float, F32 with F64
}

// tfBinary evaluates the binary family.
func (e *evaluation) tfBinary() tensor.Outcome {
	op := e.c.Op
	x, y := e.c.Args[0], e.c.Args[1]
	if x.IsScalar() || y.IsScalar() {
		if op != "mul" || x.IsScalar() {
			return e.tfUnspec("a host scalar operand of %s (tenferro ops take tensors; only scale_real takes a factor)", op)
		}
		return e.tfScaleReal(x.Tensor, y.Scalar)
	}
	switch op {
	case "floor_div", "trunc_div", "fmod", "bitwise_and", "bitwise_or", "bitwise_xor", "shift_left", "shift_right":
		return e.tfUnspec("%s", op)
	}
	a, b := x.Tensor, y.Tensor
	d := a.DType
	if a.DType != b.DType {
		if e.tfMode() == "direct" {
			return e.fail(tfDirect, tensor.DTypeMismatch, "%s: dtype mismatch: expected %s, actual %s", op, rustName(a.DType), rustName(b.DType))
		}
		e.use(tfLattice)
		d = tfPromote(a.DType, b.DType)
	}
	if !sameShape(a.Shape, b.Shape) {
		return e.tfUnspec("%s of shapes %v and %v (seed 001 broadcasts explicitly with broadcast_in_dim)", op, a.Shape, b.Shape)
	}
	a, b = e.tfTo(a, d), e.tfTo(b, d)
	switch {
	case d == tensor.Bool && !(op == "eq" || op == "ne"):
		return e.tfUnspec("%s of Bool tensors", op)
	case d.IsComplex() && !(op == "add" || op == "sub" || op == "eq" || op == "ne"):
		return e.tfUnspec("%s of complex tensors", op)
	case d.IsInt():
		return e.tfIntBinary(op, a, b)
	}
	return e.tfFloatBinary(op, a, b)
}

// tfTo converts t to d exactly as widening promotion does (ints and floats
// round to nearest; complex from real is (x, 0)).
func (e *evaluation) tfTo(t *tensor.Tensor, d tensor.DType) *tensor.Tensor {
	if t.DType == d {
		return t
	}
	out := tensor.New(d, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		switch {
		case d.IsComplex():
			out.SetComplex(i, complexOf(t, i))
		case t.DType == tensor.Bool && d.IsFloat():
			out.SetFloat(i, float64(t.Bits(i)))
		default:
			e.rustConvert(t, i, out, rustHalfDirect)
		}
	}
	return out
}

// tfIntBinary is an integer op with tenferro's wrapping rules.
func (e *evaluation) tfIntBinary(op string, a, b *tensor.Tensor) tensor.Outcome {
	e.use(tfIntArith)
	d := a.DType
	out := tensor.New(d, a.Shape...)
	if candleIsCmp(op) {
		out = tensor.New(tensor.Bool, a.Shape...)
	}
	for i := 0; i < a.Len() && !e.buildOnly; i++ { // run-time checks (a traced graph's build skips them)
		y := b.Uint(i)
		if (op == "div" || op == "rem") && y == 0 {
			return e.fail(tfIntArith, tensor.ZeroDivision, "%s: division by zero", op)
		}
		if op == "pow" && int64(y) < 0 {
			return e.fail(tfIntArith, tensor.Other, "pow: NegativeIntegerExponent")
		}
	}
	for i := 0; i < a.Len(); i++ {
		x, y := a.Uint(i), b.Uint(i)
		switch op {
		case "add", "sub", "mul":
			v, _ := intArith(op, x, y, d)
			out.SetUint(i, v)
		case "div":
			v, _ := intTruncDiv(x, y, d)
			out.SetUint(i, v)
		case "rem":
			v, _ := intFmod(x, y, d)
			out.SetUint(i, v)
		case "pow":
			v, _ := intPow(x, y, d)
			out.SetUint(i, v)
		case "maximum", "minimum":
			pick := x
			if intLess(x, y, d) == (op == "maximum") {
				pick = y
			}
			out.SetUint(i, pick)
		default:
			e.burnCompare(op, a, b, out, i)
		}
	}
	return tensor.ValueOutcome(out)
}

// tfFloatBinary is a float (or complex + - ==) op.
func (e *evaluation) tfFloatBinary(op string, a, b *tensor.Tensor) tensor.Outcome {
	e.use(tfFloat)
	d := a.DType
	out := tensor.New(d, a.Shape...)
	if candleIsCmp(op) {
		out = tensor.New(tensor.Bool, a.Shape...)
	}
	for i := 0; i < a.Len(); i++ {
		switch {
		case candleIsCmp(op) && d.IsComplex():
			out.SetBool(i, (a.Complex(i) == b.Complex(i)) == (op == "eq"))
		case candleIsCmp(op):
			e.burnCompare(op, a, b, out, i)
		case d.IsComplex():
			p, q := a.Complex(i), b.Complex(i)
			c := d.Component()
			re := rustFloatOp(op, real(p), real(q), c)
			im := rustFloatOp(op, imag(p), imag(q), c)
			out.SetComplex(i, complex(re, im))
		case op == "maximum" || op == "minimum":
			x, y := a.Float(i), b.Float(i)
			v := math.Max(x, y)
			if op == "minimum" {
				v = math.Min(x, y)
			}
			if math.IsNaN(x) || math.IsNaN(y) {
				v = math.NaN() // NaN-propagating; Go's math.Max lets an infinity win over NaN
			}
			out.SetFloat(i, v)
			if x == 0 && y == 0 && math.Signbit(x) != math.Signbit(y) {
				out.SetUnspecified(i)
			}
		case op == "rem" || op == "pow":
			e.use(tfUnspecified)
			out.SetUnspecified(i)
		default:
			out.SetFloat(i, rustFloatOp(op, a.Float(i), b.Float(i), d))
		}
	}
	return tensor.ValueOutcome(out)
}

// tfScaleReal is t.scale_real(factor).
func (e *evaluation) tfScaleReal(t *tensor.Tensor, s *tensor.Scalar) tensor.Outcome {
	if s.Kind != tensor.ScalarFloat || (s.Host != "" && s.Host != "f64") {
		return e.unsupported(tfScaleReal, "scale_real takes an f64 factor, not %s", candleScalarType(s))
	}
	e.use(tfScaleReal)
	f := s.Float()
	d := t.DType
	finite := !math.IsNaN(f) && !math.IsInf(f, 0)
	switch {
	case d == tensor.Bool:
		return e.tfUnspec("scale_real of a Bool tensor")
	case d.IsInt() && e.buildOnly:
		return tensor.ValueOutcome(tensor.New(d, t.Shape...)) // the factor is checked when the graph runs
	case d.IsInt() && !finite:
		return e.fail(tfScaleReal, tensor.OutOfRange, "scale_real: invalid argument value: real value must be finite, got %s", tensor.FormatFloat(f))
	case !finite:
		return e.tfUnspec("scale_real by a non-finite factor of a %s tensor", d)
	}
	out := tensor.New(d, t.Shape...)
	if d.IsInt() {
		r := math.Round(f) // half away from zero
		if r < float64(d.MinInt()) || r >= -float64(d.MinInt()) {
			return e.fail(tfScaleReal, tensor.OutOfRange, "scale_real: invalid argument value: real value %s is out of %s range", tensor.FormatFloat(f), d)
		}
		for i := 0; i < t.Len(); i++ {
			v, _ := intArith("mul", t.Uint(i), uint64(int64(r)), d)
			out.SetUint(i, v)
		}
		return tensor.ValueOutcome(out)
	}
	c := d.Component()
	k := roundTo(f, c)
	for i := 0; i < t.Len(); i++ {
		if d.IsComplex() {
			z := t.Complex(i)
			out.SetComplex(i, complex(rustFloatOp("mul", real(z), k, c), rustFloatOp("mul", imag(z), k, c)))
			continue
		}
		out.SetFloat(i, rustFloatOp("mul", t.Float(i), k, c))
	}
	return tensor.ValueOutcome(out)
}

// tfUnary evaluates neg and abs (the unary ops the evidence states).
func (e *evaluation) tfUnary() tensor.Outcome {
	t, op := e.c.Args[0].Tensor, e.c.Op
	d := t.DType
	if op != "neg" && op != "abs" || d == tensor.Bool || d.IsComplex() && op == "abs" {
		return e.tfUnspec("%s of a %s tensor", op, d)
	}
	out := tensor.New(d, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		switch {
		case d.IsInt():
			e.use(tfIntArith)
			v := t.Uint(i)
			if op == "neg" || int64(v) < 0 {
				v = -v // wrapping_neg / wrapping_abs
			}
			out.SetUint(i, v)
		case d.IsComplex():
			e.use(tfFloat)
			out.SetComplex(i, -t.Complex(i))
		case op == "neg":
			e.use(tfFloat)
			out.SetFloat(i, -t.Float(i))
		default:
			e.use(tfFloat)
			out.SetFloat(i, math.Abs(t.Float(i)))
		}
	}
	return tensor.ValueOutcome(out)
}

// tfCast is t.cast(to) or t.convert(to).
func (e *evaluation) tfCast() tensor.Outcome {
	t, to := e.c.Args[0].Tensor, e.c.Attrs.To
	if !tfHasDType(to) {
		return e.unsupported(tfDTypes, "tenferro has no %s dtype", to)
	}
	if e.c.Attrs.Mode == "convert" {
		if tfPromote(t.DType, to) != to {
			prefix := "convert"
			if e.tfMode() == "traced" {
				prefix = "TracedTensor::convert"
			}
			return e.fail(tfConvert, tensor.UnsupportedDType, "%s: unsupported dtype conversion from %s to %s: checked convert only accepts conversions allowed by dtype promotion; use explicit cast for lossy dtype projection",
				prefix, rustName(t.DType), rustName(to))
		}
		e.use(tfConvert)
		return tensor.ValueOutcome(e.tfTo(t, to))
	}
	e.use(tfCast)
	from := t.DType
	if (from.IsFloat() || from.IsComplex()) && to.IsInt() && !e.buildOnly {
		for i := 0; i < t.Len(); i++ {
			if out, bad := e.tfCastRange(t.Float(i), to); bad {
				return out
			}
		}
	}
	if from.IsComplex() && !to.IsComplex() && to != tensor.Bool && !to.IsInt() {
		return e.tfUnspec("cast of %s to %s", from, to)
	}
	out := tensor.New(to, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		switch {
		case to == tensor.Bool:
			out.SetBool(i, isNonzero(t, i))
		case to.IsComplex() && from.IsComplex():
			z := t.Complex(i)
			out.SetComplex(i, complex(roundTo(real(z), to.Component()), roundTo(imag(z), to.Component())))
		case to.IsComplex():
			out.SetComplex(i, complexOf(t, i))
		case from.IsComplex(): // to an integer: the real part, validated above
			out.SetInt(i, int64(math.Trunc(t.Float(i))))
		default:
			e.rustConvert(t, i, out, rustHalfDirect)
		}
	}
	return tensor.ValueOutcome(out)
}

// tfCastRange is the run-time check of a float -> integer cast.
func (e *evaluation) tfCastRange(x float64, to tensor.DType) (tensor.Outcome, bool) {
	name := map[tensor.DType]string{tensor.I32: "i32", tensor.I64: "i64"}[to]
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return e.fail(tfCast, tensor.OutOfRange, "cast: invalid argument value: real value must be finite when casting to %s, got %s", name, tfFloatText(x)), true
	}
	lo, hi := float64(to.MinInt()), float64(to.MaxInt())
	out := x < lo || x > hi
	if to == tensor.I64 {
		out = x < lo || x >= math.Ldexp(1, 63)
	}
	if out {
		return e.fail(tfCast, tensor.OutOfRange, "cast: invalid argument value: real value %s is out of %s range", fmt.Sprintf("%.0f", x), name), true
	}
	return tensor.Outcome{}, false
}

// tfFloatText is Rust's Display of NaN and infinities.
func tfFloatText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return tensor.FormatFloat(x)
}

// tfFromLiteral is Tensor::from_vec_col_major(vec![n], vec![literal...]).
func (e *evaluation) tfFromLiteral(text string) tensor.Outcome {
	lit, err := parseRustLiteral(text)
	if err != nil {
		return e.rustLitCompileError(fmt.Sprintf("%q is not a Rust literal (%v)", text, err))
	}
	e.use(rustLiteralTyping)
	switch {
	case lit.compile != "":
		return e.rustLitCompileError(lit.compile)
	case len(lit.elems) == 0:
		return e.rustLitCompileError("type annotations needed for an empty literal (E0282)")
	case len(lit.shape) != 1:
		return e.tfUnspec("a rank-%d literal (tenferro takes a flat Vec and a shape)", len(lit.shape))
	}
	d, ok := rustTypeDType(lit.typ)
	if !ok || !tfHasDType(d) {
		return e.unsupported(tfDTypes, "tenferro has no %s element type", lit.typ)
	}
	e.use(tfLiteral)
	return tensor.ValueOutcome(rustLitTensor(lit.elems, lit.shape, d))
}
