package cpu

import (
	"math"
	"unsafe"

	"github.com/tfuzz/tfuzz/tensor"
)

// Decoding and encoding between tensor.Tensor (raw words, one per element,
// integers zero-extended) and the engine's typed slices in the compute
// representation of elem.go. Decoding keeps the storage order: strides and
// offsets of the view stay valid for the typed slice.

// decodeAs converts every storage word of t into dst (len(dst) >=
// len(t.Data)) as a value of the dtype `to`, in its compute representation T.
// The conversion is the one every framework uses when it promotes an operand:
// integers wrap, bool is 0 or 1, floats widen exactly, integers round to a
// float once (to f16/bf16 through f32, as c10 and ml_dtypes do). Float ->
// integer and narrowing float conversions are casts (convert.go), not
// promotions.
func decodeAs[T number](dst []T, t *tensor.Tensor, to tensor.DType) {
	src := t.Data
	dst = dst[:len(src)]
	switch t.DType {
	case tensor.Bool:
		for i, w := range src {
			dst[i] = T(uint8(w) & 1)
		}
	case tensor.U8:
		for i, w := range src {
			dst[i] = T(uint8(w))
		}
	case tensor.I8:
		for i, w := range src {
			dst[i] = T(int8(w))
		}
	case tensor.U16:
		for i, w := range src {
			dst[i] = T(uint16(w))
		}
	case tensor.I16:
		for i, w := range src {
			dst[i] = T(int16(w))
		}
	case tensor.U32:
		for i, w := range src {
			dst[i] = T(uint32(w))
		}
	case tensor.I32:
		for i, w := range src {
			dst[i] = T(int32(w))
		}
	case tensor.U64:
		for i, w := range src {
			dst[i] = T(w)
		}
	case tensor.I64:
		for i, w := range src {
			dst[i] = T(int64(w))
		}
	case tensor.F16:
		for i, w := range src {
			dst[i] = T(f16ToF32(uint16(w)))
		}
	case tensor.BF16:
		for i, w := range src {
			dst[i] = T(bf16ToF32(uint16(w)))
		}
	case tensor.F32:
		for i, w := range src {
			dst[i] = T(math.Float32frombits(uint32(w)))
		}
	case tensor.F64:
		for i, w := range src {
			dst[i] = T(math.Float64frombits(w))
		}
	}
}

// decodeF32 decodes t as the float dtype `to` (f16, bf16 or f32) held in
// float32: integers round to f16/bf16 through f32 (c10 and ml_dtypes build
// them from a float), floats round once to the target.
func decodeF32(dst []float32, t *tensor.Tensor, to tensor.DType) {
	dst = dst[:len(t.Data)]
	if t.DType == tensor.F64 && isHalf(to) {
		round := roundF16From64
		if to == tensor.BF16 {
			round = roundBF16From64
		}
		for i, w := range t.Data {
			dst[i] = round(math.Float64frombits(w))
		}
		return
	}
	decodeAs(dst, t, to)
	if t.DType == to || t.DType == tensor.Bool || t.DType == tensor.F16 && to == tensor.F32 ||
		t.DType == tensor.BF16 && to == tensor.F32 {
		return
	}
	switch to {
	case tensor.F16:
		roundF16Slice(dst)
	case tensor.BF16:
		roundBF16Slice(dst)
	}
}

func roundF16Slice(x []float32) {
	for i, v := range x {
		x[i] = roundF16(v)
	}
}

func roundBF16Slice(x []float32) {
	for i, v := range x {
		x[i] = roundBF16(v)
	}
}

// loadInput returns t's storage decoded as dtype `to`, in representation T.
func loadInput[T number](t *tensor.Tensor, to tensor.DType) []T {
	dst := make([]T, len(t.Data))
	if f, ok := any(dst).([]float32); ok { // one type test per op
		decodeF32(f, t, to)
		return dst
	}
	decodeAs(dst, t, to)
	return dst
}

// mapWords computes the unary kernel k over words (storage words of dtype
// from, row-major) decoded as dtype to in representation T, and returns the
// results as words of dtype to, with the union of k's faults:
//
//	encode(k(decode(words)))
//
// as decodeWords, k and encodeInto compute them, a tile of at most tileLen
// elements at a time, split across the engine's workers: neither the
// decoded input nor the typed result exists whole, so a large op reads its
// input words and writes its output words once, and the tile stays in the
// first-level cache between the three steps. An output of streamMin words
// or more of f32, i32 or u32 is written with streaming stores
// (encodeStream).
func mapWords[T number](e *Engine, words []uint64, from, to tensor.DType, k unaryKernel[T, T]) ([]uint64, fault) {
	out := make([]uint64, len(words))
	enc := encodeInto[T]
	if haveStreaming && len(words) >= streamMin && widens32[T](to) {
		enc = encodeStream[T]
	}
	if e.pieces(len(words)) == 1 { // every small case: no closure to allocate
		return out, mapWordsRange(out, words, from, to, k, enc, 0, len(words))
	}
	return out, e.parallel(len(words), func(lo, hi int) fault { return mapWordsRange(out, words, from, to, k, enc, lo, hi) })
}

// mapWordsRange computes mapWords' output words [lo, hi) in the calling
// goroutine, encoding each tile with enc.
func mapWordsRange[T number](out, words []uint64, from, to tensor.DType, k unaryKernel[T, T], enc func([]uint64, []T, tensor.DType), lo, hi int) fault {
	m := min(tileLen, hi-lo)
	buf := make([]T, 2*m)
	in, res := buf[:m], buf[m:]
	var f fault
	for i := lo; i < hi; i += m {
		m = min(m, hi-i)
		decodeWords(in[:m], words[i:i+m], from, to)
		f |= k(res[:m], in[:m])
		enc(out[i:i+m], res[:m], to)
	}
	return f
}

// widens32 reports whether encodeInto of T as dtype d zero-extends the
// value's 32 bits into its word: float32 as f32, int32 as i32, uint32 as
// u32.
func widens32[T number](d tensor.DType) bool {
	switch any(T(0)).(type) {
	case float32:
		return d == tensor.F32
	case int32:
		return d == tensor.I32
	case uint32:
		return d == tensor.U32
	}
	return false
}

// encodeStream is encodeInto with streaming stores for the 16-byte aligned
// body of dst when T and d are a widens32 pair (amd64): the unaligned head,
// the tail, any other pair and other architectures run encodeInto.
//
// Reference: encodeInto.
func encodeStream[T number](dst []uint64, src []T, d tensor.DType) {
	if !haveStreaming || !widens32[T](d) {
		encodeInto(dst, src, d)
		return
	}
	n := len(src)
	dst = dst[:n]
	head, body := streamBody8(unsafe.Pointer(unsafe.SliceData(dst)), n)
	encodeInto(dst[:head], src[:head], d)
	if body > 0 {
		widen32NT(&dst[head], (*uint32)(unsafe.Pointer(&src[head])), body)
	}
	end := head + body
	encodeInto(dst[end:], src[end:], d)
}

// encode converts a contiguous result in representation T into the words
// of a new tensor of dtype d and the given shape. f16 and bf16 results are
// rounded to nearest even here, which is how a kernel computing in f32
// ("opmath") stores its result.
func encode[T number](e *Engine, src []T, d tensor.DType, shape []int) *tensor.Tensor {
	out := &tensor.Tensor{DType: d, Shape: append([]int{}, shape...), Data: make([]uint64, len(src))}
	e.parallel(len(src), func(lo, hi int) fault {
		encodeInto(out.Data[lo:hi], src[lo:hi], d)
		return 0
	})
	return out
}

// encodeInto writes src as words of dtype d into dst (len(dst) == len(src)).
func encodeInto[T number](dst []uint64, src []T, d tensor.DType) {
	dst = dst[:len(src)]
	switch d {
	case tensor.F16:
		if f, ok := any(src).([]float32); ok {
			narrowF16(dst, f)
			return
		}
		for i, v := range src {
			dst[i] = uint64(f32ToF16(float32(v)))
		}
	case tensor.BF16:
		for i, v := range src {
			dst[i] = uint64(f32ToBF16(float32(v)))
		}
	case tensor.F32:
		for i, v := range src {
			dst[i] = uint64(math.Float32bits(float32(v)))
		}
	case tensor.F64:
		for i, v := range src {
			dst[i] = math.Float64bits(float64(v))
		}
	default:
		mask := ^uint64(0) >> (64 - d.Bits())
		for i, v := range src {
			dst[i] = uint64(v) & mask
		}
	}
}
