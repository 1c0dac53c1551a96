package metal

// Twins of binary.metal: badd bsub bmul bdiv bminimum bmaximum (output in
// the operand type) and eq ne le lt ge gt (bool output) for the six dtypes,
// each contiguous and _strided.

// coreTypes are the dtypes of candle's Metal binary, affine, cast and
// reduce kernels, in the order of the .metal files.
var coreTypes = []mslType{tFloat, tHalf, tBfloat, tUchar, tUint, tLong}

// binaryArith are the arithmetic ops by kernel prefix.
var binaryArith = []struct {
	name string
	fn   func(t mslType, x, y val) val
}{
	{"badd", func(t mslType, x, y val) val { return arith('+', t, x, y) }},
	{"bsub", func(t mslType, x, y val) val { return arith('-', t, x, y) }},
	{"bmul", func(t mslType, x, y val) val { return arith('*', t, x, y) }},
	{"bdiv", func(t mslType, x, y val) val { return arith('/', t, x, y) }},
	{"bminimum", pick(func(t mslType, x, y val) bool { return less(t, x, y) })}, // x < y ? x : y
	{"bmaximum", pick(func(t mslType, x, y val) bool { return less(t, y, x) })}, // x > y ? x : y
}

// binaryCompare are the comparison kernels' prefixes (and compare's ops).
var binaryCompare = []string{"eq", "ne", "le", "lt", "ge", "gt"}

// pick returns cond ? x : y as an op.
func pick(cond func(t mslType, x, y val) bool) func(t mslType, x, y val) val {
	return func(t mslType, x, y val) val {
		if x.undef || y.undef {
			return undefVal
		}
		if cond(t, x, y) {
			return x
		}
		return y
	}
}

func init() {
	for _, t := range coreTypes {
		for _, op := range binaryArith {
			fn := op.fn
			registerBinary(op.name+"_"+t.String(), t, t, fn)
		}
		for _, name := range binaryCompare {
			cmp := name
			registerBinary(cmp+"_"+t.String(), t, tBool, func(t mslType, x, y val) val { return compare(cmp, t, x, y) })
		}
	}
}

func registerBinary(name string, t, u mslType, op func(t mslType, x, y val) val) {
	register("binary", name, "cbbb", twin{thread: binaryContiguous(t, u, op)})
	register("binary", name+"_strided", "cccccbbb", twin{thread: binaryStrided(t, u, op)})
}

// binaryContiguous is binary_contiguous<T, U, OP>:
//
//	for (i = tid; i < n; i += step) out[i] = static_cast<U>(op(lhs[i], rhs[i]))
//
// args: n, lhs, rhs, out.
func binaryContiguous(t, u mslType, op func(t mslType, x, y val) val) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		n := a[0].sizeT()
		step := (n + elemsPerThread(t) - 1) / elemsPerThread(t)
		for i := uint64(tid); i < n; i += step {
			store(a[3], u, i, op(t, load(a[1], t, i), load(a[2], t, i)))
		}
	}
}

// binaryStrided is binary_strided<T, U, OP>: the same loop, operands found
// through their strides. args: n, rank, dims, lhs strides, rhs strides, lhs,
// rhs, out.
func binaryStrided(t, u mslType, op func(t mslType, x, y val) val) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		n, rank := a[0].sizeT(), a[1].sizeT()
		step := (n + elemsPerThread(t) - 1) / elemsPerThread(t)
		for i := uint64(tid); i < n; i += step {
			l := stridedOffset(uint32(i), rank, a[2].sizeTAt, a[3].sizeTAt)
			r := stridedOffset(uint32(i), rank, a[2].sizeTAt, a[4].sizeTAt)
			store(a[7], u, i, op(t, load(a[5], t, uint64(l)), load(a[6], t, uint64(r))))
		}
	}
}
