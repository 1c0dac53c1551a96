package cpu

import (
	"sync"
	"sync/atomic"
)

// fault is what a kernel ran into besides computing values: conditions a
// profile may turn into an error, a crash or a fix-up pass. Kernels OR the
// bits of all their elements; the split across workers does not change the
// union.
type fault uint8

const (
	faultZeroDiv fault = 1 << iota // an integer division by zero
	faultMinNeg1                   // a signed integer MIN / -1
	faultNegExp                    // an integer power with a negative exponent
)

// minChunk keeps the pieces of a split large enough to pay for a goroutine.
const minChunk = 1 << 12

// maxPieces bounds the pieces of one split (and the per-piece result arrays).
const maxPieces = 64

// piecesPerWorker over-splits the work so that a worker slowed down by
// other load on its core does not hold up the op: the others take its
// remaining pieces.
const piecesPerWorker = 4

// pieces returns how many pieces the engine splits n elements into: 1 below
// the threshold, otherwise a few per worker.
func (e *Engine) pieces(n int) int {
	if n < e.threshold || e.workers <= 1 {
		return 1
	}
	return max(1, min(e.workers*piecesPerWorker, n/minChunk, maxPieces))
}

// split returns the bounds of piece i of k over [0, n), aligned to 64
// elements so that pieces do not share cache lines of the output.
func split(n, k, i int) (lo, hi int) {
	per := (n/k + 63) &^ 63
	lo = min(i*per, n)
	hi = min(lo+per, n)
	if i == k-1 {
		hi = n
	}
	return lo, hi
}

// splitRun runs body over the k pieces of [0, n): inline when there is one,
// otherwise on the engine's workers (the caller's goroutine is one of them),
// each taking the next piece not yet taken. A panic in a piece is re-raised
// in the caller's goroutine, where the harness can recover it.
func (e *Engine) splitRun(n int, body func(piece, lo, hi int)) {
	k := e.pieces(n)
	if k == 1 {
		body(0, 0, n)
		return
	}
	var next atomic.Int32
	var panics [maxPieces]any
	work := func(w int) {
		defer func() { panics[w] = recover() }()
		for {
			i := int(next.Add(1)) - 1
			if i >= k {
				return
			}
			lo, hi := split(n, k, i)
			body(i, lo, hi)
		}
	}
	workers := min(e.workers, k)
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		go func(w int) {
			defer wg.Done()
			work(w)
		}(w)
	}
	work(0)
	wg.Wait()
	for _, p := range panics[:workers] {
		if p != nil {
			panic(p) // a bug in a kernel: surface it in the caller's goroutine
		}
	}
}

// parallel runs body over [0, n) split by index ranges and returns the
// union of the faults the pieces report.
func (e *Engine) parallel(n int, body func(lo, hi int) fault) fault {
	if e.pieces(n) == 1 {
		return body(0, n)
	}
	var results [maxPieces]fault
	e.splitRun(n, func(piece, lo, hi int) { results[piece] = body(lo, hi) })
	var f fault
	for _, r := range results {
		f |= r
	}
	return f
}
