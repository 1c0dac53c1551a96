//go:build !amd64

package cpu

const haveStreaming = false

func addI64NT(dst, a, b *int64, n int)   { panic("cpu: addI64NT without amd64") }
func addF32NT(dst, a, b *float32, n int) { panic("cpu: addF32NT without amd64") }
