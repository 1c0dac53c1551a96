package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// full(shape, value, dtype) in PyTorch, NumPy and JAX (policies
// python.full, pytorch.full.scalar, numpy.full.int, jax.full.int). The
// value literal becomes one storage word of the result's dtype, which full
// repeats:
//   - PyTorch parses a c10::Scalar (an int: int64, else uint64 below 2^64,
//     else the parser's OverflowError) and converts it with a checked
//     conversion (a value the dtype cannot hold is a RuntimeError, bool is
//     != 0, a negative int into an unsigned dtype wraps when its magnitude
//     fits); without a dtype an int is int64 and a float the default f32.
//   - NumPy stores a Python int with the dtype's setitem (bool: int64's,
//     then != 0); without a dtype it has np.asarray(value)'s dtype.
//   - JAX casts np.asarray(value) (an int64 or uint64 array as C casts it,
//     an object array by the dtype's setitem) into the canonical dtype
//     (x32 narrows; without a dtype the default int).
//
// Floats and bools into float or bool dtypes convert as a binary op's
// Python scalar does (PyTorch: checked, as an int is); a float into an
// integer dtype, and in NumPy and JAX into bool, is declined (the model
// states nothing there).

func init() {
	attach(pythonProfiles(), tensor.ClassFull, &family{supports: pyFullSupports, eval: pyFullEval})
}

// fullWord is the element full repeats, or the outcome that replaces the
// result.
type fullWord struct {
	d    tensor.DType
	word uint64 // a complex dtype: the real part's word (the imaginary part is +0)
	warn []string
	res  *tensor.Outcome
}

// pyFullSupports declines a float value of an integer dtype and shapes
// past the case limits.
func pyFullSupports(p *profile, c *tensor.Case) bool {
	if c.Attrs.Value == nil || !validShape(c.Attrs.Shape) || len(c.Attrs.Shape) > tensor.MaxRank {
		return false
	}
	_, ok := fullElement(p, c)
	return ok
}

func pyFullEval(_ *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	fw, _ := fullElement(p, c)
	if fw.res != nil {
		return *fw.res
	}
	out := tensor.New(fw.d, c.Attrs.Shape...)
	step := 1
	if fw.d.IsComplex() {
		step = 2
	}
	for i := 0; i < len(out.Data); i += step {
		out.Data[i] = fw.word
	}
	res := tensor.ValueOutcome(out)
	res.Warnings = fw.warn
	return res
}

// fullElement reads the value and converts it; ok is false to decline.
func fullElement(p *profile, c *tensor.Case) (fullWord, bool) {
	text := *c.Attrs.Value
	n, isNumber := readFullValue(text)
	if !isNumber {
		return fullWord{res: outcomeOf(tensor.UnsupportedOutcome("%q is not a Python number literal", text))}, true
	}
	fw := fullWord{d: c.Attrs.DType}
	if p.fw == fwJAX && !p.x64 && fw.d.Valid() && narrow32(fw.d) != fw.d {
		fw.warn = []string{jaxTruncation("full", fw.d)}
	}
	switch {
	case n.kind == tensor.ScalarInt && p.fw == fwPyTorch:
		return torchFullInt(n, fw), true
	case n.kind == tensor.ScalarInt && p.fw == fwNumPy:
		return numpyFullInt(p, n, fw), true
	case n.kind == tensor.ScalarInt:
		return jaxFullInt(p, n, fw), true
	}
	if !fw.d.Valid() {
		fw.d = tensor.Bool
		if n.kind == tensor.ScalarFloat {
			fw.d = defaultFloat(p)
		}
	}
	if p.fw == fwJAX && !p.x64 {
		fw.d = narrow32(fw.d)
	}
	switch {
	case n.kind == tensor.ScalarFloat && (fw.d.IsInt() || fw.d == tensor.Bool && p.fw != fwPyTorch):
		return fw, false
	case fw.d == tensor.Bool:
		fw.word = uint64(b2u(truthy(n)))
	case fw.d.IsInt(): // a bool: 0 or 1
		fw.word = uint64(b2u(n.truth))
	case p.fw == fwPyTorch && n.kind == tensor.ScalarFloat:
		return torchFullFloat(n.f, fw), true
	default:
		part := fw.d.Component()
		fw.word = floatWord(scalarFloat(p, pyScalar{kind: n.kind, i: int64(b2u(n.truth)), f: n.f}, part), part)
	}
	return fw, true
}

// readFullValue parses a Python number literal: True / False (either case of
// the first letter), a decimal int ("0" and "-0" the only spellings of
// zero), or a float; ok is false for other text.
func readFullValue(text string) (pyNumber, bool) {
	n, ok := pyWord(text)
	if ok && n.kind == tensor.ScalarInt && n.mag == 0 && !n.huge && text != "0" && text != "-0" {
		f, err := tensor.ParseFloatText(text) // "+0", "00": not ints to the model's reading
		return pyNumber{kind: tensor.ScalarFloat, f: f, text: text}, err == nil
	}
	return n, ok
}

// int64Range and uint64Range report where the Python int n falls.
func int64Range(n pyNumber) bool { return !beyondInt64(n) }

func uint64Range(n pyNumber) bool { return !n.huge && !n.neg }

// overflowOf is c10's RuntimeError for a Scalar d cannot hold.
func overflowOf(d tensor.DType) *tensor.Outcome {
	names := map[tensor.DType]string{tensor.I8: "int8_t", tensor.I16: "int16_t", tensor.I32: "int", tensor.I64: "int64_t",
		tensor.F16: "at::Half", tensor.BF16: "at::BFloat16", tensor.F32: "float", tensor.F64: "double",
		tensor.C64: "c10::complex<float>", tensor.C128: "c10::complex<double>"}
	name, ok := names[d]
	if !ok {
		name = pyName(d) + "_t"
	}
	return rangeError("RuntimeError: value cannot be converted to type %s without overflow", name)
}

// torchFullInt is torch.full of a Python int: the arg parser's Scalar,
// then Scalar::to<D>.
func torchFullInt(n pyNumber, fw fullWord) fullWord {
	switch {
	case int64Range(n):
	case n.neg:
		fw.res = rangeError("OverflowError: can't convert negative int to unsigned")
		return fw
	case n.huge:
		fw.res = rangeError("OverflowError: int too big to convert")
		return fw
	}
	if !fw.d.Valid() {
		fw.d = tensor.I64
	}
	part := fw.d.Component()
	switch {
	case part == tensor.Bool:
		fw.word = uint64(b2u(n.mag != 0))
	case part.IsInt():
		// a negative int64 may wrap into an unsigned dtype it fits by magnitude
		if !pyIntFits(n, part) && (part.IsSigned() || !n.neg || n.mag > part.MaxUint()) {
			fw.res = overflowOf(fw.d)
			return fw
		}
		fw.word, _ = pyIntWord(n, part)
	case part == tensor.F16 && n.mag > 65504:
		fw.res = overflowOf(fw.d)
	default:
		fw.word = floatWord(exactIntTo(n, part, true), part)
	}
	return fw
}

// exactIntTo is the int n (within ±(2^64 - 1)) converted to the float dtype
// d: once for f32 and f64; f16 and bf16 through a float32 (viaFloat, as
// c10's Half(float) and BFloat16(float) and ml_dtypes' casts take it) or
// once (NumPy's half from a double). The result is a float64 holding d's
// value.
func exactIntTo(n pyNumber, d tensor.DType, viaFloat bool) float64 {
	sign := 1.0
	if n.neg && n.mag != 0 { // Python's -0 is 0
		sign = -1
	}
	switch {
	case d == tensor.F64:
		return sign * float64(n.mag)
	case d == tensor.F32 || viaFloat:
		x := sign * float64(float32(n.mag)) // Go rounds uint64 -> float32 once, to nearest even
		return roundTo(x, d)
	}
	return roundTo(sign*float64(n.mag), d)
}

// torchFullFloat is torch.full of a Python float into the float (or
// complex) dtype fw.d: checked against the dtype's largest value, then
// converted (f16/bf16 through float).
func torchFullFloat(f float64, fw fullWord) fullWord {
	part := fw.d.Component()
	limit := map[tensor.DType]float64{tensor.F16: 65504, tensor.BF16: 0x1.fep127, tensor.F32: math.MaxFloat32, tensor.F64: math.MaxFloat64}[part]
	if math.Abs(f) > limit && !math.IsInf(f, 0) { // NaN fails the comparison
		fw.res = overflowOf(fw.d)
		return fw
	}
	if part == tensor.F16 || part == tensor.BF16 {
		f = float64(float32(f))
	}
	fw.word = floatWord(f, part)
	return fw
}

// numpyFullInt is np.full of a Python int: setitem of the common DType of
// int and D (int64 for bool), or np.asarray's dtype without one.
func numpyFullInt(p *profile, n pyNumber, fw fullWord) fullWord {
	if !fw.d.Valid() {
		switch {
		case int64Range(n):
			fw.d = tensor.I64
		case uint64Range(n):
			fw.d = tensor.U64
		default: // policy numpy.create.big-int
			fw.res = outcomeOf(tensor.UnsupportedOutcome("np.full(%s) has dtype object", n.text))
			return fw
		}
	}
	if fw.d == tensor.Bool {
		if beyondInt64(n) {
			fw.res = rangeError("OverflowError: Python int too large to convert to C long")
		} else {
			fw.word = uint64(b2u(n.mag != 0))
		}
		return fw
	}
	fw.word, fw.res = numpyStoreNumber(p, n, fw.d.Component())
	return fw
}

// jaxFullInt is jnp.full of a Python int: np.asarray(v).astype(D).
func jaxFullInt(p *profile, n pyNumber, fw fullWord) fullWord {
	if !fw.d.Valid() {
		fw.d = defaultInt(p)
	}
	if !p.x64 {
		fw.d = narrow32(fw.d)
	}
	part := fw.d.Component()
	if !int64Range(n) && !uint64Range(n) { // an object array: the setitem
		fw.word, fw.res = numpyStoreNumber(p, n, part)
		return fw
	}
	switch { // the C cast of an int64 or uint64 array
	case part == tensor.Bool:
		fw.word = uint64(b2u(n.mag != 0))
	case part.IsInt():
		w := n.mag
		if n.neg {
			w = -w
		}
		fw.word = w & wordMask(part)
	default:
		fw.word = floatWord(exactIntTo(n, part, part == tensor.BF16), part)
	}
	return fw
}
