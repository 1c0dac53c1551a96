package props

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// Shrinking views: a view weighs a little more than the contiguous tensor
// of its elements, and more for each kind of step it takes (a permutation,
// slices off the whole dim or with a step, a broadcast), so the shrinker
// turns views contiguous or simpler as far as the divergence stays. Where
// it needs the view, the other families' smaller candidates are also tried
// laid out again as the view was (relayout), so that a view still shrinks
// to few elements.

// viewSize is what views add to Size: below one element's weight.
func viewSize(c *tensor.Case) float64 {
	var n float64
	each := func(t *tensor.Tensor) {
		v := t.View
		if v == nil {
			return
		}
		n += 5e3
		if v.Permute != nil && !isIdentity(v.Permute) {
			n += 5e3
		}
		if v.Slice != nil {
			n += 2e3
			for _, s := range v.Slice {
				n += float64(s[2]-1) * 1e3
			}
		}
		if v.Expand != nil {
			n += 5e3
		}
		storage := tensor.NumElements(v.Base)
		n += float64(max(storage-t.Len(), 0))
		st := t.Storage()
		for i := 0; st != nil && i < st.Len() && i < 4096; i++ {
			n += elementComplexity(st, i) / 1e4
		}
	}
	for _, a := range c.Args {
		if a.Tensor != nil {
			each(a.Tensor)
		}
	}
	for _, s := range c.Steps {
		for _, a := range s.Args {
			if a.From == tensor.FromLiteral && a.Arg.Tensor != nil {
				each(a.Arg.Tensor)
			}
		}
	}
	return n
}

// viewCandidates make one view argument contiguous, or lay it out again
// without its permutation, its slices, its steps or its broadcast, or with
// zeros in the storage it does not show.
func viewCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	for _, i := range tensorArgs(c) {
		t := c.Args[i].Tensor
		if t.View == nil {
			continue
		}
		d := cloneCase(c)
		d.Args[i].Tensor = t.Clone()
		out = append(out, d)
		l := layoutOf(t)
		simpler := []func(*viewLayout){
			func(l *viewLayout) { l.perm = identity(len(l.perm)) },
			func(l *viewLayout) { clear(l.start); clear(l.tail); fillOnes(l.step) },
			func(l *viewLayout) { fillOnes(l.step) },
			func(l *viewLayout) { clear(l.expand); l.lead = 0 },
		}
		for _, f := range simpler {
			m := l.clone()
			f(&m)
			out = append(out, withArg(c, i, relayout(t, t.Clone(), m, repeatStorage(t))))
		}
		out = append(out, withArg(c, i, relayout(t, t.Clone(), l, func(*tensor.Tensor) {})))
	}
	return compact(out)
}

// withArg is c with argument i replaced by t (nil when t is).
func withArg(c *tensor.Case, i int, t *tensor.Tensor) *tensor.Case {
	if t == nil {
		return nil
	}
	d := cloneCase(c)
	d.Args[i].Tensor = t
	return d
}

// relayoutCandidates returns cands, each preceded by its copy in which the
// arguments that best has as views and the candidate has as contiguous
// tensors of the same rank are laid out as best's views were.
func relayoutCandidates(best *tensor.Case, cands []*tensor.Case) []*tensor.Case {
	if !hasViewArg(best) {
		return cands
	}
	out := make([]*tensor.Case, 0, 2*len(cands))
	for _, cand := range cands {
		if re := relayoutLike(best, cand); re != nil {
			out = append(out, re)
		}
		out = append(out, cand)
	}
	return out
}

func hasViewArg(c *tensor.Case) bool {
	for _, a := range c.Args {
		if a.Tensor != nil && a.Tensor.View != nil {
			return true
		}
	}
	return false
}

// relayoutLike lays out cand's contiguous arguments as best's views; nil
// when none is.
func relayoutLike(best, cand *tensor.Case) *tensor.Case {
	if len(best.Args) != len(cand.Args) {
		return nil
	}
	var d *tensor.Case
	for i, a := range best.Args {
		x := cand.Args[i].Tensor
		if a.Tensor == nil || a.Tensor.View == nil || x == nil || x.View != nil {
			continue
		}
		fill := func(*tensor.Tensor) {} // zeros
		if x.DType == a.Tensor.DType {
			fill = repeatStorage(a.Tensor)
		}
		v := relayout(a.Tensor, x, layoutOf(a.Tensor), fill)
		if v == nil {
			continue
		}
		if d == nil {
			d = cloneCase(cand)
		}
		d.Args[i].Tensor = v
	}
	return d
}

// relayout lays x out as l (the layout of view like), or, when x has
// another rank, with the kinds of steps l takes (layoutForRank); nil when
// that makes no view.
func relayout(like, x *tensor.Tensor, l viewLayout, fill func(*tensor.Tensor)) *tensor.Tensor {
	if x.Rank() != like.Rank() {
		l = layoutForRank(l, x.Rank())
	}
	v, ok := makeView(x, l, fill)
	if !ok || v.View == nil {
		return nil
	}
	return v
}

// repeatStorage fills new storage with t's storage words over and over.
func repeatStorage(t *tensor.Tensor) func(*tensor.Tensor) {
	return func(s *tensor.Tensor) {
		if len(t.Data) == 0 {
			return
		}
		for i := range s.Data {
			s.Data[i] = t.Data[i%len(t.Data)]
		}
	}
}

// layoutOf is the layout of view t, for makeView.
func layoutOf(t *tensor.Tensor) viewLayout {
	v := t.View
	r, pr := t.Rank(), len(v.Base)
	lead := r - pr
	l := viewLayout{perm: identity(r), start: make([]int, r), step: make([]int, r), tail: make([]int, r),
		expand: make([]bool, r), lead: lead}
	perm := v.Permute
	if perm == nil {
		perm = identity(pr)
	}
	sliced := v.Permuted()
	for i := range pr {
		k := i + lead
		l.perm[k] = perm[i] + lead
		l.step[k] = 1
		if v.Slice != nil {
			s := v.Slice[i]
			l.start[k], l.step[k] = s[0], s[2]
			l.tail[k] = sliced[i] - s[1]
			sliced[i] = max(0, (s[1]-s[0]+s[2]-1)/s[2])
		}
		l.expand[k] = v.Expand != nil && sliced[i] == 1 && v.Expand[k] != 1
	}
	for k := range lead {
		l.step[k] = 1
	}
	return l
}

// layoutForRank is a layout of rank r taking the kinds of steps l takes:
// a permutation (dims reversed), slices with l's largest start, step and
// tail on every dim; broadcasts do not carry over.
func layoutForRank(l viewLayout, r int) viewLayout {
	m := viewLayout{perm: identity(r), start: make([]int, r), step: make([]int, r), tail: make([]int, r), expand: make([]bool, r)}
	if !isIdentity(l.perm) {
		for i := range m.perm {
			m.perm[i] = r - 1 - i
		}
	}
	for k := range r {
		m.start[k], m.step[k], m.tail[k] = maxOf(l.start), max(maxOf(l.step), 1), maxOf(l.tail)
	}
	return m
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func (l viewLayout) clone() viewLayout {
	return viewLayout{perm: append([]int{}, l.perm...), start: append([]int{}, l.start...), step: append([]int{}, l.step...),
		tail: append([]int{}, l.tail...), expand: append([]bool{}, l.expand...), lead: l.lead}
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func fillOnes(xs []int) {
	for i := range xs {
		xs[i] = 1
	}
}
