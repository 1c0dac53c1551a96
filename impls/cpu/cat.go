package cpu

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// cat: torch.cat, np.concatenate, jnp.concatenate, candle Tensor::cat and
// burn Tensor::cat on the CPU. Each profile checks the list in its own
// order and picks the result dtype (the Python frameworks promote the whole
// list, candle and burn take one dtype); the elements are then copied as
// storage words (two per complex element), each input converted to the
// result dtype first when it has another one.
//
// The kernel computes the reference loop
//
//	for o < outer: for each input i: for j < blocks[i]: dst[p] = src[i][o*blocks[i]+j]; p++
//
// as runs of copy(): every output row (one o) is the inputs' blocks side by
// side, so a range of the output is a few contiguous runs of the sources.

func init() {
	attach(pythonProfiles(), tensor.ClassCat, &family{supports: pyCatSupports, eval: pyCatEval})
	candleAttach(tensor.ClassCat, rustCatSupports, candleCatEval)
	burnAttach(tensor.ClassCat, burnCatSupports, burnCatEval)
}

// catRef is the reference loop (blocks and the rows of dst in words).
func catRef(dst []uint64, srcs [][]uint64, blocks []int, outer int) {
	p := 0
	for o := 0; o < outer; o++ {
		for i, src := range srcs {
			for j := 0; j < blocks[i]; j++ {
				dst[p] = src[o*blocks[i]+j]
				p++
			}
		}
	}
}

// catCopy is catRef by runs of copy(), the output split across workers.
func catCopy(e *Engine, dst []uint64, srcs [][]uint64, blocks []int, outer int) {
	width := 0
	for _, b := range blocks {
		width += b
	}
	if width == 0 || outer == 0 {
		return
	}
	e.splitRun(len(dst), func(_, lo, hi int) {
		o, in := lo/width, lo%width
		i := 0
		for in >= blocks[i] { // the input whose block holds column in
			in -= blocks[i]
			i++
		}
		for p := lo; p < hi; {
			n := min(blocks[i]-in, hi-p)
			copy(dst[p:p+n], srcs[i][o*blocks[i]+in:])
			p += n
			in = 0
			if i++; i == len(srcs) {
				i, o = 0, o+1
			}
			for p < hi && blocks[i] == 0 {
				if i++; i == len(srcs) {
					i, o = 0, o+1
				}
			}
		}
	})
}

// catJoin concatenates ts (already checked) along dim into dtype d.
func catJoin(e *Engine, ts []*tensor.Tensor, dim int, d tensor.DType) *tensor.Tensor {
	shape := slices.Clone(ts[0].Shape)
	shape[dim] = 0
	for _, t := range ts {
		shape[dim] += t.Shape[dim]
	}
	words := 1
	if d.IsComplex() {
		words = 2
	}
	out := tensor.New(d, shape...)
	inner := tensor.NumElements(shape[dim+1:]) * words
	srcs := make([][]uint64, len(ts))
	blocks := make([]int, len(ts))
	for i, t := range ts {
		srcs[i] = convertWords(e, t, d)
		blocks[i] = t.Shape[dim] * inner
	}
	catCopy(e, out.Data, srcs, blocks, tensor.NumElements(shape[:dim]))
	return out
}

// convertWords is t's elements in row-major order as words of dtype d:
// its own storage when t has dtype d, else converted as promotion converts
// (buffer.go).
func convertWords(e *Engine, t *tensor.Tensor, d tensor.DType) []uint64 {
	if t.DType == d {
		return rowMajorWords(t)
	}
	switch kindOf(d) {
	case kU8:
		return wordsAs[uint8](e, t, d)
	case kI8:
		return wordsAs[int8](e, t, d)
	case kU16:
		return wordsAs[uint16](e, t, d)
	case kI16:
		return wordsAs[int16](e, t, d)
	case kU32:
		return wordsAs[uint32](e, t, d)
	case kI32:
		return wordsAs[int32](e, t, d)
	case kU64:
		return wordsAs[uint64](e, t, d)
	case kI64:
		return wordsAs[int64](e, t, d)
	case kF32:
		return wordsAs[float32](e, t, d)
	}
	return wordsAs[float64](e, t, d)
}

func wordsAs[T number](e *Engine, t *tensor.Tensor, d tensor.DType) []uint64 {
	return encode(e, rowMajor[T](e, t, d), d, t.Shape).Data
}

// catInputs are the case's tensors as the profile holds them (JAX x32 narrowed).
// catInputs are the case's tensors as the profile holds them: JAX x32
// narrows 64-bit data (pyArg; integer words keep their low bits, since cat
// copies words as they are).
func catInputs(p *profile, c *tensor.Case) []*tensor.Tensor {
	python := p.fw <= fwJAX
	out := make([]*tensor.Tensor, 0, len(c.Args))
	for _, a := range c.Args {
		t := a.Tensor
		if python {
			t = pyArg(p, t)
		}
		if t != a.Tensor && t.DType.IsInt() {
			n := *t
			n.Data = make([]uint64, len(t.Data))
			for i, w := range t.Data {
				n.Data[i] = w & 0xffffffff
			}
			t = &n
		}
		out = append(out, t)
	}
	return out
}

// catWellFormed: one or more valid tensors and a dim.
func catWellFormed(c *tensor.Case) bool {
	if len(c.Args) == 0 || c.Attrs.Dim == nil {
		return false
	}
	for _, a := range c.Args {
		if !validArg(a, false) {
			return false
		}
	}
	return true
}

// pyCatSupports declines complex inputs that would need a conversion, and
// NumPy's bfloat16 among three or more dtypes (not stated).
func pyCatSupports(p *profile, c *tensor.Case) bool {
	if !catWellFormed(c) {
		return false
	}
	seen := map[tensor.DType]bool{}
	for _, t := range catInputs(p, c) {
		seen[t.DType] = true
	}
	for d := range seen {
		if d.IsComplex() && len(seen) > 1 {
			return false
		}
	}
	return !(p.fw == fwNumPy && seen[tensor.BF16] && len(seen) > 2)
}

func pyCatEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	ts := catInputs(p, c)
	dim := *c.Attrs.Dim
	if p.fw == fwPyTorch {
		return torchCatEval(e, ts, dim)
	}
	// policies numpy.concatenate, jax.concatenate: the first array fixes the rank
	if ts[0].Rank() == 0 {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "ValueError: zero-dimensional arrays cannot be concatenated")
	}
	d, ok := rustDim(dim, ts[0].Rank())
	if !ok {
		return tensor.ErrorOutcome(tensor.IndexOutOfRange, "ValueError: axis %d is out of bounds for array of dimension %d", dim, ts[0].Rank())
	}
	if len(ts) > 1 {
		if i := catMismatch(ts, d); i >= 0 {
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "cannot concatenate shapes %v and %v along axis %d", ts[0].Shape, ts[i].Shape, d)
		}
	}
	var r tensor.DType
	if p.fw == fwNumPy {
		r = numpySequenceType(ts)
	} else {
		r = jaxJoinAll(ts, p.x64)
	}
	return tensor.ValueOutcome(catJoin(e, ts, d, r))
}

// catMismatch is the first tensor whose rank, or a size off dim, is not
// the first one's (-1 when none).
func catMismatch(ts []*tensor.Tensor, dim int) int {
	ref := ts[0]
	for i, t := range ts {
		if len(t.Shape) != len(ref.Shape) {
			return i
		}
		for k, n := range t.Shape {
			if n != ref.Shape[k] && k != dim {
				return i
			}
		}
	}
	return -1
}

// torchCatEval is torch.cat (policy pytorch.cat): 0-dim tensors first, dim
// against the first tensor that is not 1-D of size 0, the promotion of the
// whole list, then the shapes of the tensors that are not skipped.
func torchCatEval(e *Engine, ts []*tensor.Tensor, dim int) tensor.Outcome {
	var kept []*tensor.Tensor
	for i, t := range ts {
		if t.Rank() == 0 {
			return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: zero-dimensional tensor (at position %d) cannot be concatenated", i)
		}
		if t.Rank() != 1 || t.Shape[0] != 0 {
			kept = append(kept, t)
		}
	}
	d := dim
	if len(kept) > 0 {
		var ok bool
		if d, ok = rustDim(dim, kept[0].Rank()); !ok {
			r := kept[0].Rank()
			return tensor.ErrorOutcome(tensor.IndexOutOfRange, "IndexError: Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, dim)
		}
	}
	r := ts[0].DType
	for _, t := range ts[1:] {
		if t.DType == r {
			continue
		}
		if r = torchPromote[r][t.DType]; r == promoError {
			return tensor.ErrorOutcome(tensor.UnsupportedDType, "RuntimeError: Promotion for uint16, uint32, uint64 types is not supported")
		}
	}
	if len(kept) == 0 {
		return tensor.ValueOutcome(tensor.New(r, 0))
	}
	if i := catMismatch(kept, d); i >= 0 {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "RuntimeError: Sizes of tensors must match except in dimension %d", d)
	}
	return tensor.ValueOutcome(catJoin(e, kept, d, r))
}

// JAX's type promotion lattice (policy jax.promote.lattice), for the join
// of a whole list: joining two dtypes at a time through concrete dtypes
// loses the weak nodes (int8 with uint64 meets at the weak float, which a
// float16 then refines to float16, not float64).
const (
	jB1 = iota
	jIW // weak int
	jU8
	jU16
	jU32
	jU64
	jI8
	jI16
	jI32
	jI64
	jFW // weak float
	jBF16
	jF16
	jF32
	jF64
	jCW // weak complex
	jC64
	jC128
	jNodes
)

// jaxAbove lists each node's immediate successors (jax/_src/dtypes.py
// _type_promotion_lattice, not strict).
var jaxAbove = [jNodes][]int{
	jB1: {jIW}, jIW: {jU8, jI8}, jU8: {jI16, jU16}, jU16: {jI32, jU32}, jU32: {jI64, jU64}, jU64: {jFW},
	jI8: {jI16}, jI16: {jI32}, jI32: {jI64}, jI64: {jFW}, jFW: {jBF16, jF16, jCW}, jBF16: {jF32}, jF16: {jF32},
	jF32: {jF64, jC64}, jF64: {jC128}, jCW: {jC64}, jC64: {jC128},
}

// jaxUpper[n] is the set of nodes at or above n, as bits.
var jaxUpper = func() [jNodes]uint32 {
	var up [jNodes]uint32
	for n := jNodes - 1; n >= 0; n-- { // successors have larger indices
		up[n] = 1 << n
		for _, s := range jaxAbove[n] {
			up[n] |= up[s]
		}
	}
	return up
}()

var jaxNodeOf = map[tensor.DType]int{tensor.Bool: jB1, tensor.U8: jU8, tensor.U16: jU16, tensor.U32: jU32, tensor.U64: jU64,
	tensor.I8: jI8, tensor.I16: jI16, tensor.I32: jI32, tensor.I64: jI64, tensor.BF16: jBF16, tensor.F16: jF16,
	tensor.F32: jF32, tensor.F64: jF64, tensor.C64: jC64, tensor.C128: jC128}

// jaxJoinAll is the least upper bound of the tensors' dtypes: the node of
// their common upper set whose own upper set is all of it; a weak result
// takes its kind's default dtype (64-bit, narrowed to 32 without x64).
func jaxJoinAll(ts []*tensor.Tensor, x64 bool) tensor.DType {
	common := ^uint32(0)
	for _, t := range ts {
		common &= jaxUpper[jaxNodeOf[t.DType]]
	}
	var r tensor.DType
	for n := 0; n < jNodes; n++ {
		if common&(1<<n) == 0 || jaxUpper[n] != common {
			continue
		}
		switch n {
		case jIW:
			r = tensor.I64
		case jFW:
			r = tensor.F64
		case jCW:
			r = tensor.C128
		default:
			for d, m := range jaxNodeOf {
				if m == n {
					r = d
				}
			}
		}
	}
	if !x64 {
		r = narrow32(r)
	}
	return r
}

// npTypeNum is NumPy's type number on Linux x86-64 (int64 is NPY_LONG,
// half the last of the builtins); bf16, a user dtype, above them all.
var npTypeNum = map[tensor.DType]int{
	tensor.Bool: 0, tensor.I8: 1, tensor.U8: 2, tensor.I16: 3, tensor.U16: 4, tensor.I32: 5, tensor.U32: 6,
	tensor.I64: 7, tensor.U64: 8, tensor.F32: 11, tensor.F64: 12, tensor.C64: 14, tensor.C128: 15, tensor.F16: 23, tensor.BF16: 256,
}

// numpySequenceType is the result_type of the arrays (policy
// numpy.concatenate): PyArray_PromoteDTypeSequence. Its first phase pairs
// slot i with slot n-1-i, moves the DType with the larger type number to
// the front slot (a builtin DType declines to promote a larger one) and
// drops the back one when it cannot change the front one; it repeats on the
// front slots until two are left, whose promotion (unless the second was
// larger) seeds the result. The front DType then promotes each remaining
// slot, and the results are promoted together.
func numpySequenceType(ts []*tensor.Tensor) tensor.DType {
	slots := make([]tensor.DType, len(ts))
	for i, t := range ts {
		slots[i] = t.DType
	}
	if !slices.ContainsFunc(slots, func(d tensor.DType) bool { return d != slots[0] }) {
		return slots[0] // one dtype (complex ones have no promotion table)
	}
	gone := make([]bool, len(slots))
	n := len(slots)
	var seed tensor.DType
	seeded := false
	for {
		half := n / 2
		for lo, hi := 0, n-1; lo < half; lo, hi = lo+1, hi-1 {
			x, y := slots[lo], slots[hi]
			switch {
			case x == y:
				seed, seeded = x, true
			case npTypeNum[y] > npTypeNum[x]:
				slots[lo], slots[hi] = y, x
				seeded = false
			default:
				seed, seeded = numpyPromote[x][y], true
				if seed == x {
					gone[hi] = true
				}
			}
		}
		if n == 2 {
			break
		}
		n -= half
	}
	front, from := slots[0], 2
	var r tensor.DType
	if seeded {
		r = seed
	} else {
		from = 1
	}
	for i := from; i < len(slots); i++ {
		if gone[i] {
			continue
		}
		q := numpyPromote[front][slots[i]]
		if r == tensor.Invalid {
			r = q
		} else {
			r = numpyPromote[r][q]
		}
	}
	return r
}

// rustCatSupports: well-formed, and no complex (neither framework has it).
func rustCatSupports(_ *profile, c *tensor.Case) bool {
	if !catWellFormed(c) {
		return false
	}
	for _, a := range c.Args {
		if a.Tensor.DType.IsComplex() {
			return false
		}
	}
	return true
}

// burnCatSupports also declines two dtypes of one kind (a program's cast
// next to host data): what burn's cat does with them is not stated.
func burnCatSupports(p *profile, c *tensor.Case) bool {
	if !rustCatSupports(p, c) {
		return false
	}
	for _, a := range c.Args[1:] {
		x, y := burnTensorDType(p, c.Args[0]), burnTensorDType(p, a)
		if x != y && (x.IsInt() == y.IsInt()) && (x == tensor.Bool) == (y == tensor.Bool) {
			return false
		}
	}
	return true
}

// candleCatEval is Tensor::cat(&[..], dim) on the CPU (policy candle.cat).
func candleCatEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	ts := catInputs(p, c)
	if len(ts) == 1 { // returned as it is, nothing checked
		return tensor.ValueOutcome(ts[0].Contiguous())
	}
	d, ok := rustDim(*c.Attrs.Dim, ts[0].Rank())
	for _, t := range ts {
		ok = ok && d < t.Rank()
	}
	if !ok {
		return tensor.ErrorOutcome(tensor.IndexOutOfRange, "cat: dim %d out of range", *c.Attrs.Dim)
	}
	if i := catMismatch(ts, d); i >= 0 {
		return tensor.ErrorOutcome(tensor.ShapeMismatch, "shape mismatch in cat for dim %d: %s and %s", d, rustShape(ts[0].Shape), rustShape(ts[i].Shape))
	}
	for _, t := range ts[1:] {
		if t.DType != ts[0].DType {
			return tensor.ErrorOutcome(tensor.DTypeMismatch, "dtype mismatch in cat, lhs: %s, rhs: %s", rustName(ts[0].DType), rustName(t.DType))
		}
	}
	return tensor.ValueOutcome(catJoin(e, ts, d, ts[0].DType))
}

// burnCatEval is Tensor::cat(vec![..], dim) (policy burn.cat) of the
// tensors burn made of the inputs.
func burnCatEval(e *Engine, _ *profile, c *tensor.Case, ts []*tensor.Tensor) tensor.Outcome {
	kind := func(d tensor.DType) int {
		switch {
		case d == tensor.Bool:
			return 0
		case d.IsInt():
			return 1
		}
		return 2
	}
	for _, t := range ts[1:] {
		if kind(t.DType) != kind(ts[0].DType) || t.Rank() != ts[0].Rank() {
			return tensor.UnsupportedOutcome("does not compile: Tensor::cat takes a Vec of one tensor type")
		}
	}
	d, ok := rustDim(*c.Attrs.Dim, ts[0].Rank())
	if !ok {
		return tensor.PanicOutcome("Cat: dim %d out of range for rank %d", *c.Attrs.Dim, ts[0].Rank())
	}
	if catMismatch(ts, d) >= 0 {
		return tensor.PanicOutcome("Can't concatenate tensors with different shapes, except for the provided dimension")
	}
	return tensor.ValueOutcome(catJoin(e, ts, d, ts[0].DType))
}
