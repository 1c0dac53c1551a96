package metal

import "math"

// Twins of unary.metal: neg abs sign sqrt exp log floor ceil round sqr recip
// copy for f32 f16 bf16, and copy for u8 u32 i64, each contiguous and
// _strided.

// unaryFloat are the float functions, by kernel prefix.
var unaryFloat = []struct {
	name string
	fn   func(t mslType, x val) val
}{
	{"neg", func(t mslType, x val) val { return undefOr(x, func() val { return floatVal(-x.f) }) }},
	{"abs", viaFloat(math.Abs)},
	{"sign", viaFloat(mslSign)},
	{"sqrt", viaFloat(math.Sqrt)},
	{"exp", viaFloat(math.Exp)},
	{"log", viaFloat(math.Log)},
	{"floor", viaFloat(math.Floor)},
	{"ceil", viaFloat(math.Ceil)},
	{"round", viaFloat(math.Round)}, // half away from zero
	{"sqr", func(t mslType, x val) val { return arith('*', t, x, x) }},
	{"recip", viaFloat(func(x float64) float64 { return 1 / x })},
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
}

func registerUnary(name string, t mslType, fn func(t mslType, x val) val) {
	f := func(x val, _ []Arg) val { return fn(t, x) }
	register("unary", name, "cbb", twin{thread: mapContiguous(t, t, 1, f)})
	register("unary", name+"_strided", "ccccbb", twin{thread: mapStrided(t, t, 4, f)})
}

// viaFloat is the via_float functions: static_cast<T>(f(float(x))), f's
// result rounded to float first.
func viaFloat(f func(float64) float64) func(t mslType, x val) val {
	return func(t mslType, x val) val {
		v := toFloat(t, x)
		if v.undef {
			return v
		}
		return convert(tFloat, t, floatVal(float64(float32(f(v.f)))))
	}
}

func undefOr(x val, f func() val) val {
	if x.undef {
		return x
	}
	return f()
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
