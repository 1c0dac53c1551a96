package metal

// Twins of indexing.metal: is_IDS_SRC for ids u8 u32 i64 and sources u8 u32
// i64 f32 f16 bf16.

func init() {
	for _, ids := range []mslType{tUchar, tUint, tLong} {
		for _, src := range []mslType{tUchar, tUint, tLong, tFloat, tHalf, tBfloat} {
			register("indexing", "is_"+ids.String()+"_"+src.String(), "cccccbbb", twin{thread: indexSelect(src, ids)})
		}
	}
}

// sentinel is the ids dtype's maximum, the index that selects zeros.
func sentinel(t mslType) uint64 { return highest(t).u }

// indexSelect is index_select<T, I>. args: n_out, left, src_dim, right,
// n_ids, src, ids, out.
func indexSelect(t, it mslType) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		nOut, srcDim, right, nIDs := a[0].sizeT(), a[2].sizeT(), a[3].sizeT(), a[4].sizeT()
		src, ids, out := a[5], a[6], a[7]
		k := uint64(tid)
		if k >= nOut {
			return
		}
		id := load(ids, it, (k/right)%nIDs)
		switch {
		case id.undef:
			store(out, t, k, undefVal)
			return
		case id.u == sentinel(it):
			store(out, t, k, zero(t))
			return
		}
		row := id
		if bound := intVal(it.mask(srcDim - 1)); less(it, bound, id) { // min(id, I(src_dim - 1))
			row = bound
		}
		l, r := k/right/nIDs, k%right
		at := l*srcDim*right + uint64(it.signed(row.u))*right + r // size_t arithmetic, wrapping
		store(out, t, k, load(src, t, at))
	}
}
