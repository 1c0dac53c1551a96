package cpu

import "slices"

// The row kernel of sort and argsort: a stable ordering of a row's
// positions by unsigned 64-bit keys (sort.go turns each framework's order
// into keys). Reference loop, what it computes:
//
//	for k := range perm { perm[k] = k }
//	stably sort perm by keys[perm[k]]: equal keys keep their position order
//
// Rows shorter than pairMin are sorted by insertion; rows up to radixMin by
// pattern-defeating quicksort (slices.SortFunc) of (key, position) pairs,
// where the position breaks ties, so the order is the stable one; longer
// rows by an LSD radix sort over the key bytes that are not the same in
// every key (a pass is stable, so the whole sort is). The kernel never
// allocates: it works in the caller's scratch, sized once per worker.

// pairMin and radixMin are the row lengths from which the pair sort and
// the radix sort run (measured: BenchmarkSortRow).
const (
	pairMin  = 64
	radixMin = 512
)

// sortScratch is one worker's buffers for rows of up to its capacity.
type sortScratch struct {
	keys, keys2 []uint64
	perm2       []int32
	pairs       []keyPos
	counts      [8][256]int32
}

// keyPos is a key and the row position it came from.
type keyPos struct {
	key uint64
	pos int32
}

func newSortScratch(n int) *sortScratch {
	return &sortScratch{keys: make([]uint64, n), keys2: make([]uint64, n), perm2: make([]int32, n), pairs: make([]keyPos, n)}
}

// sortRow sets perm (len(keys)) to the stable order of keys; keys is
// reordered along with it.
func sortRow(keys []uint64, perm []int32, s *sortScratch) {
	for k := range perm {
		perm[k] = int32(k)
	}
	switch n := len(keys); {
	case n < pairMin:
		insertionSort(keys, perm)
	case n < radixMin:
		pairSort(keys, perm, s.pairs[:n])
	default:
		radixSort(keys, perm, s)
	}
}

// pairSort sorts (key, position) pairs, positions breaking ties.
func pairSort(keys []uint64, perm []int32, pairs []keyPos) {
	for i, k := range keys {
		pairs[i] = keyPos{k, int32(i)}
	}
	slices.SortFunc(pairs, func(a, b keyPos) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return int(a.pos - b.pos)
	})
	for i, p := range pairs {
		keys[i], perm[i] = p.key, p.pos
	}
}

// insertionSort moves each key left past the larger keys before it.
func insertionSort(keys []uint64, perm []int32) {
	for i := 1; i < len(keys); i++ {
		k, p := keys[i], perm[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j], perm[j] = keys[j-1], perm[j-1]
		}
		keys[j], perm[j] = k, p
	}
}

// radixSort is the LSD radix sort of (keys, perm) by keys, a byte per
// pass, least significant first; a byte equal in every key is skipped.
func radixSort(keys []uint64, perm []int32, s *sortScratch) {
	n := len(keys)
	c := &s.counts
	*c = [8][256]int32{}
	for _, k := range keys {
		for b := range 8 {
			c[b][byte(k>>(8*b))]++
		}
	}
	src, dst := keys, s.keys2[:n]
	srcP, dstP := perm, s.perm2[:n]
	for b := range 8 {
		if c[b][byte(keys[0]>>(8*b))] == int32(n) {
			continue // every key has this byte
		}
		var at [256]int32
		sum := int32(0)
		for v := range 256 {
			at[v] = sum
			sum += c[b][v]
		}
		shift := 8 * uint(b)
		for i, k := range src {
			v := byte(k >> shift)
			dst[at[v]] = k
			dstP[at[v]] = srcP[i]
			at[v]++
		}
		src, dst = dst, src
		srcP, dstP = dstP, srcP
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(perm, srcP)
	}
}
