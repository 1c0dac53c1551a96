package cpu

import (
	"math"
	"sync"

	"github.com/tfuzz/tfuzz/tensor"
)

// Runners of the reduction family: the input is read once into row-major
// order as [outer, n, inner]; contiguous groups (inner == 1) are reduced by
// the order kernels of sumorder.go, strided groups row by row across their
// columns (every column in order at once), or, for PyTorch's cascade over a
// strided group, gathered column by column. Groups are split across
// goroutines; one group only where the result cannot depend on the split.

// denseOffset returns the storage offset of t's first element when its view
// is row-major without gaps (any offset).
func denseOffset(t *tensor.Tensor) (int, bool) {
	if t.Strides == nil {
		return t.Offset, true
	}
	acc := 1
	for i := len(t.Shape) - 1; i >= 0; i-- {
		if t.Shape[i] != 1 && t.Strides[i] != acc {
			return 0, false
		}
		acc *= t.Shape[i]
	}
	return t.Offset, true
}

// rowMajorWords returns the storage words of t's elements in row-major
// order (two per element for complex): t.Data itself, a subslice of it, or
// a gathered copy for a strided view.
func rowMajorWords(t *tensor.Tensor) []uint64 {
	w := 1
	if t.DType.IsComplex() {
		w = 2
	}
	n := t.Len()
	if off, ok := denseOffset(t); ok {
		return t.Data[off*w : (off+n)*w]
	}
	words := make([]uint64, n*w)
	if n == 0 {
		return words
	}
	l := newLayout(t.Shape, viewOf(t))
	s := l.strides[0][l.rank-1]
	l.walk(0, n, func(o int, pos *[maxIn]int, m int) {
		p := pos[0]
		if w == 1 {
			dst := words[o : o+m]
			for i := range dst {
				dst[i] = t.Data[p]
				p += s
			}
			return
		}
		for i := 0; i < m; i++ {
			words[2*(o+i)] = t.Data[2*p]
			words[2*(o+i)+1] = t.Data[2*p+1]
			p += s
		}
	})
	return words
}

// rowMajor returns t's elements in row-major order, decoded as dtype to in
// representation T (see loadInput), split across the engine's workers.
func rowMajor[T number](e *Engine, t *tensor.Tensor, to tensor.DType) []T {
	words := rowMajorWords(t)
	dst := make([]T, len(words))
	e.splitRun(len(words), func(_, lo, hi int) {
		decodeWords(dst[lo:hi], words[lo:hi], t.DType, to)
	})
	return dst
}

// decodeWords decodes storage words of dtype d as dtype to into dst
// (len(dst) == len(words)), as loadInput does.
func decodeWords[T number](dst []T, words []uint64, d, to tensor.DType) {
	hdr := tensor.Tensor{DType: d, Data: words}
	if f, ok := any(dst).([]float32); ok {
		decodeF32(f, &hdr, to)
		return
	}
	decodeAs(dst, &hdr, to)
}

// splitItems runs body over [0, items) in as many pieces as the engine
// splits `work` elements into (at most items), one goroutine per piece. A
// panic in a piece is re-raised in the caller's goroutine.
func (e *Engine) splitItems(work, items int, body func(lo, hi int)) {
	k := min(e.pieces(work), items)
	if k <= 1 {
		body(0, items)
		return
	}
	var panics [maxPieces]any
	var wg sync.WaitGroup
	wg.Add(k - 1)
	for i := 1; i < k; i++ {
		go func(i int) {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			body(i*items/k, (i+1)*items/k)
		}(i)
	}
	body(0, items/k)
	wg.Wait()
	for _, p := range panics[1:k] {
		if p != nil {
			panic(p)
		}
	}
}

// colRuns calls run(k, o, t0, t1) for the runs of outputs [lo, hi) of a
// strided reduction that share one outer index o: outputs k .. k+t1-t0 are
// the columns t0 .. t1-1 of block o.
func colRuns(g *redGeom, lo, hi int, run func(k, o, t0, t1 int)) {
	for k := lo; k < hi; {
		o, t0 := k/g.inner, k%g.inner
		t1 := min(g.inner, t0+hi-k)
		run(k, o, t0, t1)
		k += t1 - t0
	}
}

// ---------------------------------------------------------------- integers

// reduceSumProd evaluates sum and prod.
func reduceSumProd(e *Engine, p *profile, prod bool, x *tensor.Tensor, g *redGeom) *tensor.Tensor {
	rd := sumDType(p, x.DType)
	if !x.DType.IsFloat() { // policy python.reduce.int-wrap
		var out []uint64
		switch kindOf(x.DType) {
		case kU8:
			out = intReduce[uint8](e, x, g, prod)
		case kI8:
			out = intReduce[int8](e, x, g, prod)
		case kU16:
			out = intReduce[uint16](e, x, g, prod)
		case kI16:
			out = intReduce[int16](e, x, g, prod)
		case kU32:
			out = intReduce[uint32](e, x, g, prod)
		case kI32:
			out = intReduce[int32](e, x, g, prod)
		case kU64:
			out = intReduce[uint64](e, x, g, prod)
		default:
			out = intReduce[int64](e, x, g, prod)
		}
		return encode(e, out, rd, g.shape)
	}
	vr := readForView(p, x, g, false)
	pl := planFloatRed(p, prod, false, x.DType, &vr.g)
	round := roundNone
	if x.DType == tensor.F16 {
		round = roundToF16 // NumPy stores each call's result in the f16 output
	}
	switch {
	case vr.torch != nil && x.DType == tensor.F64:
		return encode(e, torchStridedReduce[float64](e, x, vr.torch, &vr.g, &pl), rd, g.shape)
	case vr.torch != nil:
		return encode(e, torchStridedReduce[float32](e, x, vr.torch, &vr.g, &pl), rd, g.shape)
	case x.DType == tensor.F64:
		return encode(e, viewFloatReduce(e, rowMajor[float64](e, vr.x, x.DType), &vr, &pl, round), rd, g.shape)
	}
	return encode(e, viewFloatReduce(e, rowMajor[float32](e, vr.x, x.DType), &vr, &pl, round), rd, g.shape)
}

// viewFloatReduce is floatReduce over the input as vr reads it: NumPy's
// inner loop calls when it gives them, else vr's geometry.
func viewFloatReduce[F floating](e *Engine, xs []F, vr *viewRead, pl *floatRedPlan, round stepRound) []F {
	if vr.calls == nil {
		return floatReduce(e, xs, &vr.g, pl)
	}
	v := callsReduce(xs, vr.calls, pl, round)
	if !pl.prod {
		v += 0 // the output's +0
	}
	return []F{v}
}

// intReduce returns the wrapping sums (products) of every group, each in
// uint64 (the result dtype keeps the low bits; integer sums and products
// are exact modulo 2^64, so any order and split give them).
func intReduce[T integer](e *Engine, x *tensor.Tensor, g *redGeom, prod bool) []uint64 {
	if g.groups() == 1 && !prod {
		return []uint64{sumWords[T](e, rowMajorWords(x), x.DType)}
	}
	xs := rowMajor[T](e, x, x.DType)
	out := make([]uint64, g.groups())
	n := g.n
	switch {
	case g.groups() == 1:
		var parts [maxPieces]uint64
		k := e.pieces(len(xs))
		for i := range parts[:k] {
			parts[i] = 1
		}
		e.splitRun(len(xs), func(piece, lo, hi int) { parts[piece] = prodInt(xs[lo:hi]) })
		out[0] = prodInt(parts[:k])
	case g.contiguous():
		e.splitItems(g.numel, len(out), func(lo, hi int) {
			for k := lo; k < hi; k++ {
				if prod {
					out[k] = prodInt(xs[k*n : k*n+n])
				} else {
					out[k] = sumInt(xs[k*n : k*n+n])
				}
			}
		})
	default:
		e.splitItems(g.numel, len(out), func(lo, hi int) {
			colRuns(g, lo, hi, func(k, o, t0, t1 int) {
				acc := out[k : k+t1-t0]
				init := uint64(0)
				if prod {
					init = 1
				}
				for c := range acc {
					acc[c] = init
				}
				for j := 0; j < n; j++ {
					row := xs[(o*n+j)*g.inner+t0 : (o*n+j)*g.inner+t1]
					row = row[:len(acc)]
					if prod {
						for c := range acc {
							acc[c] *= uint64(row[c])
						}
					} else {
						for c := range acc {
							acc[c] += uint64(row[c])
						}
					}
				}
			})
		})
	}
	return out
}

// sumInt returns the sum of xs modulo 2^64 (signed values sign-extended):
// sum.go's kernels for i32 and u8 (bool), four accumulators otherwise.
//
// Reference: s := uint64(0); for _, v := range xs { s += uint64(v) }.
func sumInt[T integer](xs []T) uint64 {
	switch v := any(xs).(type) {
	case []int32:
		return uint64(sumI32(v))
	case []uint8:
		return sumU8(v)
	}
	var s0, s1, s2, s3 uint64
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		x := xs[i : i+4 : i+4]
		s0 += uint64(x[0])
		s1 += uint64(x[1])
		s2 += uint64(x[2])
		s3 += uint64(x[3])
	}
	for ; i < len(xs); i++ {
		s0 += uint64(xs[i])
	}
	return s0 + s1 + s2 + s3
}

// sumWords returns the sum of the integer words of dtype d modulo 2^64,
// decoding them a tile at a time into T (so that the typed copy stays in
// the cache) for sumInt, across the engine's workers.
func sumWords[T integer](e *Engine, words []uint64, d tensor.DType) uint64 {
	var parts [maxPieces]uint64
	e.splitRun(len(words), func(piece, lo, hi int) {
		var tile [sumTile]T
		var s uint64
		for i := lo; i < hi; i += sumTile {
			j := min(i+sumTile, hi)
			decodeWords(tile[:j-i], words[i:j], d, d)
			s += sumInt(tile[:j-i])
		}
		parts[piece] = s
	})
	if zooBuild && zoo("sum-chunk-carry") && e.pieces(len(words)) > 1 {
		for i := range parts { // zoo: the pieces' sums kept in the element type lose their carries
			parts[i] = uint64(T(parts[i]))
		}
	}
	var s uint64
	for _, v := range parts {
		s += v
	}
	return s
}

// sumTile is the tile sumWords decodes at a time (a multiple of sumU8's
// 64-byte blocks).
const sumTile = 2048

// prodInt returns the product of xs modulo 2^64.
//
// Reference: p := uint64(1); for _, v := range xs { p *= uint64(v) }.
func prodInt[T integer](xs []T) uint64 {
	p0, p1 := uint64(1), uint64(1)
	i := 0
	for ; i+2 <= len(xs); i += 2 {
		p0 *= uint64(xs[i])
		p1 *= uint64(xs[i+1])
	}
	if i < len(xs) {
		p0 *= uint64(xs[i])
	}
	return p0 * p1
}

// ------------------------------------------------------------------ floats

// floatReduce returns every group's sum (product) by plan pl, in the
// accumulator precision F, before the rounding to the result dtype (a sum
// starts from the output's +0, so a zero sum is +0).
func floatReduce[F floating](e *Engine, xs []F, g *redGeom, pl *floatRedPlan) []F {
	out := make([]F, g.groups())
	if len(out) == 0 {
		return out
	}
	n := g.n
	switch {
	case g.contiguous() && len(out) == 1 && pl.splittable() && e.pieces(n) > 1:
		out[0] = floatSplit(e, xs, pl)
	case g.contiguous():
		e.splitItems(g.numel, len(out), func(lo, hi int) {
			for k := lo; k < hi; k++ {
				out[k] = reduceGroup(xs[k*n:k*n+n], pl)
			}
		})
	case pl.order == ordTorchOuter:
		e.splitItems(g.numel, len(out), func(lo, hi int) {
			col := make([]F, n)
			for k := lo; k < hi; k++ {
				o, t := k/g.inner, k%g.inner
				base := o*n*g.inner + t
				for j := range col {
					col[j] = xs[base+j*g.inner]
				}
				out[k] = torchOuterSum(col, t, g.inner, pl.vec, pl.lanes)
			}
		})
	default: // in order along every column (ordSeq, or ordFree run in order)
		e.splitItems(g.numel, len(out), func(lo, hi int) {
			colRuns(g, lo, hi, func(k, o, t0, t1 int) {
				acc := out[k : k+t1-t0]
				init := F(0)
				if pl.prod {
					init = 1
				}
				for c := range acc {
					acc[c] = init
				}
				colSeq(acc, xs[o*n*g.inner+t0:], n, g.inner, pl.prod, pl.step)
			})
		})
	}
	if !pl.prod {
		for k := range out {
			out[k] += 0 // the output's +0: a -0 sum becomes +0
		}
	}
	return out
}

// reduceGroup reduces one contiguous group by pl.
func reduceGroup[F floating](xs []F, pl *floatRedPlan) F {
	switch pl.order {
	case ordPairwise:
		return pairwiseSum(xs)
	case ordTorchSum:
		return torchInnerSum(xs, pl.vec, pl.lanes)
	case ordTorchProd:
		return torchProdInner(xs, pl.vec, pl.step, 1)
	case ordFree:
		if pl.step == roundNone {
			if pl.prod {
				return freeProd(xs)
			}
			return freeSum(xs)
		}
	}
	if pl.prod {
		return seqProd(xs, 1, pl.step)
	}
	return seqSum(xs, 0, pl.step)
}

// floatSplit reduces one large contiguous group across the engine's
// workers: pairwise_sum's own tree, or (an open order) partial results
// combined in piece order.
func floatSplit[F floating](e *Engine, xs []F, pl *floatRedPlan) F {
	k := e.pieces(len(xs))
	if pl.order == ordPairwise {
		return pairwiseSplit(xs, ceilLog2(k))
	}
	var parts [maxPieces]F
	e.splitRun(len(xs), func(piece, lo, hi int) { parts[piece] = reduceGroup(xs[lo:hi], pl) })
	if pl.prod {
		return freeProd(parts[:k])
	}
	return freeSum(parts[:k])
}

// ------------------------------------------------------------------- mean

// reduceMean evaluates mean: the sum of the values converted to the
// accumulator, divided as each profile divides, rounded once to the result.
func reduceMean(e *Engine, p *profile, x *tensor.Tensor, g *redGeom) *tensor.Tensor {
	rd := meanDType(p, x.DType)
	src := x.DType // the dtype the sum plan sees
	switch {
	case p.fw == fwJAX:
		src = rd // policy jax.mean.reciprocal: values converted to the result's opmath
	case !src.IsFloat():
		src = tensor.F64 // policy numpy.mean.dtype: integers summed as float64
	}
	vr := readForView(p, x, g, true)
	pl := planFloatRed(p, false, true, src, &vr.g)
	var sums []float64
	switch {
	case vr.torch != nil && pl.acc == tensor.F64:
		sums = torchStridedReduce[float64](e, x, vr.torch, &vr.g, &pl)
	case vr.torch != nil:
		for _, v := range torchStridedReduce[float32](e, x, vr.torch, &vr.g, &pl) {
			sums = append(sums, float64(v))
		}
	case pl.acc == tensor.F64:
		sums = viewFloatReduce(e, rowMajor[float64](e, vr.x, tensor.F64), &vr, &pl, roundNone)
	default:
		to := x.DType
		if !to.IsFloat() {
			to = tensor.F32
		}
		s := viewFloatReduce(e, rowMajor[float32](e, vr.x, to), &vr, &pl, roundNone)
		sums = make([]float64, len(s))
		for i, v := range s {
			sums[i] = float64(v)
		}
	}
	zeroDimResult := len(g.shape) == 0
	N := float64(g.n)
	if zooBuild && zoo("mean-count") {
		N = float64(g.numel) // zoo: divides by every element, not the reduced dim's
	}
	for k, s := range sums {
		switch {
		case p.fw == fwJAX: // s * R_c(1/N), in the accumulator c
			if pl.acc == tensor.F64 {
				sums[k] = s * (1 / N)
			} else {
				sums[k] = float64(float32(s) * (1 / float32(N)))
			}
		case p.fw == fwNumPy: // policy numpy.mean.dtype: s / N in f64
			sums[k] = s / N
			if x.DType == tensor.F16 && !zeroDimResult {
				sums[k] = float64(float32(sums[k]))
			}
		case pl.acc == tensor.F64: // policy pytorch.cpu.mean.divide
			sums[k] = s / N
		default:
			sums[k] = float64(float32(s) / float32(N))
		}
	}
	return encodeRounded(e, sums, rd, g.shape)
}

// encodeRounded encodes float64 values rounded once to the float dtype d.
func encodeRounded(e *Engine, vals []float64, d tensor.DType, shape []int) *tensor.Tensor {
	switch d {
	case tensor.F64:
		return encode(e, vals, d, shape)
	case tensor.F16:
		f := make([]float32, len(vals))
		for i, v := range vals {
			f[i] = roundF16From64(v)
		}
		return encode(e, f, d, shape)
	case tensor.BF16:
		f := make([]float32, len(vals))
		for i, v := range vals {
			f[i] = bf16From64(v)
		}
		return encode(e, f, d, shape)
	}
	f := make([]float32, len(vals))
	for i, v := range vals {
		f[i] = float32(v)
	}
	return encode(e, f, d, shape)
}

// bf16From64 rounds x to the nearest bf16 once, keeping the sign of a
// value that rounds to zero (half.go's roundBF16From64 adds and subtracts a
// constant, which turns a negative value rounding to zero into +0).
func bf16From64(x float64) float32 {
	return float32(math.Copysign(float64(roundBF16From64(math.Abs(x))), x))
}

// ------------------------------------------------- max, min, argmax, argmin

// reduceExtreme evaluates max and min: the first extreme element, a NaN
// taking precedence (policy python.reduce.max-min; which zero a ±0 tie
// gives is unspecified, python.reduce.max-min.zero-tie).
func reduceExtreme(e *Engine, x *tensor.Tensor, g *redGeom, wantMax bool) *tensor.Tensor {
	switch kindOf(x.DType) {
	case kU8:
		return extremeValues[uint8](e, x, g, wantMax)
	case kI8:
		return extremeValues[int8](e, x, g, wantMax)
	case kU16:
		return extremeValues[uint16](e, x, g, wantMax)
	case kI16:
		return extremeValues[int16](e, x, g, wantMax)
	case kU32:
		return extremeValues[uint32](e, x, g, wantMax)
	case kI32:
		return extremeValues[int32](e, x, g, wantMax)
	case kU64:
		return extremeValues[uint64](e, x, g, wantMax)
	case kI64:
		return extremeValues[int64](e, x, g, wantMax)
	case kF64:
		return extremeValues[float64](e, x, g, wantMax)
	}
	return extremeValues[float32](e, x, g, wantMax)
}

func extremeValues[T number](e *Engine, x *tensor.Tensor, g *redGeom, wantMax bool) *tensor.Tensor {
	xs := rowMajor[T](e, x, x.DType)
	vals := make([]T, g.groups())
	extremes(e, xs, g, wantMax, vals, nil)
	return encode(e, vals, x.DType, g.shape)
}

// reduceArg evaluates argmax and argmin: the index along the dim (into the
// flattened input without one) of the first extreme, NaN first (policies
// python.reduce.argmax, python.reduce.argmax.dtype).
func reduceArg(e *Engine, p *profile, x *tensor.Tensor, g *redGeom, wantMax bool) *tensor.Tensor {
	rd := tensor.I64
	if p.fw == fwJAX && !p.x64 {
		rd = tensor.I32
	}
	idx := make([]int64, g.groups())
	switch kindOf(x.DType) {
	case kU8:
		extremes(e, rowMajor[uint8](e, x, x.DType), g, wantMax, nil, idx)
	case kI8:
		extremes(e, rowMajor[int8](e, x, x.DType), g, wantMax, nil, idx)
	case kU16:
		extremes(e, rowMajor[uint16](e, x, x.DType), g, wantMax, nil, idx)
	case kI16:
		extremes(e, rowMajor[int16](e, x, x.DType), g, wantMax, nil, idx)
	case kU32:
		extremes(e, rowMajor[uint32](e, x, x.DType), g, wantMax, nil, idx)
	case kI32:
		extremes(e, rowMajor[int32](e, x, x.DType), g, wantMax, nil, idx)
	case kU64:
		extremes(e, rowMajor[uint64](e, x, x.DType), g, wantMax, nil, idx)
	case kI64:
		extremes(e, rowMajor[int64](e, x, x.DType), g, wantMax, nil, idx)
	case kF64:
		extremes(e, rowMajor[float64](e, x, x.DType), g, wantMax, nil, idx)
	default:
		extremes(e, rowMajor[float32](e, x, x.DType), g, wantMax, nil, idx)
	}
	return encode(e, idx, rd, g.shape)
}

// extremes stores each group's first extreme value into vals and its index
// into idx (either may be nil). Every group has at least one value.
func extremes[T number](e *Engine, xs []T, g *redGeom, wantMax bool, vals []T, idx []int64) {
	n := g.n
	if g.groups() == 0 {
		return
	}
	e.splitItems(g.numel, g.groups(), func(lo, hi int) {
		if g.contiguous() {
			for k := lo; k < hi; k++ {
				grp := xs[k*n : k*n+n]
				j := firstExtreme(grp, wantMax)
				if vals != nil {
					vals[k] = grp[j]
				}
				if idx != nil {
					idx[k] = int64(j)
				}
			}
			return
		}
		best := make([]T, min(hi-lo, g.inner))
		at := make([]int64, len(best))
		colRuns(g, lo, hi, func(k, o, t0, t1 int) {
			b, a := best[:t1-t0], at[:t1-t0]
			colExtreme(b, a, xs[o*n*g.inner+t0:], n, g.inner, wantMax)
			if vals != nil {
				copy(vals[k:], b)
			}
			if idx != nil {
				copy(idx[k:], a)
			}
		})
	})
}

// firstExtreme returns the index of the first maximum (minimum) of xs, or
// of its first NaN (len(xs) >= 1).
//
// Reference: best := 0; for j := range xs { if isNaN(xs[j]) { return j };
// if xs[j] > xs[best] { best = j } }.
func firstExtreme[T number](xs []T, wantMax bool) int {
	best, bv := 0, xs[0]
	if bv != bv {
		return 0
	}
	if zooBuild && wantMax && (zoo("max-drops-nan") || zoo("argmax-last-tie")) {
		lastTie := zoo("argmax-last-tie")
		for j := 1; j < len(xs); j++ {
			v := xs[j]
			if v > bv || lastTie && v == bv { // zoo argmax-last-tie: >= instead of >
				best, bv = j, v
			} else if v != v && lastTie { // zoo max-drops-nan: a later NaN is never checked
				return j
			}
		}
		return best
	}
	if wantMax {
		for j := 1; j < len(xs); j++ {
			v := xs[j]
			if v > bv {
				best, bv = j, v
			} else if v != v {
				return j
			}
		}
		return best
	}
	for j := 1; j < len(xs); j++ {
		v := xs[j]
		if v < bv {
			best, bv = j, v
		} else if v != v {
			return j
		}
	}
	return best
}

// colExtreme runs firstExtreme down every column at once: rows x[j*stride:]
// for j < n, columns c < len(best).
func colExtreme[T number](best []T, at []int64, x []T, n, stride int, wantMax bool) {
	copy(best, x[:len(best)])
	for c := range at {
		at[c] = 0
	}
	for j := 1; j < n; j++ {
		row := x[j*stride : j*stride+len(best)]
		for c, v := range row {
			b := best[c]
			if b != b { // a NaN is final
				continue
			}
			if v != v || wantMax && v > b || !wantMax && v < b {
				best[c], at[c] = v, int64(j)
			}
		}
	}
}
