package cpu

import (
	"math"
	"math/bits"
)

// Float summation orders: the association order in which each Python
// profile's kernels combine the values of one output, as fast Go loops. Each
// kernel reduces one contiguous group xs of values that are already in the
// accumulator precision F (f16 and bf16 values widened to float32), and
// returns the unrounded accumulator; the family rounds it to the result
// dtype. Where a profile rounds every step to f16/bf16, the kernel takes the
// step rounding (roundNone: none) and F is float32: one f32 operation on
// f16/bf16 values followed by a rounding to f16/bf16 is the correctly
// rounded f16/bf16 operation (24 >= 2*11 + 2). The rounding is chosen
// outside the element loops, so that roundF16 and roundBF16 inline.
//
// Go evaluates float32 and float64 expressions one rounded operation at a
// time; only x*y + z may be fused, and no kernel here mixes the two.

// torchVecBytes is the vector register width the engine runs PyTorch's CPU
// reduction kernels at: 32 bytes (AVX2 on x86-64; two 16-byte NEON
// registers, as Vectorized<T> is built on Arm64 by the vec256 path). The
// model leaves an element unspecified when the widths PyTorch may run at
// (64/32 on x86-64, 16/32 on Arm64: policies pytorch.cpu.reduce.vector-width
// and pytorch.arm64.reduce.vector-width) disagree, so one width common to
// both sets gives the specified value wherever there is one.
const torchVecBytes = 32

// torchGrain is at::internal::GRAIN_SIZE: PyTorch splits reductions of this
// many elements across threads (policy pytorch.cpu.reduce.threads), so for
// them the order is not pinned.
const torchGrain = 32768

// torchMaxRow is the widest row torchMultiRow handles: 4 vectors of 8 f32
// lanes.
const torchMaxRow = 4 * torchVecBytes / 4

// ceilLog2 returns ceil(log2(x)) (0 for x <= 1).
func ceilLog2(x int) int {
	if x <= 1 {
		return 0
	}
	return bits.Len(uint(x - 1))
}

// torchMultiRow is ATen's multi_row_sum over `rows` rows of w <= 32 values,
// with a 4-level cascade of accumulators: every level_step rows level 0 is
// added into level 1 and cleared, and a carry moves up while the row count
// is a multiple of the next level's step; at the end levels 1..3 are added
// into level 0 in order. Row i is xs[i*w : i*w+w], or, with halves, lane
// values of four vectors of 2*lanes elements (w = 4*lanes): lane l of vector
// s is xs[i*2w + 2*lanes*s + l] + xs[... + lanes + l] (load_to_float of
// f16/bf16: first half plus second half).
//
// Reference (rows of w values r_i, columns c):
//
//	acc[0..3][c] = 0
//	for i := range rows { acc[0][c] += r_i[c]
//	    if (i+1) % step == 0 { for j := 1..3 { acc[j] += acc[j-1]; acc[j-1] = 0
//	        if (i+1) & (mask << (j*power)) != 0 { break } } } }
//	acc[0] += acc[1]; acc[0] += acc[2]; acc[0] += acc[3]
func torchMultiRow[F floating](xs []F, rows, w int, halves bool) [torchMaxRow]F {
	var acc [4][torchMaxRow]F
	power := max(4, ceilLog2(rows)/4)
	step := 1 << power
	mask := step - 1
	rowLen := w
	if halves {
		rowLen = 2 * w
	}
	lanes := w / 4
	add := func(row []F) {
		a := acc[0][:w]
		if !halves {
			row = row[:len(a)]
			for c := range a {
				a[c] += row[c]
			}
			return
		}
		for s := 0; s < 4; s++ {
			v := row[2*lanes*s : 2*lanes*(s+1)]
			lo, hi := v[:lanes], v[lanes:2*lanes]
			as := a[s*lanes : (s+1)*lanes]
			for l := range as {
				as[l] += lo[l] + hi[l]
			}
		}
	}
	i := 0
	for i+step <= rows {
		for range step {
			add(xs[i*rowLen : (i+1)*rowLen])
			i++
		}
		for j := 1; j < 4; j++ {
			lo, hi := acc[j-1][:w], acc[j][:w]
			for c := range hi {
				hi[c] += lo[c]
				lo[c] = 0
			}
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	for ; i < rows; i++ {
		add(xs[i*rowLen : (i+1)*rowLen])
	}
	for j := 1; j < 4; j++ {
		for c := 0; c < w; c++ {
			acc[0][c] += acc[j][c]
		}
	}
	return acc[0]
}

// torchRowSum is ATen's row_sum: four interleaved partial sums (ilp_factor
// 4) over the whole groups of four, by multi_row_sum; the tail is added to
// the first, and the four are combined ((p0 + p1) + p2) + p3.
func torchRowSum[F floating](xs []F) F {
	k := len(xs) / 4
	p := torchMultiRow(xs, k, 4, false)
	for _, x := range xs[4*k:] {
		p[0] += x
	}
	return ((p[0] + p[1]) + p[2]) + p[3]
}

// torchCascadeSeq is multi_row_sum over rows of one value: the values in
// order, with the 4-level cascade.
func torchCascadeSeq[F floating](xs []F) F {
	p := torchMultiRow(xs, len(xs), 1, false)
	return p[0]
}

// torchInnerSum is ATen's cascade_sum for one contiguous group: row_sum for
// fewer than vec values, otherwise vectorized_inner_sum: vectors of vec
// values loaded into `lanes` accumulator lanes (vec == lanes, or vec ==
// 2*lanes for f16/bf16 loaded as first half plus second half), each lane
// row_summed over the vectors; then the scalar tail summed from 0 and the
// lanes added to it in order.
func torchInnerSum[F floating](xs []F, vec, lanes int) F {
	n := len(xs)
	if n < vec {
		return torchRowSum(xs)
	}
	nvec := n / vec
	k := nvec / 4
	halves := vec == 2*lanes
	p := torchMultiRow(xs, k, 4*lanes, halves)
	for v := 4 * k; v < nvec; v++ { // the vectors past whole rows go to p[0]
		e := xs[v*vec : (v+1)*vec]
		if halves {
			for l := 0; l < lanes; l++ {
				p[l] += e[l] + e[l+lanes]
			}
		} else {
			for l := 0; l < lanes; l++ {
				p[l] += e[l]
			}
		}
	}
	var final F
	for _, x := range xs[nvec*vec:] {
		final += x
	}
	for l := 0; l < lanes; l++ {
		final += ((p[l] + p[lanes+l]) + p[2*lanes+l]) + p[3*lanes+l]
	}
	return final
}

// torchOuterSum is cascade_sum for column col of ncols of an outer
// reduction (the reduced values of one output are strided): columns in
// whole blocks of 4*lanes (of 4 when there are fewer than vec columns) are
// summed by vectorized_outer_sum, in order with the cascade; the remaining
// columns by scalar_outer_sum, which is row_sum.
func torchOuterSum[F floating](xs []F, col, ncols, vec, lanes int) F {
	if ncols >= vec && col < ncols/(4*lanes)*4*lanes || ncols < vec && col < ncols/4*4 {
		return torchCascadeSeq(xs)
	}
	return torchRowSum(xs)
}

// torchProdInner is ATen's binary_kernel_reduce_vec for a product of one
// contiguous group into an output holding init: from init in order,
// except that with at least four vectors reduction128 keeps four vector
// accumulators (the first four vectors, then each later block of four
// multiplied in), combines them as (a0*a1)*(a2*a3) per lane, folds the
// lanes in order, multiplies that into init and then the scalar tail.
// step rounds every product to f16/bf16.
func torchProdInner[F floating](xs []F, vec int, step stepRound, init F) F {
	block := 4 * vec
	count := len(xs) / block
	if count == 0 {
		return seqProd(xs, init, step)
	}
	var acc [64]F
	a := acc[:block]
	copy(a, xs[:block])
	for b := 1; b < count; b++ {
		mulRows(a, xs[b*block:(b+1)*block], step)
	}
	r := F(0)
	for l := 0; l < vec; l++ {
		v := roundStep(roundStep(a[l]*a[vec+l], step)*roundStep(a[2*vec+l]*a[3*vec+l], step), step)
		if l == 0 {
			r = v
		} else {
			r = roundStep(r*v, step)
		}
	}
	return seqProd(xs[count*block:], roundStep(init*r, step), step)
}

// roundStep rounds x by the step rounding s (F is float32 unless s is
// roundNone). It is for code outside element loops.
func roundStep[F floating](x F, s stepRound) F {
	switch s {
	case roundToF16:
		return F(roundF16(float32(x)))
	case roundToBF16:
		return F(roundBF16(float32(x)))
	}
	return x
}

// pairwiseSum is NumPy's pairwise_sum: fewer than 8 values in order from
// -0.0; up to 128 in eight accumulators r[j] = x[j] + x[j+8] + ...,
// combined ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the tail in order;
// above 128 the halves split at n/2 rounded down to a multiple of 8.
func pairwiseSum[F floating](xs []F) F {
	n := len(xs)
	switch {
	case n < 8:
		res := F(math.Copysign(0, -1))
		for _, x := range xs {
			res += x
		}
		return res
	case n <= 128:
		var r [8]F
		copy(r[:], xs[:8])
		i := 8
		for ; i+8 <= n; i += 8 {
			x := xs[i : i+8 : i+8]
			r[0] += x[0]
			r[1] += x[1]
			r[2] += x[2]
			r[3] += x[3]
			r[4] += x[4]
			r[5] += x[5]
			r[6] += x[6]
			r[7] += x[7]
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += xs[i]
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwiseSum(xs[:n2]) + pairwiseSum(xs[n2:])
}

// pairwiseSplit returns pairwiseSum(xs), computing the halves of the top
// `depth` levels of the recursion in separate goroutines (the tree, and so
// the result, is the same).
func pairwiseSplit[F floating](xs []F, depth int) F {
	n := len(xs)
	if depth <= 0 || n <= 128 {
		return pairwiseSum(xs)
	}
	n2 := n / 2
	n2 -= n2 % 8
	var lo F
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		lo = pairwiseSplit(xs[:n2], depth-1)
	}()
	hi := pairwiseSplit(xs[n2:], depth-1)
	if p := <-done; p != nil {
		panic(p)
	}
	return lo + hi
}

// seqSum is init + x0 + x1 + ... in order, each step rounded by step.
func seqSum[F floating](xs []F, init F, step stepRound) F {
	acc := init
	switch step {
	case roundNone:
		for _, x := range xs {
			acc += x
		}
	case roundToF16:
		for _, x := range xs {
			acc = F(roundF16(float32(acc + x)))
		}
	default:
		for _, x := range xs {
			acc = F(roundBF16(float32(acc + x)))
		}
	}
	return acc
}

// seqProd is init * x0 * x1 * ... in order, each step rounded by step.
func seqProd[F floating](xs []F, init F, step stepRound) F {
	acc := init
	switch step {
	case roundNone:
		for _, x := range xs {
			acc *= x
		}
	case roundToF16:
		for _, x := range xs {
			acc = F(roundF16(float32(acc * x)))
		}
	default:
		for _, x := range xs {
			acc = F(roundBF16(float32(acc * x)))
		}
	}
	return acc
}

// freeSum sums xs in an order of its own choosing (eight interleaved
// accumulators): for profiles that leave the order open, where the model
// specifies only groups every order gives one result for.
//
// Reference: seqSum(xs, 0, nil), equal wherever the order does not matter.
func freeSum[F floating](xs []F) F {
	var r [8]F
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		x := xs[i : i+8 : i+8]
		r[0] += x[0]
		r[1] += x[1]
		r[2] += x[2]
		r[3] += x[3]
		r[4] += x[4]
		r[5] += x[5]
		r[6] += x[6]
		r[7] += x[7]
	}
	for ; i < len(xs); i++ {
		r[0] += xs[i]
	}
	return ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
}

// freeProd is freeSum for products (four accumulators).
//
// Reference: seqProd(xs, 1, nil), equal wherever the order does not matter.
func freeProd[F floating](xs []F) F {
	r := [4]F{1, 1, 1, 1}
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		x := xs[i : i+4 : i+4]
		r[0] *= x[0]
		r[1] *= x[1]
		r[2] *= x[2]
		r[3] *= x[3]
	}
	for ; i < len(xs); i++ {
		r[0] *= xs[i]
	}
	return (r[0] * r[1]) * (r[2] * r[3])
}

// colSeq folds rows of columns in order: acc[c] = op(acc[c], row[c]) for
// each row, where rows are x[j*stride : j*stride+len(acc)] for j < n. It is
// the sequential order of every column at once (an outer reduction in row-
// major order), each step rounded by step.
func colSeq[F floating](acc, x []F, n, stride int, prod bool, step stepRound) {
	for j := 0; j < n; j++ {
		row := x[j*stride : j*stride+len(acc)]
		if prod {
			mulRows(acc, row, step)
		} else {
			addRows(acc, row, step)
		}
	}
}

// addRows computes acc[c] = acc[c] + row[c], rounded by step.
func addRows[F floating](acc, row []F, step stepRound) {
	row = row[:len(acc)]
	switch step {
	case roundNone:
		for c := range acc {
			acc[c] += row[c]
		}
	case roundToF16:
		for c := range acc {
			acc[c] = F(roundF16(float32(acc[c] + row[c])))
		}
	default:
		for c := range acc {
			acc[c] = F(roundBF16(float32(acc[c] + row[c])))
		}
	}
}

// mulRows computes acc[c] = acc[c] * row[c], rounded by step.
func mulRows[F floating](acc, row []F, step stepRound) {
	row = row[:len(acc)]
	switch step {
	case roundNone:
		for c := range acc {
			acc[c] *= row[c]
		}
	case roundToF16:
		for c := range acc {
			acc[c] = F(roundF16(float32(acc[c] * row[c])))
		}
	default:
		for c := range acc {
			acc[c] = F(roundBF16(float32(acc[c] * row[c])))
		}
	}
}
