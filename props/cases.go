package props

import (
	"slices"
	"sync"
	"sync/atomic"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// CaseOptions limit what the generator draws. Zero values mean "everything".
type CaseOptions struct {
	Ops      []string       // op names; default: the whole catalog
	DTypes   []tensor.DType // element dtypes of the main input; default: all
	MaxElems int            // largest small tensor drawn (default 24)
	// Views makes some input tensors of every case views of other storage
	// (permuted, sliced with steps, offset, broadcast; views.go); without
	// it, one case in viewsOneIn has them.
	Views bool
	// Programs is how often a small case is a program of 2 to 4 steps
	// (programs.go): one in Programs (0: one in programsOneIn; below 0:
	// never).
	Programs int
}

func (g *Gen) programsOneIn() int {
	if g.opts.Programs > 0 {
		return g.opts.Programs
	}
	return programsOneIn
}

func (o CaseOptions) maxElems() int {
	if o.MaxElems > 0 {
		return o.MaxElems
	}
	return 24
}

// Aim is what a draw aims at: a profile, whose support table steers ops and
// dtypes toward what it answers (aim.go), and the size tiers of the backend
// checked on it (tiers.go). The zero Aim draws anything, small.
type Aim struct {
	Profile string // "": no support table
	Tiers   []Tier
	scopes  *aimScopes // NewAim's: the scopes its draws use, kept once found
}

// NewAim returns the Aim at profile and tiers that keeps the scopes its
// draws use: Gen.Draw then finds them without hashing the profile's name
// (a campaign draws every case of a target with one Aim).
func NewAim(profile string, tiers []Tier) Aim {
	a := &aimScopes{}
	for i := range a.byTier {
		a.byTier[i] = make([]atomic.Pointer[scope], len(tiers)+1)
	}
	return Aim{Profile: profile, Tiers: tiers, scopes: a}
}

// aimScopes holds an Aim's scopes for the one Gen that uses it first,
// indexed [explore][tier + 1] (explore: the draw ignores the profile).
type aimScopes struct {
	gen    atomic.Pointer[Gen]
	byTier [2][]atomic.Pointer[scope]
}

// Gen draws cases. It is safe for concurrent use: a draw's state lives in
// its Source.
type Gen struct {
	opts   CaseOptions
	ops    []string
	dtypes []tensor.DType
	scopes sync.Map // scopeKey -> *scope, computed once
}

// scopeKey names a scope: the profile aimed at ("" unaimed) and the tier.
type scopeKey struct {
	profile string
	tier    *Tier
}

// NewGen returns a generator of cases limited by o.
func NewGen(o CaseOptions) *Gen {
	g := &Gen{opts: o, ops: o.Ops, dtypes: o.DTypes}
	if len(g.ops) == 0 {
		for _, op := range tensor.Ops {
			g.ops = append(g.ops, op.Name)
		}
	}
	if len(g.dtypes) == 0 {
		g.dtypes = tensor.AllDTypes
	}
	return g
}

// GenCase is the generator as a rapid generator (unaimed, small cases), for
// property tests: rapid chooses, records and shrinks the words it draws.
func GenCase(o CaseOptions) *rapid.Generator[*tensor.Case] {
	g := NewGen(o)
	return rapid.Custom(func(t *rapid.T) *tensor.Case {
		c, _ := g.Draw(RapidSource(t), Aim{})
		return c
	})
}

// Draw draws one case aimed at aim, and returns the index in aim.Tiers of
// the size tier it was drawn in (-1: an ordinary small case).
func (g *Gen) Draw(src Source, aim Aim) (*tensor.Case, int) {
	d := &draw{src: src}
	profile := aim.Profile
	if d.oneIn(exploreOneIn) {
		profile = ""
	}
	tier := d.tier(aim.Tiers)
	var t *Tier
	if tier >= 0 {
		t = &aim.Tiers[tier]
	}
	s := g.aimedScope(aim, profile, tier, t)
	if len(s.ops) == 0 { // the tier reaches no op this generator may draw
		tier, s = -1, g.scope(profile, nil)
	}
	if len(s.ops) == 0 { // the profile answers none of the allowed ops: draw unaimed
		s = g.scope("", nil)
	}
	var c *tensor.Case
	if tier < 0 && g.opts.Programs >= 0 && d.oneIn(g.programsOneIn()) {
		c = s.program(d, profile)
	} else {
		c = s.draw(d)
	}
	if g.opts.Views || d.oneIn(viewsOneIn) {
		d.viewArgs(c, s.viewSteps())
	}
	return c, tier
}

// scope is what one draw may choose from: the ops (and their main input
// dtypes) that the generator's options allow, that the profile answers (when
// aimed) and whose path changes at the tier's size (when in a tier).
type scope struct {
	g   *Gen
	sup *support // nil: unaimed
	ops []scopeOp
	// steps lists, per dtype, the indexes in ops of the ops a program step
	// may apply to an earlier result of that dtype (programs.go).
	steps [numDTypes][]int
	tier  *Tier // nil: small
	rust  bool
}

// scopeOp is one op a scope draws: its catalog entry, the dtypes its main
// input is drawn in, and what the aimed profile answers for it.
type scopeOp struct {
	tensor.OpInfo
	dtypes   []tensor.DType
	sup      *opSupport              // nil: unaimed
	specials *[3][numDTypes][]uint64 // opSpecials of the op (palette.go)
}

// specialsOf is opSpecials(op.Name, arg, d).
func (op *scopeOp) specialsOf(arg int, d tensor.DType) []uint64 {
	if op.specials != nil && arg < len(op.specials) {
		return op.specials[arg][d]
	}
	return opSpecials(op.Name, arg, d)
}

// aimedScope is g.scope(profile, t), kept in aim's scopes where it has them
// (t is aim.Tiers[tier], or nil when tier is -1).
func (g *Gen) aimedScope(aim Aim, profile string, tier int, t *Tier) *scope {
	a := aim.scopes
	if a == nil || !a.gen.CompareAndSwap(nil, g) && a.gen.Load() != g {
		return g.scope(profile, t)
	}
	explore := 0
	if profile == "" {
		explore = 1
	}
	slot := &a.byTier[explore][tier+1]
	if s := slot.Load(); s != nil {
		return s
	}
	s := g.scope(profile, t)
	slot.Store(s)
	return s
}

// scope returns the scope of a draw aimed at profile ("": unaimed) in tier
// (nil: small), computing it the first time.
func (g *Gen) scope(profile string, tier *Tier) *scope {
	key := scopeKey{profile, tier}
	if s, ok := g.scopes.Load(key); ok {
		return s.(*scope)
	}
	s := &scope{g: g, tier: tier}
	if profile != "" {
		s.sup = supportOf(profile)
		s.rust = s.sup.rust
	}
	for _, op := range g.ops {
		if tier != nil && !tier.reaches(op) {
			continue
		}
		ds := g.dtypes
		var sup *opSupport
		if s.sup != nil {
			ds, sup = nil, s.sup.byOp[op]
			if sup != nil {
				for _, d := range sup.dtypes {
					if slices.Contains(g.dtypes, d) {
						ds = append(ds, d)
					}
				}
			}
		}
		if tier != nil {
			ds = slices.DeleteFunc(slices.Clone(ds), func(d tensor.DType) bool { return !tier.holds(d) })
		}
		if len(ds) > 0 {
			info, _ := tensor.LookupOp(op)
			s.ops = append(s.ops, scopeOp{OpInfo: info, dtypes: ds, sup: sup, specials: specialsTable()[op]})
		}
	}
	s.findSteps()
	actual, _ := g.scopes.LoadOrStore(key, s)
	return actual.(*scope)
}

func (s *scope) draw(d *draw) *tensor.Case {
	op := &s.ops[d.intn(len(s.ops))]
	return s.drawOp(d, op, pick(d, op.dtypes))
}

// drawOp draws a case of op whose main input has dtype dt (the draw's main
// tensor, when one is set, is that input).
func (s *scope) drawOp(d *draw, op *scopeOp, dt tensor.DType) *tensor.Case {
	c := &tensor.Case{Op: op.Name}
	switch op.Class {
	case tensor.ClassBinary:
		s.binaryArgs(d, c, op, dt)
	case tensor.ClassUnary:
		c.Args = []tensor.Arg{{Tensor: s.tensor(d, dt, op, 0, bias{})}}
	case tensor.ClassCast:
		to := pick(d, tensor.AllDTypes)
		if s.sup != nil {
			to = pick(d, s.sup.casts[dt])
		}
		c.Attrs.To = to
		c.Args = []tensor.Arg{{Tensor: s.tensor(d, dt, op, 0, bias{target: to})}}
	case tensor.ClassReduce, tensor.ClassCumsum:
		a := s.tensor(d, dt, op, 0, bias{})
		c.Args = []tensor.Arg{{Tensor: a}}
		if op.Class == tensor.ClassCumsum && !d.oneIn(8) || d.coin() { // cumsum without a dim: NumPy and JAX flatten, PyTorch refuses
			r := max(a.Rank(), 1)
			dim := d.between(-r, r-1)
			c.Attrs.Dim = &dim
		}
		if op.Class == tensor.ClassReduce && d.coin() {
			k := d.coin()
			c.Attrs.Keepdim = &k
		}
		if takesDTypeArg(op.Name) && !s.rust && d.oneIn(4) {
			c.Attrs.DType = s.reduceDType(d, dt)
		}
	case tensor.ClassIndexSelect:
		s.indexSelect(d, c, op, dt)
	case tensor.ClassFromLiteral:
		var forms []litForm
		if s.sup != nil {
			forms = s.sup.literals
		}
		lit := genLiteral(d, s.literalSyntax(d), forms)
		c.Attrs.Literal = &lit
		if !s.rust && d.oneIn(4) {
			c.Attrs.DType = literalDTypeArg(d, lit) // gen_dtypearg.go
		}
	case tensor.ClassArange:
		kinds := arangeKinds
		if s.sup != nil {
			kinds = s.sup.aranges
		}
		start, end := genArangeBounds(d, pick(d, kinds))
		if !s.rust && d.oneIn(4) {
			c.Attrs.DType = arangeDTypeArg(d) // gen_dtypearg.go
			switch {
			case d.oneIn(3):
				start, end = arangeEdgeBounds(d, c.Attrs.DType)
			case d.oneIn(3):
				start, end = arangeEdgeFloatBounds(d, c.Attrs.DType)
			}
		}
		c.Attrs.Start, c.Attrs.End = &start, &end
	case tensor.ClassZeros:
		minRank := 0
		if s.sup != nil && !s.sup.zeros.rank0 {
			minRank = 1
		}
		c.Attrs.Shape = s.g.smallShape(d, minRank)
		if s.sup == nil && d.coin() || s.sup != nil && (!s.sup.zeros.noDType || d.coin()) {
			c.Attrs.DType = dt
		}
	case tensor.ClassFromVec:
		a := s.g.elements(d, dt, []int{d.between(0, 8)}, bias{})
		c.Args = []tensor.Arg{{Tensor: a}}
		c.Attrs.Shape = []int{a.Len()}
	case tensor.ClassBroadcast, tensor.ClassWhere, tensor.ClassClamp, tensor.ClassFull:
		s.drawNew(d, c, op, dt) // gen_newops_a.go
	case tensor.ClassSort, tensor.ClassMaskSelect:
		s.drawSortOp(d, c, op, dt) // gen_sort.go
	case tensor.ClassMatmul, tensor.ClassCat:
		s.drawMatmulCat(d, c, op.Class, dt) // gen_matmul.go
	case tensor.ClassToHost:
		a := s.tensor(d, dt, op, 0, bias{})
		c.Args = []tensor.Arg{{Tensor: a}}
		c.Attrs.DType = pick(d, op.dtypes)
		r := a.Rank()
		c.Attrs.Rank = &r
	}
	return c
}

// literalSyntax is the syntax of the literals of this draw's profile: Rust
// for candle, burn and tenferro, Python otherwise; either when unaimed.
func (s *scope) literalSyntax(d *draw) syntax {
	switch {
	case s.sup == nil:
		return syntax(d.intn(2))
	case s.rust:
		return rustSyntax
	}
	return pythonSyntax
}

// tensor draws the main input of op (operand arg): small, or in the draw's
// size tier.
func (s *scope) tensor(d *draw, dt tensor.DType, op *scopeOp, arg int, b bias) *tensor.Tensor {
	if m := d.main; m != nil { // a program's step: the main input is an earlier result
		d.main = nil
		return m
	}
	b.specials = op.specialsOf(arg, dt)
	if s.tier != nil {
		return s.tier.tensor(d, dt, b)
	}
	minRank := 0
	if op.sup != nil {
		minRank = op.sup.minRank
	}
	return s.g.elements(d, dt, s.g.smallShape(d, minRank), b)
}

// smallShape draws a shape: rank minRank to 3, dims up to 6 (the last up to
// the element budget), sometimes empty.
func (g *Gen) smallShape(d *draw, minRank int) []int {
	rank := d.between(minRank, 3)
	shape := make([]int, rank)
	budget := g.opts.maxElems()
	for i := range shape {
		hi := min(budget, 6)
		if i == rank-1 {
			hi = budget
		}
		shape[i] = d.between(0, max(hi, 0))
		if shape[i] > 0 {
			budget /= shape[i]
		}
	}
	return shape
}

// elements draws a tensor of the given shape, every element on its own.
func (g *Gen) elements(d *draw, dt tensor.DType, shape []int, b bias) *tensor.Tensor {
	x := tensor.New(dt, shape...)
	d.fillElements(x, b)
	return x
}

// broadcastPartner draws a shape that broadcasts with shape: usually the
// same, sometimes with leading dims dropped or some dims set to 1.
func broadcastPartner(d *draw, shape []int) []int {
	switch d.intn(4) {
	case 0, 1:
		return slices.Clone(shape)
	case 2:
		return slices.Clone(shape[d.between(0, len(shape)):])
	}
	out := slices.Clone(shape)
	for i := range out {
		if d.coin() {
			out[i] = 1
		}
	}
	return out
}

func (s *scope) binaryArgs(d *draw, c *tensor.Case, op *scopeOp, dt tensor.DType) {
	var placements []scalarPlacement
	partners := s.g.dtypes
	if op.sup != nil {
		placements, partners = op.sup.scalars[dt], op.sup.partners[dt]
	}
	useScalar := d.oneIn(4)
	if s.sup != nil {
		switch {
		case len(placements) == 0:
			useScalar = false
		case len(partners) == 0:
			useScalar = true
		}
	}
	if useScalar {
		var pl scalarPlacement
		if s.sup != nil {
			pl = pick(d, placements)
		} else {
			pl = scalarPlacement{pick(d, scalarKinds), d.coin()}
		}
		arg := 0
		if pl.left {
			arg = 1 // the tensor is the right operand
		}
		a := s.tensor(d, dt, op, arg, bias{})
		sc := drawScalar(d, pl.kind, c.Op, 1-arg)
		c.Args = []tensor.Arg{{Tensor: a}, {Scalar: sc}}
		if pl.left {
			c.Args[0], c.Args[1] = c.Args[1], c.Args[0]
		}
		return
	}
	// the right operand: often the same dtype, to reach the kernels past promotion
	bt := dt
	if !slices.Contains(partners, dt) || d.coin() {
		bt = pick(d, partners)
	}
	a := s.tensor(d, dt, op, 0, bias{})
	bb := bias{specials: op.specialsOf(1, bt)}
	var b *tensor.Tensor
	if shape := broadcastPartner(d, a.Shape); tensor.NumElements(shape) > s.g.opts.maxElems() {
		b = d.fill(bt, shape, bb, s.tier) // the partner of a tier-sized tensor
	} else {
		b = s.g.elements(d, bt, shape, bb)
	}
	c.Args = []tensor.Arg{{Tensor: a}, {Tensor: b}}
}

func (s *scope) indexSelect(d *draw, c *tensor.Case, op *scopeOp, dt tensor.DType) {
	src := s.tensor(d, dt, op, 0, bias{})
	rank := max(src.Rank(), 1)
	dim := d.between(-rank, rank-1)
	size := 1
	if src.Rank() > 0 {
		size = src.Shape[(dim+rank)%rank]
	}
	ids := indexDTypes
	if s.sup != nil {
		ids = s.sup.indexes[dt]
	}
	idxType := pick(d, ids)
	n := d.between(0, 4)
	idx := tensor.New(idxType, n)
	for i := 0; i < n; i++ {
		v := int64(d.between(-size-1, size))
		if d.oneIn(16) {
			v = int64(pick(d, []int{-size - 1, size, size + 1, 1 << 31, -1 << 31}))
		}
		if idxType.IsFloat() {
			idx.SetFloat(i, float64(v))
		} else {
			idx.SetInt(i, v)
		}
	}
	c.Args = []tensor.Arg{{Tensor: src}, {Tensor: idx}}
	c.Attrs.Dim = &dim
}
