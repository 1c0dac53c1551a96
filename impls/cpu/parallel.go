package cpu

import "sync"

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

// pieces returns how many pieces the engine splits n elements into: 1 below
// the threshold, otherwise up to the worker count.
func (e *Engine) pieces(n int) int {
	if n < e.threshold || e.workers <= 1 {
		return 1
	}
	return max(1, min(e.workers, n/minChunk, maxPieces))
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
// otherwise one goroutine per piece (the caller's goroutine takes piece 0).
// A panic in a piece is re-raised in the caller's goroutine, where the
// harness can recover it.
func (e *Engine) splitRun(n int, body func(piece, lo, hi int)) {
	k := e.pieces(n)
	if k == 1 {
		body(0, 0, n)
		return
	}
	var panics [maxPieces]any
	var wg sync.WaitGroup
	wg.Add(k - 1)
	for i := 1; i < k; i++ {
		go func(i int) {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			lo, hi := split(n, k, i)
			body(i, lo, hi)
		}(i)
	}
	lo, hi := split(n, k, 0)
	body(0, lo, hi)
	wg.Wait()
	for _, p := range panics[1:k] {
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
