package metal

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// Twins of mlx_gemm.metal: gemm_{nn,nt,tn,tt}_T_T_BM_BN_BK_WM_WN for f32
// f16 bf16 and candle's five tiles. One call runs one threadgroup: every
// element of its tile that lies in D is accumulated in the kernel's order
// of 8 x 8 x 8 steps (the partial K block first, then the full blocks in
// order, each in steps of 8 k), from +0 in float.
//
// What one simdgroup_multiply_accumulate does inside a step (the order of
// its eight products and of their sum with the accumulator, and where it
// rounds) is the hardware's. A step is stated only where every order
// gives one value: its nine terms (the accumulator and the eight exact
// products) are multiples of one power of two 2^q whose magnitudes add up
// to less than 2^(q+24) and at most the largest float, and 2^q is not
// below the smallest normal float (a subnormal partial sum may be
// flushed); a NaN term, or infinities of both signs, give NaN, and
// infinities of one sign with finite terms adding up to at most the
// largest float that infinity. Any other step gives the reference (the
// exact sum rounded once to float) marked loose, and so does every step
// after it; at the end dotForcing states the NaN or infinity that the
// element's products force in every order (a loose overflow next to an
// exact infinity is still that infinity or NaN, next to infinities of
// both signs NaN).

// gemmTiles are candle's tile configurations (mlx_gemm.rs:41-45): BM BN
// BK WM WN.
var gemmTiles = [][5]int{{32, 32, 16, 2, 2}, {64, 64, 16, 2, 2}, {64, 64, 16, 1, 2}, {64, 32, 32, 2, 2}, {32, 64, 16, 1, 2}}

// gemmTypes are the gemm and gemv element types.
var gemmTypes = []mslType{tFloat, tHalf, tBfloat}

// gemmName is a gemm kernel's name (mlx_gemm.rs:621-624).
func gemmName(ta, tb bool, t mslType, tile [5]int) string {
	tr := map[[2]bool]string{{false, false}: "nn", {false, true}: "nt", {true, false}: "tn", {true, true}: "tt"}[[2]bool{ta, tb}]
	return fmt.Sprintf("gemm_%s_%s_%s_%d_%d_%d_%d_%d", tr, t, t, tile[0], tile[1], tile[2], tile[3], tile[4])
}

func init() {
	for _, tile := range gemmTiles {
		for _, t := range gemmTypes {
			for _, ta := range []bool{false, true} {
				for _, tb := range []bool{false, true} {
					register("mlx_gemm", gemmName(ta, tb, t, tile), "bbbccccccc", twin{tg: gemm(t, tile, ta, tb)})
				}
			}
		}
	}
}

// gemmParams is candle's GemmParams (repr(C): eight i32, three isize at
// byte 32, three i32 at byte 56, 72 bytes in all).
type gemmParams struct {
	m, n, k, lda, ldb, ldd, tilesN, tilesM int
	strideA, strideB, strideD              int
	swizzleLog, kIters, batchNDim          int
}

func (p gemmParams) bytes() []byte {
	b := make([]byte, 72)
	for i, v := range []int{p.m, p.n, p.k, p.lda, p.ldb, p.ldd, p.tilesN, p.tilesM} {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(v)))
	}
	for i, v := range []int{p.strideA, p.strideB, p.strideD} {
		binary.LittleEndian.PutUint64(b[32+8*i:], uint64(v))
	}
	for i, v := range []int{p.swizzleLog, p.kIters, p.batchNDim} {
		binary.LittleEndian.PutUint32(b[56+4*i:], uint32(int32(v)))
	}
	return b
}

func readGemmParams(b []byte) gemmParams {
	i32 := func(at int) int { return int(int32(binary.LittleEndian.Uint32(b[at:]))) }
	u64 := func(at int) int { return int(binary.LittleEndian.Uint64(b[at:])) }
	return gemmParams{i32(0), i32(4), i32(8), i32(12), i32(16), i32(20), i32(24), i32(28),
		u64(32), u64(40), u64(48), i32(56), i32(60), i32(64)}
}

// gemm is gemm<T, BM, BN, BK, WM, WN, TA, TB>. args: A, B, D, params,
// batch_shape (int), batch_strides (size_t: A's batch_ndim, then B's),
// has_batch, align_m, align_n, align_k.
func gemm(t mslType, tile [5]int, ta, tb bool) func([]Arg, *tgroup) {
	bm, bn, bk, wm, wn := tile[0], tile[1], tile[2], tile[3], tile[4]
	return func(a []Arg, g *tgroup) {
		if int(g.size[0]) != 32 || int(g.size[1]) != wn || int(g.size[2]) != wm {
			panic(memoryFault(fmt.Sprintf("gemm: a threadgroup of %v threads, the kernel is written for (32, %d, %d)", g.size, wn, wm)))
		}
		p := readGemmParams(a[3].Bytes)
		hasBatch, alignM, alignN, alignK := a[6].bool(), a[7].bool(), a[8].bool(), a[9].bool()
		tileN := int(g.pos[0]) >> p.swizzleLog
		tileM := int(g.pos[1])<<p.swizzleLog + int(g.pos[0])&(1<<p.swizzleLog-1)
		if tileN >= p.tilesN || tileM >= p.tilesM {
			return
		}
		z := uint64(g.pos[2])
		aOff, bOff := uint64(p.strideA)*z, uint64(p.strideB)*z
		if hasBatch {
			aOff, bOff = gemmBatchOffset(z, a[4], a[5], 0, p.batchNDim), gemmBatchOffset(z, a[4], a[5], p.batchNDim, p.batchNDim)
		}
		dOff := uint64(p.strideD) * z
		row0, col0 := tileM*bm, tileN*bn
		rows, cols := bm, bn
		if !alignM {
			rows = min(bm, p.m-row0)
		}
		if !alignN {
			cols = min(bn, p.n-col0)
		}
		aAt := func(i, k int) uint64 { // A's element (i, k) as laid out
			if ta {
				return aOff + uint64(k*p.lda+i)
			}
			return aOff + uint64(i*p.lda+k)
		}
		bAt := func(k, j int) uint64 {
			if tb {
				return bOff + uint64(j*p.ldb+k)
			}
			return bOff + uint64(k*p.ldb+j)
		}
		full := p.kIters
		blocks := make([]int, 0, full+1) // the blocks' first k, in the kernel's order
		if !alignK {
			blocks = append(blocks, full*bk)
		}
		for b := 0; b < full; b++ {
			blocks = append(blocks, b*bk)
		}
		terms := make([]val, 9)
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				i, j := row0+r, col0+c
				acc := floatVal(0)
				var forced dotForcing
				for _, k0 := range blocks {
					kn := min(bk, p.k-k0)
					for kk := 0; kk < bk; kk += 8 {
						terms[0] = acc
						for l := 0; l < 8; l++ {
							terms[l+1] = floatVal(0) // a zero of both tiles past K
							if k := kk + l; k < kn {
								x := toFloat(t, load(a[0], t, aAt(i, k0+k)))
								y := toFloat(t, load(a[1], t, bAt(k0+k, j)))
								forced.add(x, y)
								terms[l+1] = floatVal(x.f*y.f).from(x, y) // exact in float64
							}
						}
						acc = mmaStep(terms)
					}
				}
				store(a[2], t, dOff+uint64(i*p.ldd+j), convert(tFloat, t, forced.settle(acc)))
			}
		}
	}
}

// gemmBatchOffset is batch_offset of batch item z: the strides of operand
// from entry first of the batch_strides argument.
func gemmBatchOffset(z uint64, shape, strides Arg, first, ndim int) uint64 {
	var at uint64
	for d := ndim - 1; d >= 0 && z > 0; d-- {
		n, ok1 := shape.uintIn(uint64(d))
		s, ok2 := strides.sizeTIn(uint64(first + d))
		if !ok1 || !ok2 || n == 0 {
			panic(memoryFault("gemm: batch_shape or batch_strides read past their arrays"))
		}
		at += (z % n) * s
		z /= n
	}
	return at
}

// mmaStep is one step of simdgroup_multiply_accumulate for one element:
// the accumulator plus eight products, stated where no order changes it
// (a loose accumulator makes it loose: dotForcing settles the NaNs and
// infinities that no order changes at the end).
func mmaStep(terms []val) val {
	var ref val
	for _, x := range terms {
		if x.undef {
			return undefVal
		}
		ref.loose = ref.loose || x.loose
	}
	var nan, pos, neg bool
	var finite, exact float64 // the finite terms' magnitudes, and their sum
	q := math.MaxInt32
	for _, x := range terms {
		switch {
		case math.IsNaN(x.f):
			nan = true
		case math.IsInf(x.f, 1):
			pos = true
		case math.IsInf(x.f, -1):
			neg = true
		case x.f != 0:
			finite += math.Abs(x.f)
			exact += x.f
			q = min(q, lowBit(x.f))
		}
	}
	switch {
	case nan || (pos && neg):
		ref.f = math.NaN()
		return ref
	case pos || neg:
		ref.f = math.Inf(1)
		if neg {
			ref.f = math.Inf(-1)
		}
		ref.loose = ref.loose || finite > math.MaxFloat32
		return ref
	case finite == 0:
		ref.f = 0 // from the +0 start: no order gives -0
		return ref
	}
	ref.f = float64(float32(exact))
	ref.loose = ref.loose || finite >= math.Ldexp(1, q+24) || finite > math.MaxFloat32 || q < -126
	return ref
}

// dotForcing is what the products of one dot product force on every
// order of float additions, contracted or not: a NaN product (a NaN
// operand, 0 times an infinity), or infinite products of both signs (an
// infinite operand times a nonzero one), give NaN, since the branches of
// any summation tree that hold them meet; infinite products of one sign
// give that infinity when the other products' magnitudes add up to at
// most the largest float, which no partial sum then passes. The products
// are exact here (float64 holds a product of two floats).
type dotForcing struct {
	nan, pos, neg, unknown bool
	finite                 float64
}

func (d *dotForcing) add(x, y val) {
	if x.undef || y.undef || x.loose || y.loose {
		d.unknown = true
		return
	}
	switch p := x.f * y.f; {
	case math.IsNaN(p):
		d.nan = true
	case math.IsInf(p, 1):
		d.pos = true
	case math.IsInf(p, -1):
		d.neg = true
	default:
		d.finite += math.Abs(p)
	}
}

// settle returns the forced value in place of a loose sum v.
func (d *dotForcing) settle(v val) val {
	if d.unknown || v.undef || !v.loose {
		return v
	}
	switch {
	case d.nan || (d.pos && d.neg):
		return floatVal(math.NaN())
	case d.pos && d.finite <= math.MaxFloat32:
		return floatVal(math.Inf(1))
	case d.neg && d.finite <= math.MaxFloat32:
		return floatVal(math.Inf(-1))
	}
	return v
}

// lowBit is the exponent of the lowest set bit of a nonzero finite x.
func lowBit(x float64) int {
	frac, exp := math.Frexp(math.Abs(x))
	mant := uint64(math.Ldexp(frac, 53))
	return exp - 53 + bits.TrailingZeros64(mant)
}
