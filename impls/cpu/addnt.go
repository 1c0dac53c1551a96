package cpu

import "unsafe"

// Large adds of int64 and float32 (the benchmarked ones) are memory-bound:
// their cost is the bytes moved. When an op's output has streamMin elements
// or more, every kernel call writes its part with non-temporal stores
// (addnt_amd64.s), which skip reading every output cache line before
// overwriting it: a quarter less traffic than a plain loop (measured on the
// 2-core development machine at 2^24 elements: i64 8.1 ms instead of 11.8,
// f32 3.6 instead of 7.2). That holds for the calls of a contiguous op's
// pieces and for the row-by-row calls of a broadcast one alike. Below it,
// and for the unaligned head and the tail of each call, the plain generic
// kernel runs: an output that fits in the caches is better left there for
// its reader.

// streamMin is the output length from which an add streams (4 MB of f32,
// 8 MB of i64: beyond what a core's share of the cache keeps).
const streamMin = 1 << 20

// kAddI64 is kAdd[int64] with streaming stores for long slices.
//
// Reference: kAdd[int64].
func kAddI64(dst, a, b []int64) fault {
	if !haveStreaming || len(dst) < streamMin {
		return kAdd(dst, a, b)
	}
	return kAddI64Stream(dst, a, b)
}

// streamBody8 splits n 8-byte elements at p for a streaming kernel: the
// unaligned head (elements before the first 16-byte boundary, at most n)
// and the length of the body after it in whole groups of 8 (64 bytes),
// which the kernel stores; plain loops take the head and what follows.
func streamBody8(p unsafe.Pointer, n int) (head, body int) {
	head = min(int(-uintptr(p)&15)/8, n)
	return head, (n - head) &^ 7
}

// kAddI64Stream is kAdd[int64] with streaming stores for the aligned body
// of any slice (amd64 only).
//
// Reference: kAdd[int64].
func kAddI64Stream(dst, a, b []int64) fault {
	a, b = a[:len(dst)], b[:len(dst)]
	head, body := streamBody8(unsafe.Pointer(unsafe.SliceData(dst)), len(dst))
	kAdd(dst[:head], a[:head], b[:head])
	if body > 0 {
		addI64NT(&dst[head], &a[head], &b[head], body)
	}
	end := head + body
	return kAdd(dst[end:], a[end:], b[end:])
}

// kAddF32 is kAdd[float32] with streaming stores for long slices.
//
// Reference: kAdd[float32].
func kAddF32(dst, a, b []float32) fault {
	if !haveStreaming || len(dst) < streamMin {
		return kAdd(dst, a, b)
	}
	return kAddF32Stream(dst, a, b)
}

// kAddF32Stream is kAdd[float32] with streaming stores for the aligned
// body of any slice (amd64 only).
//
// Reference: kAdd[float32].
func kAddF32Stream(dst, a, b []float32) fault {
	a, b = a[:len(dst)], b[:len(dst)]
	mis := int(-uintptr(unsafe.Pointer(unsafe.SliceData(dst))) & 15)
	if mis%4 != 0 {
		return kAdd(dst, a, b) // not even 4-byte aligned: never from make
	}
	head := min(mis/4, len(dst))
	body := (len(dst) - head) &^ 15
	kAdd(dst[:head], a[:head], b[:head])
	if body > 0 {
		addF32NT(&dst[head], &a[head], &b[head], body)
	}
	end := head + body
	return kAdd(dst[end:], a[end:], b[end:])
}

// addKernel returns the add kernel of an op whose output has n elements of
// T: for int64 and float32 outputs of at least streamMin elements the
// streaming ones, the generic one otherwise.
func addKernel[T number](n int) binaryKernel[T, T] {
	if !haveStreaming || n < streamMin {
		return kAdd[T]
	}
	var k any
	switch any(T(0)).(type) {
	case int64:
		k = binaryKernel[int64, int64](kAddI64Stream)
	case float32:
		k = binaryKernel[float32, float32](kAddF32Stream)
	default:
		return kAdd[T]
	}
	return k.(binaryKernel[T, T])
}
