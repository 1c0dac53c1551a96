package cpu

// The matmul kernels. One m x k by k x n product of row-major slices
// computes the reference loop
//
//	for i < m, j < n: dst[i*n+j] = 0; for l < k: dst[i*n+j] += a[i*k+l] * b[l*n+j]
//
// in the representation T of the compute dtype: integers wrap in T (a sum
// of products mod 2^bits is the same in every order), floats accumulate in
// T (f16 and bf16 in float32, rounded when the result is encoded). The fast
// path packs a kc x nc block of b into panels of mmNR columns and four rows
// of a at a time, and runs a 4 x 2 register tile over each panel: another
// order of the same additions, which for floats agrees with the reference
// exactly where every order does (the model states nothing else).

const (
	mmMR = 4   // rows of a register tile
	mmNR = 2   // columns of a register tile (4 x 2 accumulators fit the 16 registers amd64 and arm64 give floats with room to spare)
	mmKC = 256 // depth of a packed block
	mmNC = 256 // columns of a packed block of b
	// mmFastMin is the smallest m, n and k that take the packed path: below
	// it packing costs more than it saves.
	mmFastMin = 8
)

// matmulRef is the reference loop.
func matmulRef[T number](dst, a, b []T, m, k, n int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s T
			for l := 0; l < k; l++ {
				s += a[i*k+l] * b[l*n+j]
			}
			dst[i*n+j] = s
		}
	}
}

// matmulInto is the reference loop's product by the fastest path for its
// sizes.
func matmulInto[T number](dst, a, b []T, m, k, n int) {
	if m < mmFastMin || n < mmFastMin || k < mmFastMin {
		matmulRef(dst, a, b, m, k, n)
		return
	}
	matmulPacked(dst, a, b, m, k, n)
}

// matmulPacked is the blocked product: dst is cleared, then every kc x nc
// block of b (packed in panels of mmNR columns, the last one zero-padded)
// meets every group of mmMR rows of a (packed likewise) in mmTile.
func matmulPacked[T number](dst, a, b []T, m, k, n int) {
	clear(dst[:m*n])
	kcMax, ncMax := min(mmKC, k), min(mmNC, n)
	bp := make([]T, kcMax*(ncMax+mmNR))
	ap := make([]T, kcMax*mmMR)
	for jc := 0; jc < n; jc += mmNC {
		nc := min(mmNC, n-jc)
		for pc := 0; pc < k; pc += mmKC {
			kc := min(mmKC, k-pc)
			packB(bp, b, n, pc, kc, jc, nc)
			for ic := 0; ic < m; ic += mmMR {
				mr := min(mmMR, m-ic)
				packA(ap, a, k, ic, mr, pc, kc)
				for jr := 0; jr < nc; jr += mmNR {
					nr := min(mmNR, nc-jr)
					panel := bp[(jr/mmNR)*kc*mmNR:]
					mmTile(dst[(ic)*n+jc+jr:], n, ap, panel, kc, mr, nr)
				}
			}
		}
	}
}

// packB copies b[pc:pc+kc, jc:jc+nc] into panels of mmNR columns: panel p
// holds, for each l, the mmNR values b[pc+l, jc+p*mmNR+c] (0 past nc).
func packB[T number](bp, b []T, n, pc, kc, jc, nc int) {
	for jr := 0; jr < nc; jr += mmNR {
		panel := bp[(jr/mmNR)*kc*mmNR : (jr/mmNR+1)*kc*mmNR]
		nr := min(mmNR, nc-jr)
		for l := 0; l < kc; l++ {
			row := b[(pc+l)*n+jc+jr:]
			p := panel[l*mmNR : l*mmNR+mmNR]
			for c := 0; c < mmNR; c++ {
				if c < nr {
					p[c] = row[c]
				} else {
					p[c] = 0
				}
			}
		}
	}
}

// packA copies a[ic:ic+mr, pc:pc+kc] as kc groups of mmMR values (0 past mr).
func packA[T number](ap, a []T, k, ic, mr, pc, kc int) {
	for l := 0; l < kc; l++ {
		p := ap[l*mmMR : l*mmMR+mmMR]
		for r := 0; r < mmMR; r++ {
			if r < mr {
				p[r] = a[(ic+r)*k+pc+l]
			} else {
				p[r] = 0
			}
		}
	}
}

// mmTile adds the product of a packed mmMR x kc group of a and a packed
// kc x mmNR panel of b into the mr x nr corner of c (row stride ldc).
func mmTile[T number](c []T, ldc int, ap, bp []T, kc, mr, nr int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 T
	ap, bp = ap[:kc*mmMR], bp[:kc*mmNR]
	for l := 0; l < kc; l++ {
		a := ap[l*mmMR : l*mmMR+mmMR : l*mmMR+mmMR]
		b := bp[l*mmNR : l*mmNR+mmNR : l*mmNR+mmNR]
		b0, b1 := b[0], b[1]
		c00 += a[0] * b0
		c01 += a[0] * b1
		c10 += a[1] * b0
		c11 += a[1] * b1
		c20 += a[2] * b0
		c21 += a[2] * b1
		c30 += a[3] * b0
		c31 += a[3] * b1
	}
	tile := [mmMR][mmNR]T{{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}}
	for r := 0; r < mr; r++ {
		row := c[r*ldc : r*ldc+nr]
		for j := range row {
			row[j] += tile[r][j]
		}
	}
}

// mmBatch is a batched product: result batch i multiplies a's batch aOff[i]
// and b's batch bOff[i] (offsets in elements).
type mmBatch struct {
	m, k, n    int
	aOff, bOff []int
}

// run computes every batch into dst (len(aOff)*m*n elements), its rows
// split across the engine's workers when the multiply-adds reach the
// parallel threshold.
func mmRun[T number](e *Engine, dst, a, b []T, g mmBatch) {
	rows := len(g.aOff) * g.m
	work := rows * g.n * max(g.k, 1)
	if rows == 0 || g.n == 0 {
		return
	}
	e.splitRun(work, func(_, lo, hi int) {
		r0, r1 := lo*rows/work, hi*rows/work
		if hi == work {
			r1 = rows
		}
		for r0 < r1 {
			bi, i := r0/g.m, r0%g.m
			cnt := min(g.m-i, r1-r0)
			out := dst[(bi*g.m+i)*g.n : (bi*g.m+i+cnt)*g.n]
			if g.k == 0 {
				clear(out)
			} else {
				matmulInto(out, a[g.aOff[bi]+i*g.k:], b[g.bOff[bi]:], cnt, g.k, g.n)
			}
			r0 += cnt
		}
	})
}
