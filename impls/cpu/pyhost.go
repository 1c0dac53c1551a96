package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// Host-data ops of PyTorch, NumPy and JAX: from_vec (host data plus a
// shape: torch.tensor(v).reshape(shape)) and to_host (t.tolist(), read as a
// host element type). Both move data; the only rules are the shape check
// and that a Python number read back as the requested type must keep its
// value.

func init() {
	attach(pythonProfiles(), tensor.ClassFromVec, &family{supports: pyFromVecSupports, eval: pyFromVecEval})
	attach(pythonProfiles(), tensor.ClassToHost, &family{supports: pyToHostSupports, eval: pyToHostEval})
}

func pyFromVecSupports(p *profile, c *tensor.Case) bool {
	return len(c.Args) == 1 && validArg(c.Args[0], false) && validShape(c.Attrs.Shape)
}

// pyFromVecEval keeps the data's dtype (after the framework's creation
// rule) and rejects a shape of another element count (policy
// python.from_vec.reshape).
func pyFromVecEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	v := pyArg(p, c.Args[0].Tensor)
	shape := append([]int{}, c.Attrs.Shape...)
	if n := tensor.NumElements(shape); n != v.Len() {
		switch p.fw {
		case fwPyTorch:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: shape '%v' is invalid for input of size %d", shape, v.Len())
		case fwNumPy:
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: cannot reshape array of size %d into shape %v", v.Len(), shape)
		}
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "TypeError: cannot reshape array of shape %v (size %d) into shape %v (size %d)",
			v.Shape, v.Len(), shape, n)
	}
	words := rowMajorWords(v)
	out := &tensor.Tensor{DType: v.DType, Shape: shape, Data: make([]uint64, len(words))}
	copy(out.Data, words)
	if mask := wordMask(v.DType); mask != math.MaxUint64 { // JAX x32 relabelled i64/u64 words
		for i := range out.Data {
			out.Data[i] &= mask
		}
	}
	return tensor.ValueOutcome(out)
}

func pyToHostSupports(p *profile, c *tensor.Case) bool {
	return len(c.Args) == 1 && validArg(c.Args[0], false) && c.Attrs.DType.Valid()
}

// pyToHostEval reads every element back as a Python object (bool, int,
// float, complex: exact) and then as the requested host type, which must
// hold it exactly (policies python.to_host.exact,
// python.to_host.not-representable). The rank attr does not matter to
// Python: tolist() nests as deep as the tensor.
func pyToHostEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	t := pyArg(p, c.Args[0].Tensor)
	to := c.Attrs.DType
	out := tensor.New(to, t.Shape...)
	n := t.Len()
	var bad int
	switch src := t.DType; {
	case src.IsComplex() || to.IsComplex():
		bad = hostComplex(e, t, out)
	case src.IsFloat():
		bad = -1
		if !to.IsFloat() && n > 0 { // a Python float read as an integer or bool
			bad = 0
			break
		}
		xs := rowMajor[float64](e, t, tensor.F64)
		for i, x := range xs {
			w, ok := exactFloatWord(x, to)
			if !ok {
				bad = i
				break
			}
			out.Data[i] = w
		}
	case src.IsUnsigned():
		bad = hostInts(rowMajor[uint64](e, t, src), false, out)
	default: // signed and bool
		bad = hostInts(rowMajor[int64](e, t, src), true, out)
	}
	if bad >= 0 {
		return tensor.ErrorOutcome(tensor.OutOfRange, "OverflowError: element %d of a %s tensor is not representable as %s",
			bad, pyName(t.DType), pyName(to))
	}
	return tensor.ValueOutcome(out)
}

// exactFloatWord returns x as a word of the float dtype d when d holds it
// exactly (any NaN holds a NaN).
func exactFloatWord(x float64, d tensor.DType) (uint64, bool) {
	w := floatWord(x, d)
	y := math.Float64frombits(w)
	switch d {
	case tensor.F32:
		y = float64(math.Float32frombits(uint32(w)))
	case tensor.F16:
		y = float64(f16ToF32(uint16(w)))
	case tensor.BF16:
		y = float64(bf16ToF32(uint16(w)))
	}
	return w, x != x && y != y || math.Float64bits(x) == math.Float64bits(y)
}

// hostInts stores the integers xs (signed: int64 values; unsigned: uint64
// values held in T = uint64) into out when its dtype holds each exactly,
// and returns the first element it cannot hold (-1: none).
func hostInts[T int64 | uint64](xs []T, signed bool, out *tensor.Tensor) int {
	to := out.DType
	for i, v := range xs {
		neg := signed && int64(v) < 0
		if to.IsFloat() {
			f := float64(v) // correctly rounded
			if !intExactIn(v, f, signed) {
				return i
			}
			w, ok := exactFloatWord(f, to) // a finite f is never held as inf
			if !ok {
				return i
			}
			out.Data[i] = w
			continue
		}
		switch {
		case neg && int64(v) < to.MinInt(): // unsigned and bool have MinInt 0
			return i
		case !neg && uint64(v) > to.MaxUint():
			return i
		}
		out.Data[i] = uint64(v) & wordMask(to)
	}
	return -1
}

// intExactIn reports whether f, the float64 nearest to v, is v itself.
func intExactIn[T int64 | uint64](v T, f float64, signed bool) bool {
	if signed {
		return f >= -0x1p63 && f < 0x1p63 && int64(f) == int64(v)
	}
	return f < 0x1p64 && uint64(f) == uint64(v)
}

// hostComplex handles a complex source or destination: a complex
// destination holds a value when each part rounds to itself (an integer is
// first made a float64, as complex(int) does); any other destination of a
// complex value is an error. It returns the first element it cannot hold.
func hostComplex(e *Engine, t, out *tensor.Tensor) int {
	to := out.DType
	n := t.Len()
	if !to.IsComplex() {
		if n > 0 {
			return 0
		}
		return -1
	}
	comp := to.Component()
	re := make([]float64, n)
	im := make([]float64, n)
	switch src := t.DType; {
	case src.IsComplex():
		words := rowMajorWords(t)
		c := src.Component()
		for i := range re {
			re[i], im[i] = wordFloat(words[2*i], c), wordFloat(words[2*i+1], c)
		}
	default: // floats widen exactly, integers round to the nearest float64
		copy(re, rowMajor[float64](e, t, tensor.F64))
	}
	for i := range re {
		wr, ok1 := exactFloatWord(re[i], comp)
		wi, ok2 := exactFloatWord(im[i], comp)
		if !ok1 || !ok2 {
			return i
		}
		out.Data[2*i], out.Data[2*i+1] = wr, wi
	}
	return -1
}

// wordFloat is the value of a storage word of the float dtype d.
func wordFloat(w uint64, d tensor.DType) float64 {
	switch d {
	case tensor.F32:
		return float64(math.Float32frombits(uint32(w)))
	case tensor.F16:
		return float64(f16ToF32(uint16(w)))
	case tensor.BF16:
		return float64(bf16ToF32(uint16(w)))
	}
	return math.Float64frombits(w)
}
