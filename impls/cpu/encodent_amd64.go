package cpu

// widen32NT computes dst[i] = uint64(src[i]) for i < n with streaming
// stores; dst is 16-byte aligned and n a multiple of 8.
//
//go:noescape
func widen32NT(dst *uint64, src *uint32, n int)
