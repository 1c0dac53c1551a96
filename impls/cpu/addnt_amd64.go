package cpu

// haveStreaming reports whether the streaming-store kernels (addI64NT,
// addF32NT, selectNT, widen32NT) exist here.
const haveStreaming = true

// addI64NT computes dst[i] = a[i] + b[i] for i < n with streaming stores;
// dst is 16-byte aligned and n a multiple of 8.
//
//go:noescape
func addI64NT(dst, a, b *int64, n int)

// addF32NT computes dst[i] = a[i] + b[i] for i < n with streaming stores;
// dst is 16-byte aligned and n a multiple of 16.
//
//go:noescape
func addF32NT(dst, a, b *float32, n int)
