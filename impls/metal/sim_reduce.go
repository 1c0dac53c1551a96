package metal

import "math"

// Twins of reduce.metal: fast_{sum,mul,max,min,argmax,argmin}_T for f32 f16
// u8 u32 i64 bf16, each contiguous and _strided. One call of a twin runs
// one threadgroup as candle's block reducer does: its threads fold their
// share of the elements, threadgroup memory halves the partial results
// level by level (the barriers of the kernel separating the levels) down
// to 32 lanes, and a SIMD-group reduction finishes: simd_sum, simd_product,
// simd_max or simd_min where Metal has them (f32, f16, u8, u32 values),
// else the shuffle-down tree, which continues the halving.

// reduceOp is one of reduce.metal's r_* functors.
type reduceOp struct {
	name string
	init func(t mslType) val
	fn   func(t mslType, a, b val) val
}

var reduceValueOps = []reduceOp{
	{"sum", func(t mslType) val { return zero(t) }, func(t mslType, a, b val) val { return arith('+', t, a, b) }},
	{"mul", func(t mslType) val { return one(t) }, func(t mslType, a, b val) val { return arith('*', t, a, b) }},
	{"max", lowest, maxOf},
	{"min", highest, minOf},
}

func init() {
	for _, t := range reduceTypes {
		for _, op := range reduceValueOps {
			name := "fast_" + op.name + "_" + t.String()
			register("reduce", name, "ccccbb", twin{group: reduceValues(t, op, false)})
			register("reduce", name+"_strided", "cccccbb", twin{group: reduceValues(t, op, true)})
		}
		for _, wantMax := range []bool{true, false} {
			name := "fast_argmin_" + t.String()
			if wantMax {
				name = "fast_argmax_" + t.String()
			}
			register("reduce", name, "ccccbb", twin{group: reduceIndices(t, wantMax, false)})
			register("reduce", name+"_strided", "cccccbb", twin{group: reduceIndices(t, wantMax, true)})
		}
	}
}

// reduceTypes are the dtypes of reduce.metal, in its order.
var reduceTypes = []mslType{tFloat, tHalf, tUchar, tUint, tLong, tBfloat}

func zero(t mslType) val {
	if t.isFloat() {
		return floatVal(0)
	}
	return intVal(0)
}

func one(t mslType) val {
	if t.isFloat() {
		return floatVal(1)
	}
	return intVal(1)
}

// lowest is numeric_limits<T>::lowest(): the most negative finite value.
func lowest(t mslType) val {
	switch {
	case t.isFloat():
		return floatVal(-maxFinite(t))
	case t.isSigned():
		return intVal(t.mask(1 << uint(t.bitWidth()-1)))
	}
	return intVal(0)
}

// highest is numeric_limits<T>::max(): the largest finite value.
func highest(t mslType) val {
	switch {
	case t.isFloat():
		return floatVal(maxFinite(t))
	case t.isSigned():
		return intVal(1<<uint(t.bitWidth()-1) - 1)
	}
	return intVal(t.mask(math.MaxUint64))
}

func maxFinite(t mslType) float64 {
	switch t {
	case tHalf:
		return 65504
	case tBfloat:
		return math.Ldexp(255, 120)
	}
	return math.MaxFloat32
}

// maxOf is the reduction's max(a, b): fast::max for f32 and bf16 and max
// for f16 (assumed to return the non-NaN operand: assumption
// float-max-min-fmax), max for integers; a tie returns b.
func maxOf(t mslType, a, b val) val {
	switch {
	case t.isFloat() && math.IsNaN(a.f):
		return b.from(a, b)
	case t.isFloat() && math.IsNaN(b.f):
		return a.from(a, b)
	case less(t, b, a):
		return a.from(a, b)
	}
	return b.from(a, b)
}

// minOf is the reduction's min(a, b), as maxOf.
func minOf(t mslType, a, b val) val {
	switch {
	case t.isFloat() && math.IsNaN(a.f):
		return b.from(a, b)
	case t.isFloat() && math.IsNaN(b.f):
		return a.from(a, b)
	case less(t, a, b):
		return a.from(a, b)
	}
	return b.from(a, b)
}

// simdBuiltin reports the types whose value reductions finish with Metal's
// own simd_sum / simd_product / simd_max / simd_min; i64 and bf16 have
// none and finish with the shuffle-down tree (reduce.metal's is_simd_t).
func simdBuiltin(t mslType) bool {
	return t == tFloat || t == tHalf || t == tUchar || t == tUint
}

// simdReduce is the built-in SIMD-group reduction op over the lanes. The
// order in which the hardware combines lanes is not specified: integers
// give the same result in every order (assumption simd-int-wraps), floats
// only where every order agrees (sumAnyOrder; a max or min without NaN,
// and without zeros of both signs when the result is zero). Elsewhere the
// result is loose, computed in the shuffle-down tree's order.
func simdReduce(t mslType, op reduceOp, lanes []val) val {
	tree := append([]val{}, lanes...)
	halve(tree, 1, func(x, y val) val { return op.fn(t, x, y) })
	r := tree[0]
	if !t.isFloat() || anyUndef(lanes...) {
		return r
	}
	fixed := true
	switch op.name {
	case "sum":
		xs := make([]float64, len(lanes))
		for i, l := range lanes {
			xs[i] = l.f
		}
		var v float64
		if v, fixed = sumAnyOrder(t, xs); fixed {
			r.f = v
		}
	case "mul": // one lane other than 1, or a NaN, gives the same in every order
		others, nan := 0, false
		for _, l := range lanes {
			if l.f != 1 {
				others++
			}
			nan = nan || math.IsNaN(l.f)
		}
		fixed = others <= 1 || nan
	default: // max, min
		pos, neg := false, false
		for _, l := range lanes {
			fixed = fixed && !math.IsNaN(l.f)
			if l.f == 0 {
				pos, neg = pos || !math.Signbit(l.f), neg || math.Signbit(l.f)
			}
		}
		fixed = fixed && !(r.f == 0 && pos && neg)
	}
	r.loose = r.loose || !fixed
	return r
}

// reduceArgs are the bound arguments of a reduce kernel.
type reduceArgs struct {
	numel, rank, perGroup uint32
	dims, strides         Arg
	src, dst              Arg
	strided               bool
}

func bindReduce(a []Arg, strided bool) reduceArgs {
	r := reduceArgs{numel: a[0].uint(), rank: a[1].uint(), dims: a[2], strided: strided}
	if strided {
		r.strides, r.perGroup, r.src, r.dst = a[3], a[4].uint(), a[5], a[6]
	} else {
		r.perGroup, r.src, r.dst = a[3].uint(), a[4], a[5]
	}
	return r
}

// load reads element i of the reduction order.
func (r reduceArgs) load(t mslType, i uint32) val {
	if !r.strided {
		return load(r.src, t, uint64(i))
	}
	at, ok := stridedOffset(i, uint64(r.rank), r.dims.uintIn, r.strides.uintIn)
	return loadIf(ok, r.src, t, uint64(at))
}

// span is the range [start, stop) of elements of threadgroup gid.
func (r reduceArgs) span(gid uint32) (start, stop uint32) {
	start = gid * r.perGroup
	return start, min(start+r.perGroup, r.numel)
}

// reduceValues is reduce_contiguous / reduce_strided<T, OP>.
func reduceValues(t mslType, op reduceOp, strided bool) func([]Arg, uint32, uint32) {
	fn := func(x, y val) val { return op.fn(t, x, y) }
	return func(a []Arg, gid, block uint32) {
		r := bindReduce(a, strided)
		start, stop := r.span(gid)
		shared := make([]val, block) // threadgroup T shared[MAX_BLOCK]
		for tid := uint32(0); tid < block; tid++ {
			acc := op.init(t)
			for i := start + tid; i < stop; i += block {
				acc = op.fn(t, acc, r.load(t, i))
			}
			shared[tid] = acc
		}
		halve(shared, simdWidth, fn)
		lanes := shared[:min(len(shared), simdWidth)]
		var result val
		if simdBuiltin(t) {
			result = simdReduce(t, op, lanes)
		} else {
			halve(lanes, 1, fn)
			result = lanes[0]
		}
		store(r.dst, t, uint64(gid), result)
	}
}

// simdWidth is the threads of a SIMD-group on Apple GPUs.
const simdWidth = 32

// halve combines shared[t] = op(shared[t], shared[t + s]) for t < s, for
// s = len/2, len/4, ... while s >= until: the halving over threadgroup
// memory (s >= 32), and with until 1 the shuffle-down tree after it, whose
// lane t reads lane t + s at each step. Within a level the threads read
// only slots no thread of that level writes, so running them in order is
// the lockstep result.
func halve[V any](shared []V, until int, op func(x, y V) V) {
	for s := len(shared) / 2; s >= until && s > 0; s >>= 1 {
		for tid := 0; tid < s; tid++ {
			shared[tid] = op(shared[tid], shared[tid+s])
		}
	}
}

// indexed is indexed<T> of reduce.metal: a value and its index.
type indexed struct {
	i uint32
	v val
}

// reduceIndices is arg_reduce_contiguous / arg_reduce_strided<T, OP>: the
// index of an element is its position modulo dims[rank - 1].
func reduceIndices(t mslType, wantMax bool, strided bool) func([]Arg, uint32, uint32) {
	better := func(a, b indexed) indexed { // (a.val > b.val || (a.val == b.val && a.i < b.i)) ? a : b
		if a.v.undef || b.v.undef {
			return indexed{v: undefVal}
		}
		beats := less(t, b.v, a.v)
		if !wantMax {
			beats = less(t, a.v, b.v)
		}
		if beats || (equal(t, a.v, b.v) && a.i < b.i) {
			return indexed{a.i, a.v.from(a.v, b.v)}
		}
		return indexed{b.i, b.v.from(a.v, b.v)}
	}
	init := indexed{v: lowest(t)}
	if !wantMax {
		init = indexed{v: highest(t)}
	}
	return func(a []Arg, gid, block uint32) {
		r := bindReduce(a, strided)
		row, ok := r.dims.uintIn(uint64(r.rank) - 1) // rank 0 reads before the array
		if !ok || row == 0 {
			store(r.dst, tUint, uint64(gid), undefVal)
			return
		}
		start, stop := r.span(gid)
		shared := make([]indexed, block)
		for tid := uint32(0); tid < block; tid++ {
			acc := init
			for i := start + tid; i < stop; i += block {
				acc = better(acc, indexed{uint32(uint64(i) % row), r.load(t, i)})
			}
			shared[tid] = acc
		}
		halve(shared, 1, better) // no built-in SIMD op for indexed values: the shuffle-down tree
		out := intVal(uint64(shared[0].i)).from(shared[0].v)
		store(r.dst, tUint, uint64(gid), out)
	}
}
