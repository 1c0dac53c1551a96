//go:build !amd64

package cpu

func selectNT(dst, c, t, f *uint64, n int, mask uint64) { panic("cpu: selectNT without amd64") }
