package cpu

import (
	"math"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// where of complex values in PyTorch, NumPy and JAX: the promotion of x and
// y when one is a complex tensor, and the select, which runs on the two
// words of each element (the layout gets a last dimension of 2, over which
// the condition is broadcast).

// complexWhereType is the common dtype of where's x and y when one of them
// is a complex tensor (the other a tensor or a real Python scalar); ok is
// false on a PyTorch promotion error.
func complexWhereType(p *profile, ops ...pyOperand) (d tensor.DType, ok bool) {
	switch p.fw {
	case fwPyTorch:
		return torchComplexType(ops)
	case fwNumPy:
		// np.result_type: the complex of the components' promotion (c128
		// when that is f64); Python ints and floats leave a complex alone
		d = tensor.Invalid
		for _, o := range ops {
			if !o.scalar {
				d = joinToComplex(d, o.dtype, numpyPromote)
			}
		}
		return d, true
	}
	// JAX's lattice: c64 sits above f32 (and every integer), c128 above
	// f64 and c64; weak Python numbers and bools leave a complex alone
	d = tensor.Invalid
	for _, o := range ops {
		if !o.scalar {
			d = joinToComplex(d, o.dtype, jaxPromote)
		}
	}
	if !p.x64 {
		d = narrow32(d)
	}
	return d, true
}

// joinToComplex joins the dtype d (Invalid: none yet) with e, one of them
// complex or about to meet one: the complex of the real join of their
// components in table, c128 when that join is f64.
func joinToComplex(d, e tensor.DType, table *promoTable) tensor.DType {
	if d == tensor.Invalid {
		return e
	}
	if !d.IsComplex() && !e.IsComplex() {
		return table[d][e]
	}
	if table[d.Component()][e.Component()] == tensor.F64 {
		return tensor.C128
	}
	return tensor.C64
}

// torchComplexType is at::result_type over the classes (dimensioned, 0-dim,
// wrapped) with a complex among them (policy pytorch.promote.categories):
// within a class, a complex with f64 or c128 is c128, with any other real
// c64 (u16/u32/u64 do not promote); a lower class's complex turns a higher
// class's float into the complex of its width (f64: c128, others c64) and
// replaces an integer or bool.
func torchComplexType(ops []pyOperand) (tensor.DType, bool) {
	var slots [3]tensor.DType
	for _, o := range ops {
		k, d := 0, o.dtype
		switch {
		case o.scalar:
			k, d = 2, torchWrapped(o.kind)
		case o.zeroD:
			k = 1
		}
		switch cur := slots[k]; {
		case cur == tensor.Invalid:
			slots[k] = d
		case !cur.IsComplex() && !d.IsComplex():
			slots[k] = torchPromote[cur][d]
		case barebonesUnsigned(cur) || barebonesUnsigned(d):
			return 0, false
		case cur == tensor.C128 || d == tensor.C128 || cur == tensor.F64 || d == tensor.F64:
			slots[k] = tensor.C128
		default:
			slots[k] = tensor.C64
		}
		if slots[k] == promoError {
			return 0, false
		}
	}
	combine := func(higher, lower tensor.DType) (tensor.DType, bool) {
		switch {
		case higher == tensor.Invalid:
			return lower, true
		case higher.IsComplex():
			return higher, true
		case !lower.IsComplex():
			return torchCombine(higher, lower)
		case higher == tensor.F64:
			return tensor.C128, true
		case higher.IsFloat():
			return tensor.C64, true
		}
		return lower, true
	}
	lower, ok := combine(slots[1], slots[2])
	if !ok {
		return 0, false
	}
	return combine(slots[0], lower)
}

// whereComplex selects complex values: each operand becomes the words of
// the common dtype d, two per element (a real value is its real part, +0
// the imaginary), and the select runs over a last dimension of 2.
func (w *wherePlan) whereComplex(e *Engine) tensor.Outcome {
	cond := loadTruth(w.cond)
	cv := pairView(viewOf(w.cond), 0)
	var words [2][]uint64
	var views [2]view
	for k := range w.vals {
		words[k], views[k] = complexWords(w.p, &w.vals[k], w.common)
	}
	shape := append(slices.Clone(w.shape), 2)
	out := tensor.New(w.common, w.shape...)
	l := newLayout(shape, cv, views[0], views[1])
	runTernary(e, &l, out.Data, cond, words[0], words[1], kWhere[uint64])
	return tensor.ValueOutcome(out)
}

// pairView is v with a last dimension of 2 whose stride is last, the other
// strides doubled: the two words of an element (last 1), or one truth
// value for both (last 0).
func pairView(v view, last int) view {
	strides := v.strides
	if strides == nil {
		strides = tensor.ContiguousStrides(v.shape)
	}
	pv := view{shape: append(slices.Clone(v.shape), 2), offset: v.offset}
	pv.strides = make([]int, 0, len(strides)+1)
	for _, s := range strides {
		if last == 0 {
			pv.strides = append(pv.strides, s)
		} else {
			pv.strides = append(pv.strides, 2*s)
		}
	}
	pv.strides = append(pv.strides, last)
	if last != 0 {
		pv.offset *= 2
	}
	return pv
}

// complexWords returns a's elements converted to the complex dtype d as
// words (re, im) in a's storage order, and their geometry: a complex
// tensor's parts round to d's component, a real value (a tensor's element
// or a Python scalar, as a binary op converts it) is the real part.
func complexWords(p *profile, a *binArg, d tensor.DType) ([]uint64, view) {
	part := d.Component()
	if a.isScalar() {
		return []uint64{floatWord(scalarFloat(p, a.s, part), part), 0}, view{shape: []int{2}}
	}
	t := a.t
	words := make([]uint64, 2*(len(t.Data)/wordsOf(t.DType)))
	switch {
	case t.DType == d:
		copy(words, t.Data)
	case t.DType == tensor.C64: // to c128: exact
		for i, w := range t.Data {
			words[i] = math.Float64bits(float64(math.Float32frombits(uint32(w))))
		}
	case t.DType == tensor.C128: // to c64: each part rounds
		for i, w := range t.Data {
			words[i] = uint64(math.Float32bits(float32(math.Float64frombits(w))))
		}
	case part == tensor.F32:
		re := make([]float32, len(t.Data))
		decodeAs(re, t, part)
		for i, v := range re {
			words[2*i] = uint64(math.Float32bits(v))
		}
	default:
		re := make([]float64, len(t.Data))
		decodeAs(re, t, part)
		for i, v := range re {
			words[2*i] = math.Float64bits(v)
		}
	}
	return words, pairView(viewOf(t), 1)
}

// wordsOf is how many storage words an element of d takes.
func wordsOf(d tensor.DType) int {
	if d.IsComplex() {
		return 2
	}
	return 1
}
