package metal

import "math"

// Twins of unary.metal: neg abs sign sqrt exp log floor ceil round sqr recip
// copy for f32 f16 bf16, and copy for u8 u32 i64, each contiguous and
// _strided; const_set for f32 f16 bf16 u8 u32 i64, contiguous and
// _strided; copy2d for f32 f16 bf16 u8 u32 i64 i32 i16. Each computes
// what candle's unary.metal computes: the op in
// the element type (sqrt, exp and log of a half are the half overloads),
// abs through float, recip as 1.0 / x in float.

// unaryFloat are the float functions, by kernel prefix.
var unaryFloat = []struct {
	name string
	fn   func(t mslType, x val) val
}{
	{"neg", exactly(func(x float64) float64 { return -x })},
	{"abs", exactly(math.Abs)}, // abs(static_cast<float>(x)): exact
	{"sign", exactly(mslSign)},
	{"sqrt", inType(fastSqrt)},
	{"exp", inType(fastExp)},
	{"log", inType(fastLog)},
	{"floor", exactly(math.Floor)},
	{"ceil", exactly(math.Ceil)},
	{"round", exactly(math.Round)}, // half away from zero
	{"sqr", func(t mslType, x val) val { return arith('*', t, x, x) }},
	{"recip", recip},
	{"copy", func(t mslType, x val) val { return x }},
}

func init() {
	for _, t := range []mslType{tFloat, tHalf, tBfloat} {
		for _, op := range unaryFloat {
			registerUnary(op.name+"_"+t.String(), t, op.fn)
		}
	}
	for _, t := range []mslType{tUchar, tUint, tLong} {
		registerUnary("copy_"+t.String(), t, func(t mslType, x val) val { return x })
	}
	for _, t := range append(coreTypes, tInt, tShort) {
		register("unary", "copy2d_"+t.String(), "ccccbb", twin{cell: copy2d(t)})
	}
	for _, t := range coreTypes {
		register("unary", "const_set_"+t.String(), "ccb", twin{thread: constSet(t)})
		register("unary", "const_set_"+t.String()+"_strided", "cccccb", twin{thread: constSetStrided(t)})
	}
}

// copy2d is copy2d<T>: the thread at (row, col) of a d1 x d2 grid copies
// in[row * src_s + col] to out[row * dst_s + col] (args: d1, d2, src_s,
// dst_s, in, out; the four sizes int64_t).
func copy2d(t mslType) func([]Arg, [3]uint32) {
	return func(a []Arg, pos [3]uint32) {
		d1, d2, srcS, dstS := int64(a[0].sizeT()), int64(a[1].sizeT()), int64(a[2].sizeT()), int64(a[3].sizeT())
		row, col := int64(pos[0]), int64(pos[1])
		if row >= d1 || col >= d2 {
			return
		}
		from, to := row*srcS+col, row*dstS+col
		if from < 0 || to < 0 {
			panic(memoryFault("copy2d: a negative index"))
		}
		store(a[5], t, uint64(to), load(a[4], t, uint64(from)))
	}
}

// constSet is const_set_contiguous<T>: out[i] = value for i = tid, tid +
// step, ... (args: n, value, out).
func constSet(t mslType) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		n, v := a[0].sizeT(), t.decode(a[1].Bytes)
		step := (n + elemsPerThread(t) - 1) / elemsPerThread(t)
		for i := uint64(tid); i < n; i += step {
			store(a[2], t, i, v)
		}
	}
}

// constSetStrided is const_set_strided<T>: one thread per element, written
// at its strided offset (args: n, rank, dims, strides, value, out).
func constSetStrided(t mslType) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		if uint64(tid) >= a[0].sizeT() {
			return
		}
		at, ok := stridedOffset(tid, a[1].sizeT(), a[2].sizeTIn, a[3].sizeTIn)
		if !ok {
			panic(memoryFault("const_set_strided: a store through dims or strides read past their arrays"))
		}
		store(a[5], t, uint64(at), t.decode(a[4].Bytes))
	}
}

func registerUnary(name string, t mslType, fn func(t mslType, x val) val) {
	f := func(x val, _ []Arg) val { return fn(t, x) }
	register("unary", name, "cbb", twin{thread: mapContiguous(t, t, 1, f)})
	register("unary", name+"_strided", "ccccbb", twin{thread: mapStrided(t, t, 4, f)})
}

// exactly is an op whose result is a value of the operand's type, exact in
// any precision (neg, abs, sign, floor, ceil, round).
func exactly(f func(float64) float64) func(t mslType, x val) val {
	return func(t mslType, x val) val { return floatVal(f(x.f)).from(x) }
}

// inType is a function computed in the element type (fastmath.go).
func inType(f func(t mslType, x float64) val) func(t mslType, x val) val {
	return func(t mslType, x val) val { return f(t, x.f).from(x) }
}

// recip is static_cast<T>(1.0 / x): the literal is a float in MSL, so
// every type divides in float (assumption float-literal).
func recip(t mslType, x val) val {
	q := fastDiv(tFloat, 1, toFloat(t, x).f)
	return convert(tFloat, t, q.from(x))
}

// mslSign is MSL's sign: 1 for x > 0, -1 for x < 0, x itself for ±0, and 0
// for NaN.
func mslSign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case math.IsNaN(x):
		return 0
	}
	return x
}
