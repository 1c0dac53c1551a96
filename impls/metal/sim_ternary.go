package metal

// Twins of ternary.metal: where_IDS_T for conditions u8, u32 and i64 over
// values f16, f32, u8, u32, i64 and bf16.

// wherePairs are the (condition, value) pairs of ternary.metal.
var wherePairs = func() [][2]mslType {
	var pairs [][2]mslType
	for _, ids := range []mslType{tUchar, tUint, tLong} {
		for _, t := range []mslType{tHalf, tFloat, tUchar, tUint, tLong, tBfloat} {
			pairs = append(pairs, [2]mslType{ids, t})
		}
	}
	return pairs
}()

func init() {
	for _, p := range wherePairs {
		register("ternary", "where_"+p[0].String()+"_"+p[1].String(), "ccccccbbbbccc", twin{thread: whereCond(p[1], p[0])})
	}
}

// whereCond is where_cond<T, ID>. args: n, rank, dims, cond_strides,
// true_strides, false_strides, cond, on_true, on_false, out, and the
// three contiguity flags. Each thread takes every step-th element, as the
// contiguous kernels do.
func whereCond(t, it mslType) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		n, rank := a[0].sizeT(), a[1].sizeT()
		// at is where operand k (0 cond, 1 on_true, 2 on_false) holds element i.
		at := func(k int, i uint64) (uint64, bool) {
			if a[10+k].bool() {
				return i, true
			}
			off, ok := stridedOffset(uint32(i), rank, a[2].sizeTIn, a[3+k].sizeTIn)
			return uint64(off), ok
		}
		step := (n + elemsPerThread(t) - 1) / elemsPerThread(t)
		for i := uint64(tid); i < n; i += step {
			ci, ok := at(0, i)
			cond := loadIf(ok, a[6], it, ci)
			pick := 8 // on_false
			if !cond.undef && cond.u != 0 {
				pick = 7
			}
			vi, ok := at(pick-6, i)
			store(a[9], t, i, loadIf(ok, a[pick], t, vi).from(cond))
		}
	}
}
