package props

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// Drawing matmul and cat (issue 16, second half). matmul: operands of rank
// 1 to 4 (0 now and then), k that sometimes differs, batch dims that
// broadcast, that do not, or that only have equal products (candle's
// check), empty dims, a second dtype one case in four (seed 003's f32 @
// f64), integers over their whole range (products that wrap) and floats
// mostly small integers and halves, so that sums are exact and the model
// states them, with NaN, ±inf and -0 among them. cat: one to four tensors
// of one or several dtypes (mixed-dtype lists), sizes 0 to 3 along dim,
// a dim out of range, a rank or size that differs, PyTorch's legacy 1-D
// empty tensor. Tier cases reach the engine's packed blocks and splits.

// isMatmulCat reports the classes drawn here.
func isMatmulCat(c tensor.OpClass) bool { return c == tensor.ClassMatmul || c == tensor.ClassCat }

// drawMatmulCat draws the args and attrs of a matmul or cat whose first
// input has dtype dt.
func (s *scope) drawMatmulCat(d *draw, c *tensor.Case, class tensor.OpClass, dt tensor.DType) {
	if class == tensor.ClassCat {
		s.drawCat(d, c, dt)
		return
	}
	if s.tier != nil {
		s.tierMatmul(d, c, dt)
		return
	}
	ra, rb := mmRank(d), mmRank(d)
	if s.rust && !d.oneIn(4) { // candle and burn take equal ranks (burn's other ranks do not compile)
		rb = ra
	}
	small := func() int {
		if d.oneIn(6) {
			return 0
		}
		return d.between(1, 4)
	}
	m, k, n := small(), small(), small()
	kb := k
	if d.oneIn(8) {
		kb = small()
	}
	ba, bb := mmBatchDims(d, max(ra-2, 0), max(rb-2, 0))
	sa := append(slices.Clone(ba), m, k)[max(2-ra, 0):]
	sb := append(slices.Clone(bb), kb, n)
	if rb == 1 {
		sb = []int{kb}
	}
	if ra == 0 {
		sa = []int{}
	}
	if rb == 0 {
		sb = []int{}
	}
	c.Args = []tensor.Arg{{Tensor: s.mmElements(d, dt, sa)}, {Tensor: s.mmElements(d, s.partner(d, c.Op, dt), sb)}}
}

// mmRank draws an operand's rank: mostly 2, 1 or 3, sometimes 4 or 0.
func mmRank(d *draw) int {
	switch d.intn(24) {
	case 0:
		return 0
	case 1, 2:
		return 4
	}
	return pick(d, []int{1, 2, 2, 2, 3})
}

// mmBatchDims draws batch dims of na and nb dims: one shape both take the
// end of, some dims 1 on one side (broadcast), now and then one that
// clashes, or (when both have two) the same dims in the other order, whose
// products agree (candle compares only those).
func mmBatchDims(d *draw, na, nb int) (a, b []int) {
	full := make([]int, max(na, nb))
	for i := range full {
		full[i] = d.between(1, 3)
	}
	a, b = slices.Clone(full[len(full)-na:]), slices.Clone(full[len(full)-nb:])
	for _, side := range [][]int{a, b} {
		for i := range side {
			if d.oneIn(4) {
				side[i] = 1
			}
		}
	}
	switch {
	case na == 2 && nb == 2 && d.oneIn(6):
		b[0], b[1] = a[1], a[0]
	case len(b) > 0 && d.oneIn(10):
		b[d.intn(len(b))] = 4 // no broadcast partner for it
	}
	return a, b
}

// partner is the dtype of the op's other inputs: dt, or one case in four
// another dtype the profile answers the op with.
func (s *scope) partner(d *draw, op string, dt tensor.DType) tensor.DType {
	if !d.oneIn(4) {
		return dt
	}
	if s.sup != nil {
		if o := s.sup.byOp[op]; o != nil && len(o.partners[dt]) > 0 {
			return pick(d, o.partners[dt])
		}
	}
	return pick(d, s.g.dtypes)
}

// mmElements draws a matmul operand: the palette's values, with floats
// mostly replaced by small integers and halves (exact sums).
func (s *scope) mmElements(d *draw, dt tensor.DType, shape []int) *tensor.Tensor {
	x := s.g.elements(d, dt, shape, bias{})
	if !dt.IsFloat() {
		return x
	}
	vals := []float64{0, 1, -1, 2, -2, 3, 0.5, -0.5, 4}
	for i := 0; i < x.Len(); i++ {
		if !d.oneIn(5) {
			x.SetFloat(i, pick(d, vals))
		}
	}
	return x
}

// tierMatmul draws a matmul at a tier's size: k (or n) at it for a
// dimension's size, else m*k*n about it (the work a split divides).
func (s *scope) tierMatmul(d *draw, c *tensor.Case, dt tensor.DType) {
	t := s.tier
	size := t.size(d)
	edge := []int{1, 3, 8, 9, 12} // the engine's packed path takes m, n and k of 8 and more
	m, k, n := pick(d, edge), size, pick(d, edge)
	switch {
	case !t.Dim: // a's m x k holds the size, n small: the work is a few times it
		k, n = pick(d, []int{8, 16, 33, 64}), pick(d, []int{2, 8, 9, 16})
		m = (size + k - 1) / k
	case d.coin():
		k, n = pick(d, edge), size
	}
	sa, sb := []int{m, k}, []int{k, n}
	if d.oneIn(4) {
		sa, sb = append([]int{2}, sa...), append([]int{2}, sb...)
	}
	c.Args = []tensor.Arg{{Tensor: s.tierOperand(d, dt, sa)}, {Tensor: s.tierOperand(d, dt, sb)}}
}

// tierOperand fills a tier-sized operand: the tier palette, or for floats
// half the time small integers (whose sums the model states).
func (s *scope) tierOperand(d *draw, dt tensor.DType, shape []int) *tensor.Tensor {
	if !dt.IsFloat() || d.coin() {
		return d.fill(dt, shape, bias{}, s.tier)
	}
	x := tensor.New(dt, shape...)
	seed := d.word() | 1
	for i := 0; i < x.Len(); i++ {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		x.SetFloat(i, float64(int(seed%9)-4))
	}
	return x
}

// drawCat draws a cat: the tensors, their dtypes and the dim.
func (s *scope) drawCat(d *draw, c *tensor.Case, dt tensor.DType) {
	if s.tier != nil {
		s.tierCat(d, c, dt)
		return
	}
	rank := d.between(1, 3)
	if d.oneIn(16) {
		rank = 0
	}
	base := make([]int, rank)
	for i := range base {
		base[i] = d.between(0, 3)
	}
	dim := d.between(-max(rank, 1), max(rank, 1)-1)
	if d.oneIn(10) {
		dim = pick(d, []int{rank, -rank - 1})
	}
	along, ok := normDim(dim, rank)
	count := d.between(1, 4)
	if d.oneIn(6) {
		count = 1
	}
	for i := 0; i < count; i++ {
		shape := slices.Clone(base)
		if ok {
			shape[along] = d.between(0, 3)
		}
		switch {
		case d.oneIn(12):
			shape = []int{0} // PyTorch's legacy empty tensor, skipped by torch.cat
		case rank > 0 && d.oneIn(10):
			shape[d.intn(rank)] = 4 // a size that differs
		case d.oneIn(16):
			shape = append(shape, 1) // another rank
		}
		bt := dt
		if i > 0 {
			bt = s.partner(d, c.Op, dt)
		}
		c.Args = append(c.Args, tensor.Arg{Tensor: s.g.elements(d, bt, shape, bias{})})
	}
	c.Attrs.Dim = &dim
}

// tierCat draws two or three tensors along dim 0 of a 1-D list or dim 1 of
// rows, the first of the tier's size, the others of a part of it.
func (s *scope) tierCat(d *draw, c *tensor.Case, dt tensor.DType) {
	size := s.tier.size(d)
	parts := d.between(2, 3)
	rows, dim := 1, 0
	if d.coin() {
		rows, dim = pick(d, []int{2, 3, 8}), 1
	}
	for i := 0; i < parts; i++ {
		cols := (size + rows - 1) / rows
		if i > 0 {
			cols = max(cols/d.between(1, 4)+d.between(-1, 1), 0)
		}
		shape := []int{cols}
		if dim == 1 {
			shape = []int{rows, cols}
		}
		bt := dt
		if i > 0 && d.oneIn(4) {
			bt = s.partner(d, c.Op, dt)
		}
		c.Args = append(c.Args, tensor.Arg{Tensor: d.fill(bt, shape, bias{}, s.tier)})
	}
	c.Attrs.Dim = &dim
}

// enlargeMatmulCat is Enlarge for matmul and cat, whose operands must keep
// fitting: a matmul's k grows in both operands (a dimension's tier) or
// a's rows (the work a split divides), every cat tensor grows along dim;
// nil when the case has no such dims.
func enlargeMatmulCat(c *tensor.Case, t *Tier, d *draw) *tensor.Case {
	e := *c
	e.Args = slices.Clone(c.Args)
	e.Expect, e.Got = nil, nil
	n := t.size(d)
	grow := func(i, j, to int) {
		x := e.Args[i].Tensor
		shape := slices.Clone(x.Shape)
		shape[j] = max(shape[j], to)
		e.Args[i].Tensor = d.fillFrom(x, shape, t)
	}
	if c.Op == "cat" {
		if c.Attrs.Dim == nil {
			return nil
		}
		for i, a := range c.Args {
			at, ok := normDim(*c.Attrs.Dim, a.Tensor.Rank())
			if !ok || a.Tensor.Len() == 0 {
				continue
			}
			other := a.Tensor.Len() / a.Tensor.Shape[at]
			grow(i, at, (n+other-1)/other)
		}
		return &e
	}
	if len(c.Args) != 2 || c.Args[0].Tensor == nil || c.Args[1].Tensor == nil {
		return nil
	}
	a, b := c.Args[0].Tensor, c.Args[1].Tensor
	if a.Rank() == 0 || b.Rank() == 0 || a.Len() == 0 || b.Len() == 0 {
		return nil
	}
	ra, rb := a.Rank(), b.Rank()
	if !t.Dim && ra >= 2 { // rows: a of at least n elements
		other := a.Len() / a.Shape[ra-2]
		grow(0, ra-2, (n+other-1)/other)
		return &e
	}
	grow(0, ra-1, n)
	grow(1, max(rb-2, 0), n)
	return &e
}

func normDim(dim, rank int) (int, bool) {
	if dim < 0 {
		dim += rank
	}
	return dim, dim >= 0 && dim < rank
}

// probeMatmulCat fills the support table for matmul or cat (the partner
// dtypes that answer next to each first dtype) and returns the first
// dtypes that answer at all.
func (s *support) probeMatmulCat(op tensor.OpInfo, answers func(*tensor.Case) bool) []tensor.DType {
	var ds []tensor.DType
	for _, a := range tensor.AllDTypes {
		ok := false
		for _, b := range tensor.AllDTypes {
			c := probeCase(op.Name, tensor.Arg{Tensor: probeMatrix(a)}, tensor.Arg{Tensor: probeMatrix(b)})
			if op.Class == tensor.ClassCat {
				c.Attrs.Dim = new(int)
			}
			if answers(c) {
				o := s.of(op.Name)
				o.partners[a] = append(o.partners[a], b)
				ok = true
			}
		}
		if ok {
			ds = append(ds, a)
		}
	}
	return ds
}

// probeMatrix is a 2 x 2 probe: 1, 2, 3, 4.
func probeMatrix(d tensor.DType) *tensor.Tensor {
	x := tensor.New(d, 2, 2)
	for i := 0; i < 4; i++ {
		if d.IsInt() || d == tensor.Bool {
			x.SetInt(i, int64(i+1))
		} else {
			x.SetFloat(i, float64(i+1))
		}
	}
	return x
}

// matmulCatCandidates shrink a matmul's m, n and k (k in both operands at
// once, so that the shapes still multiply) and batch dims, and a cat's
// list (one tensor fewer) and each tensor along dim.
func matmulCatCandidates(c *tensor.Case) []*tensor.Case {
	op, _ := tensor.LookupOp(c.Op)
	if c.IsProgram() || !isMatmulCat(op.Class) {
		return nil
	}
	var out []*tensor.Case
	if op.Class == tensor.ClassCat {
		for i := range c.Args {
			if len(c.Args) > 1 {
				d := cloneCase(c)
				d.Args = slices.Delete(d.Args, i, i+1)
				out = append(out, d)
			}
		}
		if c.Attrs.Dim != nil {
			for i, a := range c.Args {
				if at, ok := normDim(*c.Attrs.Dim, a.Tensor.Rank()); ok && a.Tensor.Shape[at] > 1 {
					d := cloneCase(c)
					d.Args[i].Tensor = sliceDim(d.Args[i].Tensor, at, 1)
					out = append(out, d)
				}
			}
		}
		return compact(out)
	}
	if len(c.Args) != 2 || c.Args[0].Tensor == nil || c.Args[1].Tensor == nil {
		return nil
	}
	a, b := c.Args[0].Tensor, c.Args[1].Tensor
	cut := func(ca, cb func(t *tensor.Tensor) *tensor.Tensor) {
		d := cloneCase(c)
		if ca != nil {
			d.Args[0].Tensor = ca(d.Args[0].Tensor)
		}
		if cb != nil {
			d.Args[1].Tensor = cb(d.Args[1].Tensor)
		}
		out = append(out, d)
	}
	dimTo := func(j, keep int) func(t *tensor.Tensor) *tensor.Tensor {
		return func(t *tensor.Tensor) *tensor.Tensor { return sliceDim(t, j, keep) }
	}
	ra, rb := a.Rank(), b.Rank()
	if ra >= 2 && a.Shape[ra-2] > 1 { // m
		cut(dimTo(ra-2, 1), nil)
	}
	if rb >= 2 && b.Shape[rb-1] > 1 { // n
		cut(nil, dimTo(rb-1, 1))
	}
	kb := 0
	if rb >= 1 {
		kb = b.Shape[max(rb-2, 0)]
	}
	if ra >= 1 && rb >= 1 && a.Shape[ra-1] == kb && kb > 1 { // k in both
		cut(dimTo(ra-1, 1), dimTo(max(rb-2, 0), 1))
	}
	for j := 0; j+2 < ra; j++ { // batch dims
		if a.Shape[j] > 1 {
			cut(dimTo(j, 1), nil)
		}
	}
	for j := 0; j+2 < rb; j++ {
		if b.Shape[j] > 1 {
			cut(nil, dimTo(j, 1))
		}
	}
	return compact(out)
}

// distinctDTypes is the dtypes of a cat's list in order of first
// appearance, for its signature: the same bug with one more tensor of a
// dtype already there is the same finding.
func distinctDTypes(parts []string) []string {
	var out []string
	for _, p := range parts {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
