package metal

import "fmt"

// Twins of sort.metal: asort_asc_T and asort_desc_T for f32 f16 u8 u32
// i64 bf16, the bitonic network of candle's sort.metal run one threadgroup
// (one row) at a time, its phases in order (the pairs of a phase are
// disjoint, so running its threads one after the other is running them
// at once).

func init() {
	for _, t := range reduceTypes { // f32 f16 u8 u32 i64 bf16
		for _, asc := range []bool{true, false} {
			name := "asort_desc_" + t.String()
			if asc {
				name = "asort_asc_" + t.String()
			}
			register("sort", name, "bbcc", twin{tg: argsortBitonic(t, asc)})
		}
	}
}

// argsortBitonic is argsort_bitonic<T, ASC> for the threadgroup of row
// g.pos[1]. args: x, dst, ncols, ncols_pad (int64). The network's
// comparisons read x through the indices; an undefined element makes the
// whole row's permutation undefined, a loose one loose.
func argsortBitonic(t mslType, asc bool) func([]Arg, *tgroup) {
	return func(a []Arg, g *tgroup) {
		ncols, pad := int64(a[2].sizeT()), int64(a[3].sizeT())
		threads := int64(g.size[0] * g.size[1] * g.size[2])
		switch {
		case threads != pad:
			panic(memoryFault(fmt.Sprintf("asort: %d threads for ncols_pad %d (not simulated)", threads, pad)))
		case len(g.shared) < 1 || int64(g.shared[0]) < 4*pad:
			panic(memoryFault(fmt.Sprintf("asort: ncols_pad %d indices in threadgroup memory of %v bytes", pad, g.shared)))
		}
		row := int64(g.pos[1])
		idx := make([]int64, pad)
		for col := range idx {
			idx[col] = int64(col)
		}
		var seen val // the undefined or loose marks of the elements compared
		elem := func(i int64) val {
			v := load(a[0], t, uint64(row*ncols+i))
			seen.undef, seen.loose = seen.undef || v.undef, seen.loose || v.loose
			return v
		}
		after := func(x, y int64) bool { // x belongs after y: x > y ascending, x < y descending
			vx, vy := elem(x), elem(y)
			if asc {
				return less(t, vy, vx)
			}
			return less(t, vx, vy)
		}
		for k := int64(2); k <= pad; k *= 2 {
			for j := k / 2; j > 0; j /= 2 {
				for col := int64(0); col < pad; col++ {
					p := col ^ j
					if p <= col {
						continue
					}
					mine, theirs := idx[col], idx[p]
					var swap bool
					if col&k == 0 {
						swap = mine >= ncols || (theirs < ncols && after(mine, theirs))
					} else {
						swap = theirs >= ncols || (mine < ncols && after(theirs, mine))
					}
					if swap {
						idx[col], idx[p] = theirs, mine
					}
				}
			}
		}
		for col := int64(0); col < ncols && col < pad; col++ {
			v := intVal(uint64(idx[col]))
			v.undef, v.loose = seen.undef, seen.loose && !seen.undef
			store(a[1], tUint, uint64(row*ncols+col), v)
		}
	}
}
