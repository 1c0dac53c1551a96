package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Reference twins of the summation-order kernels (sumorder.go) and of the
// scan and extreme kernels: plain loops over float64 values that round
// every operation explicitly (tensor.RoundFloat), written from the
// frameworks' descriptions (reductions.md §5), run at every size where a
// kernel changes path: the vector width (4, 8, 16), four vectors (16, 32,
// 64), multi_row_sum's level steps (16, 256 and 4096 rows of 1, 4 or 4*lanes
// values), pairwise_sum's 8 / 128 split, the engine's parallel threshold.

// refArith is one rounded operation: add or multiply in the precision d.
type refArith struct {
	prod bool
	d    tensor.DType
}

func (a refArith) op(x, y float64) float64 {
	if a.prod {
		return tensor.RoundFloat(x*y, a.d)
	}
	return tensor.RoundFloat(x+y, a.d)
}

// refMultiRow is multi_row_sum over rows: level 0 takes the rows in order;
// every 2^power rows it is added into level 1 and cleared, and the carry
// goes up while the row count is a multiple of the next level's step.
func refMultiRow(rows [][]float64, ncols int, a refArith) []float64 {
	power := 0
	for 1<<power < len(rows) {
		power++
	}
	power = max(4, power/4)
	var acc [4][]float64
	for j := range acc {
		acc[j] = make([]float64, ncols)
	}
	for i, row := range rows {
		for c := range row {
			acc[0][c] = a.op(acc[0][c], row[c])
		}
		count := i + 1
		if count%(1<<power) != 0 {
			continue
		}
		for j := 1; j < 4; j++ {
			for c := range acc[j] {
				acc[j][c] = a.op(acc[j][c], acc[j-1][c])
				acc[j-1][c] = 0
			}
			if count%(1<<(power*(j+1))) != 0 {
				break
			}
		}
	}
	// rows after the last full batch must not propagate: the loop above only
	// propagates at multiples of the step, which a partial batch never reaches
	for j := 1; j < 4; j++ {
		for c := range acc[0] {
			acc[0][c] = a.op(acc[0][c], acc[j][c])
		}
	}
	return acc[0]
}

func refRowSum(xs []float64, a refArith) float64 {
	var rows [][]float64
	k := len(xs) / 4
	for i := 0; i < k; i++ {
		rows = append(rows, xs[4*i:4*i+4])
	}
	p := refMultiRow(rows, 4, a)
	for _, x := range xs[4*k:] {
		p[0] = a.op(p[0], x)
	}
	return a.op(a.op(a.op(p[0], p[1]), p[2]), p[3])
}

func refCascadeSeq(xs []float64, a refArith) float64 {
	rows := make([][]float64, len(xs))
	for i := range xs {
		rows[i] = xs[i : i+1]
	}
	return refMultiRow(rows, 1, a)[0]
}

// refInnerSum is vectorized_inner_sum with lanes built explicitly.
func refInnerSum(xs []float64, vec, lanes int, a refArith) float64 {
	if len(xs) < vec {
		return refRowSum(xs, a)
	}
	nvec := len(xs) / vec
	lane := make([][]float64, lanes)
	for v := 0; v < nvec; v++ {
		e := xs[v*vec : (v+1)*vec]
		for l := 0; l < lanes; l++ {
			x := e[l]
			if vec == 2*lanes {
				x = a.op(e[l], e[l+lanes])
			}
			lane[l] = append(lane[l], x)
		}
	}
	final := 0.0
	for _, x := range xs[nvec*vec:] {
		final = a.op(final, x)
	}
	for l := range lane {
		final = a.op(final, refRowSum(lane[l], a))
	}
	return final
}

func refOuterSum(xs []float64, col, ncols, vec, lanes int, a refArith) float64 {
	blocked := ncols / (4 * lanes) * 4 * lanes
	if ncols < vec {
		blocked = ncols / 4 * 4
	}
	if col < blocked {
		return refCascadeSeq(xs, a)
	}
	return refRowSum(xs, a)
}

func refProd(xs []float64, vec int, a refArith) float64 {
	block := 4 * vec
	count := len(xs) / block
	if count == 0 {
		return refFold(xs, 1, a)
	}
	acc := append([]float64{}, xs[:block]...)
	for b := 1; b < count; b++ {
		for j := range acc {
			acc[j] = a.op(acc[j], xs[b*block+j])
		}
	}
	r := 0.0
	for l := 0; l < vec; l++ {
		v := a.op(a.op(acc[l], acc[vec+l]), a.op(acc[2*vec+l], acc[3*vec+l]))
		if l == 0 {
			r = v
		} else {
			r = a.op(r, v)
		}
	}
	return refFold(xs[count*block:], r, a)
}

func refFold(xs []float64, init float64, a refArith) float64 {
	acc := init
	for _, x := range xs {
		acc = a.op(acc, x)
	}
	return acc
}

func refPairwise(xs []float64, a refArith) float64 {
	n := len(xs)
	if n < 8 {
		return refFold(xs, math.Copysign(0, -1), a)
	}
	if n <= 128 {
		r := append([]float64{}, xs[:8]...)
		i := 8
		for ; i+8 <= n; i += 8 {
			for j := range r {
				r[j] = a.op(r[j], xs[i+j])
			}
		}
		res := a.op(a.op(a.op(r[0], r[1]), a.op(r[2], r[3])), a.op(a.op(r[4], r[5]), a.op(r[6], r[7])))
		return refFold(xs[i:], res, a)
	}
	h := n / 2
	h -= h % 8
	return a.op(refPairwise(xs[:h], a), refPairwise(xs[h:], a))
}

// orderSizes are lengths around every path change of the order kernels.
var orderSizes = func() []int {
	s := []int{}
	for n := 0; n <= 40; n++ {
		s = append(s, n)
	}
	for _, b := range []int{63, 64, 127, 128, 255, 256, 511, 512, 1023, 1024, 4095, 4096, 8191, 8192,
		16383, 16384, 32767, 32768, 65535, 65536, 131071, 131072, 262143, 262144} {
		s = append(s, b-1, b, b+1, b+5)
	}
	return s
}()

// orderValues returns n values of dtype d (as float64) whose sums depend on
// the order: magnitudes spread over 2^-12 .. 2^12, some cancelling.
func orderValues(r *rand.Rand, n int, d tensor.DType) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		v := math.Ldexp(r.Float64()*2-1, r.IntN(25)-12)
		if r.IntN(16) == 0 {
			v = float64(r.IntN(9) - 4)
		}
		xs[i] = tensor.RoundFloat(v, d)
	}
	return xs
}

func as32(xs []float64) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = float32(x)
	}
	return out
}

func sameFloat(a, b float64) bool {
	return a != a && b != b || math.Float64bits(a) == math.Float64bits(b)
}

func TestSumOrdersMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name       string
		elem, acc  tensor.DType
		vec, lanes int
	}{
		{"f32", tensor.F32, tensor.F32, 8, 8},
		{"f64", tensor.F64, tensor.F64, 4, 4},
		{"f16-halves", tensor.F16, tensor.F32, 16, 8},
		{"bf16-halves", tensor.BF16, tensor.F32, 16, 8},
	}
	for _, tc := range cases {
		a := refArith{d: tc.acc}
		for _, n := range orderSizes {
			xs := orderValues(r, n, tc.elem)
			want := refInnerSum(xs, tc.vec, tc.lanes, a)
			var got float64
			if tc.acc == tensor.F64 {
				got = torchInnerSum(xs, tc.vec, tc.lanes)
			} else {
				got = float64(torchInnerSum(as32(xs), tc.vec, tc.lanes))
			}
			if !sameFloat(got, want) {
				t.Errorf("torchInnerSum %s n=%d: got %v, want %v", tc.name, n, got, want)
			}
			if n > 5000 {
				continue // the outer and pairwise twins are quadratic in allocations
			}
			for _, ncols := range []int{1, 3, 4, 5, 7, 8, 9, 31, 32, 33, 64} {
				col := n % ncols
				want := refOuterSum(xs, col, ncols, tc.vec, tc.lanes, a)
				var got float64
				if tc.acc == tensor.F64 {
					got = torchOuterSum(xs, col, ncols, tc.vec, tc.lanes)
				} else {
					got = float64(torchOuterSum(as32(xs), col, ncols, tc.vec, tc.lanes))
				}
				if !sameFloat(got, want) {
					t.Errorf("torchOuterSum %s n=%d col %d/%d: got %v, want %v", tc.name, n, col, ncols, got, want)
				}
			}
		}
	}
}

func TestCascadeLevelsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	// power = max(4, ceil_log2(rows)/4) becomes 5 past 2^19 rows
	for _, rows := range []int{15, 16, 17, 255, 256, 257, 4095, 4096, 4097, 65536 + 3, 1<<20 + 3} {
		xs := orderValues(r, rows, tensor.F64)
		want := refCascadeSeq(xs, refArith{d: tensor.F64})
		if got := torchCascadeSeq(xs); !sameFloat(got, want) {
			t.Errorf("torchCascadeSeq rows=%d: got %v, want %v", rows, got, want)
		}
	}
}

func TestPairwiseAndProdMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range orderSizes {
		xs := orderValues(r, n, tensor.F32)
		want := refPairwise(xs, refArith{d: tensor.F32})
		if got := float64(pairwiseSum(as32(xs))); !sameFloat(got, want) {
			t.Errorf("pairwiseSum f32 n=%d: got %v, want %v", n, got, want)
		}
		for depth := 1; depth <= 3; depth++ {
			if got := float64(pairwiseSplit(as32(xs), depth)); !sameFloat(got, want) {
				t.Errorf("pairwiseSplit depth %d n=%d: got %v, want %v", depth, n, got, want)
			}
		}
		// products: values near 1 so that they neither overflow nor vanish
		ps := make([]float64, n)
		for i := range ps {
			ps[i] = 1 + (r.Float64()-0.5)/64
		}
		for _, d := range []tensor.DType{tensor.F16, tensor.BF16, tensor.F32, tensor.F64} {
			vs := make([]float64, n)
			for i := range vs {
				vs[i] = tensor.RoundFloat(ps[i], d)
			}
			vec := torchVecBytes / (d.Bits() / 8)
			want := refProd(vs, vec, refArith{prod: true, d: d})
			var got float64
			switch d {
			case tensor.F64:
				got = torchProdInner(vs, vec, roundNone, 1)
			case tensor.F32:
				got = float64(torchProdInner(as32(vs), vec, roundNone, 1))
			default:
				got = float64(torchProdInner(as32(vs), vec, stepRoundOf(d), 1))
			}
			if !sameFloat(got, want) {
				t.Errorf("torchProdInner %s n=%d: got %v, want %v", d, n, got, want)
			}
			if d == tensor.F16 || d == tensor.BF16 {
				want := refFold(vs, 1, refArith{prod: true, d: d})
				if got := float64(seqProd(as32(vs), 1, stepRoundOf(d))); !sameFloat(got, want) {
					t.Errorf("seqProd %s n=%d: got %v, want %v", d, n, got, want)
				}
				sw := refFold(vs, 0, refArith{d: d})
				if got := float64(seqSum(as32(vs), 0, stepRoundOf(d))); !sameFloat(got, sw) {
					t.Errorf("seqSum %s n=%d: got %v, want %v", d, n, got, sw)
				}
			}
		}
	}
}

// TestFreeOrdersAreSums checks the open-order kernels on values whose sum
// and product every order computes exactly (small integers, powers of two).
func TestFreeOrdersAreSums(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range orderSizes {
		xs := make([]float64, n)
		ps := make([]float64, n)
		sum, prod := 0.0, 1.0
		for i := range xs {
			xs[i] = float64(r.IntN(201) - 100)
			sum += xs[i]
			ps[i] = []float64{1, 1, 1, 2, 0.5, -1}[r.IntN(6)]
			if i < 900 {
				prod *= ps[i]
			} else {
				ps[i] = 1
			}
		}
		if got := freeSum(xs); got != sum {
			t.Errorf("freeSum n=%d: got %v, want %v", n, got, sum)
		}
		if got := float64(freeSum(as32(xs))); got != sum {
			t.Errorf("freeSum f32 n=%d: got %v, want %v", n, got, sum)
		}
		if got := freeProd(ps); got != prod {
			t.Errorf("freeProd n=%d: got %v, want %v", n, got, prod)
		}
	}
}

// TestColumnKernelsMatchRows runs the column kernels (every column of a
// strided reduction at once) against the row kernels on each column.
func TestColumnKernelsMatchRows(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 3, 7, 8, 9, 33} {
		for _, w := range []int{1, 2, 5, 16, 17} {
			stride := w + 3
			x := as32(orderValues(r, n*stride, tensor.F16))
			if n > 2 {
				x[stride+1] = float32(math.NaN())
			}
			col := func(c int) []float32 {
				v := make([]float32, n)
				for j := range v {
					v[j] = x[j*stride+c]
				}
				return v
			}
			for _, rnd := range []stepRound{roundNone, roundToF16, roundToBF16} {
				for _, prod := range []bool{false, true} {
					acc := make([]float32, w)
					init := float32(0)
					if prod {
						init = 1
					}
					for c := range acc {
						acc[c] = init
					}
					colSeq(acc, x, n, stride, prod, rnd)
					for c := range acc {
						want := seqSum(col(c), 0, rnd)
						if prod {
							want = seqProd(col(c), 1, rnd)
						}
						if !sameFloat(float64(acc[c]), float64(want)) {
							t.Errorf("colSeq n=%d w=%d prod=%v col %d: got %v, want %v", n, w, prod, c, acc[c], want)
						}
					}
				}
				for _, copyFirst := range []bool{false, true} {
					y := append([]float32{}, x...)
					scanCols(y, w, n, stride, copyFirst, rnd)
					for c := 0; c < w; c++ {
						want := col(c)
						scanRow(want, copyFirst, rnd)
						for j := range want {
							if !sameFloat(float64(y[j*stride+c]), float64(want[j])) {
								t.Errorf("scanCols n=%d w=%d col %d row %d: got %v, want %v", n, w, c, j, y[j*stride+c], want[j])
							}
						}
					}
				}
			}
			for _, wantMax := range []bool{false, true} {
				best := make([]float32, w)
				at := make([]int64, w)
				colExtreme(best, at, x, n, stride, wantMax)
				for c := 0; c < w; c++ {
					v := col(c)
					j := refFirstExtreme(v, wantMax)
					if at[c] != int64(j) || !sameFloat(float64(best[c]), float64(v[j])) {
						t.Errorf("colExtreme n=%d w=%d col %d: got %v at %d, want %v at %d", n, w, c, best[c], at[c], v[j], j)
					}
					if got := firstExtreme(v, wantMax); got != j {
						t.Errorf("firstExtreme n=%d: got %d, want %d", n, got, j)
					}
				}
			}
		}
	}
}

// refFirstExtreme is the first NaN, else the first maximum (minimum).
func refFirstExtreme(xs []float32, wantMax bool) int {
	best := 0
	for j, v := range xs {
		if v != v {
			return j
		}
		if wantMax && v > xs[best] || !wantMax && v < xs[best] {
			best = j
		}
	}
	return best
}

func TestIntScansMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	engines := []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1)), New(WithWorkers(7), WithParallelThreshold(100))}
	for _, n := range orderSizes {
		xs := randInts[int16](r, n)
		var sum uint64
		ref := make([]uint64, n)
		for i, v := range xs {
			sum += uint64(v)
			ref[i] = sum
		}
		if got := sumInt(xs); got != sum {
			t.Errorf("sumInt n=%d: got %d, want %d", n, got, sum)
		}
		words := make([]uint64, n)
		for i, v := range xs {
			words[i] = uint64(uint16(v))
		}
		for _, e := range engines {
			if got := sumWords[int16](e, words, tensor.I16); got != sum {
				t.Errorf("sumWords n=%d: got %d, want %d", n, got, sum)
			}
			dst := make([]uint64, n)
			scanIntSplit(e, dst, xs)
			for i := range dst {
				if dst[i] != ref[i] {
					t.Errorf("scanIntSplit workers=%d n=%d: element %d is %d, want %d", e.workers, n, i, dst[i], ref[i])
					break
				}
			}
		}
		p := uint64(1)
		for _, v := range xs[:min(n, 50)] {
			p *= uint64(v)
		}
		if got := prodInt(xs[:min(n, 50)]); got != p {
			t.Errorf("prodInt n=%d: got %d, want %d", min(n, 50), got, p)
		}
	}
}

// TestReductionKernelsStayInTheirOutput puts guard bands around the outputs
// of every kernel that writes a caller's slice, at the boundary sizes.
func TestReductionKernelsStayInTheirOutput(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const canary = float32(-12345.5)
	const icanary = uint64(0x5a5a5a5a5a5a5a5a)
	band := func(n int) ([]float32, []float32) {
		buf := make([]float32, n+2*67)
		for i := range buf {
			buf[i] = canary
		}
		return buf, buf[67 : 67+n]
	}
	checkBand := func(name string, n int, buf []float32) {
		for i := 0; i < 67; i++ {
			if buf[i] != canary || buf[len(buf)-1-i] != canary {
				t.Errorf("%s n=%d: wrote outside its output", name, n)
				return
			}
		}
	}
	for _, n := range []int{0, 1, 2, 3, 4, 7, 8, 9, 31, 32, 33, 511, 512, 513, 8191, 8192, 8193, 12289} {
		for _, w := range []int{1, 3, 8} {
			if n > 1000 && w > 1 {
				continue
			}
			x := as32(orderValues(r, max(n, 1)*(w+2), tensor.F32))
			buf, acc := band(w)
			colSeq(acc, x, n, w+2, false, roundToBF16)
			checkBand("colSeq", n, buf)
			if n > 0 {
				bbuf, best := band(w)
				at := make([]int64, w+2*67)
				for i := range at {
					at[i] = -7
				}
				colExtreme(best, at[67:67+w], x, n, w+2, true)
				checkBand("colExtreme", n, bbuf)
				if at[66] != -7 || at[67+w] != -7 {
					t.Errorf("colExtreme n=%d: wrote outside its index output", n)
				}
			}
			sbuf, y := band(n * w)
			copy(y, x)
			scanCols(y, w, n, w, false, roundNone)
			checkBand("scanCols", n, sbuf)
		}
		rbuf, row := band(n)
		copy(row, as32(orderValues(r, n, tensor.F16)))
		scanRow(row, true, roundToF16)
		checkBand("scanRow", n, rbuf)

		ibuf := make([]uint64, n+2*67)
		for i := range ibuf {
			ibuf[i] = icanary
		}
		xs := randInts[int8](r, n)
		scanIntSplit(New(WithWorkers(3), WithParallelThreshold(1)), ibuf[67:67+n], xs)
		for i := 0; i < 67; i++ {
			if ibuf[i] != icanary || ibuf[len(ibuf)-1-i] != icanary {
				t.Errorf("scanIntSplit n=%d: wrote outside its output", n)
				break
			}
		}
	}
}
