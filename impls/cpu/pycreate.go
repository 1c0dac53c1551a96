package cpu

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Creation in PyTorch, NumPy and JAX: torch.tensor(literal) / np.array /
// jnp.array, arange(start, end) and zeros(shape, dtype). The profiles differ
// in their default dtypes (PyTorch's float is f32, NumPy's f64, JAX's
// follows x64), in what an int that does not fit the default int does, and
// in how a float arange computes its elements.

func init() {
	attach(pythonProfiles(), tensor.ClassFromLiteral, &family{supports: pyLiteralSupports, eval: pyLiteralEval})
	attach(pythonProfiles(), tensor.ClassArange, &family{supports: pyArangeSupports, eval: pyArangeEval})
	attach(pythonProfiles(), tensor.ClassZeros, &family{supports: pyZerosSupports, eval: pyZerosEval})
}

// defaultInt and defaultFloat are the profile's default dtypes (policy
// python.create.default-dtypes).
func defaultInt(p *profile) tensor.DType {
	if p.fw == fwJAX && !p.x64 {
		return tensor.I32
	}
	return tensor.I64
}

func defaultFloat(p *profile) tensor.DType {
	if p.fw == fwNumPy || p.fw == fwJAX && p.x64 {
		return tensor.F64
	}
	return tensor.F32
}

// ------------------------------------------------------------- literals

func pyLiteralSupports(p *profile, c *tensor.Case) bool {
	return c.Attrs.Literal != nil
}

// pyLiteralEval is torch.tensor / np.array / jnp.array of a literal.
func pyLiteralEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	nums, shape, err := readPythonLiteral(*c.Attrs.Literal)
	if err != nil {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: %v", err)
	}
	if c.Attrs.DType.Valid() {
		return pyLiteralDTypeEval(p, c.Attrs.DType, nums, shape) // pyliteral_dtype.go
	}
	d, ok := pyLiteralDType(p, nums)
	if !ok { // policy numpy.create.big-int
		return tensor.UnsupportedOutcome("np.array(%s) has dtype object", *c.Attrs.Literal)
	}
	out := tensor.New(d, shape...)
	for i, n := range nums {
		switch {
		case d.IsFloat():
			out.Data[i] = floatWord(n.f, d)
		case n.kind == tensor.ScalarBool:
			if n.truth {
				out.Data[i] = 1
			}
		default:
			w, ok := pyIntWord(n, d)
			if !ok {
				return pyIntOverflow(p, n.text, d)
			}
			out.Data[i] = w
		}
	}
	return tensor.ValueOutcome(out)
}

// pyLiteralDType is the dtype inferred for a literal's elements (policy
// python.create.default-dtypes): the default float when any is a float (or
// there are none), else the default int when any is an int, else bool. NumPy
// gives each int int64, else uint64, else object, and then promotes: int64
// with uint64 is float64 (policy numpy.create.big-int); ok is false for an
// object array.
func pyLiteralDType(p *profile, nums []pyNumber) (d tensor.DType, ok bool) {
	kinds := map[tensor.ScalarKind]bool{}
	var signed, unsigned, object bool
	for _, n := range nums {
		kinds[n.kind] = true
		if n.kind == tensor.ScalarInt {
			i64 := !n.huge && (n.mag <= 1<<63-1 || n.neg && n.mag == 1<<63)
			signed = signed || i64
			unsigned = unsigned || !i64 && !n.neg && !n.huge
			object = object || n.huge || n.neg && !i64
		}
	}
	switch {
	case len(nums) == 0 || kinds[tensor.ScalarFloat]:
		return defaultFloat(p), true
	case !kinds[tensor.ScalarInt]:
		return tensor.Bool, true
	case p.fw != fwNumPy:
		return defaultInt(p), true
	case object:
		return tensor.Invalid, false
	case signed && unsigned:
		return tensor.F64, true
	case unsigned:
		return tensor.U64, true
	}
	return tensor.I64, true
}

// pyIntFits reports whether the integer dtype d holds the int n.
func pyIntFits(n pyNumber, d tensor.DType) bool {
	limit := d.MaxUint() // the largest magnitude d holds with n's sign
	if n.neg {
		limit = uint64(-d.MinInt())
	}
	return !n.huge && n.mag <= limit
}

// pyIntWord is the storage word of the int n in the integer dtype d, or
// false when d cannot hold it.
func pyIntWord(n pyNumber, d tensor.DType) (uint64, bool) {
	if n.neg {
		return -n.mag & wordMask(d), pyIntFits(n, d)
	}
	return n.mag, pyIntFits(n, d)
}

// pyIntOverflow is the error of an int that does not fit the default int d
// (policy python.create.int-overflow).
func pyIntOverflow(p *profile, text string, d tensor.DType) tensor.Outcome {
	if p.fw == fwPyTorch {
		return tensor.ErrorOutcome(tensor.OutOfRange, "RuntimeError: Overflow when unpacking long")
	}
	return tensor.ErrorOutcome(tensor.OutOfRange, "OverflowError: Python integer %s out of bounds for %s", text, pyName(d))
}

// floatWord returns the storage word of x rounded once to the float dtype d.
func floatWord(x float64, d tensor.DType) uint64 {
	switch d {
	case tensor.F64:
		return math.Float64bits(x)
	case tensor.F32:
		return uint64(math.Float32bits(float32(x)))
	case tensor.F16:
		return uint64(f64ToF16(x))
	}
	return uint64(f32ToBF16(bf16From64(x))) // bf16From64 is exact in bf16
}

// --------------------------------------------------------------- arange

// arangeBound is one end of an arange: an int (exact) or a float, and the
// float64 Python makes of it.
type arangeBound struct {
	isFloat bool
	f       float64
	i       *big.Int
}

func parseArangeBound(text string) (arangeBound, bool) {
	if strings.ContainsAny(text, ".eEnN") {
		f, err := tensor.ParseFloatText(text)
		return arangeBound{isFloat: true, f: f}, err == nil
	}
	v, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return arangeBound{}, false
	}
	f, _ := strconv.ParseFloat(text, 64) // correctly rounded; ±inf beyond float64
	if v.Sign() == 0 {
		f = 0 // a Python int: -0 is 0
	}
	return arangeBound{f: f, i: v}, true
}

// arangePlan is a torch.arange without a dtype decided from its bounds:
// an outcome decided without elements, or the element count.
type arangePlan struct {
	start, end arangeBound
	isFloat    bool
	n          int64 // elements; -1 when the count is beyond the case limit
	done       *tensor.Outcome
}

// torchScalarOf is the arg parser's c10::Scalar of an arange bound: a float
// or an int64 one, a uint64 one (unsigned), or the parser's OverflowError
// (policy pytorch.arange.scalar-bounds).
func torchScalarOf(b arangeBound) (unsigned bool, err *tensor.Outcome) {
	switch {
	case b.isFloat || b.i.IsInt64():
		return false, nil
	case b.i.Sign() < 0:
		return false, rangeError("OverflowError: can't convert negative int to unsigned")
	case b.i.BitLen() > 64:
		return false, rangeError("OverflowError: int too big to convert")
	}
	return true, nil
}

// torchScalarsOf parses both bounds (the call needs both) and reports
// whether either is a uint64 Scalar.
func torchScalarsOf(lo, hi arangeBound) (unsigned bool, err *tensor.Outcome) {
	u0, e0 := torchScalarOf(lo)
	u1, e1 := torchScalarOf(hi)
	if e0 != nil {
		return false, e0
	}
	return u0 || u1, e1
}

// int64Refusal is Scalar::to<int64_t>() of a uint64 Scalar.
func int64Refusal() *tensor.Outcome {
	return rangeError("RuntimeError: value cannot be converted to type int64_t without overflow")
}

// planArange decides torch.arange(start, end): int bounds give int64 (a
// uint64 one is refused converting to it), a float bound the default
// float; non-finite and reversed bounds are errors.
func planArange(c *tensor.Case) arangePlan {
	startText := "0"
	if c.Attrs.Start != nil {
		startText = *c.Attrs.Start
	}
	endText := *c.Attrs.End
	var pl arangePlan
	var ok1, ok2 bool
	pl.start, ok1 = parseArangeBound(startText)
	pl.end, ok2 = parseArangeBound(endText)
	if !ok1 || !ok2 {
		pl.done = outcomeOf(tensor.ErrorOutcome(tensor.Other, "TypeError: arange() bounds must be numbers, got %q, %q", startText, endText))
		return pl
	}
	pl.isFloat = pl.start.isFloat || pl.end.isFloat
	unsigned, bad := torchScalarsOf(pl.start, pl.end)
	switch {
	case bad != nil:
		pl.done = bad
		return pl
	case unsigned && !pl.isFloat:
		pl.done = int64Refusal()
		return pl
	}
	s, t := pl.start.f, pl.end.f
	if pl.isFloat && (math.IsNaN(s) || math.IsNaN(t) || math.IsInf(s, 0) || math.IsInf(t, 0)) {
		// policy pytorch.arange.range
		pl.done = outcomeOf(tensor.ErrorOutcome(tensor.Other, "RuntimeError: unsupported range: %s -> %s", startText, endText))
		return pl
	}
	if pl.isFloat && t < s || !pl.isFloat && pl.end.i.Cmp(pl.start.i) < 0 {
		pl.done = outcomeOf(tensor.ErrorOutcome(tensor.Other, "RuntimeError: upper bound and larger bound inconsistent with step sign"))
		return pl
	}
	pl.n = -1
	if pl.isFloat {
		if n := math.Ceil(t - s); n <= tensor.MaxElements {
			pl.n = int64(n)
		}
		return pl
	}
	if n := new(big.Int).Sub(pl.end.i, pl.start.i); n.IsInt64() && n.Int64() <= tensor.MaxElements {
		pl.n = n.Int64()
	}
	return pl
}

func outcomeOf(o tensor.Outcome) *tensor.Outcome { return &o }

// inferredArange is np.arange / jnp.arange without a dtype as the typed
// arange of the dtype they infer (policies numpy.arange.no-dtype,
// jax.arange.no-dtype): NumPy's PyArray_DescrFromObject (int64, float64
// for a float or an int in uint64's range, object beyond: its length's
// errors stand, else no case-format dtype), JAX's result_type (the default
// int or float).
func inferredArange(p *profile, c *tensor.Case) (typedArange, *tensor.Outcome) {
	ta, bad := readTypedArange(p, c)
	if bad != nil {
		return ta, bad
	}
	anyFloat := ta.lo.isFloat || ta.hi.isFloat
	if p.fw == fwJAX {
		ta.d = defaultInt(p)
		if anyFloat {
			ta.d = defaultFloat(p)
		}
		return ta, nil
	}
	ta.d = tensor.I64
	for _, b := range []arangeBound{ta.lo, ta.hi} {
		switch {
		case b.isFloat || b.i.IsInt64():
		case b.i.Sign() > 0 && b.i.BitLen() <= 64:
			ta.d = tensor.F64 // int64 promoted with uint64
		default:
			if run := numpyArangeRun(ta); run.res != nil && run.res.Form == tensor.FormError {
				return ta, run.res
			}
			return ta, outcomeOf(tensor.UnsupportedOutcome("np.arange(%s, %s) has dtype object", ta.loText, *c.Attrs.End))
		}
	}
	if anyFloat {
		ta.d = tensor.F64
	}
	return ta, nil
}

// pyArangeSupports declines an arange longer than the case limit.
func pyArangeSupports(p *profile, c *tensor.Case) bool {
	switch {
	case c.Attrs.End == nil:
		return false
	case c.Attrs.DType.Valid():
		return typedArangeSupports(p, c) // pyarange_dtype.go
	case p.fw != fwPyTorch:
		ta, bad := inferredArange(p, c)
		return bad != nil || !typedArangeRun(p, ta).declined
	}
	pl := planArange(c)
	return pl.done != nil || pl.n >= 0
}

// pyArangeEval is arange(start, end) with step 1 (policies
// python.arange.values, pytorch.arange.range).
func pyArangeEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	switch {
	case c.Attrs.DType.Valid():
		return typedArangeEval(p, c) // pyarange_dtype.go
	case p.fw != fwPyTorch:
		ta, bad := inferredArange(p, c)
		if bad != nil {
			return *bad
		}
		return runTypedArange(p, ta)
	}
	pl := planArange(c)
	if pl.done != nil {
		return *pl.done
	}
	n := int(pl.n)
	if !pl.isFloat { // int64 bounds: start + i never leaves int64
		out := tensor.New(tensor.I64, n)
		start := pl.start.i.Int64()
		for i := range out.Data {
			out.Data[i] = uint64(start + int64(i))
		}
		return tensor.ValueOutcome(out)
	}
	d := defaultFloat(p)
	out := tensor.New(d, n)
	for i := range out.Data { // start + i in double (the CPU's accumulate type), rounded
		out.Data[i] = floatWord(pl.start.f+float64(i), d)
	}
	return tensor.ValueOutcome(out)
}

// ---------------------------------------------------------------- zeros

// pyZerosSupports accepts shapes of the case limits.
func pyZerosSupports(p *profile, c *tensor.Case) bool {
	return validShape(c.Attrs.Shape) && (c.Attrs.DType == tensor.Invalid || c.Attrs.DType.Valid())
}

// validShape reports whether shape has no negative dim and at most
// tensor.MaxElements elements.
func validShape(shape []int) bool {
	n := 1
	for _, s := range shape {
		if s < 0 {
			return false
		}
		if s > 0 && n > tensor.MaxElements/s {
			return false
		}
		n *= s
	}
	return true
}

// pyZerosEval is zeros(shape, dtype): the default float unless a dtype is
// given; JAX without x64 truncates a 64-bit dtype to 32 bits (policy
// python.zeros.dtype).
func pyZerosEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	d := c.Attrs.DType
	if !d.Valid() {
		d = defaultFloat(p)
	}
	var warn []string
	if p.fw == fwJAX && !p.x64 && narrow32(d) != d {
		warn = append(warn, jaxTruncation("zeros", d))
		d = narrow32(d)
	}
	o := tensor.ValueOutcome(tensor.New(d, c.Attrs.Shape...))
	o.Warnings = warn
	return o
}
