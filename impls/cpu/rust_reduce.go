package cpu

import "github.com/tfuzz/tfuzz/tensor"

// Reduction and scan kernels of the Rust frameworks over a row-major input
// of geometry g (rust.go): outer groups, each of n elements inner apart.
// Every kernel visits the elements of a group in row-major order, the order
// the frameworks' sequential loops add them in, so that a debug build's
// overflow check sees the same partial sums; with inner > 1 the innermost
// loop runs over the inner elements of one row (contiguous), k outside it.

// rustSum computes dst[o*inner+j] = src[o, 0, j] + ... + src[o, n-1, j] in
// T, from 0 (integers wrap, floats round each step).
//
// Reference: for each group, acc := T(0); for k := range n { acc += x_k }.
//
// Rows (inner == 1) are summed with four partial sums: integer sums wrap,
// so any order gives the same value; a float sum may change with the order
// only where the model leaves it open (every order agrees where it does not:
// no inexact partial sum, or at most two nonzero terms), so the engine may
// add in the order a SIMD kernel would.
func rustSum[T number](dst, src []T, g rustGeom) {
	if g.inner == 1 {
		for o := range dst[:g.outer] {
			dst[o] = sumRow(src[o*g.n : (o+1)*g.n])
		}
		return
	}
	for o := 0; o < g.outer; o++ {
		acc := dst[o*g.inner : (o+1)*g.inner]
		clear(acc)
		base := o * g.n * g.inner
		for k := 0; k < g.n; k++ {
			row := src[base+k*g.inner : base+(k+1)*g.inner]
			row = row[:len(acc)]
			for j := range acc {
				acc[j] += row[j]
			}
		}
	}
}

// sumRow returns the sum of x with four partial sums (see rustSum).
func sumRow[T number](x []T) T {
	var s0, s1, s2, s3 T
	i := 0
	for ; i <= len(x)-4; i += 4 {
		v := x[i : i+4 : i+4]
		s0 += v[0]
		s1 += v[1]
		s2 += v[2]
		s3 += v[3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// rustProdChecked is the product of each group in row-major order with
// Rust's overflow check (Iterator::product in a debug build): it reports
// faultOverflow when a partial product overflows.
func rustProdChecked[T integer](dst, src []T, g rustGeom) fault {
	var f fault
	acc, x := make([]T, 1), make([]T, 1)
	for o := 0; o < g.outer; o++ {
		for j := 0; j < g.inner; j++ {
			acc[0] = 1
			for k := 0; k < g.n; k++ {
				x[0] = src[(o*g.n+k)*g.inner+j]
				f |= kMulChecked(acc, acc, x)
			}
			dst[o*g.inner+j] = acc[0]
		}
	}
	return f
}

// rustSumChecked is rustSum for integers with Rust's overflow check: it
// reports faultOverflow when a partial sum, in row-major order, overflows
// (a debug build panics there even if later terms bring the sum back).
func rustSumChecked[T integer](dst, src []T, g rustGeom) fault {
	var ov uint8
	if g.inner == 1 {
		for o := range dst[:g.outer] {
			s, bad := sumRowChecked(src[o*g.n : (o+1)*g.n])
			dst[o] = s
			ov |= b2u(bad)
		}
		return fault(ov) * faultOverflow
	}
	for o := 0; o < g.outer; o++ {
		acc := dst[o*g.inner : (o+1)*g.inner]
		clear(acc)
		base := o * g.n * g.inner
		for k := 0; k < g.n; k++ {
			row := src[base+k*g.inner : base+(k+1)*g.inner]
			row = row[:len(acc)]
			for j := range acc {
				r, bad := addOv(acc[j], row[j])
				acc[j] = r
				ov |= b2u(bad)
			}
		}
	}
	return fault(ov) * faultOverflow
}

// sumRowChecked returns the wrapped sum of x and whether a partial sum
// overflows T. Types narrower than 64 bits add exactly in 64 bits (no row of
// tensor.MaxElements elements can overflow them): an unsigned sum overflows
// iff the total does, a signed one iff an extreme partial sum does; 64-bit
// types check every addition.
func sumRowChecked[T integer](x []T) (T, bool) {
	if bitsOf[T]() < 64 && !isSigned[T]() {
		// unsigned partial sums only grow: the last one is the largest
		var s0, s1, s2, s3 uint64
		i := 0
		for ; i <= len(x)-4; i += 4 {
			v := x[i : i+4 : i+4]
			s0 += uint64(v[0])
			s1 += uint64(v[1])
			s2 += uint64(v[2])
			s3 += uint64(v[3])
		}
		for ; i < len(x); i++ {
			s0 += uint64(x[i])
		}
		s := s0 + s1 + s2 + s3
		return T(s), s > uint64(maxOf[T]())
	}
	if bitsOf[T]() < 64 {
		lo, hi := int64(minOf[T]()), int64(maxOf[T]())
		var s, mn, mx int64
		for _, v := range x {
			s += int64(v)
			mn, mx = min(mn, s), max(mx, s)
		}
		return T(s), mn < lo || mx > hi
	}
	var s T
	var ov uint8
	for _, v := range x {
		r, bad := addOv(s, v)
		s = r
		ov |= b2u(bad)
	}
	return s, ov != 0
}

// rustSumHalf is rustSum of f16 or bf16 values held in float32: each step
// adds in f32 and rounds back to the half type (the half crate's +=).
func rustSumHalf(dst, src []float32, g rustGeom, d tensor.DType) {
	round := roundF16
	if d == tensor.BF16 {
		round = roundBF16
	}
	for o := 0; o < g.outer; o++ {
		acc := dst[o*g.inner : (o+1)*g.inner]
		clear(acc)
		base := o * g.n * g.inner
		for k := 0; k < g.n; k++ {
			row := src[base+k*g.inner : base+(k+1)*g.inner]
			row = row[:len(acc)]
			for j := range acc {
				acc[j] = round(acc[j] + row[j])
			}
		}
	}
}

// rustProd computes the products of the groups in T from 1 (wrapping
// integers, floats rounded each step).
func rustProd[T number](dst, src []T, g rustGeom) {
	for o := 0; o < g.outer; o++ {
		acc := dst[o*g.inner : (o+1)*g.inner]
		for j := range acc {
			acc[j] = 1
		}
		base := o * g.n * g.inner
		for k := 0; k < g.n; k++ {
			row := src[base+k*g.inner : base+(k+1)*g.inner]
			row = row[:len(acc)]
			for j := range acc {
				acc[j] *= row[j]
			}
		}
	}
}

// rustArgFold writes into best the position k of the element each group's
// fold keeps: it starts from element 0 and replaces the current element by
// a later one only if that is strictly greater (wantMax) or smaller; a NaN
// is never greater or smaller, so it survives only in front, and a tie
// keeps the first (policies candle.reduce.max-min, burn.reduce.extremum).
// Every group has n >= 1 elements.
//
// Reference: b := 0; for k := 1; k < n; k++ { if x_b < x_k { b = k } }.
func rustArgFold[T number](best []int, src []T, g rustGeom, wantMax bool) {
	for o := 0; o < g.outer; o++ {
		base := o * g.n * g.inner
		for j := 0; j < g.inner; j++ {
			cur, b := src[base+j], 0
			for k := 1; k < g.n; k++ {
				v := src[base+k*g.inner+j]
				if wantMax && cur < v || !wantMax && v < cur {
					cur, b = v, k
				}
			}
			best[o*g.inner+j] = b
		}
	}
}

// rustPick returns, for the fold positions best, the elements they select.
func rustPick[T number](src []T, best []int, g rustGeom) []T {
	out := make([]T, len(best))
	for o := 0; o < g.outer; o++ {
		base := o * g.n * g.inner
		for j := 0; j < g.inner; j++ {
			out[o*g.inner+j] = src[base+best[o*g.inner+j]*g.inner+j]
		}
	}
	return out
}

// rustCumsum computes the running sums of each group in T, starting from 0
// (integers wrap, floats round each step).
//
// Reference: acc := T(0); for k := range n { acc += x_k; y_k = acc }.
func rustCumsum[T number](dst, src []T, g rustGeom) {
	if g.inner == 1 {
		for o := 0; o < g.outer; o++ {
			row, out := src[o*g.n:(o+1)*g.n], dst[o*g.n:(o+1)*g.n]
			out = out[:len(row)]
			var acc T // +0: a -0 first term gives +0, as 0 + x does
			for k, v := range row {
				acc += v
				out[k] = acc
			}
		}
		return
	}
	for o := 0; o < g.outer; o++ {
		base := o * g.n * g.inner
		for k := 0; k < g.n; k++ {
			row := src[base+k*g.inner : base+(k+1)*g.inner]
			out := dst[base+k*g.inner : base+(k+1)*g.inner]
			out = out[:len(row)]
			if k == 0 {
				var zero T
				for j := range row {
					out[j] = zero + row[j]
				}
				continue
			}
			prev := dst[base+(k-1)*g.inner : base+k*g.inner]
			prev = prev[:len(row)]
			for j := range row {
				out[j] = prev[j] + row[j]
			}
		}
	}
}

// rustCumsumChecked is rustCumsum for integers with Rust's overflow check
// (faultOverflow: a debug build panics).
func rustCumsumChecked[T integer](dst, src []T, g rustGeom) fault {
	var ov uint8
	if g.inner == 1 {
		for o := 0; o < g.outer; o++ {
			row, out := src[o*g.n:(o+1)*g.n], dst[o*g.n:(o+1)*g.n]
			out = out[:len(row)]
			var acc T
			for k, v := range row {
				r, bad := addOv(acc, v)
				acc = r
				out[k] = r
				ov |= b2u(bad)
			}
		}
		return fault(ov) * faultOverflow
	}
	for o := 0; o < g.outer; o++ {
		base := o * g.n * g.inner
		for k := 0; k < g.n; k++ {
			row := src[base+k*g.inner : base+(k+1)*g.inner]
			out := dst[base+k*g.inner : base+(k+1)*g.inner]
			out = out[:len(row)]
			if k == 0 {
				copy(out, row)
				continue
			}
			prev := dst[base+(k-1)*g.inner : base+k*g.inner]
			prev = prev[:len(row)]
			for j := range row {
				r, bad := addOv(prev[j], row[j])
				out[j] = r
				ov |= b2u(bad)
			}
		}
	}
	return fault(ov) * faultOverflow
}
