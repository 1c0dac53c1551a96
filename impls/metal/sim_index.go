package metal

// Twins of indexing.metal: is_IDS_SRC for ids u8 and u32 over sources u8
// u32 i64 f32 f16 bf16, and ids i64 over i64 f32 f16 bf16 (candle has no
// is_i64_u8 and no is_i64_u32); gather_IDS_SRC for ids u8 over u8 u32 i64
// f32 f16 bf16, ids u32 and i64 over u32 i64 f32 f16 bf16 (no gather_u32_u8,
// no gather_i64_u8).

// indexPairs are the (ids, source) pairs of indexing.metal.
var indexPairs = func() [][2]mslType {
	var pairs [][2]mslType
	for _, ids := range []mslType{tUchar, tUint, tLong} {
		for _, src := range []mslType{tUchar, tUint, tLong, tFloat, tHalf, tBfloat} {
			if ids == tLong && (src == tUchar || src == tUint) {
				continue
			}
			pairs = append(pairs, [2]mslType{ids, src})
		}
	}
	return pairs
}()

// gatherPairs are the (ids, source) pairs of indexing.metal's gathers.
var gatherPairs = func() [][2]mslType {
	var pairs [][2]mslType
	for _, ids := range []mslType{tUchar, tUint, tLong} {
		for _, src := range []mslType{tUchar, tUint, tLong, tFloat, tHalf, tBfloat} {
			if ids != tUchar && src == tUchar {
				continue
			}
			pairs = append(pairs, [2]mslType{ids, src})
		}
	}
	return pairs
}()

func init() {
	for _, p := range indexPairs {
		register("indexing", "is_"+p[0].String()+"_"+p[1].String(), "ccccccccbbb", twin{thread: indexSelect(p[1], p[0])})
	}
	for _, p := range gatherPairs {
		register("indexing", "gather_"+p[0].String()+"_"+p[1].String(), "cccccbbb", twin{thread: gather(p[1], p[0])})
	}
}

// gather is gather<T, I>. args: n_out, left, src_dim, right, n_ids, src,
// ids, out. The index is not clamped; the offset is size_t arithmetic, a
// negative i64 index wrapping it.
func gather(t, it mslType) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		nOut, srcDim, right, nIDs := a[0].sizeT(), a[2].sizeT(), a[3].sizeT(), a[4].sizeT()
		k := uint64(tid)
		if k >= nOut {
			return
		}
		id := load(a[6], it, k)
		switch {
		case id.undef:
			store(a[7], t, k, undefVal)
			return
		case id.u == sentinel(it):
			store(a[7], t, k, zero(t))
			return
		}
		l, r := k/right/nIDs, k%right
		at := (l*srcDim+uint64(it.signed(id.u)))*right + r
		store(a[7], t, k, load(a[5], t, at))
	}
}

// sentinel is the ids dtype's maximum, the index that selects zeros.
func sentinel(t mslType) uint64 { return highest(t).u }

// indexSelect is index_select<T, I>. args: n_out, left, src_dim, right,
// n_ids, contiguous, src_dims, src_strides, src, ids, out.
func indexSelect(t, it mslType) func([]Arg, uint32) {
	return func(a []Arg, tid uint32) {
		nOut, srcDim, right, nIDs := a[0].sizeT(), a[2].sizeT(), a[3].sizeT(), a[4].sizeT()
		contiguous, src, ids, out := a[5].bool(), a[8], a[9], a[10]
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
		if !contiguous {
			off, ok := stridedOffset(uint32(at), srcDim, a[6].sizeTIn, a[7].sizeTIn) // src_dim as the rank, as candle passes it
			if !ok {
				store(out, t, k, undefVal)
				return
			}
			at = uint64(off)
		}
		store(out, t, k, load(src, t, at))
	}
}
