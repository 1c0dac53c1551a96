package props

import (
	"math/rand/v2"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// Source is the stream of random bits a case is drawn from. Campaigns draw
// case i of a seed from NewStream(its own seed), so that a case replays from
// the seed and its index alone; property tests draw from rapid (RapidSource),
// so that rapid chooses and shrinks the bits.
type Source interface {
	Uint64() uint64
}

// Stream is a fast deterministic Source (PCG), reseeded for each case.
type Stream struct{ pcg rand.PCG }

// NewStream returns the Stream of seed.
func NewStream(seed uint64) *Stream {
	s := &Stream{}
	s.Reset(seed)
	return s
}

// Reset restarts s as the Stream of seed.
func (s *Stream) Reset(seed uint64) { s.pcg.Seed(seed, seed^0x9e3779b97f4a7c15) }

// Uint64 returns the stream's next word.
func (s *Stream) Uint64() uint64 { return s.pcg.Uint64() }

// RapidSource draws every word from t, so that rapid records and shrinks
// them: a word shrinks toward 0, which makes every choice below shrink
// toward its first (simplest) alternative.
func RapidSource(t *rapid.T) Source { return rapidSource{t} }

type rapidSource struct{ t *rapid.T }

var rapidWord = rapid.Uint64()

func (s rapidSource) Uint64() uint64 { return rapidWord.Draw(s.t, "bits") }

// draw turns a Source into the choices generators make. Every choice costs
// one word, so that a drawn case is a pure function of the word sequence.
type draw struct {
	src  Source
	main *tensor.Tensor // the next main input a scope draws (programs.go); nil: draw one
}

// intn returns a number in [0, n); n must be positive. It reduces the word
// modulo n (the bias is below 2^-40 for the n generators use), so that the
// small words rapid favours and shrinks toward still spread over [0, n).
func (d *draw) intn(n int) int { return int(d.src.Uint64() % uint64(n)) }

// between returns a number in [lo, hi].
func (d *draw) between(lo, hi int) int { return lo + d.intn(hi-lo+1) }

// oneIn reports true one time in n.
func (d *draw) oneIn(n int) bool { return d.intn(n) == 0 }

// coin reports true half the time.
func (d *draw) coin() bool { return d.src.Uint64()&1 == 1 }

// word returns a raw 64-bit word.
func (d *draw) word() uint64 { return d.src.Uint64() }

// pick returns one of xs, the first ones being the simplest.
func pick[T any](d *draw, xs []T) T { return xs[d.intn(len(xs))] }
