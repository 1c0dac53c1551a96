//go:build !amd64

package cpu

func widen32NT(dst *uint64, src *uint32, n int) { panic("cpu: widen32NT without amd64") }
