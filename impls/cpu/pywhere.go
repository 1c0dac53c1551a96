package cpu

import (
	"math"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// where(condition, x, y) in PyTorch, NumPy and JAX (policies
// pytorch.where.condition, numpy.where, jax.where): the condition's truth
// (PyTorch: a bool tensor only; NumPy and JAX: nonzero, NaN true), x and y
// promoted as a binary op's operands (promote.go, Python scalars weak) and
// the three shapes broadcast; then one select of the values' bits in the
// common dtype (kWhere), a contiguous run or the tiled walk (drive.go);
// operands that need no conversion and no broadcast skip the decoding and
// select their storage words (selectnt.go).

func init() {
	attach(pythonProfiles(), tensor.ClassWhere, &family{supports: pyWhereSupports, eval: pyWhereEval})
}

// wherePlan is a where decided from dtypes, shapes and scalars.
type wherePlan struct {
	p      *profile
	cond   *tensor.Tensor // as the framework holds it
	vals   [2]binArg
	common tensor.DType
	shape  []int
	// stored: x and y are tensors the framework holds as the case stores
	// them (not narrowed by JAX), of the common dtype and of the result's
	// shape, as is the condition, and the dtype is neither f16 nor bf16
	// (whose decode and encode quiet a NaN): the select of their storage
	// words as they are is the result (run).
	stored bool
}

// pyWhereSupports declines complex operands, Python scalars the engine does
// not parse (complex, an int outside int64) and what the model does not
// state (see planWhere).
func pyWhereSupports(p *profile, c *tensor.Case) bool {
	if !whereArgsOK(p, c) {
		return false
	}
	_, _, ok := planWhere(p, c, pyInputDType)
	return ok
}

// whereArgsOK checks where's arguments: a tensor condition, tensors or
// parsed real scalars for x and y (for JAX an int outside int64 too, which
// it fails to parse).
func whereArgsOK(p *profile, c *tensor.Case) bool {
	if len(c.Args) != 3 || c.Args[0].Tensor == nil {
		return false
	}
	for _, a := range c.Args {
		if !validArg(a, true) {
			return false
		}
		if a.Scalar != nil {
			if s, ok := parseScalarOrHuge(a.Scalar); !ok || s.huge && p.fw != fwJAX {
				return false
			}
		}
	}
	return true
}

func pyWhereEval(e *Engine, p *profile, c *tensor.Case) tensor.Outcome {
	w, o, _ := planWhere(p, c, pyInput)
	if w == nil {
		return *o
	}
	return w.run(e)
}

// planWhere checks where as the framework does, in its order: PyTorch's
// condition dtype, JAX's parse of a Python int, the broadcast, the
// promotion of x and y, PyTorch's kernel coverage (where_cpu has no
// u16/u32/u64). It returns the plan, or the outcome those checks decide,
// or ok false for what the model leaves unstated (NumPy's where of two
// Python ints or bools, or of a Python int beyond the common dtype). input
// makes the tensors the framework holds (pyInput), or only their dtypes
// and shapes (pyInputDType: planning reads nothing else).
func planWhere(p *profile, c *tensor.Case, input func(*profile, *tensor.Tensor) *tensor.Tensor) (w *wherePlan, o *tensor.Outcome, ok bool) {
	w = &wherePlan{p: p, cond: input(p, c.Args[0].Tensor)}
	for k, a := range c.Args[1:] {
		if a.Scalar != nil {
			w.vals[k].s, _ = parseScalarOrHuge(a.Scalar)
		} else {
			w.vals[k].t = input(p, a.Tensor)
		}
	}
	if p.fw == fwPyTorch && w.cond.DType != tensor.Bool {
		return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
			"RuntimeError: where expected condition to be a boolean tensor, but got a tensor with dtype %s", torchName(w.cond.DType))), true
	}
	for _, v := range w.vals {
		if v.isScalar() && p.fw == fwJAX {
			if o := jaxIntOverflow(p, v.s); o != nil {
				return nil, o, true
			}
		}
	}
	w.shape = append([]int{}, w.cond.Shape...)
	for _, v := range w.vals {
		if v.isScalar() {
			continue
		}
		s, fits := broadcastShapes(w.shape, v.t.Shape)
		if !fits {
			return nil, outcome(tensor.ErrorOutcome(tensor.ShapeMismatch, "shapes %v and %v do not broadcast", w.shape, v.t.Shape)), true
		}
		w.shape = s
	}
	x, y := w.vals[0].promo(), w.vals[1].promo()
	if x.dtype.IsComplex() || y.dtype.IsComplex() {
		d, promoted := complexWhereType(p, x, y)
		if !promoted { // policy pytorch.promote.barebones-unsigned
			return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
				"RuntimeError: Promotion for uint16, uint32, uint64 types is not supported")), true
		}
		w.common = d
		return w, nil, len(w.shape) < tensor.MaxRank // the select adds a dimension
	}
	switch p.fw {
	case fwPyTorch:
		d, promoted := torchResultType(x, y)
		if !promoted { // policy pytorch.promote.barebones-unsigned
			return nil, outcome(tensor.ErrorOutcome(tensor.UnsupportedDType,
				"RuntimeError: Promotion for uint16, uint32, uint64 types is not supported")), true
		}
		if barebonesUnsigned(d) {
			return nil, outcome(torchNoKernel("where_cpu", d)), true
		}
		w.common = d
	case fwNumPy:
		w.common = numpyResultType(x, y)
		if !w.common.Valid() {
			return nil, nil, false
		}
		for _, v := range w.vals {
			if v.isScalar() && v.s.kind == tensor.ScalarInt && w.common.IsInt() && !intFits(v.s.i, w.common) {
				return nil, nil, false
			}
		}
	default:
		w.common = jaxResultType(p.x64, x, y)
	}
	w.stored = !isHalf(w.common) && !w.cond.DType.IsComplex() && slices.Equal(w.cond.Shape, w.shape)
	for k, v := range w.vals {
		w.stored = w.stored && !v.isScalar() && v.t == c.Args[k+1].Tensor && v.t.DType == w.common && slices.Equal(v.t.Shape, w.shape)
	}
	return w, nil, true
}

// run selects the values, converted to the common dtype, by the
// condition's truth. Integers are selected as the unsigned words of their
// width (a conversion to an integer dtype has the same bits either way),
// floats as the words of their bits. A stored plan selects the storage
// words themselves (selectRun): decoding them to the common dtype and
// encoding the result back would give the same words.
func (w *wherePlan) run(e *Engine) tensor.Outcome {
	if w.common.IsComplex() {
		return w.whereComplex(e)
	}
	if w.stored {
		out := &tensor.Tensor{DType: w.common, Shape: slices.Clone(w.shape), Data: make([]uint64, tensor.NumElements(w.shape))}
		selectRun(e, out.Data, rowMajorWords(w.cond), rowMajorWords(w.vals[0].t), rowMajorWords(w.vals[1].t), truthMask(w.cond.DType))
		return tensor.ValueOutcome(out)
	}
	cond := loadTruth(w.cond)
	l := newLayout(w.shape, viewOf(w.cond), w.vals[0].view(), w.vals[1].view())
	switch kindOf(w.common) {
	case kU8, kI8:
		return whereInt[uint8](e, w, &l, cond)
	case kU16, kI16:
		return whereInt[uint16](e, w, &l, cond)
	case kU32, kI32:
		return whereInt[uint32](e, w, &l, cond)
	case kU64, kI64:
		return whereInt[uint64](e, w, &l, cond)
	case kF32:
		return whereFloat[float32, uint32](e, w, &l, cond)
	}
	return whereFloat[float64, uint64](e, w, &l, cond)
}

func whereInt[U unsignedInt](e *Engine, w *wherePlan, l *layout, cond []uint8) tensor.Outcome {
	x, y := argAs[U](w.p, &w.vals[0], w.common), argAs[U](w.p, &w.vals[1], w.common)
	dst := make([]U, l.n)
	runTernary(e, l, dst, cond, x, y, kWhere[U])
	return tensor.ValueOutcome(encode(e, dst, w.common, w.shape))
}

func whereFloat[F floating, U unsignedInt](e *Engine, w *wherePlan, l *layout, cond []uint8) tensor.Outcome {
	x, y := argAs[F](w.p, &w.vals[0], w.common), argAs[F](w.p, &w.vals[1], w.common)
	dst := make([]F, l.n)
	runTernary(e, l, asWords[U](dst), cond, asWords[U](x), asWords[U](y), kWhere[U])
	return tensor.ValueOutcome(encode(e, dst, w.common, w.shape))
}

// loadTruth decodes every storage element of t as 1 where it is true (its
// truthMask bits are not all zero; a complex one where either part is) and
// 0 elsewhere.
func loadTruth(t *tensor.Tensor) []uint8 {
	mask := truthMask(t.DType)
	per := wordsOf(t.DType)
	dst := make([]uint8, len(t.Data)/per)
	for i := range dst {
		w := t.Data[i*per]
		if per == 2 {
			w |= t.Data[2*i+1]
		}
		if w&mask != 0 {
			dst[i] = 1
		}
	}
	return dst
}

// truthMask is the bits of a storage word of dtype d (of a part, for a
// complex d) that make it nonzero: the bits below a float's sign bit (NaN
// is true, -0.0 not), an integer's bits of its dtype (a JAX input narrowed
// to 32 bits keeps its 64-bit words).
func truthMask(d tensor.DType) uint64 {
	switch d.Component() {
	case tensor.F16, tensor.BF16:
		return 1<<15 - 1
	case tensor.F32:
		return 1<<31 - 1
	case tensor.F64:
		return math.MaxInt64
	}
	return wordMask(d)
}
