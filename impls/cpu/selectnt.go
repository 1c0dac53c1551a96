package cpu

import "unsafe"

// The select of storage words: candle's where_cond and the Python where
// of operands that need no conversion pick each output word from one of two
// tensors' words as they are stored, so they never decode or encode. The
// kernel computes the reference loop
//
//	for i: dst[i] = t[i] if cond[i]&mask != 0 else f[i]
//
// where mask keeps the condition word's bits that make it true (all of
// them for an integer word; a float's without its sign bit, so that -0.0
// is false and NaN true). A large op (an output of streamMin words or
// more) writes the aligned body of every piece with non-temporal stores
// (selectnt_amd64.s): its output does not stay in the caches anyway, and
// the stores skip reading every output line before overwriting it.

// selectWords is the reference loop without a branch (a random condition
// mispredicts half of them): a mask of all ones where the condition word
// is true picks t's bits.
func selectWords(dst, cond, t, f []uint64, mask uint64) {
	dst, t, f = dst[:len(cond)], t[:len(cond)], f[:len(cond)]
	for i, w := range cond {
		w &= mask
		m := -((w | -w) >> 63) // all ones when w != 0
		dst[i] = f[i] ^ (t[i]^f[i])&m
	}
}

// selectWordsStream is selectWords with streaming stores for the 16-byte
// aligned body of any slice (amd64 only): the unaligned head and the tail
// run the plain loop.
//
// Reference: selectWords.
func selectWordsStream(dst, cond, t, f []uint64, mask uint64) {
	n := len(cond)
	dst, t, f = dst[:n], t[:n], f[:n]
	head, body := streamBody8(unsafe.Pointer(unsafe.SliceData(dst)), n)
	selectWords(dst[:head], cond[:head], t[:head], f[:head], mask)
	if body > 0 {
		selectNT(&dst[head], &cond[head], &t[head], &f[head], body, mask)
	}
	end := head + body
	selectWords(dst[end:], cond[end:], t[end:], f[end:], mask)
}

// selectRun selects whole operands' words into dst (all of one length),
// split across the engine's workers; an output of streamMin words or more
// streams in every piece. An op in one piece (every small case) calls the
// kernel itself, without a closure to allocate.
func selectRun(e *Engine, dst, cond, t, f []uint64, mask uint64) {
	if e.pieces(len(dst)) == 1 && len(dst) < streamMin {
		selectWords(dst, cond, t, f, mask)
		return
	}
	k := selectWords
	if haveStreaming && len(dst) >= streamMin {
		k = selectWordsStream
	}
	e.splitRun(len(dst), func(_, lo, hi int) { k(dst[lo:hi], cond[lo:hi], t[lo:hi], f[lo:hi], mask) })
}
