package cpu

import "github.com/tfuzz/tfuzz/tensor"

// cumsum of PyTorch, NumPy and JAX: a.cumsum(dim), np.cumsum(a, axis),
// jnp.cumsum(a, axis), dim 0 when absent. The input is read into row-major
// order as [outer, n, inner] and scanned in place along n: a contiguous
// group at a time (inner == 1), or row by row across the columns. Integer
// scans wrap, so one long group is split into pieces (piece sums, then each
// piece scanned from its offset); float scans are sequential in every
// profile, so only distinct groups run in parallel.

func init() {
	attach(pythonProfiles(), tensor.ClassCumsum, &family{supports: pyCumsumSupports, eval: pyCumsumEval})
}

// pyCumsumSupports declines complex inputs (the model does not state them).
func pyCumsumSupports(p *profile, c *tensor.Case) bool {
	return !c.Args[0].Tensor.DType.IsComplex() && dtypeArgSupports(p, c)
}

func pyCumsumEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	x := pyInput(p, c.Args[0].Tensor)
	dim := 0
	if c.Attrs.Dim != nil {
		dim = *c.Attrs.Dim
	} else { // policy python.cumsum.no-dim
		if p.fw == fwPyTorch {
			return tensor.ErrorOutcome(tensor.Other, "TypeError: cumsum() missing required argument 'dim'")
		}
		x = flattened(x)
	}
	d, zeroDim, o, failed := pyRedDim(p, opCumsum, &dim, x.Rank())
	if failed {
		return o
	}
	// policy python.cumsum.shape
	shape := x.Shape
	g := newRedGeom(x.Shape, d, true)
	if zeroDim {
		g = newRedGeom(x.Shape, -1, false)
		if p.fw == fwNumPy {
			shape = []int{1}
		}
	}
	if c.Attrs.DType.Valid() {
		return cumsumDTypeArg(e, p, x, &g, shape, c.Attrs.DType)
	}
	return tensor.ValueOutcome(cumsumRun(e, p, x, &g, shape))
}

// cumsumRun is the cumsum of x over g, of the given result shape.
func cumsumRun(e *Engine, p *profile, x *tensor.Tensor, g *redGeom, shape []int) *tensor.Tensor {
	rd := sumDType(p, x.DType)
	if p.fw == fwJAX && x.DType != tensor.Bool {
		rd = x.DType // policy jax.cumsum.keep-int-dtype
	}
	if !x.DType.IsFloat() { // policy python.cumsum.int-wrap
		var out []uint64
		switch kindOf(x.DType) {
		case kU8:
			out = intCumsum[uint8](e, x, g)
		case kI8:
			out = intCumsum[int8](e, x, g)
		case kU16:
			out = intCumsum[uint16](e, x, g)
		case kI16:
			out = intCumsum[int16](e, x, g)
		case kU32:
			out = intCumsum[uint32](e, x, g)
		case kI32:
			out = intCumsum[int32](e, x, g)
		case kU64:
			out = intCumsum[uint64](e, x, g)
		default:
			out = intCumsum[int64](e, x, g)
		}
		return encode(e, out, rd, shape)
	}
	sc := floatScan{copyFirst: p.fw == fwNumPy}
	acc := x.DType
	switch p.fw {
	case fwPyTorch: // policy pytorch.cpu.cumsum.wide-acc: acc_type<T, false>
		acc = tensor.F64
		if isHalf(x.DType) {
			acc = tensor.F32
		}
	default: // policies numpy.cumsum.sequential, jax.cumsum.reduce-window: in the dtype
		sc.step = stepRoundOf(x.DType)
	}
	if acc == tensor.F64 {
		xs := rowMajor[float64](e, x, tensor.F64)
		floatCumsum(e, xs, g, sc)
		return encode(e, xs, rd, shape)
	}
	xs := rowMajor[float32](e, x, x.DType)
	floatCumsum(e, xs, g, sc)
	return encode(e, xs, rd, shape)
}

// floatScan is how a profile scans floats: whether the first output is the
// first input copied (NumPy: a -0 survives) or added to +0, and the
// rounding after every step.
type floatScan struct {
	copyFirst bool
	step      stepRound
}

// floatCumsum replaces xs (row-major [outer, n, inner], values in the
// accumulator precision F) by its running sums along n.
func floatCumsum[F floating](e *Engine, xs []F, g *redGeom, sc floatScan) {
	n := g.n
	if n == 0 || g.groups() == 0 {
		return
	}
	if g.contiguous() {
		e.splitItems(g.numel, g.groups(), func(lo, hi int) {
			for k := lo; k < hi; k++ {
				scanRow(xs[k*n:k*n+n], sc.copyFirst, sc.step)
			}
		})
		return
	}
	e.splitItems(g.numel, g.groups(), func(lo, hi int) {
		colRuns(g, lo, hi, func(_, o, t0, t1 int) {
			base := o*n*g.inner + t0
			scanCols(xs[base:], t1-t0, n, g.inner, sc.copyFirst, sc.step)
		})
	})
}

// scanRow replaces xs by its running sums: acc = 0 (or x0 copied), then
// acc = acc + x in order, each step rounded by step.
//
// Reference: acc := 0; for j := range xs { acc = R(acc + xs[j]); xs[j] = acc }.
func scanRow[F floating](xs []F, copyFirst bool, step stepRound) {
	var acc F
	j := 0
	if copyFirst && len(xs) > 0 {
		acc, j = xs[0], 1
	}
	switch step {
	case roundNone:
		for ; j < len(xs); j++ {
			acc += xs[j]
			xs[j] = acc
		}
	case roundToF16:
		for ; j < len(xs); j++ {
			acc = F(roundF16(float32(acc + xs[j])))
			xs[j] = acc
		}
	default:
		for ; j < len(xs); j++ {
			acc = F(roundBF16(float32(acc + xs[j])))
			xs[j] = acc
		}
	}
}

// scanCols runs scanRow down w columns at once: rows x[j*stride :
// j*stride+w] for j < n, each row replaced by the running sums.
func scanCols[F floating](x []F, w, n, stride int, copyFirst bool, step stepRound) {
	first := x[:w]
	if !copyFirst {
		for c := range first {
			first[c] = roundStep(first[c]+0, step) // 0 + x: a -0 becomes +0
		}
	}
	for j := 1; j < n; j++ {
		prev := x[(j-1)*stride : (j-1)*stride+w]
		row := x[j*stride : j*stride+w]
		// row = prev + row, in the order the scan adds them
		switch step {
		case roundNone:
			for c := range row {
				row[c] = prev[c] + row[c]
			}
		case roundToF16:
			for c := range row {
				row[c] = F(roundF16(float32(prev[c] + row[c])))
			}
		default:
			for c := range row {
				row[c] = F(roundBF16(float32(prev[c] + row[c])))
			}
		}
	}
}

// intCumsum returns the running sums of every group modulo 2^64 (the result
// dtype keeps the low bits).
func intCumsum[T integer](e *Engine, x *tensor.Tensor, g *redGeom) []uint64 {
	xs := rowMajor[T](e, x, x.DType)
	out := make([]uint64, len(xs))
	n := g.n
	switch {
	case n == 0 || g.groups() == 0:
	case g.groups() == 1:
		scanIntSplit(e, out, xs)
	case g.contiguous():
		e.splitItems(g.numel, g.groups(), func(lo, hi int) {
			for k := lo; k < hi; k++ {
				scanInt(out[k*n:k*n+n], xs[k*n:k*n+n], 0)
			}
		})
	default:
		e.splitItems(g.numel, g.groups(), func(lo, hi int) {
			colRuns(g, lo, hi, func(_, o, t0, t1 int) {
				w := t1 - t0
				for j := 0; j < n; j++ {
					at := (o*n+j)*g.inner + t0
					row, dst := xs[at:at+w], out[at:at+w]
					if j == 0 {
						for c := range dst {
							dst[c] = uint64(row[c])
						}
						continue
					}
					prev := out[at-g.inner : at-g.inner+w]
					for c := range dst {
						dst[c] = prev[c] + uint64(row[c])
					}
				}
			})
		})
	}
	return out
}

// scanInt stores the running sums of xs, starting from acc, into dst.
//
// Reference: for j := range xs { acc += uint64(xs[j]); dst[j] = acc }.
func scanInt[T integer](dst []uint64, xs []T, acc uint64) {
	xs = xs[:len(dst)]
	for j, v := range xs {
		acc += uint64(v)
		dst[j] = acc
	}
}

// scanIntSplit scans one long group across the engine's workers: each piece
// is summed, then scanned from the sum of the pieces before it (wrapping
// addition is associative, so the pieces do not change the result).
func scanIntSplit[T integer](e *Engine, dst []uint64, xs []T) {
	k := e.pieces(len(xs))
	if k == 1 {
		scanInt(dst, xs, 0)
		return
	}
	var sums [maxPieces]uint64
	e.splitRun(len(xs), func(piece, lo, hi int) { sums[piece] = sumInt(xs[lo:hi]) })
	var offs [maxPieces]uint64
	for i := 1; i < k; i++ {
		offs[i] = offs[i-1] + sums[i-1]
	}
	if zooBuild && zoo("cumsum-chunk-carry") {
		offs[k-1] = 0 // zoo: the carry loop stopped one piece short
	}
	e.splitRun(len(xs), func(piece, lo, hi int) { scanInt(dst[lo:hi], xs[lo:hi], offs[piece]) })
}

// flattened is x as a 1-D tensor of its elements in row-major order
// (NumPy's and JAX's cumsum without an axis): a contiguous x keeps its
// storage, a strided view is copied.
func flattened(x *tensor.Tensor) *tensor.Tensor {
	f := *x
	if x.Strides != nil {
		f = *x.Contiguous()
	}
	f.Shape, f.Strides, f.View = []int{x.Len()}, nil, nil
	return &f
}
