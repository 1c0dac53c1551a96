package props

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// View inputs (case format, added 2026-12): some tensor arguments of a case
// are drawn as views of other storage, built by the case format's view
// steps, so that implementations' strided paths are exercised and a
// finding on a view replays from its file: the dims are permuted, each dim
// is sliced with a start, a step of 1 to 3 and junk after its stop (the
// gaps hold other drawn values), and some dims are broadcast from size 1
// (zero strides), new leading dims included.

// viewsOneIn is how often a case of the default generator gets view
// arguments (CaseOptions.Views makes it every case).
const viewsOneIn = 6

// maxViewStorage bounds the storage of a drawn view (the codec's limit).
const maxViewStorage = tensor.MaxElements

// viewArgs replaces some tensor arguments of c by views of the same shape
// and dtype; steps says whether slices may have a step > 1 (the aimed
// profile's API has a strided slice).
func (d *draw) viewArgs(c *tensor.Case, steps bool) {
	for i := range c.Args {
		if a := c.Args[i].Tensor; a != nil && d.coin() {
			c.Args[i].Tensor = d.view(a, steps)
		}
	}
}

// viewLayout is a drawn way to lay out a tensor as a view.
type viewLayout struct {
	perm   []int // order of the pre-broadcast dims in storage (perm[i]: the storage dim of dim i)
	start  []int // per dim: the slice start
	step   []int // per dim: the slice step
	tail   []int // per dim: storage after the slice's stop
	expand []bool
	lead   int // new leading dims of the broadcast
}

// view returns a view of the same shape and dtype as x holding x's
// elements, except along broadcast dims, whose elements are those at
// index 0 (a broadcast view repeats them).
func (d *draw) view(x *tensor.Tensor, steps bool) *tensor.Tensor {
	r := x.Rank()
	l := viewLayout{perm: make([]int, r), start: make([]int, r), step: make([]int, r), tail: make([]int, r), expand: make([]bool, r)}
	for i := range l.perm {
		l.perm[i] = i
	}
	if d.coin() {
		for i := r - 1; i > 0; i-- { // Fisher-Yates
			j := d.intn(i + 1)
			l.perm[i], l.perm[j] = l.perm[j], l.perm[i]
		}
	}
	sliced := d.coin()
	for k := range r {
		l.step[k] = 1
		if sliced {
			l.start[k], l.tail[k] = d.between(0, 2), d.between(0, 1)
			if steps {
				l.step[k] = d.between(1, 3)
			}
		}
		l.expand[k] = d.oneIn(4)
	}
	if r > 0 && d.oneIn(4) {
		l.lead = d.between(1, min(2, r))
	}
	v, ok := makeView(x, l, func(t *tensor.Tensor) { junk(d, t) })
	if !ok {
		return x
	}
	return v
}

// junk fills storage with drawn values: a kernel reading a gap instead of
// an element gets a value that shows.
func junk(d *draw, t *tensor.Tensor) {
	filled := d.fill(t.DType, t.Shape, bias{}, nil)
	copy(t.Data, filled.Data)
}

// makeView lays x out as view l: fill fills the storage first, then the
// view's elements are written into it. It reports false when the storage
// would be too large.
func makeView(x *tensor.Tensor, l viewLayout, fill func(*tensor.Tensor)) (*tensor.Tensor, bool) {
	x = x.Contiguous()
	r := x.Rank()
	lead := min(l.lead, r)
	// the pre-broadcast tensor: its dims are x's after the new leading
	// ones, with size 1 where a dim is broadcast
	pre := slices.Clone(x.Shape[lead:])
	var expand []int
	for k := range pre {
		if l.expand[k+lead] && pre[k] != 1 {
			pre[k] = 1
			expand = slices.Clone(x.Shape)
		}
	}
	if lead > 0 {
		expand = slices.Clone(x.Shape)
	}
	pr := len(pre)
	perm := storagePerm(l.perm, lead, pr)
	base := make([]int, pr)
	sl := make([][3]int, pr)
	sliced := false // some dim does not take its whole storage dim
	for i, n := range pre {
		start, step, tail := l.start[i+lead], l.step[i+lead], l.tail[i+lead]
		stop := start
		if n > 0 {
			stop = start + (n-1)*step + 1
		}
		sl[i] = [3]int{start, stop, step}
		base[perm[i]] = stop + tail
		sliced = sliced || start != 0 || step != 1 || tail != 0
	}
	if !sliced {
		sl = nil
	}
	if tensor.NumElements(base) > maxViewStorage {
		return nil, false
	}
	storage := tensor.New(x.DType, base...)
	fill(storage)
	v := tensor.View{Base: base, Slice: sl, Expand: expand}
	if !isIdentity(perm) {
		v.Permute = perm
	}
	t, err := tensor.NewView(storage, v)
	if err != nil {
		panic("props: a drawn view does not decode: " + err.Error())
	}
	// write x's elements (index 0 along broadcast dims) through the
	// pre-broadcast view, whose layout the view shares
	words := len(x.Data) / max(x.Len(), 1)
	preView, _ := tensor.NewView(storage, tensor.View{Base: base, Permute: v.Permute, Slice: sl})
	idx := make([]int, r)
	for i := 0; i < preView.Len(); i++ {
		rem := i
		for k := pr - 1; k >= 0; k-- {
			idx[k+lead] = rem % pre[k]
			rem /= pre[k]
		}
		src := 0
		for k := range r {
			src = src*x.Shape[k] + idx[k]
		}
		dst := preView.StorageIndex(i)
		copy(storage.Data[dst*words:dst*words+words], x.Data[src*words:src*words+words])
	}
	return t, true
}

// storagePerm turns perm (over the r dims of the view) into a permutation
// of the pr dims after the new leading ones, keeping their relative order.
func storagePerm(perm []int, lead, pr int) []int {
	var kept []int
	for _, p := range perm {
		if p >= lead {
			kept = append(kept, p-lead)
		}
	}
	if len(kept) != pr {
		kept = make([]int, pr)
		for i := range kept {
			kept[i] = i
		}
	}
	return kept
}

func isIdentity(p []int) bool {
	for i, x := range p {
		if x != i {
			return false
		}
	}
	return true
}

// viewSteps reports whether the draw's views may slice with a step > 1:
// unaimed, or where the aimed profile answers such a view.
func (s *scope) viewSteps() bool { return s.sup == nil || s.sup.steps }

// answersSteppedView reports whether the profile answers a unary op of a
// view sliced with step 2 with more than `unsupported` (candle has no
// strided slice).
func (s *support) answersSteppedView(answers func(*tensor.Case) bool) bool {
	for _, op := range s.ops {
		info, _ := tensor.LookupOp(op)
		if info.Class != tensor.ClassUnary {
			continue
		}
		d := s.byOp[op].dtypes[0]
		v, err := tensor.NewView(probeTensor(d), tensor.View{Base: []int{2}, Slice: [][3]int{{0, 2, 2}}})
		if err != nil {
			panic("props: the stepped probe view: " + err.Error())
		}
		return answers(probeCase(op, tensor.Arg{Tensor: v}))
	}
	return false
}
