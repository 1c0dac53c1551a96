package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Twin tests of the kernels of where, clamp and the shifts (kernels_select.go,
// kernels_shift.go): each against a plain reference loop written from the
// frameworks' definitions, at every size where the unrolled body and its
// tail change (boundarySizes), with guard bands around the outputs; and the
// three-input driver on broadcast and strided layouts across the tile
// length, serially and split.

func randConds(r *rand.Rand, n int) []uint8 {
	c := make([]uint8, n)
	for i := range c {
		c[i] = uint8(r.IntN(2))
	}
	return c
}

// randCounts draws shift counts of T around its width: in range, at and
// past the width, 63 and 64, negative.
func randCounts[T integer](r *rand.Rand, n int) []T {
	w := int64(bitsOf[T]())
	palette := []int64{0, 1, w - 1, w, w + 1, 2 * w, 63, 64, -1, -w}
	c := make([]T, n)
	for i := range c {
		if r.IntN(3) == 0 {
			c[i] = T(r.Uint64())
		} else {
			c[i] = T(palette[r.IntN(len(palette))])
		}
	}
	return c
}

func TestWhereKernelMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	canary := canaryOf[uint32]()
	for _, n := range boundarySizes {
		c, a, b := randConds(r, n), randInts[uint32](r, n), randInts[uint32](r, n)
		buf, dst := guarded(n, canary)
		kWhere(dst, c, a, b)
		checkGuards(t, "where u32", n, buf, canary)
		for i := range dst {
			want := b[i]
			if c[i] != 0 {
				want = a[i]
			}
			if dst[i] != want {
				t.Fatalf("where u32 n=%d: element %d (cond %d) = %#x, want %#x", n, i, c[i], dst[i], want)
			}
		}
	}
	// float words keep their bits: NaN payloads and -0.0
	x := []float64{math.Float64frombits(0x7ff0000000000123), math.Copysign(0, -1), 1.5}
	y := []float64{2, 3, math.Float64frombits(0xfff8000000000001)}
	got := make([]float64, 3)
	kWhere(asWords[uint64](got), []uint8{1, 1, 0}, asWords[uint64](x), asWords[uint64](y))
	for i, want := range []uint64{0x7ff0000000000123, 1 << 63, 0xfff8000000000001} {
		if math.Float64bits(got[i]) != want {
			t.Errorf("where f64 element %d = %#x, want the bits %#x", i, math.Float64bits(got[i]), want)
		}
	}
}

// refClampConst is torch.clamp's scalar loop, std::min(std::max(a, lo), hi)
// with its comparisons written out: a NaN input stays, ties keep a.
func refClampConst[T number](a, lo, hi T) T {
	r := a
	if r < lo {
		r = lo
	}
	if hi < r {
		r = hi
	}
	return r
}

func TestClampConstMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 2))
	negZero := float32(math.Copysign(0, -1))
	inf := float32(math.Inf(1))
	for _, bounds := range [][2]float32{{-0.5, 0.5}, {0, 1}, {negZero, 0}, {0, negZero}, {3, -3}, {-inf, inf}, {-inf, 2}, {1, 1}} {
		lo, hi := bounds[0], bounds[1]
		canary := canaryOf[float32]()
		for _, n := range boundarySizes {
			a := randFloats[float32](r, n)
			buf, dst := guarded(n, canary)
			kClampConst(lo, hi)(dst, a)
			checkGuards(t, "clamp f32", n, buf, canary)
			for i := range dst {
				if want := refClampConst(a[i], lo, hi); !sameBits(dst[i], want) {
					t.Fatalf("clamp f32 [%g, %g] n=%d: element %d (%g) = %g, want %g", lo, hi, n, i, a[i], dst[i], want)
				}
			}
		}
	}
	for _, n := range boundarySizes {
		a := randInts[int16](r, n)
		lo, hi := int16(r.IntN(200)-100), int16(r.IntN(200)-100)
		buf, dst := guarded(n, canaryOf[int16]())
		kClampConst(lo, hi)(dst, a)
		checkGuards(t, "clamp i16", n, buf, canaryOf[int16]())
		for i := range dst {
			if want := refClampConst(a[i], lo, hi); dst[i] != want {
				t.Fatalf("clamp i16 [%d, %d] n=%d: element %d (%d) = %d, want %d", lo, hi, n, i, a[i], dst[i], want)
			}
		}
	}
}

func TestClampTensorMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range boundarySizes {
		a, lo, hi := randFloats[float64](r, n), randFloats[float64](r, n), randFloats[float64](r, n)
		buf, dst := guarded(n, canaryOf[float64]())
		kClampTensor(dst, a, lo, hi)
		checkGuards(t, "clamp tensor f64", n, buf, canaryOf[float64]())
		for i := range dst {
			x, l, h := a[i], lo[i], hi[i]
			if x == 0 && l == 0 || h == 0 && (x == 0 || l == 0) {
				continue // a tie of -0.0 and +0.0: left open by the frameworks
			}
			want := refClampConst(x, l, h)
			if x != x || l != l || h != h { // a NaN of any operand propagates
				want = math.NaN()
			}
			if !sameBits(dst[i], want) {
				t.Fatalf("clamp tensor f64 n=%d: element %d (%g in [%g, %g]) = %g, want %g", n, i, x, l, h, dst[i], want)
			}
		}
	}
}

// refShift is a shift as PyTorch's lshift_kernel / rshift_kernel define it:
// a count that is negative or at least the width gives 0 for <<, the sign
// fill for >>; in range, << shifts the unsigned bits (wrapping).
func refShift[T integer](a, b T, left bool) T {
	w := int64(bitsOf[T]())
	c := int64(b)
	var z T
	signed := ^z < 0
	if !signed {
		c = int64(uint64(b) & (1<<w - 1))
		if w == 64 && uint64(b) >= 64 {
			c = 64
		}
	}
	outside := c < 0 || c >= w
	switch {
	case left && outside:
		return 0
	case left:
		return T(uint64(a) << uint(c))
	case outside && signed && a < 0:
		return ^z
	case outside:
		return 0
	}
	return a >> uint(c)
}

// refShiftWrap64 is burn's i64 wrapping_shl / wrapping_shr by (b as u32) %
// 64, cast back to T with `as`.
func refShiftWrap64[T signedInt](a, b T, left bool) T {
	c := uint32(int64(b)) % 64
	if left {
		return T(int64(a) << c)
	}
	return T(int64(a) >> c)
}

func checkShiftTwins[T signedInt | unsignedInt](t *testing.T, name string, r *rand.Rand) {
	for _, n := range boundarySizes {
		a, b := randInts[T](r, n), randCounts[T](r, n)
		for _, left := range []bool{true, false} {
			k := kShr[T]
			if left {
				k = kShl[T]
			}
			buf, dst := guarded(n, canaryOf[T]())
			k(dst, a, b)
			checkGuards(t, name, n, buf, canaryOf[T]())
			for i := range dst {
				if want := refShift(a[i], b[i], left); dst[i] != want {
					t.Fatalf("%s left=%v n=%d: %d shifted by %d = %d, want %d", name, left, n, a[i], b[i], dst[i], want)
				}
			}
		}
	}
}

func TestShiftKernelsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checkShiftTwins[int8](t, "shift i8", r)
	checkShiftTwins[uint8](t, "shift u8", r)
	checkShiftTwins[int16](t, "shift i16", r)
	checkShiftTwins[uint32](t, "shift u32", r)
	checkShiftTwins[int64](t, "shift i64", r)
	checkShiftTwins[uint64](t, "shift u64", r)
}

func TestBurnShiftKernelsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, n := range boundarySizes {
		a, b := randInts[int32](r, n), randCounts[int32](r, n)
		for _, left := range []bool{true, false} {
			k := kShrWrap64[int32]
			if left {
				k = kShlWrap64[int32]
			}
			buf, dst := guarded(n, canaryOf[int32]())
			f := k(dst, a, b)
			checkGuards(t, "burn shift i32", n, buf, canaryOf[int32]())
			neg := false
			for i := range dst {
				neg = neg || b[i] < 0
				if want := refShiftWrap64(a[i], b[i], left); dst[i] != want {
					t.Fatalf("burn shift i32 left=%v n=%d: %d by %d = %d, want %d", left, n, a[i], b[i], dst[i], want)
				}
			}
			if got := f&faultNegShift != 0; got != neg {
				t.Fatalf("burn shift i32 n=%d: negative-count fault %v, want %v", n, got, neg)
			}
		}
	}
}

// TestTernaryDriver runs where and clamp through runTernary on a
// transposed input, a row broadcast over the rows and a broadcast scalar,
// with rows on both sides of the tile length, serially and split into
// pieces, and checks every element and the guard bands.
func TestTernaryDriver(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 6))
	for _, e := range []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1))} {
		for _, rows := range []int{1, 2, 5} {
			for _, cols := range []int{1, 511, 512, 513, 1100} {
				n := rows * cols
				// c: [rows, cols] in column-major storage; x: a row [cols]
				// broadcast over the rows; y: one element everywhere
				c := randConds(r, n)
				x := randInts[uint64](r, cols)
				y := []uint64{0xabcdef}
				l := newLayout([]int{rows, cols}, view{shape: []int{rows, cols}, strides: []int{1, rows}},
					view{shape: []int{cols}}, scalarView)
				canary := canaryOf[uint64]()
				buf, dst := guarded(n, canary)
				runTernary(e, &l, dst, c, x, y, kWhere[uint64])
				checkGuards(t, "runTernary where", n, buf, canary)
				for i := range dst {
					row, col := i/cols, i%cols
					want := y[0]
					if c[col*rows+row] != 0 {
						want = x[col]
					}
					if dst[i] != want {
						t.Fatalf("where [%d,%d]: element %d = %#x, want %#x", rows, cols, i, dst[i], want)
					}
				}
				a := randInts[int32](r, n)
				lo, hi := randInts[int32](r, cols), []int32{100}
				cl := newLayout([]int{rows, cols}, view{shape: []int{rows, cols}}, view{shape: []int{cols}}, scalarView)
				cbuf, cdst := guarded(n, canaryOf[int32]())
				runTernary(e, &cl, cdst, a, lo, hi, kClampTensor[int32])
				checkGuards(t, "runTernary clamp", n, cbuf, canaryOf[int32]())
				for i := range cdst {
					if want := refClampConst(a[i], lo[i%cols], hi[0]); cdst[i] != want {
						t.Fatalf("clamp [%d,%d]: element %d = %d, want %d", rows, cols, i, cdst[i], want)
					}
				}
			}
		}
	}
}
