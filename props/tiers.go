package props

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// Size tiers: a backend changes code path at sizes a small random case never
// reaches (a goroutine split at 2^16 elements, streaming stores at 2^20,
// summation blocks, tiles). Each such size a backend states
// (tensor.PathSize) becomes a tier: a share of the cases is drawn at and
// around it, for the ops whose path changes there. A tier-sized tensor costs
// a few dozen draws, not one per element (fill), and its edge values sit at
// index 0, at the last index and at the boundaries of the pieces the size is
// cut into.
//
// The tiers share tierTimeShare of a campaign's time, each by its weight:
// the chance of drawing a tier case is its part of the time over the cost
// of a tier case in small cases (PathSize.Cost, measured; where a size
// states none, estimated from it: the model's exact arithmetic, about
// elementCost per element, dominates a large case, and a small case costs
// about caseCost, drawing and checking included). A quarter of the time
// reaches each split a few times a second on two cores (the streaming
// stores, a case of which costs 11,000 small ones, about once a minute)
// while the small cases, which find most bugs, keep the rest.
const (
	tierTimeShare = 0.25
	caseCost      = 15.0 // µs
	elementCost   = 0.15 // µs
)

// costlyOps are the ops whose model cost is far above elementCost: exact
// (big-float) exp, pow and sqrt take about 20 µs an element, so a case of
// 65536 elements would hold a worker for a second. Tiers above
// costlyElements leave them out; the kernels that change path there are the
// elementwise driver and split the other ops reach.
var costlyOps = []string{"exp", "pow", "sqrt"}

const costlyElements = 4096

// Tier is one size tier: a path size of a backend, and how often to draw it.
type Tier struct {
	tensor.PathSize
	perMillion int // cases per million drawn in this tier
}

// Name is the tier's name as progress lines print it.
func (t *Tier) Name() string { return t.PathSize.Name }

// TiersOf returns the size tiers of a backend: one per path size it states
// (none for a backend that states none, such as an adapter, whose cases
// cross a pipe and are better kept small).
func TiersOf(b tensor.Backend) []Tier {
	return tiersWhere(b, func(tensor.PathSize) bool { return true })
}

// TiersFor returns the size tiers of a backend checked on profile: those
// whose path the profile takes. Their share of the time is the share all
// of a backend's tiers take.
func TiersFor(b tensor.Backend, profile string) []Tier {
	return tiersWhere(b, func(s tensor.PathSize) bool { return s.Profiles == nil || slices.Contains(s.Profiles, profile) })
}

func tiersWhere(b tensor.Backend, keep func(tensor.PathSize) bool) []Tier {
	ps, ok := b.(tensor.PathSizer)
	if !ok {
		return nil
	}
	var sizes []tensor.PathSize
	for _, s := range ps.PathSizes() {
		if keep(s) {
			sizes = append(sizes, s)
		}
	}
	weight := func(s tensor.PathSize) float64 { return float64(max(s.Weight, 1)) }
	var total float64
	for _, s := range sizes {
		total += weight(s)
	}
	tiers := make([]Tier, len(sizes))
	for i, s := range sizes {
		cost := s.Cost
		if cost <= 0 {
			cost = (caseCost + elementCost*1.5*float64(s.Elements)) / caseCost // sizes average about 1.5 times Elements
		}
		share := tierTimeShare * weight(s) / total
		tiers[i] = Tier{PathSize: s, perMillion: max(1, int(1e6*share/cost))}
	}
	return tiers
}

// tier draws which tier a case is drawn in (-1: none).
func (d *draw) tier(tiers []Tier) int {
	if len(tiers) == 0 {
		return -1
	}
	r := d.intn(1_000_000)
	for i := range tiers {
		if r < tiers[i].perMillion {
			return i
		}
		r -= tiers[i].perMillion
	}
	return -1
}

// reaches reports whether op's path changes at the tier's size (and the op
// is cheap enough to check at it).
func (t *Tier) reaches(op string) bool {
	if t.Elements > costlyElements && slices.Contains(costlyOps, op) {
		return false
	}
	if len(t.Ops) > 0 {
		return slices.Contains(t.Ops, op)
	}
	info, _ := tensor.LookupOp(op)
	switch info.Class {
	case tensor.ClassBinary, tensor.ClassUnary, tensor.ClassCast, tensor.ClassReduce, tensor.ClassCumsum:
		return true
	}
	return false
}

// holds reports whether a main input of dtype dt takes the tier's path.
func (t *Tier) holds(dt tensor.DType) bool { return t.DTypes == nil || slices.Contains(t.DTypes, dt) }

// size draws an element count at or around the tier's size: one below, at,
// one above, a few multiples, or anywhere up to half again as large.
func (t *Tier) size(d *draw) int {
	e := t.Elements
	align := max(t.Align, 1)
	var n int
	switch d.intn(8) {
	case 0:
		n = e - 1
	case 1:
		n = e
	case 2:
		n = e + 1
	case 3:
		n = e*d.between(2, 3) + d.between(-1, 1)
	case 4:
		n = e + align*d.between(1, 8) + d.between(-1, 1)
	default:
		n = e + d.intn(e/2+1)
	}
	return min(max(n, 1), tensor.MaxElements)
}

// shape draws the shape of a tier tensor of about size elements: 1-D, or,
// for a size of a dimension (Dim), a few rows of that length or that many
// rows of a few columns; otherwise sometimes 2-D.
func (t *Tier) shape(d *draw, size int) []int {
	if t.Dim {
		k := d.between(1, 3)
		switch d.intn(3) {
		case 0:
			return []int{size}
		case 1:
			return []int{k, size}
		}
		return []int{size, k}
	}
	if d.oneIn(3) { // rows rounded up: a 2-D case is never below the size
		cols := pick(d, []int{2, 3, 7, 8, 64, 513})
		return []int{(size + cols - 1) / cols, cols}
	}
	return []int{size}
}

// tensor draws a tensor of the tier.
func (t *Tier) tensor(d *draw, dt tensor.DType, b bias) *tensor.Tensor {
	return d.fill(dt, t.shape(d, t.size(d)), b, t)
}

// fill draws a tensor of any size in a few draws: a palette of four drawn
// values, a seed from which a xorshift picks each element's palette entry,
// and edge values drawn on their own at index 0, at the last index and at
// the boundaries where the tier's size splits it (tier may be nil).
func (d *draw) fill(dt tensor.DType, shape []int, b bias, tier *Tier) *tensor.Tensor {
	x := tensor.New(dt, shape...)
	n := x.Len()
	if n == 0 {
		return x
	}
	pal := tensor.New(dt, 4)
	d.fillElements(pal, b)
	if d.oneIn(saturatedOneIn) {
		for k := range 4 {
			pal.SetBits(k, largestBits(dt))
		}
	}
	s := d.word() | 1
	words := len(x.Data) / n
	for i := 0; i < n; i++ {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		k := int(s % 4)
		copy(x.Data[i*words:i*words+words], pal.Data[k*words:k*words+words])
	}
	d.setElement(x, 0, b)
	d.setElement(x, n-1, b)
	for _, i := range boundaries(n, tier) {
		d.setElement(x, i, b)
	}
	return x
}

// saturatedOneIn is how often a tier tensor holds its dtype's largest value
// everywhere but at its ends and boundaries: a long run of them is what
// overflows a narrow accumulator (the 16-bit lanes of a u8 sum, which must
// fold into the total every 32 blocks of 64 bytes) or saturates a float sum.
const saturatedOneIn = 8

// largestBits is the bit pattern of d's largest finite value (bool: true).
func largestBits(d tensor.DType) uint64 {
	switch {
	case d == tensor.Bool:
		return 1
	case d.IsSigned():
		return uint64(d.MaxInt())
	case d.IsUnsigned():
		return d.MaxUint()
	case d.IsComplex():
		return tensor.FloatBits(tensor.MaxFloat(d.Component()), d.Component())
	}
	return tensor.FloatBits(tensor.MaxFloat(d), d)
}

// boundaries returns the indices next to the places where a tensor of n
// elements is cut: multiples of the tier's size, and the ends of the pieces
// of a split into 2 to 16 pieces aligned to the tier's alignment (the
// engine's goroutine pieces).
func boundaries(n int, tier *Tier) []int {
	if tier == nil {
		return nil
	}
	var out []int
	add := func(i int) {
		if i > 0 && i < n-1 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	for m := tier.Elements; m < n && len(out) < 16; m += tier.Elements {
		add(m - 1)
		add(m)
	}
	if tier.Align > 0 {
		for _, k := range []int{2, 4, 8, 16} {
			per := (n/k + tier.Align - 1) / tier.Align * tier.Align
			for j := 1; j < k; j++ {
				add(j*per - 1)
				add(j * per)
			}
		}
	}
	return out
}

// fuzzTierBoost scales the tier chances of fuzz inputs (DrawTierFor).
const fuzzTierBoost = 4

// DrawTierFor draws the tier of a case whose op is given (a fuzz target's
// input), -1 for none. A campaign draws the tier first and then an op it
// reaches; here each tier that reaches op gets its campaign chance scaled by
// the catalog's ops over the ops it reaches, so that every tier takes about
// the share of a fuzzer's time it takes of a campaign's, times
// fuzzTierBoost: a coverage-guided fuzzer keeps an input whose twin reached
// new code, so the large paths are worth more of its time.
func DrawTierFor(src Source, tiers []Tier, op string) int {
	chance := make([]int, len(tiers)) // per million
	total := 0
	for i := range tiers {
		t := &tiers[i]
		if !t.reaches(op) {
			continue
		}
		reached := 0
		for _, o := range tensor.Ops {
			if t.reaches(o.Name) {
				reached++
			}
		}
		chance[i] = fuzzTierBoost * t.perMillion * len(tensor.Ops) / reached
		total += chance[i]
	}
	if total > maxTwinShare { // an op many tiers reach: at most that share of its inputs get a twin
		for i := range chance {
			chance[i] = chance[i] * maxTwinShare / total
		}
	}
	r := (&draw{src: src}).intn(1_000_000)
	for i, p := range chance {
		if r < p {
			return i
		}
		r -= p
	}
	return -1
}

// maxTwinShare bounds the share of a fuzz target's inputs (per million)
// that get a tier-sized twin.
const maxTwinShare = 250_000

// Enlarge returns c with its tensor arguments grown to a size of tier t:
// a fuzzer's small case becomes the template of a tier-sized one. The
// largest tensor argument sets the new shape (its rank kept, its last
// dimension stretched; a 0-dim tensor becomes 1-D); arguments of the same
// shape get it too, and broadcast partners stretch only a last dimension
// they share with it. Each grown tensor is filled from its own elements,
// which also sit at the boundaries the tier cuts the tensor at. It returns
// nil when c's op does not change path at the tier's size, or c has no
// tensor argument, or an empty one.
func Enlarge(c *tensor.Case, t *Tier, src Source) *tensor.Case {
	if !t.reaches(c.Op) || len(c.Args) > 0 && c.Args[0].Tensor != nil && !t.holds(c.Args[0].Tensor.DType) {
		return nil
	}
	d := &draw{src: src}
	if op, _ := tensor.LookupOp(c.Op); isMatmulCat(op.Class) {
		return enlargeMatmulCat(c, t, d) // gen_matmul.go
	}
	big := -1
	for i, a := range c.Args {
		if a.Tensor != nil && (big < 0 || a.Tensor.Len() > c.Args[big].Tensor.Len()) {
			big = i
		}
	}
	if big < 0 || c.Args[big].Tensor.Len() == 0 {
		return nil
	}
	from := c.Args[big].Tensor.Shape
	n := t.size(d)
	to := slices.Clone(from)
	if len(to) == 0 {
		to = []int{n}
	} else {
		outer := tensor.NumElements(from[:len(from)-1])
		to[len(to)-1] = max(from[len(from)-1], (n+outer-1)/outer)
	}
	e := *c
	e.Args = slices.Clone(c.Args)
	e.Expect, e.Got = nil, nil
	for i, a := range c.Args {
		x := a.Tensor
		if x == nil || x.Len() == 0 || c.Op == "index_select" && i == 1 {
			continue
		}
		shape := slices.Clone(x.Shape)
		switch {
		case i == big || slices.Equal(x.Shape, from):
			shape = to
		case len(shape) > 0 && len(from) > 0 && shape[len(shape)-1] == from[len(from)-1] && from[len(from)-1] > 1:
			shape[len(shape)-1] = to[len(to)-1]
		default:
			continue
		}
		e.Args[i].Tensor = d.fillFrom(x, shape, t)
	}
	return &e
}

// fillFrom is fill with the elements of src as the palette.
func (d *draw) fillFrom(src *tensor.Tensor, shape []int, tier *Tier) *tensor.Tensor {
	pal := src.Contiguous()
	k := pal.Len()
	words := len(pal.Data) / k
	x := tensor.New(src.DType, shape...)
	n := x.Len()
	put := func(i int, j int) { copy(x.Data[i*words:i*words+words], pal.Data[j*words:j*words+words]) }
	s := d.word() | 1
	for i := 0; i < n; i++ {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		put(i, int(s%uint64(k)))
	}
	put(0, 0)
	put(n-1, k-1)
	for _, i := range boundaries(n, tier) {
		put(i, d.intn(k))
	}
	return x
}
