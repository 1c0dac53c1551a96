package cpu

// Shift kernels (shift_left, shift_right). The frameworks differ only in
// how they read the count, which the kernels take from Go's own shift
// semantics: a Go shift by an unsigned count of at least the width gives 0
// for <<, and for >> the sign fill of a signed type (0 for an unsigned one),
// which is what PyTorch, NumPy and XLA define for out-of-range counts.

// faultNegShift marks a count that is negative as a signed number (burn
// ndarray converts it to u32 and fails: the model leaves it open).
const faultNegShift fault = 1 << 6

// kShl computes the left shift of PyTorch, NumPy and XLA (policies
// pytorch.shift.out-of-range, numpy.shift.out-of-range,
// jax.shift.out-of-range):
//
//	for i: c := b[i] as an unsigned number (a negative count is huge)
//	       dst[i] = 0 if c >= width else a[i] << c (wrapping)
func kShl[T integer](dst, a, b []T) fault {
	n := len(dst)
	a, b = a[:n], b[:n]
	i := 0
	for ; i <= n-4; i += 4 {
		d, x, y := dst[i:i+4:i+4], a[i:i+4:i+4], b[i:i+4:i+4]
		d[0] = x[0] << uint64(y[0])
		d[1] = x[1] << uint64(y[1])
		d[2] = x[2] << uint64(y[2])
		d[3] = x[3] << uint64(y[3])
	}
	for ; i < n; i++ {
		dst[i] = a[i] << uint64(b[i])
	}
	return 0
}

// kShr computes the right shift of PyTorch, NumPy and XLA, arithmetic for
// signed types and logical for unsigned ones:
//
//	for i: c := b[i] as an unsigned number
//	       dst[i] = a[i] >> c if c < width
//	       else -1 if a[i] < 0, else 0 (the sign fill)
func kShr[T integer](dst, a, b []T) fault {
	n := len(dst)
	a, b = a[:n], b[:n]
	i := 0
	for ; i <= n-4; i += 4 {
		d, x, y := dst[i:i+4:i+4], a[i:i+4:i+4], b[i:i+4:i+4]
		d[0] = x[0] >> uint64(y[0])
		d[1] = x[1] >> uint64(y[1])
		d[2] = x[2] >> uint64(y[2])
		d[3] = x[3] >> uint64(y[3])
	}
	for ; i < n; i++ {
		dst[i] = a[i] >> uint64(b[i])
	}
	return 0
}

// kShlWrap64 is burn's Int left shift (policy burn.flex.shift-wrapping):
// i64::wrapping_shl(b as u32), the count taken modulo 64, then `as` back to
// T (I32 or I64); a negative count is reported (faultNegShift):
//
//	for i: dst[i] = T(int64(a[i]) << (uint32(b[i]) & 63)); fault if b[i] < 0
func kShlWrap64[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var neg T
	for i := range dst {
		c := b[i]
		neg |= c
		dst[i] = a[i] << (uint64(c) & 63)
	}
	if neg < 0 {
		return faultNegShift
	}
	return 0
}

// kShrWrap64 is burn's Int right shift: i64::wrapping_shr(b as u32) (an
// arithmetic shift by the count modulo 64), then `as` back to T:
//
//	for i: dst[i] = T(int64(a[i]) >> (uint32(b[i]) & 63)); fault if b[i] < 0
func kShrWrap64[T integer](dst, a, b []T) fault {
	b = b[:len(dst)]
	a = a[:len(dst)]
	var neg T
	for i := range dst {
		c := b[i]
		neg |= c
		dst[i] = a[i] >> (uint64(c) & 63)
	}
	if neg < 0 {
		return faultNegShift
	}
	return 0
}
