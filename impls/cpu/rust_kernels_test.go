package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Reference twins and guard bands of the Rust kernels (rust_kernels.go,
// rust_reduce.go): each kernel against a plain loop in exact arithmetic
// (math/big), at every size where the engine's paths change.

// bigOf returns x as a big.Int.
func bigOf[T integer](x T) *big.Int {
	if isSigned[T]() {
		return big.NewInt(int64(x))
	}
	return new(big.Int).SetUint64(uint64(x))
}

// fitsT reports whether v is a value of T.
func fitsT[T integer](v *big.Int) bool {
	return v.Cmp(bigOf(minOf[T]())) >= 0 && v.Cmp(bigOf(maxOf[T]())) <= 0
}

// wrapT returns v modulo 2^bits as T.
func wrapT[T integer](v *big.Int) T {
	m := new(big.Int).Lsh(big.NewInt(1), bitsOf[T]())
	r := new(big.Int).Mod(v, m)
	return T(r.Uint64())
}

// checkedTwin runs a checked kernel on single elements (so that each fault
// is attributed) and on whole slices at the boundary sizes, against exact
// arithmetic.
func checkedTwin[T integer](t *testing.T, name string, r *rand.Rand, k binaryKernel[T, T], exact func(a, b *big.Int) *big.Int) {
	t.Helper()
	for _, n := range boundarySizes {
		a, b := randInts[T](r, n), randInts[T](r, n)
		dst := make([]T, n)
		f := k(dst, a, b)
		anyOv := false
		for i := range dst {
			v := exact(bigOf(a[i]), bigOf(b[i]))
			ov := !fitsT[T](v)
			anyOv = anyOv || ov
			if want := wrapT[T](v); dst[i] != want {
				t.Fatalf("%s n=%d: element %d of (%v, %v): got %v, want %v", name, n, i, a[i], b[i], dst[i], want)
			}
			var one [1]T
			if got := k(one[:], a[i:i+1], b[i:i+1]) != 0; got != ov {
				t.Fatalf("%s(%v, %v): overflow reported %t, want %t", name, a[i], b[i], got, ov)
			}
		}
		if (f != 0) != anyOv {
			t.Fatalf("%s n=%d: fault %v, want overflow %t", name, n, f, anyOv)
		}
	}
}

func testCheckedArith[T integer](t *testing.T, name string, r *rand.Rand) {
	add := func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
	sub := func(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
	mul := func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }
	checkedTwin(t, "add "+name, r, kAddChecked[T], add)
	checkedTwin(t, "sub "+name, r, kSubChecked[T], sub)
	checkedTwin(t, "mul "+name, r, kMulChecked[T], mul)
	// affine: v * mul, then + add, each checked (debug) or wrapping (release)
	for _, mv := range []T{0, 1, 2, maxOf[T](), minOf[T](), ^T(0)} {
		for _, av := range []T{0, 1, maxOf[T](), minOf[T]()} {
			checked, wrapping := kAffineInt(mv, av, true), kAffineInt(mv, av, false)
			for _, n := range boundarySizes {
				x := randInts[T](r, n)
				got, gotW := make([]T, n), make([]T, n)
				f := checked(got, x)
				wrapping(gotW, x)
				anyOv := false
				for i := range x {
					p := new(big.Int).Mul(bigOf(x[i]), bigOf(mv))
					ov := !fitsT[T](p)
					s := new(big.Int).Add(bigOf(wrapT[T](p)), bigOf(av))
					ov = ov || !fitsT[T](s)
					anyOv = anyOv || ov
					want := wrapT[T](s)
					if got[i] != want || gotW[i] != want {
						t.Fatalf("affine %s: %v * %v + %v = %v (checked), %v (wrapping), want %v", name, x[i], mv, av, got[i], gotW[i], want)
					}
					var one [1]T
					if bad := checked(one[:], x[i:i+1]) != 0; bad != ov {
						t.Fatalf("affine %s: %v * %v + %v: overflow reported %t, want %t", name, x[i], mv, av, bad, ov)
					}
				}
				if (f != 0) != anyOv {
					t.Fatalf("affine %s n=%d: fault %v, want overflow %t", name, n, f, anyOv)
				}
			}
		}
	}
}

func TestRustCheckedArithMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	testCheckedArith[int8](t, "i8", r)
	testCheckedArith[uint8](t, "u8", r)
	testCheckedArith[int16](t, "i16", r)
	testCheckedArith[uint32](t, "u32", r)
	testCheckedArith[int32](t, "i32", r)
	testCheckedArith[int64](t, "i64", r)
	testCheckedArith[uint64](t, "u64", r)
}

// TestRustAffineFloatMatchesReference checks v * mul + add with each step
// rounded to the dtype: the exact product and sum (math/big) rounded by
// tensor.RoundFloat.
func TestRustAffineFloatMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2))
	round2 := func(x, m, a float64, d tensor.DType) float64 {
		p := tensor.RoundFloat(x*m, d) // x*m of two values of d <= 24 bits each is exact in float64
		s := p + a                     // specials: IEEE
		if !math.IsInf(p, 0) && !math.IsNaN(p) && !math.IsInf(a, 0) && !math.IsNaN(a) {
			s, _ = new(big.Float).SetPrec(2000).Add(big.NewFloat(p), big.NewFloat(a)).Float64()
		}
		return tensor.RoundFloat(s, d)
	}
	for _, d := range []tensor.DType{tensor.F16, tensor.BF16, tensor.F32} {
		for _, n := range boundarySizes {
			x := randFloats[float32](r, n)
			for i := range x {
				x[i] = float32(tensor.RoundFloat(float64(x[i]), d))
			}
			m := float32(tensor.RoundFloat(r.NormFloat64()*8, d))
			a := float32(tensor.RoundFloat(r.NormFloat64()*8, d))
			var k unaryKernel[float32, float32]
			switch d {
			case tensor.F16:
				k = kAffineF16(m, a)
			case tensor.BF16:
				k = kAffineBF16(m, a)
			default:
				k = kAffineFloat(m, a)
			}
			dst := make([]float32, n)
			k(dst, x)
			for i := range dst {
				want := round2(float64(x[i]), float64(m), float64(a), d)
				if !sameBits(float64(dst[i]), want) {
					t.Fatalf("%s affine n=%d: %v * %v + %v = %v, want %v", d, n, x[i], m, a, dst[i], want)
				}
			}
		}
	}
}

func TestRustMinMaxPowMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	f64s := func(n int) ([]float64, []float64) { return randFloats[float64](r, n), randFloats[float64](r, n) }
	checkTwin(t, "max-lhs", boundarySizes, f64s, kMaxLhs[float64], func(a, b float64) float64 {
		if a < b {
			return b
		}
		return a
	})
	checkTwin(t, "min-lhs", boundarySizes, f64s, kMinLhs[float64], func(a, b float64) float64 {
		if b < a {
			return b
		}
		return a
	})
	checkTwin(t, "max-nan", boundarySizes, f64s, kMaxNaN[float64], func(a, b float64) float64 {
		switch {
		case a != a || b != b:
			return math.NaN()
		case a == b && a == 0:
			return math.Float64frombits(math.Float64bits(a) & math.Float64bits(b))
		}
		return math.Max(a, b)
	})
	pow := func(a, e int32) int32 {
		v := new(big.Int).Exp(bigOf(a), new(big.Int).SetUint64(uint64(uint32(e))), new(big.Int).Lsh(big.NewInt(1), 32))
		return int32(uint32(v.Uint64()))
	}
	i32s := func(n int) ([]int32, []int32) { return randInts[int32](r, n), randInts[int32](r, n) }
	checkTwin(t, "pow-u32 i32", boundarySizes, i32s, kPowU32[int32], pow)
	checkTwin(t, "pow-nonneg i32", boundarySizes, i32s, kPowNonNeg[int32], func(a, e int32) int32 {
		if e < 0 {
			return 0
		}
		return pow(a, e)
	})
}

// TestRustReductionsMatchReference runs the group kernels over geometries
// around the boundary sizes against per-group loops.
func TestRustReductionsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 4))
	testReductions[int16](t, r)
	testReductions[uint8](t, r)
	testReductions[int64](t, r)
}

func testReductions[T integer](t *testing.T, r *rand.Rand) {
	geoms := []rustGeom{{outer: 1, n: 0, inner: 1}, {outer: 3, n: 0, inner: 2}}
	for _, n := range boundarySizes {
		geoms = append(geoms, rustGeom{outer: 1, n: n, inner: 1}, rustGeom{outer: 2, n: n % 67, inner: 3}, rustGeom{outer: 3, n: 2, inner: n % 131})
	}
	for _, g := range geoms {
		src := randInts[T](r, g.outer*g.n*g.inner)
		at := func(o, k, j int) T { return src[(o*g.n+k)*g.inner+j] }
		sum := make([]T, g.groups())
		ov := rustSumChecked(sum, src, g) != 0
		wrapped := make([]T, g.groups())
		rustSum(wrapped, src, g)
		cum := make([]T, len(src))
		cumOv := rustCumsumChecked(cum, src, g) != 0
		best := make([]int, g.groups())
		if g.n > 0 {
			rustArgFold(best, src, g, true)
		}
		wantOv := false
		for o := 0; o < g.outer; o++ {
			for j := 0; j < g.inner; j++ {
				acc, b := big.NewInt(0), 0
				for k := 0; k < g.n; k++ {
					acc.Add(acc, bigOf(at(o, k, j)))
					wantOv = wantOv || !fitsT[T](acc)
					if got, want := cum[(o*g.n+k)*g.inner+j], wrapT[T](acc); got != want {
						t.Fatalf("cumsum %+v at (%d,%d,%d): got %d, want %d", g, o, k, j, got, want)
					}
					if at(o, b, j) < at(o, k, j) {
						b = k
					}
				}
				if got, want := sum[o*g.inner+j], wrapT[T](acc); got != want || wrapped[o*g.inner+j] != want {
					t.Fatalf("sum %+v group (%d,%d): got %d and %d, want %d", g, o, j, got, wrapped[o*g.inner+j], want)
				}
				if g.n > 0 && best[o*g.inner+j] != b {
					t.Fatalf("argmax %+v group (%d,%d): got %d, want %d", g, o, j, best[o*g.inner+j], b)
				}
			}
		}
		if ov != wantOv || cumOv != wantOv {
			t.Fatalf("%+v: overflow reported %t (sum) %t (cumsum), want %t", g, ov, cumOv, wantOv)
		}
	}
}

// TestRustKernelsStayInBounds runs the Rust kernels into guarded outputs.
func TestRustKernelsStayInBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 5))
	i64s := func(n int) []int64 { return randInts[int64](r, n) }
	u8s := func(n int) []uint8 { return randInts[uint8](r, n) }
	f32s := func(n int) []float32 { return randFloats[float32](r, n) }
	for name, k := range map[string]binaryKernel[int64, int64]{
		"add-checked": kAddChecked[int64], "sub-checked": kSubChecked[int64], "mul-checked": kMulChecked[int64],
		"pow-u32": kPowU32[int64], "pow-nonneg": kPowNonNeg[int64], "rem-ndarray": kRemNdarray[int64],
	} {
		guardBinary(t, name, boundarySizes, i64s, k)
	}
	guardBinary(t, "mul-checked u8", boundarySizes, u8s, kMulChecked[uint8])
	for name, k := range map[string]binaryKernel[float32, float32]{
		"max-lhs": kMaxLhs[float32], "min-lhs": kMinLhs[float32], "max-nan": kMaxNaN[float32], "min-nan": kMinNaN[float32],
		"pow-explog": kPowExpLog[float32], "powf": kPowf[float32], "rem-burn": kRemBurnFloat[float32],
	} {
		guardBinary(t, name, boundarySizes, f32s, k)
	}
	for name, k := range map[string]unaryKernel[float32, float32]{
		"affine": kAffineFloat[float32](2, 1), "affine-f16": kAffineF16(2, 1), "affine-bf16": kAffineBF16(2, 1),
		"round-away": kRoundAway[float32], "recip": kRecipFloat[float32],
	} {
		guardUnary(t, name, boundarySizes, f32s, k)
	}
	guardUnary(t, "affine-int checked", boundarySizes, i64s, kAffineInt[int64](3, 1, true))
	guardUnary(t, "abs-checked", boundarySizes, i64s, kAbsChecked[int64])
	// group kernels: the output of a reduction is one element per group
	for _, n := range boundarySizes {
		g := rustGeom{outer: 2, n: n, inner: 3}
		src := i64s(g.outer * g.n * g.inner)
		buf, dst := guarded(g.groups(), canaryOf[int64]())
		rustSumChecked(dst, src, g)
		checkGuards(t, "sum-checked", n, buf, canaryOf[int64]())
		buf, dst = guarded(len(src), canaryOf[int64]())
		rustCumsumChecked(dst, src, g)
		checkGuards(t, "cumsum-checked", n, buf, canaryOf[int64]())
	}
}
