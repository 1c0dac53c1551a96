package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Guard bands, gonum style: every output is a window of a larger buffer
// whose elements before and after hold a canary, and the window's capacity
// runs into the band after it, so that a kernel that slices or writes past
// len(dst) (in Go through a careless full-slice expression, or in assembly)
// changes a canary. Every kernel runs at every boundary size.

const guardLen = 67

// guarded returns a buffer of n elements between two guard bands of canary,
// and the window (whose capacity extends into the band after it).
func guarded[R any](n int, canary R) (buf, dst []R) {
	buf = make([]R, n+2*guardLen)
	for i := range buf {
		buf[i] = canary
	}
	return buf, buf[guardLen : guardLen+n]
}

// checkGuards reports a changed canary.
func checkGuards[R number](t *testing.T, name string, n int, buf []R, canary R) {
	t.Helper()
	for i := range guardLen {
		for _, j := range []int{i, len(buf) - 1 - i} {
			if !sameBits(buf[j], canary) || math.IsNaN(float64(buf[j])) {
				t.Errorf("%s n=%d: wrote %v outside its output at offset %d", name, n, buf[j], j-guardLen)
				return
			}
		}
	}
}

// canaryOf is a value no kernel computes from the test inputs by accident.
func canaryOf[R number]() R {
	var c R
	switch any(c).(type) {
	case float32, float64:
		f := -12345.5
		return R(f)
	}
	v := uint64(0x5a5a5a5a5a5a5a5a)
	return R(v)
}

func guardBinary[T, R number](t *testing.T, name string, sizes []int, gen func(n int) []T, k binaryKernel[T, R]) {
	t.Helper()
	canary := canaryOf[R]()
	for _, n := range sizes {
		buf, dst := guarded(n, canary)
		k(dst, gen(n), gen(n))
		checkGuards(t, name, n, buf, canary)
	}
}

func guardUnary[T, R number](t *testing.T, name string, sizes []int, gen func(n int) []T, k unaryKernel[T, R]) {
	t.Helper()
	canary := canaryOf[R]()
	for _, n := range sizes {
		buf, dst := guarded(n, canary)
		k(dst, gen(n))
		checkGuards(t, name, n, buf, canary)
	}
}

func intKernels[T integer]() map[string]binaryKernel[T, T] {
	return map[string]binaryKernel[T, T]{
		"add": kAdd[T], "sub": kSub[T], "mul": kMul[T], "and": kAnd[T], "or": kOr[T], "xor": kXor[T],
		"max": kMaxInt[T], "min": kMinInt[T], "floor_div": kFloorDiv[T], "trunc_div": kTruncDiv[T],
		"rem": kRem[T], "fmod": kFmod[T], "pow-torch": kPowIntTorch[T], "pow-numpy": kPowIntNumPy[T],
		"pow-xla": kPowIntXLA[T], "xla-floor-div-by-zero": kXLAFloorDivByZero[T],
	}
}

func floatKernels[T floating]() map[string]binaryKernel[T, T] {
	step := stepper[T](func(x T) T { return T(roundF16(float32(x))) })
	return map[string]binaryKernel[T, T]{
		"add": kAdd[T], "sub": kSub[T], "mul": kMul[T], "div": kDiv[T], "mul-recip": kMulRecip[T],
		"recip-mul": kRecipMul(step), "floor_div": kFloorDivFloat(step), "floor_div-xla": kFloorDivXLA(step),
		"rem": kRemFloat(step), "rem-numpy": kRemFloatNumPy(step), "trunc_div": kTruncDivFloat(step),
		"fmod": kFmodFloat[T], "pow": kPowFloat[T], "pow-cr": kPowCR[T], "max-second": kMaxSecond[T],
		"min-second": kMinSecond[T], "max-first": kMaxFirst[T], "min-first": kMinFirst[T],
		"max-ieee": kMaxIEEE[T], "min-ieee": kMinIEEE[T],
	}
}

func TestKernelsStayInTheirOutput(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 1))
	i64 := func(n int) []int64 { return randInts[int64](r, n) }
	u16 := func(n int) []uint16 { return randInts[uint16](r, n) }
	i8 := func(n int) []int8 { return randInts[int8](r, n) }
	f32 := func(n int) []float32 { return randFloats[float32](r, n) }
	f64 := func(n int) []float64 { return randFloats[float64](r, n) }
	small := boundarySizes[:20] // pow and the big-float paths are slow
	for name, k := range intKernels[int64]() {
		guardBinary(t, "i64 "+name, boundarySizes, i64, k)
	}
	for name, k := range intKernels[uint16]() {
		guardBinary(t, "u16 "+name, boundarySizes, u16, k)
	}
	for name, k := range intKernels[int8]() {
		guardBinary(t, "i8 "+name, boundarySizes, i8, k)
	}
	for name, k := range floatKernels[float32]() {
		guardBinary(t, "f32 "+name, boundarySizes, f32, k)
	}
	for name, k := range floatKernels[float64]() {
		sizes := boundarySizes
		if name == "pow-cr" {
			sizes = small
		}
		guardBinary(t, "f64 "+name, sizes, f64, k)
	}
	for _, op := range []opID{opEq, opNe, opLt, opLe, opGt, opGe} {
		guardBinary(t, "cmp i64", boundarySizes, i64, compareKernel[int64](op))
		guardBinary(t, "cmp f32", boundarySizes, f32, compareKernel[float32](op))
	}
	guardBinary(t, "streaming add i64", streamSizes, i64, kAddI64)
	guardBinary(t, "streaming add f32", streamSizes, f32, kAddF32)
	if haveStreaming {
		guardBinary(t, "streamed rows i64", boundarySizes, i64, kAddI64Stream)
		guardBinary(t, "streamed rows f32", boundarySizes, f32, kAddF32Stream)
	}

	for name, k := range map[string]unaryKernel[int64, int64]{"neg": kNeg[int64], "abs": kAbsInt[int64],
		"sign": kSignInt[int64], "square": kSquare[int64], "not": kBitNot[int64], "copy": kCopy[int64]} {
		guardUnary(t, "i64 "+name, boundarySizes, i64, k)
	}
	for name, k := range map[string]unaryKernel[float32, float32]{"neg": kNeg[float32], "abs": kAbsFloat[float32],
		"sign-torch": kSignTorch[float32], "sign-numpy": kSignNumPy[float32], "sign-keep": kSignKeep[float32],
		"square": kSquare[float32], "floor": kFloor[float32], "ceil": kCeil[float32], "trunc": kTrunc[float32],
		"round": kRound[float32], "sqrt": kSqrt[float32], "exp": kExp[float32],
		"half-sqrt": kHalfFn(math.Sqrt, roundF16From64)} {
		guardUnary(t, "f32 "+name, boundarySizes, f32, k)
	}
	guardUnary(t, "not bool", boundarySizes, func(n int) []uint8 { return make([]uint8, n) }, kNotBool)
	guardUnary(t, "f32->f16", boundarySizes, f32, kNarrowF16)
	guardUnary(t, "f64->f16", boundarySizes, f64, kF64ToF16)
	guardUnary(t, "f32->bool", boundarySizes, f32, kToBool[float32])
	guardUnary(t, "i64->f32", boundarySizes, i64, kConvert[int64, float32])
	for pol := f2iSatDst; pol <= f2iArmSat64Low; pol++ {
		guardUnary(t, fmt.Sprintf("f64->i8 policy %d", pol), boundarySizes, f64, kCastF2I[float64, int8](pol))
		guardUnary(t, fmt.Sprintf("f32->u64 policy %d", pol), boundarySizes, f32, kCastF2I[float32, uint64](pol))
	}
}

// TestDriversStayInTheirOutput runs the drivers on broadcast and strided
// layouts whose rows cross the tile length, serially and split.
func TestDriversStayInTheirOutput(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, e := range []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1))} {
		for _, rows := range []int{1, 2, 3} {
			for _, cols := range []int{1, 511, 512, 513, 1100} {
				n := rows * cols
				// a: [rows, cols] transposed storage; b: [cols] broadcast over rows
				a := randInts[int32](r, n)
				b := randInts[int32](r, cols)
				l := newLayout([]int{rows, cols}, view{shape: []int{rows, cols}, strides: []int{1, rows}},
					view{shape: []int{cols}})
				canary := canaryOf[int32]()
				buf, dst := guarded(n, canary)
				runBinary(e, &l, dst, a, b, kXor[int32])
				checkGuards(t, "runBinary", n, buf, canary)
				for i := range dst {
					row, col := i/cols, i%cols
					if want := a[col*rows+row] ^ b[col]; dst[i] != want {
						t.Fatalf("runBinary [%d,%d]: element %d = %d, want %d", rows, cols, i, dst[i], want)
					}
				}
				ubuf, udst := guarded(n, canary)
				ul := newLayout([]int{rows, cols}, view{shape: []int{rows, cols}, strides: []int{1, rows}})
				runUnary(e, &ul, udst, a, kNeg[int32])
				checkGuards(t, "runUnary", n, ubuf, canary)
			}
		}
	}
}
