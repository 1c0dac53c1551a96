package cpu

// selectNT computes dst[i] = t[i] if c[i]&mask != 0 else f[i] for i < n
// with streaming stores; dst is 16-byte aligned and n a multiple of 8.
//
//go:noescape
func selectNT(dst, c, t, f *uint64, n int, mask uint64)
