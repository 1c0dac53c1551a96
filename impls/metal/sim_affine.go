package metal

// Twins of affine.metal: affine_T (f32 f16 bf16 u8 u32 i64) and powf_T
// (f32 f16 bf16), each contiguous and _strided.

func init() {
	for _, t := range coreTypes {
		elem := func(x val, a []Arg, k int) val { // k: index of mul in a
			return affineElement(t, x, a[k].float(), a[k+1].float())
		}
		register("affine", "affine_"+t.String(), "cccbb", twin{thread: mapContiguous(t, t, 3, func(x val, a []Arg) val { return elem(x, a, 1) })})
		register("affine", "affine_"+t.String()+"_strided", "ccccccbb", twin{thread: mapStrided(t, t, 6, func(x val, a []Arg) val { return elem(x, a, 4) })})
	}
	for _, t := range []mslType{tFloat, tHalf, tBfloat} {
		register("affine", "powf_"+t.String(), "ccbb", twin{thread: mapContiguous(t, t, 2, func(x val, a []Arg) val { return powfElement(t, x, a[1].float()) })})
		register("affine", "powf_"+t.String()+"_strided", "cccccbb", twin{thread: mapStrided(t, t, 5, func(x val, a []Arg) val { return powfElement(t, x, a[4].float()) })})
	}
}

// affineElement is static_cast<T>(fma(float(x), mul, add)).
func affineElement(t mslType, x val, mul, add float64) val {
	f := toFloat(t, x)
	if f.undef {
		return f
	}
	return convert(tFloat, t, floatVal(fmaF32(f.f, mul, add)).from(f))
}

// powfElement is static_cast<T>(pow(float(x), e)) under fast math.
func powfElement(t mslType, x val, e float64) val {
	f := toFloat(t, x)
	if f.undef {
		return f
	}
	return convert(tFloat, t, fastPow(f.f, e).from(f))
}

// mapContiguous is the loop of the contiguous one-input kernels:
//
//	for (i = tid; i < n; i += step) out[i] = f(in[i])
//
// with n bound first, the input at index in and the output after it.
func mapContiguous(t, u mslType, in int, f func(x val, a []Arg) val) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		n := a[0].sizeT()
		step := (n + elemsPerThread(t) - 1) / elemsPerThread(t)
		for i := uint64(tid); i < n; i += step {
			store(a[in+1], u, i, f(load(a[in], t, i), a))
		}
	}
}

// mapStrided is the strided one-input kernels, one thread per element:
//
//	if (tid >= n) return; out[tid] = f(in[strided_offset(tid, rank, dims, strides)])
//
// with n, rank, dims, strides bound first.
func mapStrided(t, u mslType, in int, f func(x val, a []Arg) val) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		if uint64(tid) >= a[0].sizeT() {
			return
		}
		at, ok := stridedOffset(tid, a[1].sizeT(), a[2].sizeTIn, a[3].sizeTIn)
		store(a[in+1], u, uint64(tid), f(loadIf(ok, a[in], t, uint64(at)), a))
	}
}
