package props

import (
	"math"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// Drawing sort, argsort and mask_select (issue 16): rows full of ties
// (repeated values, -0.0 next to +0.0, several NaNs), every combination of
// dim (absent, in range, out of range), descending and stable; masks of
// every dtype a profile answers (bool, PyTorch's u8, integer indices for
// NumPy and JAX), of the leading dims' shape, sometimes a wrong one, empty
// or 0-dim. Shrinking keeps the mask's dims aligned with the input's and
// drops the sort attrs.

// sortSpecials are the values sort cases are built from: the places where
// frameworks order differently.
var sortSpecials = []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1, -1}

// maskDTypes are the mask dtypes mask_select cases use.
var maskDTypes = []tensor.DType{tensor.Bool, tensor.U8, tensor.I64, tensor.I32, tensor.I8, tensor.U16, tensor.F32}

// drawSortOp draws the args and attrs of a sort, argsort or mask_select case.
func (s *scope) drawSortOp(d *draw, c *tensor.Case, op *scopeOp, dt tensor.DType) {
	x := s.tensor(d, dt, op, 0, bias{})
	if op.Class == tensor.ClassSort {
		if s.tier == nil && x.Len() > 1 && d.coin() {
			repeatElements(d, x)
		}
		c.Args = []tensor.Arg{{Tensor: x}}
		if d.coin() {
			r := max(x.Rank(), 1)
			dim := d.between(-r, r-1)
			if d.oneIn(10) {
				dim = r
			}
			c.Attrs.Dim = &dim
		}
		c.Attrs.Descending = drawOptionalBool(d)
		c.Attrs.Stable = drawOptionalBool(d)
		return
	}
	md := pick(d, maskDTypes)
	if s.sup != nil && len(s.sup.masks[dt]) > 0 {
		md = pick(d, s.sup.masks[dt])
	}
	c.Args = []tensor.Arg{{Tensor: x}, {Tensor: s.mask(d, md, x)}}
}

// drawOptionalBool is absent, false or true.
func drawOptionalBool(d *draw) *bool {
	switch d.intn(3) {
	case 0:
		return nil
	case 1:
		return new(bool)
	}
	v := true
	return &v
}

// repeatElements copies some elements of x onto others: ties.
func repeatElements(d *draw, x *tensor.Tensor) {
	n := x.Len()
	words := len(x.Data) / n
	for i := range n {
		if d.coin() {
			j := d.intn(n)
			copy(x.Data[i*words:(i+1)*words], x.Data[j*words:(j+1)*words])
		}
	}
}

// mask draws t[mask]'s mask of dtype md for x: the shape of x's leading
// dims (all of them, some, none: 0-dim), now and then a wrong one; values
// true or false, for an integer dtype indices around x's first dim.
func (s *scope) mask(d *draw, md tensor.DType, x *tensor.Tensor) *tensor.Tensor {
	k := x.Rank()
	if d.oneIn(3) {
		k = d.between(0, x.Rank())
	}
	shape := slices.Clone(x.Shape[:k])
	switch {
	case md != tensor.Bool && md != tensor.U8 && d.coin():
		shape = []int{d.between(0, 5)} // integer indices: any count
	case d.oneIn(8) && len(shape) > 0:
		j := d.intn(len(shape))
		shape[j] = max(shape[j]+pick(d, []int{-1, 1}), 0)
	case d.oneIn(12):
		shape = append(shape, 1)
	}
	if s.tier != nil && tensor.NumElements(shape) > s.g.opts.maxElems() && md == tensor.Bool {
		return d.fill(md, shape, bias{}, s.tier)
	}
	if tensor.NumElements(shape) > 4*s.g.opts.maxElems() {
		shape = []int{d.between(0, 5)}
	}
	m := tensor.New(md, shape...)
	n := 1
	if x.Rank() > 0 {
		n = x.Shape[0]
	}
	for i := range m.Len() {
		switch {
		case md == tensor.Bool:
			m.SetBool(i, d.coin())
		case md == tensor.U8 && !d.oneIn(6):
			m.SetInt(i, int64(d.intn(2)))
		case md.IsFloat():
			m.SetFloat(i, float64(d.intn(2)))
		default:
			v := int64(d.between(-n-1, n))
			if md.IsUnsigned() && v < 0 {
				v = int64(pick(d, []int{255, 0, 1, n}))
			}
			m.SetInt(i, v)
		}
	}
	return m
}

// probeSort fills the support table for sort, argsort and mask_select and
// returns their main dtypes.
func (s *support) probeSort(op tensor.OpInfo, answers func(*tensor.Case) bool) []tensor.DType {
	var ds []tensor.DType
	for _, a := range tensor.AllDTypes {
		x := tensor.Arg{Tensor: probeTensor(a)}
		if op.Class == tensor.ClassSort {
			if answers(probeCase(op.Name, x)) {
				ds = append(ds, a)
			}
			continue
		}
		for _, md := range maskDTypes {
			m := tensor.New(md, 2)
			m.SetInt(0, 1)
			if md.IsFloat() {
				m.SetFloat(0, 1)
			}
			if answers(probeCase(op.Name, x, tensor.Arg{Tensor: m})) {
				s.masks[a] = append(s.masks[a], md)
			}
		}
		if len(s.masks[a]) > 0 {
			ds = append(ds, a)
		}
	}
	return ds
}

// sortAttrCandidates drop the sort attrs (the defaults are the simplest).
func sortAttrCandidates(c *tensor.Case) []*tensor.Case {
	if op, _ := tensor.LookupOp(c.Op); op.Class != tensor.ClassSort {
		return nil
	}
	var out []*tensor.Case
	for _, drop := range []func(a *tensor.Attrs) bool{
		func(a *tensor.Attrs) bool { ok := a.Descending != nil; a.Descending = nil; return ok },
		func(a *tensor.Attrs) bool { ok := a.Stable != nil; a.Stable = nil; return ok },
		func(a *tensor.Attrs) bool { ok := a.Dim != nil; a.Dim = nil; return ok },
	} {
		d := cloneCase(c)
		if drop(&d.Attrs) {
			out = append(out, d)
		}
	}
	return out
}

// maskDimCandidates cut one leading dim of x and of a mask over it alike
// (to its first index, or its first half), so that the mask keeps fitting.
func maskDimCandidates(c *tensor.Case) []*tensor.Case {
	if c.Op != "mask_select" || len(c.Args) != 2 || c.Args[0].Tensor == nil || c.Args[1].Tensor == nil {
		return nil
	}
	x, m := c.Args[0].Tensor, c.Args[1].Tensor
	var out []*tensor.Case
	for j := 0; j < m.Rank() && j < x.Rank(); j++ {
		if m.Shape[j] != x.Shape[j] || x.Shape[j] < 2 {
			continue
		}
		for _, keep := range []int{1, x.Shape[j] / 2} {
			d := cloneCase(c)
			d.Args[0].Tensor = sliceDim(x, j, keep)
			d.Args[1].Tensor = sliceDim(m, j, keep)
			out = append(out, d)
		}
	}
	return out
}

// sortAttrSize is what the sort attrs add to a case's Size: an attr given
// is less simple than its default.
func sortAttrSize(a tensor.Attrs) float64 {
	var n float64
	if a.Descending != nil {
		n += 0.25
	}
	if a.Stable != nil {
		n += 0.25
	}
	return n
}
