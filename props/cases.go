package props

import (
	"slices"
	"sync"

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
	s := g.scope(profile, t)
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
	g       *Gen
	sup     *support // nil: unaimed
	ops     []string
	classes []tensor.OpClass          // per op in ops
	dtypes  map[string][]tensor.DType // per op in ops
	tier    *Tier                     // nil: small
	rust    bool
}

// scope returns the scope of a draw aimed at profile ("": unaimed) in tier
// (nil: small), computing it the first time.
func (g *Gen) scope(profile string, tier *Tier) *scope {
	key := scopeKey{profile, tier}
	if s, ok := g.scopes.Load(key); ok {
		return s.(*scope)
	}
	s := &scope{g: g, tier: tier, dtypes: map[string][]tensor.DType{}}
	if profile != "" {
		s.sup = supportOf(profile)
		s.rust = s.sup.rust
	}
	for _, op := range g.ops {
		if tier != nil && !tier.reaches(op) {
			continue
		}
		ds := g.dtypes
		if s.sup != nil {
			ds = nil
			for _, d := range s.sup.dtypes[op] {
				if slices.Contains(g.dtypes, d) {
					ds = append(ds, d)
				}
			}
		}
		if tier != nil {
			ds = slices.DeleteFunc(slices.Clone(ds), func(d tensor.DType) bool { return !tier.holds(d) })
		}
		if len(ds) > 0 {
			s.ops = append(s.ops, op)
			info, _ := tensor.LookupOp(op)
			s.classes = append(s.classes, info.Class)
			s.dtypes[op] = ds
		}
	}
	actual, _ := g.scopes.LoadOrStore(key, s)
	return actual.(*scope)
}

func (s *scope) draw(d *draw) *tensor.Case {
	name := pick(d, s.ops)
	return s.drawOp(d, name, pick(d, s.dtypes[name]))
}

// drawOp draws a case of op name whose main input has dtype dt (the
// draw's main tensor, when one is set, is that input).
func (s *scope) drawOp(d *draw, name string, dt tensor.DType) *tensor.Case {
	op, _ := tensor.LookupOp(name)
	c := &tensor.Case{Op: name}
	switch op.Class {
	case tensor.ClassBinary:
		s.binaryArgs(d, c, dt)
	case tensor.ClassUnary:
		c.Args = []tensor.Arg{{Tensor: s.tensor(d, dt, name, 0, bias{})}}
	case tensor.ClassCast:
		to := pick(d, tensor.AllDTypes)
		if s.sup != nil {
			to = pick(d, s.sup.casts[dt])
		}
		c.Attrs.To = to
		c.Args = []tensor.Arg{{Tensor: s.tensor(d, dt, name, 0, bias{target: to})}}
	case tensor.ClassReduce, tensor.ClassCumsum:
		a := s.tensor(d, dt, name, 0, bias{})
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
		if takesDTypeArg(name) && !s.rust && d.oneIn(4) {
			c.Attrs.DType = s.reduceDType(d, dt)
		}
	case tensor.ClassIndexSelect:
		s.indexSelect(d, c, dt)
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
		s.drawNew(d, c, op.Class, dt) // gen_newops_a.go
	case tensor.ClassSort, tensor.ClassMaskSelect:
		s.drawSortOp(d, c, op.Class, dt) // gen_sort.go
	case tensor.ClassMatmul, tensor.ClassCat:
		s.drawMatmulCat(d, c, op.Class, dt) // gen_matmul.go
	case tensor.ClassToHost:
		a := s.tensor(d, dt, name, 0, bias{})
		c.Args = []tensor.Arg{{Tensor: a}}
		c.Attrs.DType = pick(d, s.dtypes[name])
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
func (s *scope) tensor(d *draw, dt tensor.DType, op string, arg int, b bias) *tensor.Tensor {
	if m := d.main; m != nil { // a program's step: the main input is an earlier result
		d.main = nil
		return m
	}
	b.specials = opSpecials(op, arg, dt)
	if s.tier != nil {
		return s.tier.tensor(d, dt, b)
	}
	minRank := 0
	if s.sup != nil {
		minRank = s.sup.minRank[op]
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

func (s *scope) binaryArgs(d *draw, c *tensor.Case, dt tensor.DType) {
	key := opDType{c.Op, dt}
	var placements []scalarPlacement
	if s.sup != nil {
		placements = s.sup.scalars[key]
	}
	partners := s.g.dtypes
	if s.sup != nil {
		partners = s.sup.partners[key]
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
		a := s.tensor(d, dt, c.Op, arg, bias{})
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
	a := s.tensor(d, dt, c.Op, 0, bias{})
	bb := bias{specials: opSpecials(c.Op, 1, bt)}
	var b *tensor.Tensor
	if shape := broadcastPartner(d, a.Shape); tensor.NumElements(shape) > s.g.opts.maxElems() {
		b = d.fill(bt, shape, bb, s.tier) // the partner of a tier-sized tensor
	} else {
		b = s.g.elements(d, bt, shape, bb)
	}
	c.Args = []tensor.Arg{{Tensor: a}, {Tensor: b}}
}

func (s *scope) indexSelect(d *draw, c *tensor.Case, dt tensor.DType) {
	src := s.tensor(d, dt, c.Op, 0, bias{})
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
