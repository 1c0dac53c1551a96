package props

import (
	"math"
	"math/big"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// Shrink returns the smallest case it can find that still fails, starting
// from c, which must fail. It knows tensors: it tries fewer elements (down to
// the one diverging element), lower rank, a narrower dtype, values closer to
// 0, 1, -1 and simpler scalars and attrs, and keeps a step only when
// stillFails accepts the result. It never modifies c.
//
// stillFails decides what "the same failure" is; campaigns keep the profile,
// the op and the divergence kind.
func Shrink(c *tensor.Case, stillFails func(*tensor.Case) bool) *tensor.Case {
	return ShrinkUntil(c, stillFails, func() bool { return false })
}

// ShrinkUntil is Shrink that stops, with the smallest failing case found so
// far, as soon as stop reports true (a time budget spent, a campaign ended).
// Candidates are built one family at a time, so that a step found among
// the first (fewer elements) costs no copies of the rest.
func ShrinkUntil(c *tensor.Case, stillFails func(*tensor.Case) bool, stop func() bool) *tensor.Case {
	best := cloneCase(c)
	for round := 0; round < 50; round++ {
		improved := false
		for _, fam := range candidateFamilies {
			cands := fam.candidates(best)
			if fam.relayout {
				cands = relayoutCandidates(best, cands)
			}
			for _, cand := range cands {
				if stop() {
					return best
				}
				if Size(cand) < Size(best) && (fam.valuesOnly || valid(cand)) && stillFails(cand) {
					best, improved = cand, true
					break
				}
			}
			if improved {
				break
			}
		}
		if !improved {
			return best
		}
	}
	return best
}

// valid reports whether the codec accepts c: a shrunk case must stay a case
// that a file can hold (from_vec data stays 1-D, and so on).
func valid(c *tensor.Case) bool {
	_, err := tensor.DecodeCase(tensor.EncodeCase(skeleton(c)))
	return err == nil
}

// skeleton is c with the elements of its large tensors zeroed: the codec's
// rules are about dtypes, shapes and attrs, and zeros encode and decode far
// faster than a tier-sized tensor's values.
func skeleton(c *tensor.Case) *tensor.Case {
	s := *c
	s.Args = slices.Clone(c.Args)
	for i, a := range s.Args {
		if a.Tensor != nil && a.Tensor.Len() > largeTensor {
			s.Args[i].Tensor = tensor.New(a.Tensor.DType, a.Tensor.Shape...)
		}
	}
	return &s
}

// Size orders cases by simplicity: elements first, then rank, dtype width,
// and how far values are from 0, 1 and -1.
func Size(c *tensor.Case) float64 {
	var elems, rank, width, values float64
	for _, a := range c.Args {
		if a.Scalar != nil {
			values += scalarComplexity(a.Scalar)
			continue
		}
		t := a.Tensor
		if t == nil { // a null bound: the simplest arg there is
			continue
		}
		elems += float64(t.Len())
		rank += float64(t.Rank())
		width += float64(t.DType.Bits()) + float64(dtypeRank(t.DType))/100
		for i := 0; i < t.Len(); i++ {
			values += elementComplexity(t, i)
		}
	}
	if c.Attrs.Dim != nil {
		rank += 0.5 + math.Abs(float64(*c.Attrs.Dim))/10
	}
	if c.Attrs.Keepdim != nil {
		rank += 0.25
	}
	rank += sortAttrSize(c.Attrs) // gen_sort.go
	elems += programSize(c)
	return elems*1e6 + rank*1e4 + width*10 + values/1e3 + viewSize(c)
}

// dtypeRank orders dtypes from simplest to least simple within a width.
func dtypeRank(d tensor.DType) int {
	for i, x := range []tensor.DType{tensor.Bool, tensor.I8, tensor.U8, tensor.I16, tensor.U16, tensor.F16,
		tensor.BF16, tensor.I32, tensor.U32, tensor.F32, tensor.I64, tensor.U64, tensor.F64, tensor.C64, tensor.C128} {
		if x == d {
			return i
		}
	}
	return 99
}

func elementComplexity(t *tensor.Tensor, i int) float64 {
	switch {
	case t.DType == tensor.Bool:
		return float64(t.Bits(i))
	case t.DType.IsSigned():
		return magnitude(float64(t.Int(i)))
	case t.DType.IsUnsigned():
		return magnitude(float64(t.Uint(i)))
	case t.DType.IsComplex():
		c := t.Complex(i)
		return magnitude(real(c)) + magnitude(imag(c))
	}
	return magnitude(t.Float(i))
}

// magnitude is 0 for 0, small for ±1 and grows with size; NaN, inf and
// fractions count as a little more complex than nearby integers.
func magnitude(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 40
	case math.IsInf(x, 0):
		return 41
	case x == 0:
		if math.Signbit(x) {
			return 0.5
		}
		return 0
	}
	m := math.Log2(math.Abs(x)+1) + 1
	if x != math.Trunc(x) {
		m += 2
	}
	if x < 0 {
		m += 0.25
	}
	return m
}

func scalarComplexity(s *tensor.Scalar) float64 {
	return magnitude(s.Float()) + float64(len(s.Text))/10
}

// cloneCase returns a deep copy of c (views stay views, programs keep
// their steps) without its outcomes.
func cloneCase(c *tensor.Case) *tensor.Case {
	d := *c
	d.Args = make([]tensor.Arg, len(c.Args))
	for i, a := range c.Args {
		d.Args[i] = cloneArg(a)
	}
	if c.Steps != nil {
		d.Steps = make([]tensor.Step, len(c.Steps))
		for j, s := range c.Steps {
			d.Steps[j] = s
			d.Steps[j].Args = slices.Clone(s.Args)
			for i, a := range s.Args {
				if a.From == tensor.FromLiteral {
					d.Steps[j].Args[i].Arg = cloneArg(a.Arg)
				}
			}
		}
	}
	d.Expect, d.Got = nil, nil
	return &d
}

func cloneArg(a tensor.Arg) tensor.Arg {
	if a.IsNull() { // a null arg (a clamp bound not given) stays null
		return a
	}
	if a.Tensor != nil {
		if a.Tensor.View != nil {
			return tensor.Arg{Tensor: a.Tensor.CloneLayout()}
		}
		return tensor.Arg{Tensor: a.Tensor.Clone()}
	}
	s := *a.Scalar
	return tensor.Arg{Scalar: &s}
}

// candidateFamilies list the ways to simplify a case, most promising
// first. A family that changes only values keeps a case the codec accepts
// (checking it again would encode a tier-sized case for nothing).
// A family whose candidates make view arguments contiguous (relayout) is
// also tried with them laid out again as views (shrink_views.go).
var candidateFamilies = []struct {
	candidates func(*tensor.Case) []*tensor.Case
	valuesOnly bool
	relayout   bool
}{
	{stepCandidates, false, false},
	{viewCandidates, false, false},
	{matmulCatCandidates, false, true}, // gen_matmul.go
	{sliceCandidates, false, true},
	{dimCandidates, false, true},
	{maskDimCandidates, false, true}, // gen_sort.go
	{flattenCandidates, false, true},
	{squeezeCandidates, false, true},
	{attrCandidates, false, false},
	{dtypeCandidates, false, true},
	{valueCandidates, true, false},
	{scalarCandidates, false, false},
}

// tensorArgs returns the indices of c's tensor arguments.
func tensorArgs(c *tensor.Case) []int {
	var idx []int
	for i, a := range c.Args {
		if a.Tensor != nil {
			idx = append(idx, i)
		}
	}
	return idx
}

// sliceCandidates keep one element (as 0-dim and as [1]) or one half of
// every tensor argument; arguments of the same shape are sliced alike so
// that elementwise pairs stay aligned. The argument with the most elements
// sets the slices: one-element arguments (broadcast partners) stay.
func sliceCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	args := tensorArgs(c)
	if len(args) == 0 {
		return nil
	}
	first := c.Args[args[0]].Tensor
	for _, i := range args[1:] {
		if t := c.Args[i].Tensor; t.Len() > first.Len() {
			first = t
		}
	}
	n := first.Len()
	if n <= 1 && first.Rank() <= 1 {
		if n == 1 {
			out = append(out, reshapeAll(c, args, func(t *tensor.Tensor) []int {
				if t.Len() == 1 {
					return []int{}
				}
				return nil
			}))
		}
		return compact(out)
	}
	pick := func(lo, hi int, shape []int) *tensor.Case {
		d := cloneCase(c)
		for _, i := range args {
			t := d.Args[i].Tensor
			if t.Len() != n {
				if t.Len() == 1 {
					continue // a broadcast partner of one element stays
				}
				return nil
			}
			d.Args[i].Tensor = sliceFlat(t, lo, hi, shape)
		}
		return d
	}
	for i := 0; i < n && i < 64; i++ {
		out = append(out, pick(i, i+1, []int{}), pick(i, i+1, []int{1}))
	}
	if n > 1 {
		out = append(out, pick(0, n/2, []int{n / 2}), pick(n/2, n, []int{n - n/2}))
	}
	// one element fewer, for failures that need a few elements (a
	// reduction's) and neither half keeps
	for k := 0; n > 2 && n <= 64 && k < n; k++ {
		d := cloneCase(c)
		for _, i := range args {
			if t := d.Args[i].Tensor; t.Len() == n {
				d.Args[i].Tensor = withoutElement(t, k)
			} else if t.Len() != 1 {
				d = nil
				break
			}
		}
		out = append(out, d)
	}
	return compact(out)
}

// withoutElement returns t's elements in row-major order but the k-th, as a
// 1-D tensor.
func withoutElement(t *tensor.Tensor, k int) *tensor.Tensor {
	s := sliceFlat(t, 0, t.Len(), []int{t.Len()})
	w := len(s.Data) / max(s.Len(), 1)
	out := tensor.New(t.DType, t.Len()-1)
	copy(out.Data, s.Data[:k*w])
	copy(out.Data[k*w:], s.Data[(k+1)*w:])
	return out
}

// sliceFlat returns elements lo..hi of t's row-major order with the given shape.
func sliceFlat(t *tensor.Tensor, lo, hi int, shape []int) *tensor.Tensor {
	s := t.Clone()
	w := len(s.Data) / max(s.Len(), 1)
	out := tensor.New(t.DType, shape...)
	copy(out.Data, s.Data[lo*w:hi*w])
	return out
}

// dimCandidates cut one dimension of the tensor arguments to its first
// index or a prefix (a half, 3/4, 15/16, all but the last index: failures
// that need a large extent keep it while it shrinks), keeping the rank: dimensions are aligned at the
// right, as broadcasting aligns them, and an argument whose extent there is
// 1 keeps it, so shapes stay broadcast-compatible and a reduction's dim
// stays where it was.
func dimCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	args := tensorArgs(c)
	rank := 0
	for _, i := range args {
		rank = max(rank, c.Args[i].Tensor.Rank())
	}
	for k := 1; k <= rank; k++ { // the k-th dimension from the right
		ext := 0
		for _, i := range args {
			if t := c.Args[i].Tensor; t.Rank() >= k {
				ext = max(ext, t.Shape[t.Rank()-k])
			}
		}
		if ext <= 1 {
			continue
		}
		var keeps []int
		for _, keep := range []int{1, ext / 2, ext - ext/4, ext - ext/16, ext - 1} {
			if keep >= 1 && keep < ext && !slices.Contains(keeps, keep) {
				keeps = append(keeps, keep)
			}
		}
		for _, keep := range keeps {
			d := cloneCase(c)
			for _, i := range args {
				t := d.Args[i].Tensor
				if t.Rank() < k || t.Shape[t.Rank()-k] == 1 {
					continue
				}
				if t.Shape[t.Rank()-k] != ext {
					d = nil
					break
				}
				d.Args[i].Tensor = sliceDim(t, t.Rank()-k, keep)
			}
			out = append(out, d)
		}
	}
	return compact(out)
}

// sliceDim returns t with dimension j cut to its first keep indices.
func sliceDim(t *tensor.Tensor, j, keep int) *tensor.Tensor {
	s := t.Clone()
	shape := append([]int{}, t.Shape...)
	ext := shape[j]
	shape[j] = keep
	w := len(s.Data) / max(s.Len(), 1)
	inner := tensor.NumElements(t.Shape[j+1:]) * w
	out := tensor.New(t.DType, shape...)
	for o := 0; o < tensor.NumElements(t.Shape[:j]); o++ {
		copy(out.Data[o*keep*inner:(o+1)*keep*inner], s.Data[o*ext*inner:(o*ext+keep)*inner])
	}
	return out
}

// flattenCandidates lower every tensor argument of rank > 1 to rank 1.
func flattenCandidates(c *tensor.Case) []*tensor.Case {
	args := tensorArgs(c)
	return compact([]*tensor.Case{reshapeAll(c, args, func(t *tensor.Tensor) []int {
		if t.Rank() > 1 {
			return []int{t.Len()}
		}
		return nil
	})})
}

// squeezeCandidates drop one dimension (counted from the right, as
// broadcasting aligns them) that is 1 in every tensor argument that has it.
func squeezeCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	args := tensorArgs(c)
	rank := 0
	for _, i := range args {
		rank = max(rank, c.Args[i].Tensor.Rank())
	}
	for k := 1; k <= rank; k++ {
		ok := true
		for _, i := range args {
			t := c.Args[i].Tensor
			ok = ok && (t.Rank() < k || t.Shape[t.Rank()-k] == 1)
		}
		if !ok {
			continue
		}
		out = append(out, reshapeAll(c, args, func(t *tensor.Tensor) []int {
			if t.Rank() < k {
				return nil
			}
			j := t.Rank() - k
			return append(append([]int{}, t.Shape[:j]...), t.Shape[j+1:]...)
		}))
	}
	return compact(out)
}

// reshapeAll applies newShape to every listed argument (nil: keep); nil if nothing changed.
func reshapeAll(c *tensor.Case, args []int, newShape func(*tensor.Tensor) []int) *tensor.Case {
	d := cloneCase(c)
	changed := false
	for _, i := range args {
		if s := newShape(d.Args[i].Tensor); s != nil {
			d.Args[i].Tensor = d.Args[i].Tensor.Reshape(s...)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	zeroDims(d)
	return d
}

// zeroDims sets every dim attr of c (a program's steps' too) to 0, as
// fits arguments whose rank changed.
func zeroDims(c *tensor.Case) {
	zero := 0
	if c.Attrs.Dim != nil {
		c.Attrs.Dim = &zero
	}
	for j := range c.Steps {
		if c.Steps[j].Attrs.Dim != nil {
			c.Steps[j].Attrs.Dim = &zero
		}
	}
}

// attrCandidates drop keepdim and move dim to 0, of the case or of one
// step of a program.
func attrCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	attrs := func(d *tensor.Case, j int) *tensor.Attrs {
		if j < 0 {
			return &d.Attrs
		}
		return &d.Steps[j].Attrs
	}
	for j := -1; j < len(c.Steps); j++ {
		a := attrs(c, j)
		if a.Keepdim != nil {
			d := cloneCase(c)
			attrs(d, j).Keepdim = nil
			out = append(out, d)
		}
		if a.Dim != nil && *a.Dim != 0 {
			d := cloneCase(c)
			zero := 0
			attrs(d, j).Dim = &zero
			out = append(out, d)
		}
	}
	out = append(out, sortAttrCandidates(c)...)   // gen_sort.go
	return append(out, nullBoundCandidates(c)...) // gen_newops_a.go
}

// narrower lists the dtypes tried in place of d, simplest first.
func narrower(d tensor.DType) []tensor.DType {
	switch {
	case d.IsSigned():
		return []tensor.DType{tensor.I8, tensor.I16, tensor.I32}
	case d.IsUnsigned():
		return []tensor.DType{tensor.U8, tensor.U16, tensor.U32}
	case d.IsFloat():
		return []tensor.DType{tensor.F16, tensor.BF16, tensor.F32}
	case d == tensor.C128:
		return []tensor.DType{tensor.C64}
	}
	return nil
}

// dtypeCandidates move every tensor of one dtype to a narrower dtype of the
// same kind, when all its values are exactly representable there.
func dtypeCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	for _, i := range tensorArgs(c) {
		from := c.Args[i].Tensor.DType
		for _, to := range narrower(from) {
			if to.Bits() >= from.Bits() {
				continue
			}
			d := cloneCase(c)
			ok := true
			for _, j := range tensorArgs(d) {
				if d.Args[j].Tensor.DType == from {
					t, exact := convertExact(d.Args[j].Tensor, to)
					if !exact {
						ok = false
						break
					}
					d.Args[j].Tensor = t
				}
			}
			if ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// convertExact converts t to d when every element keeps its exact value.
func convertExact(t *tensor.Tensor, d tensor.DType) (*tensor.Tensor, bool) {
	out := tensor.New(d, t.Shape...)
	for i := 0; i < t.Len(); i++ {
		switch {
		case d.IsComplex():
			v := t.Complex(i)
			out.SetComplex(i, v)
			if out.Complex(i) != v && !(math.IsNaN(real(v)) || math.IsNaN(imag(v))) {
				return nil, false
			}
		case d.IsFloat():
			v := t.Float(i)
			out.SetFloat(i, v)
			if math.Float64bits(out.Float(i)) != math.Float64bits(v) && !math.IsNaN(v) {
				return nil, false
			}
		default:
			v := t.Int(i)
			if t.DType.IsUnsigned() && v < 0 {
				return nil, false
			}
			out.SetInt(i, v)
			if out.Int(i) != v {
				return nil, false
			}
		}
	}
	return out, true
}

// valueCandidates move one element toward 0, 1, -1, or halve it.
func valueCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	for _, i := range tensorArgs(c) {
		t := c.Args[i].Tensor
		if t.Len() > largeTensor {
			out = append(out, uniformCandidates(c, i)...)
			continue
		}
		for k := 0; k < t.Len() && k < 64; k++ {
			for _, v := range simplerValues(t, k) {
				d := cloneCase(c)
				x := d.Args[i].Tensor
				if x.DType.IsFloat() || x.DType.IsComplex() {
					x.SetFloat(k, v)
				} else {
					x.SetInt(k, int64(v))
				}
				out = append(out, d)
			}
		}
	}
	return out
}

// scalarCandidates move a scalar operand toward 0, 1, -1.
func scalarCandidates(c *tensor.Case) []*tensor.Case {
	var out []*tensor.Case
	for i, a := range c.Args {
		if a.Scalar == nil {
			continue
		}
		for _, text := range simplerScalars(a.Scalar) {
			d := cloneCase(c)
			d.Args[i].Scalar.Text = text
			out = append(out, d)
		}
	}
	for j, s := range c.Steps { // a program's literal scalars
		for i, a := range s.Args {
			if a.From != tensor.FromLiteral || a.Arg.Scalar == nil {
				continue
			}
			for _, text := range simplerScalars(a.Arg.Scalar) {
				d := cloneCase(c)
				d.Steps[j].Args[i].Arg.Scalar.Text = text
				out = append(out, d)
			}
		}
	}
	return out
}

// largeTensor is the size above which values are simplified all at once: a
// tier-sized case (a divergence that needs a goroutine split) costs
// milliseconds per evaluation, and its elements come from a fill anyway.
const largeTensor = 4096

// uniformCandidates set every element of argument i to 0, to 1, or to its
// first element.
func uniformCandidates(c *tensor.Case, i int) []*tensor.Case {
	var out []*tensor.Case
	t := c.Args[i].Tensor
	first := sliceFlat(t, 0, 1, []int{})
	for _, v := range []int64{0, 1, -1} {
		d := cloneCase(c)
		x := tensor.New(t.DType, t.Shape...)
		for k := 0; k < x.Len(); k++ {
			if t.DType.IsFloat() || t.DType.IsComplex() {
				x.SetFloat(k, float64(v))
			} else {
				x.SetInt(k, v)
			}
		}
		d.Args[i].Tensor = x
		out = append(out, d)
	}
	d := cloneCase(c)
	x := tensor.New(t.DType, t.Shape...)
	w := len(first.Data)
	for k := 0; k < x.Len(); k++ {
		copy(x.Data[k*w:k*w+w], first.Data)
	}
	d.Args[i].Tensor = x
	return append(out, d)
}

func simplerValues(t *tensor.Tensor, k int) []float64 {
	var v float64
	switch {
	case t.DType == tensor.Bool:
		return []float64{0}
	case t.DType.IsSigned():
		v = float64(t.Int(k))
	case t.DType.IsUnsigned():
		v = float64(t.Uint(k))
	default:
		v = t.Float(k)
	}
	vals := []float64{0, 1, -1, 2, -2}
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		vals = append(vals, math.Trunc(v/2), math.Trunc(v))
	}
	if t.DType.IsUnsigned() {
		vals = []float64{0, 1, 2, math.Trunc(v / 2)}
	}
	return vals
}

func simplerScalars(s *tensor.Scalar) []string {
	switch s.Kind {
	case tensor.ScalarInt:
		v := s.Int()
		half := v.Quo(v, bigTwo)
		return []string{"0", "1", "-1", "2", half.String()}
	case tensor.ScalarFloat:
		x := s.Float()
		out := []string{"0.0", "1.0", "-1.0", "2.0", "0.5"}
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, tensor.FormatFloat(math.Trunc(x)))
		}
		return out
	case tensor.ScalarComplex:
		return []string{"0j", "1+0j", "-1+0j", "1j"}
	}
	return []string{"false"}
}

func compact(cs []*tensor.Case) []*tensor.Case {
	out := cs[:0]
	for _, c := range cs {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

var bigTwo = big.NewInt(2)
