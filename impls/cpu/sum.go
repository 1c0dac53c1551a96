package cpu

import "encoding/binary"

// Integer sum kernels: i32 summed into i64 (PyTorch's and NumPy's widened
// integer sum) and u8 summed into u64 (NumPy's sum of uint8). Integer sums
// wrap, so they are associative: the split across workers cannot change the
// result. The reductions family (another file) calls these for contiguous
// whole-tensor sums.

// sumI32 returns the sum of x in int64 (wrapping).
//
// Reference: s := int64(0); for _, v := range x { s += int64(v) }.
func sumI32(x []int32) int64 {
	if zooBuild && zoo("sum-acc-dtype") {
		var s int32 // zoo: the accumulator in the element type
		for _, v := range x {
			s += v
		}
		return int64(s)
	}
	var s0, s1, s2, s3 int64
	i := 0
	for ; i <= len(x)-8; i += 8 {
		v := x[i : i+8 : i+8]
		s0 += int64(v[0]) + int64(v[4])
		s1 += int64(v[1]) + int64(v[5])
		s2 += int64(v[2]) + int64(v[6])
		s3 += int64(v[3]) + int64(v[7])
	}
	for ; i < len(x); i++ {
		s0 += int64(x[i])
	}
	return s0 + s1 + s2 + s3
}

// sumU8 returns the sum of x in uint64.
//
// Reference: s := uint64(0); for _, v := range x { s += uint64(v) }.
//
// SWAR: each 8-byte word is split into its even and odd bytes, which add
// into four 16-bit lanes of two accumulators. A 64-byte block adds at most
// 8 * 255 to a lane, so 32 blocks (65280 < 65536) fit before the lanes are
// folded into the total.
func sumU8(x []uint8) uint64 {
	const even = 0x00ff00ff00ff00ff
	const lo16 = 0x0000ffff0000ffff
	var total uint64
	i := 0
	for i <= len(x)-64 {
		var acc0, acc1 uint64
		end := min(len(x)-len(x)%64, i+32*64)
		for ; i < end; i += 64 {
			b := x[i : i+64 : i+64]
			w0 := binary.LittleEndian.Uint64(b[0:8])
			w1 := binary.LittleEndian.Uint64(b[8:16])
			w2 := binary.LittleEndian.Uint64(b[16:24])
			w3 := binary.LittleEndian.Uint64(b[24:32])
			w4 := binary.LittleEndian.Uint64(b[32:40])
			w5 := binary.LittleEndian.Uint64(b[40:48])
			w6 := binary.LittleEndian.Uint64(b[48:56])
			w7 := binary.LittleEndian.Uint64(b[56:64])
			acc0 += w0&even + w0>>8&even + w1&even + w1>>8&even + w2&even + w2>>8&even + w3&even + w3>>8&even
			acc1 += w4&even + w4>>8&even + w5&even + w5>>8&even + w6&even + w6>>8&even + w7&even + w7>>8&even
		}
		// fold the 16-bit lanes into 32-bit lanes, then into the total
		f := acc0&lo16 + acc0>>16&lo16 + acc1&lo16 + acc1>>16&lo16
		total += f&0xffffffff + f>>32
	}
	for ; i < len(x); i++ {
		total += uint64(x[i])
	}
	return total
}

// sumI32Par sums x across the engine's workers.
func (e *Engine) sumI32Par(x []int32) int64 {
	var parts [maxPieces]int64
	e.splitRun(len(x), func(piece, lo, hi int) { parts[piece] = sumI32(x[lo:hi]) })
	var s int64
	for _, p := range parts {
		s += p
	}
	return s
}

// sumU8Par sums x across the engine's workers.
func (e *Engine) sumU8Par(x []uint8) uint64 {
	var parts [maxPieces]uint64
	e.splitRun(len(x), func(piece, lo, hi int) { parts[piece] = sumU8(x[lo:hi]) })
	var s uint64
	for _, p := range parts {
		s += p
	}
	return s
}
