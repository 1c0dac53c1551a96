package metal

// Twins of binary.metal: badd bsub bmul bdiv bminimum bmaximum (output in
// the operand type) and eq ne le lt ge gt (bool output) for the six dtypes,
// each contiguous and in the eight layout variants.

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

// pick returns cond ? x : y as an op (a NaN compares as IEEE says:
// assumption nan-inf-ieee).
func pick(cond func(t mslType, x, y val) bool) func(t mslType, x, y val) val {
	return func(t mslType, x, y val) val {
		if cond(t, x, y) {
			return x.from(x, y)
		}
		return y.from(x, y)
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

// operandAt is how an operand of binary_indexed finds element i: in order
// (at_index), through dims and strides (at_strided), or at 0 (at_zero).
type operandAt int

const (
	atIndex operandAt = iota
	atStrided
	atZero
)

// binaryVariants are the layout variants by suffix: how lhs and rhs are read.
var binaryVariants = []struct {
	suffix   string
	lhs, rhs operandAt
}{
	{"_strided", atStrided, atStrided},
	{"_lstrided", atStrided, atIndex},
	{"_rstrided", atIndex, atStrided},
	{"_scalar", atZero, atZero},
	{"_cs", atIndex, atZero},
	{"_sc", atZero, atIndex},
	{"_rss", atZero, atStrided},
	{"_lss", atStrided, atZero},
}

func registerBinary(name string, t, u mslType, op func(t mslType, x, y val) val) {
	register("binary", name, "cbbb", twin{thread: binaryContiguous(t, u, op)})
	for _, v := range binaryVariants {
		register("binary", name+v.suffix, "cccccbbb", twin{thread: binaryIndexed(t, u, op, v.lhs, v.rhs)})
	}
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

// binaryIndexed is binary_indexed<T, U, OP, LHS_AT, RHS_AT>: the same
// loop, each operand finding element i its own way. args: n, rank, dims,
// lhs strides, rhs strides, lhs, rhs, out.
func binaryIndexed(t, u mslType, op func(t mslType, x, y val) val, lhs, rhs operandAt) func([]Arg, uint32) {
	read := func(how operandAt, i uint32, a []Arg, strides, buf Arg) val {
		switch how {
		case atStrided:
			at, ok := stridedOffset(i, a[1].sizeT(), a[2].sizeTIn, strides.sizeTIn)
			return loadIf(ok, buf, t, uint64(at))
		case atZero:
			return load(buf, t, 0)
		}
		return load(buf, t, uint64(i))
	}
	return func(a []Arg, tid uint32) {
		n := a[0].sizeT()
		step := (n + elemsPerThread(t) - 1) / elemsPerThread(t)
		for i := uint64(tid); i < n; i += step {
			x, y := read(lhs, uint32(i), a, a[3], a[5]), read(rhs, uint32(i), a, a[4], a[6])
			store(a[7], u, i, op(t, x, y))
		}
	}
}
