package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// burn's max, min, argmax and argmin of Float (F32) tensors, and the panic
// of every extremum over zero elements. Which kernel burn runs decides which
// of +0 and -0 a max returns: Flex's f32 kernels over all elements (and
// over a last dim of 512 or more) are macerator's NEON max, lane-wise fmax
// over whole 4-lane vectors and a strict scalar scan of the rest; its other
// kernels keep the first of equal values, ndarray's full max the last.

// burnTieRule is how a burn kernel picks among equal extrema.
type burnTieRule uint8

const (
	keepFirst burnTieRule = iota // if x > cur { cur = x }
	keepLast                     // cur = if cur > x { cur } else { x }
	neonLanes                    // fmax per lane over 4-lane vectors, then the scalar scan
)

// burnSIMDRow is Flex's row length from which a last-dim f32 extremum runs
// the SIMD kernel (EXTREMUM_SIMD_ROW_THRESHOLD).
const burnSIMDRow = 512

// burnEmptyExtremum returns the panic of max, min, argmax or argmin over
// zero elements (policy burn.reduce.extremum-empty): all elements of an
// empty tensor, or a dim of size 0.
func burnEmptyExtremum(p *profile, op string, t *tensor.Tensor, dim int) (tensor.Outcome, bool) {
	over, n := "all elements", t.Len()
	if dim >= 0 {
		over, n = fmt.Sprintf("dim %d", dim), t.Shape[dim]
	}
	if n != 0 {
		return tensor.Outcome{}, false
	}
	backend := "ndarray"
	if burnFlex(p) {
		backend = "flex"
	}
	return tensor.PanicOutcome("burn %s: %s over %s of size 0", backend, op, over), true
}

// burnFloatExtremum evaluates max, min, argmax or argmin of an F32 tensor
// over dim (-1: all elements) (policies burn.reduce.extremum,
// burn.reduce.extremum-zero, burn.argmax.int-dtype).
func burnFloatExtremum(e *Engine, p *profile, op opID, t *tensor.Tensor, dim int, g rustGeom, shape []int) tensor.Outcome {
	src := rustDense[float32](e, t, t.DType)
	wantMax := op == opMax || op == opArgmax
	if op == opArgmax || op == opArgmin {
		out := tensor.New(burnIntDType(p), shape...)
		burnArgScan(out.Data, src, g, wantMax)
		return tensor.ValueOutcome(out)
	}
	tie := keepFirst
	switch {
	case !burnFlex(p) && dim < 0:
		tie = keepLast
	case burnFlex(p) && (dim < 0 || dim == t.Rank()-1 && g.n >= burnSIMDRow):
		tie = neonLanes
	}
	dst := make([]float32, g.groups())
	row := make([]float32, g.n)
	for o := 0; o < g.outer; o++ {
		base := o * g.n * g.inner
		for j := 0; j < g.inner; j++ {
			for k := range row {
				row[k] = src[base+k*g.inner+j]
			}
			dst[o*g.inner+j] = burnExtreme(row, wantMax, tie)
		}
	}
	return tensor.ValueOutcome(encode(e, dst, t.DType, shape))
}

// burnArgScan writes each group's index of its first NaN, or else of its
// first extremum, as raw words.
//
// Reference: b := 0; for k := range n { if x_k != x_k { b = k; break }; if x_k > x_b { b = k } }.
func burnArgScan(dst []uint64, src []float32, g rustGeom, wantMax bool) {
	for o := 0; o < g.outer; o++ {
		base := o * g.n * g.inner
		for j := 0; j < g.inner; j++ {
			b := 0
			for k := 0; k < g.n; k++ {
				v, cur := src[base+k*g.inner+j], src[base+b*g.inner+j]
				if v != v {
					b = k
					break
				}
				if wantMax && v > cur || !wantMax && v < cur {
					b = k
				}
			}
			dst[o*g.inner+j] = uint64(b)
		}
	}
}

// burnExtreme is the max (or min) of a non-empty row by the kernel's tie
// rule; a NaN anywhere gives NaN.
func burnExtreme(row []float32, wantMax bool, tie burnTieRule) float32 {
	if slices.ContainsFunc(row, func(v float32) bool { return v != v }) {
		return float32(math.NaN())
	}
	beats := func(a, b float32) bool {
		if wantMax {
			return a > b
		}
		return a < b
	}
	if tie == neonLanes {
		return neonExtreme(row, wantMax, beats)
	}
	best := 0
	for k := 1; k < len(row); k++ {
		// keepFirst moves only to a strictly better value, keepLast also to an equal one
		if beats(row[k], row[best]) || tie == keepLast && !beats(row[best], row[k]) {
			best = k
		}
	}
	return row[best]
}

// neonExtreme is macerator's NEON reduction: four lanes folded with Arm's
// fmax (fmin) over the whole vectors, then the lanes, then a strict scalar
// tail.
func neonExtreme(row []float32, wantMax bool, beats func(a, b float32) bool) float32 {
	start := float32(math.Inf(1))
	if wantMax {
		start = float32(math.Inf(-1))
	}
	lanes := [4]float32{start, start, start, start}
	body := len(row) &^ 3
	for k, v := range row[:body] {
		lanes[k%4] = armExtreme(lanes[k%4], v, wantMax)
	}
	acc := armExtreme(armExtreme(lanes[0], lanes[1], wantMax), armExtreme(lanes[2], lanes[3], wantMax), wantMax)
	for _, v := range row[body:] {
		if beats(v, acc) {
			acc = v
		}
	}
	return acc
}

// armExtreme is Arm's fmax (fmin) of two non-NaN values: of +0 and -0,
// max gives -0 only when both are -0 (the sign bits and-ed), min gives -0
// when either is (or-ed).
func armExtreme(a, b float32, wantMax bool) float32 {
	if a != b {
		if wantMax == (a > b) {
			return a
		}
		return b
	}
	if wantMax {
		return math.Float32frombits(math.Float32bits(a) & math.Float32bits(b))
	}
	return math.Float32frombits(math.Float32bits(a) | math.Float32bits(b))
}
