package cpu

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// index_select of PyTorch (a.index_select(dim, idx)) and take of NumPy and
// JAX (take(a, idx, axis=dim)): the source's slices along dim at the indexed
// positions. The profiles differ in the index dtypes they take, in what a
// negative or out-of-range index means (error, wrap-around, fill) and in the
// result shape. The gather copies whole inner slices of storage words, so it
// serves every dtype, complex included.

func init() {
	attach(pythonProfiles(), tensor.ClassIndexSelect, &family{supports: pyIndexSupports, eval: pyIndexEval})
}

// pyIndexSupports accepts a source and an index tensor.
func pyIndexSupports(p *profile, c *tensor.Case) bool {
	return len(c.Args) == 2 && validArg(c.Args[0], false) && validArg(c.Args[1], false)
}

// pyArg is pyInput for every dtype: JAX without x64 also stores c128 host
// data as c64 (each part rounded to f32), which pyInput leaves to callers.
func pyArg(p *profile, t *tensor.Tensor) *tensor.Tensor {
	if t.DType != tensor.C128 || p.fw != fwJAX || p.x64 {
		return pyInput(p, t)
	}
	n := *t
	n.DType = tensor.C64
	n.Data = make([]uint64, len(t.Data))
	for i, w := range t.Data {
		n.Data[i] = uint64(math.Float32bits(float32(math.Float64frombits(w))))
	}
	return &n
}

func pyIndexEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	src, idx := pyArg(p, c.Args[0].Tensor), pyArg(p, c.Args[1].Tensor)
	var dim int // 0 when absent
	if c.Attrs.Dim != nil {
		dim = *c.Attrs.Dim
	}
	// policy python.index-select.dim: PyTorch and NumPy see a 0-dim source
	// as 1-D; JAX does not
	rank := src.Rank()
	if p.fw != fwJAX {
		rank = max(rank, 1)
	}
	d, ok := rustDim(dim, rank)
	switch {
	case !ok && p.fw == fwPyTorch:
		return tensor.ErrorOutcome(tensor.IndexOutOfRange,
			"IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -rank, rank-1, dim)
	case !ok:
		return tensor.ErrorOutcome(tensor.IndexOutOfRange, "AxisError: axis %d is out of bounds for array of dimension %d", dim, rank)
	case p.fw == fwPyTorch:
		return torchIndexSelect(e, src, idx, d)
	}
	return takeIndexSelect(e, p, src, idx, d)
}

// srcShape is the source's shape, a 0-dim source seen as one element.
func srcShape(t *tensor.Tensor) []int {
	if t.Rank() == 0 {
		return []int{1}
	}
	return t.Shape
}

// torchIndexSelect is a.index_select(d, idx) on the CPU (d wrapped).
func torchIndexSelect(e *Engine, src, idx *tensor.Tensor, d int) tensor.Outcome {
	// policy pytorch.index-select.index-shape
	if idx.Rank() > 1 {
		return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: index_select(): Index is supposed to be a vector")
	}
	if src.Rank() == 0 && idx.Len() != 1 {
		return tensor.ErrorOutcome(tensor.ShapeMismatch,
			"RuntimeError: index_select(): Index to scalar can have only 1 value, got %d value(s)", idx.Len())
	}
	shape := append([]int{}, src.Shape...)
	if src.Rank() > 0 {
		shape[d] = idx.Len()
	}
	if idx.DType != tensor.I32 && idx.DType != tensor.I64 { // policy pytorch.index-select.index-dtype
		return tensor.ErrorOutcome(tensor.IndexDType, "RuntimeError: index_select(): Expected dtype int32 or int64 for index")
	}
	n := srcShape(src)[d]
	vals := rowMajor[int64](e, idx, tensor.I64)
	pos := make([]int, len(vals))
	for j, v := range vals {
		if v < 0 || v >= int64(n) { // policy pytorch.index-select.bounds: no wrap-around
			if src.Rank() > 1 && (n == 0 || d == 1 || src.Len() == 0) {
				return tensor.ErrorOutcome(tensor.IndexOutOfRange,
					"RuntimeError: INDICES element is out of DATA bounds, id=%d axis_dim=%d", v, n)
			}
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: index out of range in self")
		}
		pos[j] = int(v)
	}
	return tensor.ValueOutcome(gatherSlices(e, src, d, pos, shape))
}

// takeIndexSelect is take(a, idx, axis=d) in NumPy and JAX (d wrapped).
func takeIndexSelect(e *Engine, p *profile, src, idx *tensor.Tensor, d int) tensor.Outcome {
	if idx.DType.IsFloat() || idx.DType.IsComplex() {
		if p.fw == fwNumPy { // policy numpy.take.index: same-kind cast to intp
			return tensor.ErrorOutcome(tensor.IndexDType,
				"TypeError: Cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'same_kind'", pyName(idx.DType))
		}
		return tensor.ErrorOutcome(tensor.IndexDType, "ValueError: indices must have an integer type") // policy jax.take.index
	}
	s := srcShape(src)
	n := s[d]
	shape := make([]int, 0, len(s)-1+idx.Rank())
	shape = append(append(append(shape, s[:d]...), idx.Shape...), s[d+1:]...)
	vals := rowMajor[int64](e, idx, tensor.I64) // u64 above 2^63-1 reads negative, as intp does
	pos := make([]int, len(vals))
	for j, v := range vals {
		if p.fw == fwJAX && idx.DType.IsUnsigned() && v < 0 {
			v = math.MaxInt64 // a large unsigned index never wraps in JAX
		}
		switch {
		case v >= 0 && v < int64(n):
			pos[j] = int(v)
		case v < 0 && v >= -int64(n): // wrap-around
			pos[j] = int(v) + n
		case p.fw == fwNumPy:
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: index %d is out of bounds for axis %d with size %d", v, d, n)
		case n == 0: // policy jax.take.fill
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: Cannot do a non-empty jnp.take() from an empty axis.")
		default:
			pos[j] = -1 // filled (policy jax.take.fill)
		}
	}
	return tensor.ValueOutcome(gatherSlices(e, src, d, pos, shape))
}

// gatherSlices returns the tensor of the given shape whose slices along dim
// are src's slices at positions pos; a position -1 is filled with JAX's
// fill value for the dtype.
//
// Reference: out[o, j, t] = src[o, pos[j], t] for o < outer, j < len(pos),
// t < inner (element by element).
func gatherSlices(e *Engine, src *tensor.Tensor, dim int, pos []int, shape []int) *tensor.Tensor {
	s := srcShape(src)
	w := 1
	if src.DType.IsComplex() {
		w = 2
	}
	outer, n, inner := tensor.NumElements(s[:dim]), s[dim], tensor.NumElements(s[dim+1:])
	k := len(pos)
	words := rowMajorWords(src)
	out := &tensor.Tensor{DType: src.DType, Shape: shape, Data: make([]uint64, outer*k*inner*w)}
	fill := fillWord(src.DType)
	mask := wordMask(src.DType)
	span := inner * w
	e.splitItems(len(out.Data), outer*k, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			o, j := r/k, r%k
			dst := out.Data[r*span : (r+1)*span]
			if pos[j] < 0 {
				for i := range dst {
					dst[i] = fill
				}
				continue
			}
			at := (o*n + pos[j]) * span
			copy(dst, words[at:at+span])
			if mask != math.MaxUint64 { // JAX x32 relabelled i64/u64 words
				for i := range dst {
					dst[i] &= mask
				}
			}
		}
	})
	return out
}

// wordMask keeps the bits a storage word of d may hold.
func wordMask(d tensor.DType) uint64 {
	if d.IsInt() && d.Bits() < 64 {
		return 1<<d.Bits() - 1
	}
	return math.MaxUint64
}

// fillWord is the storage word of jnp.take's fill value for d: NaN for
// floats (both parts of a complex), the minimum of a signed type, the
// maximum of an unsigned one, True for bool.
func fillWord(d tensor.DType) uint64 {
	switch d.Component() {
	case tensor.F16:
		return 0x7e00
	case tensor.BF16:
		return 0x7fc0
	case tensor.F32:
		return 0x7fc00000
	case tensor.F64:
		return 0x7ff8000000000000
	}
	switch {
	case d == tensor.Bool:
		return 1
	case d.IsSigned():
		return uint64(d.MinInt()) & wordMask(d)
	}
	return d.MaxUint()
}
