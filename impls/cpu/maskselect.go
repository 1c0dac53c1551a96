package cpu

import (
	"math"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// mask_select (case format, added 2026-12): t[mask] in PyTorch, NumPy and
// JAX, t.mask_select(mask) in burn; candle has none. The engine reads the
// index the way each framework's indexing does (policies pytorch.mask-select,
// numpy.mask-select, jax.mask-select): a mask selects whole slices of the
// input's trailing dims, an integer index picks slices of dim 0; either way
// the result is a copy of storage words, so every dtype takes one path.

func init() {
	attach(pythonProfiles(), tensor.ClassMaskSelect, &family{supports: twoTensorArgs, eval: pyMaskSelectEval})
	candleAttach(tensor.ClassMaskSelect, twoTensorArgs, func(*Engine, *profile, *tensor.Case) tensor.Outcome {
		return tensor.UnsupportedOutcome("candle has no mask selection") // policy candle.no-mask-select
	})
	burnAttach(tensor.ClassMaskSelect, twoTensorArgs, burnMaskSelectEval)
}

func twoTensorArgs(_ *profile, c *tensor.Case) bool {
	return len(c.Args) == 2 && validArg(c.Args[0], false) && validArg(c.Args[1], false)
}

// indexKind is what a framework's t[index] makes of the index tensor.
type indexKind uint8

const (
	indexMask    indexKind = iota // a boolean mask
	indexInteger                  // integer positions along dim 0
	indexBad                      // not an index dtype
)

func indexKindOf(p *profile, d tensor.DType, rank int) indexKind {
	switch {
	case d == tensor.Bool, p.fw == fwPyTorch && d == tensor.U8:
		return indexMask
	case !d.IsInt():
		return indexBad
	case p.fw == fwPyTorch && rank > 0 && d != tensor.I32 && d != tensor.I64:
		return indexBad // only long and int tensors index (a 0-dim one is read as a number)
	}
	return indexInteger
}

func pyMaskSelectEval(_ *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	x, m := wordsFit(pyArg(p, c.Args[0].Tensor)), wordsFit(pyArg(p, c.Args[1].Tensor))
	kind := indexKindOf(p, m.DType, m.Rank())
	consumed := 1
	if kind == indexMask {
		consumed = m.Rank()
	}
	tooMany := consumed > x.Rank()
	switch {
	case tooMany && p.fw == fwPyTorch: // counted before any dtype is looked at
		return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: too many indices: %d for %d dims", consumed, x.Rank())
	case kind == indexBad:
		return tensor.ErrorOutcome(tensor.IndexDType, "IndexError: %s is not an index dtype here", m.DType)
	case tooMany:
		return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: too many indices: %d for %d dims", consumed, x.Rank())
	}
	if m.Rank() == 0 {
		mw := rowMajorWords(m)[0]
		switch {
		case kind == indexMask:
			keep := 0
			if mw != 0 {
				keep = 1
			}
			return tensor.ValueOutcome(selectSlices(x, 0, keep, func(int) int { return 0 }, []int{keep}))
		case p.fw == fwJAX:
			return tensor.UnsupportedOutcome("a 0-dim integer index in JAX is not stated")
		}
		pos, bad := wrapIndex(p, signedWord(mw, m.DType), x.Shape[0], m.DType)
		if bad {
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: index out of bounds for dim 0 of size %d", x.Shape[0])
		}
		return tensor.ValueOutcome(selectSlices(x, 1, 1, func(int) int { return pos }, nil))
	}
	mw := rowMajorWords(m)
	if kind == indexMask {
		empty := false
		for j, s := range m.Shape {
			if s == 0 && p.fw != fwPyTorch {
				empty = true // a boolean dim of size 0 is not checked there
				continue
			}
			if s != x.Shape[j] {
				return tensor.ErrorOutcome(tensor.ShapeMismatch, "IndexError: mask shape %v does not fit %v at dim %d", m.Shape, x.Shape, j)
			}
		}
		var picked []int
		for i, w := range mw {
			if w != 0 && !empty {
				picked = append(picked, i)
			}
		}
		return tensor.ValueOutcome(selectSlices(x, consumed, len(picked), func(k int) int { return picked[k] }, []int{len(picked)}))
	}
	n := x.Shape[0]
	if p.fw == fwJAX && n == 0 && len(mw) > 0 {
		return tensor.UnsupportedOutcome("a JAX integer index into an empty dim is not stated")
	}
	pos := make([]int, len(mw))
	for k, w := range mw {
		q, bad := wrapIndex(p, signedWord(w, m.DType), n, m.DType)
		if bad {
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: index %d is out of bounds for dim 0 of size %d", signedWord(w, m.DType), n)
		}
		pos[k] = q
	}
	return tensor.ValueOutcome(selectSlices(x, 1, len(pos), func(k int) int { return pos[k] }, m.Shape))
}

// signedWord is an integer storage word as int64 (signed types extended).
func signedWord(w uint64, d tensor.DType) int64 {
	if d.IsSigned() {
		s := 64 - uint(d.Bits())
		return int64(w<<s) >> s
	}
	return int64(w)
}

// wrapIndex maps an index into a dim of n: negative ones count from the
// end once; JAX fills an index out of range (-1), the others fail (bad).
func wrapIndex(p *profile, v int64, n int, d tensor.DType) (pos int, bad bool) {
	if p.fw == fwJAX && d.IsUnsigned() && v < 0 {
		return -1, false // a u64 beyond MaxInt64 never wraps in JAX
	}
	if v < 0 {
		v += int64(n)
	}
	if v >= 0 && v < int64(n) {
		return int(v), false
	}
	return -1, p.fw != fwJAX
}

// selectSlices builds the tensor of count slices of x's dims from `from` on
// (slice k is x's slice at leading position at(k), or JAX's fill for -1),
// shaped lead + x.Shape[from:].
func selectSlices(x *tensor.Tensor, from, count int, at func(int) int, lead []int) *tensor.Tensor {
	words := rowMajorWords(x)
	w := 1
	if x.DType.IsComplex() {
		w = 2
	}
	rest := x.Shape[min(from, x.Rank()):]
	size := tensor.NumElements(rest) * w
	shape := append(slices.Clone(lead), rest...)
	out := &tensor.Tensor{DType: x.DType, Shape: shape, Data: make([]uint64, count*size)}
	fill := jaxFillWord(x.DType)
	for k := range count {
		dst := out.Data[k*size : (k+1)*size]
		if src := at(k); src >= 0 {
			copy(dst, words[src*size:(src+1)*size])
			continue
		}
		for i := range dst {
			dst[i] = fill
		}
	}
	return out
}

// jaxFillWord is JAX's fill for a gather out of range (policy
// jax.take.fill): NaN, the signed minimum, the unsigned maximum, true.
func jaxFillWord(d tensor.DType) uint64 {
	switch {
	case d == tensor.Bool:
		return 1
	case d == tensor.F16:
		return 0x7e00
	case d == tensor.BF16:
		return 0x7fc0
	case d == tensor.F32 || d == tensor.C64:
		return uint64(math.Float32bits(float32(math.NaN())))
	case d == tensor.F64 || d == tensor.C128:
		return math.Float64bits(math.NaN())
	case d.IsSigned():
		return uint64(1) << (d.Bits() - 1)
	}
	return ^uint64(0) >> (64 - d.Bits())
}

func burnMaskSelectEval(_ *Engine, _ *profile, _ *tensor.Case, args []*tensor.Tensor) tensor.Outcome {
	x, m := args[0], args[1]
	switch {
	case m.DType != tensor.Bool:
		return tensor.UnsupportedOutcome("mask_select takes a Bool mask, not %s", m.DType)
	case m.Rank() != x.Rank():
		return tensor.UnsupportedOutcome("mask_select takes a mask of the tensor's rank")
	case !slices.Equal(m.Shape, x.Shape):
		return tensor.PanicOutcome("Mask Select: The mask must have the same shape as the tensor.")
	}
	var picked []int
	for i, w := range rowMajorWords(m) {
		if w != 0 {
			picked = append(picked, i)
		}
	}
	return tensor.ValueOutcome(selectSlices(x, x.Rank(), len(picked), func(k int) int { return picked[k] }, []int{len(picked)}))
}
