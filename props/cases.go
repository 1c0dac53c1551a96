package props

import (
	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// CaseOptions limit what GenCase draws. Zero values mean "everything".
type CaseOptions struct {
	Ops      []string       // op names; default: the whole catalog
	DTypes   []tensor.DType // element dtypes of the main input; default: all
	MaxElems int            // largest tensor drawn (default 24)
	// Views makes some input tensors non-contiguous views of the same
	// elements (strided, permuted, offset storage; see views.go).
	Views bool
	// LargeElems, when positive, makes one main input in eight a large 1-D
	// tensor of LargeElems/2 to LargeElems elements (and its operand
	// partner as large): the sizes at which an engine splits an op across
	// goroutines. Their elements come from a palette of a few drawn values
	// (genFill), so that a large tensor costs a handful of draws.
	LargeElems int
}

func (o CaseOptions) ops() []string {
	if len(o.Ops) > 0 {
		return o.Ops
	}
	names := make([]string, len(tensor.Ops))
	for i, op := range tensor.Ops {
		names[i] = op.Name
	}
	return names
}

func (o CaseOptions) dtypes() []tensor.DType {
	if len(o.DTypes) > 0 {
		return o.DTypes
	}
	return tensor.AllDTypes
}

func (o CaseOptions) maxElems() int {
	if o.MaxElems > 0 {
		return o.MaxElems
	}
	return 24
}

// GenCase generates cases of the catalog: an op, its inputs and its attrs.
func GenCase(o CaseOptions) *rapid.Generator[*tensor.Case] {
	return rapid.Custom(func(t *rapid.T) *tensor.Case {
		name := rapid.SampledFrom(o.ops()).Draw(t, "op")
		op, _ := tensor.LookupOp(name)
		c := &tensor.Case{Op: name}
		switch op.Class {
		case tensor.ClassBinary:
			genBinaryArgs(t, c, o)
		case tensor.ClassUnary:
			c.Args = []tensor.Arg{{Tensor: genTensor(t, o, "a")}}
		case tensor.ClassCast:
			c.Args = []tensor.Arg{{Tensor: genTensor(t, o, "a")}}
			c.Attrs.To = rapid.SampledFrom(tensor.AllDTypes).Draw(t, "to")
		case tensor.ClassReduce, tensor.ClassCumsum:
			a := genTensor(t, o, "a")
			c.Args = []tensor.Arg{{Tensor: a}}
			if op.Class == tensor.ClassCumsum || rapid.Bool().Draw(t, "has dim") {
				r := max(a.Rank(), 1)
				d := rapid.IntRange(-r, r-1).Draw(t, "dim")
				c.Attrs.Dim = &d
			}
			if op.Class == tensor.ClassReduce && rapid.Bool().Draw(t, "has keepdim") {
				k := rapid.Bool().Draw(t, "keepdim")
				c.Attrs.Keepdim = &k
			}
		case tensor.ClassIndexSelect:
			genIndexSelect(t, c, o)
		case tensor.ClassFromLiteral:
			lit := genLiteral(t)
			c.Attrs.Literal = &lit
		case tensor.ClassArange:
			start := rapid.SampledFrom([]string{"0", "1", "-2", "0.0", "0.5"}).Draw(t, "start")
			end := rapid.SampledFrom([]string{"3", "5", "2.5", "3.0", "0"}).Draw(t, "end")
			c.Attrs.Start, c.Attrs.End = &start, &end
		case tensor.ClassZeros:
			c.Attrs.Shape = genShape(t, o, "shape")
			if rapid.Bool().Draw(t, "has dtype") {
				c.Attrs.DType = rapid.SampledFrom(o.dtypes()).Draw(t, "dtype")
			}
		case tensor.ClassFromVec:
			a := genTensorShaped(t, o.dtypes(), []int{rapid.IntRange(0, 8).Draw(t, "n")}, "v")
			c.Args = []tensor.Arg{{Tensor: a}}
			c.Attrs.Shape = []int{a.Len()}
		case tensor.ClassToHost:
			a := genTensor(t, o, "a")
			c.Args = []tensor.Arg{{Tensor: a}}
			c.Attrs.DType = rapid.SampledFrom(o.dtypes()).Draw(t, "dtype")
			r := a.Rank()
			c.Attrs.Rank = &r
		}
		if o.Views {
			viewArgs(t, c)
		}
		return c
	})
}

// genShape draws a shape: mostly small ranks, sometimes 0-dim or empty.
func genShape(t *rapid.T, o CaseOptions, label string) []int {
	rank := rapid.IntRange(0, 3).Draw(t, label+".rank")
	shape := make([]int, rank)
	budget := o.maxElems()
	for i := range shape {
		hi := min(budget, 6)
		if i == rank-1 {
			hi = min(budget, max(6, budget))
		}
		shape[i] = rapid.IntRange(0, max(hi, 0)).Draw(t, label+".dim")
		if shape[i] > 0 {
			budget /= shape[i]
		}
	}
	return shape
}

func genTensor(t *rapid.T, o CaseOptions, label string) *tensor.Tensor {
	if o.LargeElems > 0 && rapid.IntRange(0, 7).Draw(t, label+".large") == 0 {
		n := rapid.IntRange(max(o.LargeElems/2, 1), o.LargeElems).Draw(t, label+".len")
		return genFill(t, rapid.SampledFrom(o.dtypes()).Draw(t, label+".dtype"), []int{n}, label)
	}
	return genTensorShaped(t, o.dtypes(), genShape(t, o, label+".shape"), label)
}

// genFill draws a tensor of any size in a few draws: four edge-biased
// palette values and a seed; element i takes the palette value a xorshift
// of the seed picks, and the first and last elements are drawn on their own
// (edges at both ends of the index range).
func genFill(t *rapid.T, d tensor.DType, shape []int, label string) *tensor.Tensor {
	x := tensor.New(d, shape...)
	n := x.Len()
	if n == 0 {
		return x
	}
	pal := genElements(t, d, []int{4}, label+".palette")
	s := rapid.Uint64().Draw(t, label+".seed") | 1
	for i := 0; i < n; i++ {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		if d.IsComplex() {
			x.SetComplex(i, pal.Complex(int(s%4)))
		} else {
			x.SetBits(i, pal.Bits(int(s%4)))
		}
	}
	setElement(t, x, 0, label)
	setElement(t, x, n-1, label)
	return x
}

// genTensorShaped draws a dtype and the elements of a tensor of the given shape.
func genTensorShaped(t *rapid.T, dtypes []tensor.DType, shape []int, label string) *tensor.Tensor {
	d := rapid.SampledFrom(dtypes).Draw(t, label+".dtype")
	return genElements(t, d, shape, label)
}

func genElements(t *rapid.T, d tensor.DType, shape []int, label string) *tensor.Tensor {
	x := tensor.New(d, shape...)
	for i := 0; i < x.Len(); i++ {
		setElement(t, x, i, label)
	}
	return x
}

// broadcastPartner draws a shape that broadcasts with shape: usually the
// same, sometimes with leading dims dropped or some dims set to 1.
func broadcastPartner(t *rapid.T, shape []int) []int {
	switch rapid.IntRange(0, 3).Draw(t, "partner") {
	case 0, 1:
		return append([]int{}, shape...)
	case 2:
		drop := rapid.IntRange(0, len(shape)).Draw(t, "drop")
		return append([]int{}, shape[drop:]...)
	}
	out := append([]int{}, shape...)
	for i := range out {
		if rapid.Bool().Draw(t, "ones") {
			out[i] = 1
		}
	}
	return out
}

func genBinaryArgs(t *rapid.T, c *tensor.Case, o CaseOptions) {
	a := genTensor(t, o, "a")
	if rapid.IntRange(0, 3).Draw(t, "scalar operand") == 0 {
		s := genScalar(t)
		if rapid.Bool().Draw(t, "scalar on the left") {
			c.Args = []tensor.Arg{{Scalar: s}, {Tensor: a}}
		} else {
			c.Args = []tensor.Arg{{Tensor: a}, {Scalar: s}}
		}
		return
	}
	// the second operand: often the same dtype, to reach the kernels past promotion
	d := a.DType
	if rapid.Bool().Draw(t, "mixed dtypes") {
		d = rapid.SampledFrom(o.dtypes()).Draw(t, "b.dtype")
	}
	var b *tensor.Tensor
	if shape := broadcastPartner(t, a.Shape); tensor.NumElements(shape) > o.maxElems() {
		b = genFill(t, d, shape, "b") // the partner of a large tensor (LargeElems)
	} else {
		b = genElements(t, d, shape, "b")
	}
	if rapid.Bool().Draw(t, "swap") {
		a, b = b, a
	}
	c.Args = []tensor.Arg{{Tensor: a}, {Tensor: b}}
}

// genScalar draws a host scalar as a program would write it.
func genScalar(t *rapid.T) *tensor.Scalar {
	switch rapid.IntRange(0, 3).Draw(t, "scalar kind") {
	case 0:
		text := rapid.SampledFrom([]string{"0", "1", "2", "-1", "3", "-7", "127", "255", "256", "300",
			"2147483647", "2147483648", "-2147483649", "9223372036854775807"}).Draw(t, "int")
		return &tensor.Scalar{Text: text, Kind: tensor.ScalarInt}
	case 1:
		text := rapid.SampledFrom([]string{"0.0", "1.0", "0.5", "-1.0", "2.5", "0.1", "-0.0", "2.0", "3.0",
			"1e+20", "nan", "inf", "-inf", "16777217.0"}).Draw(t, "float")
		return &tensor.Scalar{Text: text, Kind: tensor.ScalarFloat}
	case 2:
		text := rapid.SampledFrom([]string{"1j", "-0j", "1.5+2j", "(0-1j)", "2-0.5j", "nan+0j", "inf-2j", "3+infj", "1e+20j"}).Draw(t, "complex")
		return &tensor.Scalar{Text: text, Kind: tensor.ScalarComplex}
	}
	return &tensor.Scalar{Text: rapid.SampledFrom([]string{"true", "false"}).Draw(t, "bool"), Kind: tensor.ScalarBool}
}

func genIndexSelect(t *rapid.T, c *tensor.Case, o CaseOptions) {
	src := genTensor(t, o, "src")
	rank := max(src.Rank(), 1)
	dim := rapid.IntRange(-rank, rank-1).Draw(t, "dim")
	size := 1
	if src.Rank() > 0 {
		nd := dim
		if nd < 0 {
			nd += src.Rank()
		}
		size = src.Shape[nd]
	}
	idxType := rapid.SampledFrom([]tensor.DType{tensor.I64, tensor.I32, tensor.U8, tensor.U32, tensor.I16,
		tensor.I8, tensor.U16, tensor.U64, tensor.Bool, tensor.F32}).Draw(t, "index dtype")
	n := rapid.IntRange(0, 4).Draw(t, "index len")
	idx := tensor.New(idxType, n)
	for i := 0; i < n; i++ {
		v := int64(rapid.IntRange(-size-1, size).Draw(t, "index"))
		if idxType.IsFloat() {
			idx.SetFloat(i, float64(v))
		} else {
			idx.SetInt(i, v)
		}
	}
	c.Args = []tensor.Arg{{Tensor: src}, {Tensor: idx}}
	c.Attrs.Dim = &dim
}

// genLiteral draws the text of a Python literal: a scalar or a (nested) list.
func genLiteral(t *rapid.T) string {
	return rapid.SampledFrom([]string{"[1.0, 2.0]", "[1, 2]", "3.5", "3", "[true, false]", "[[1, 2], [3, 4.0]]",
		"[1, 2.5]", "[]", "[2147483648]", "[-1, 0, 1]", "[[1, 2], [3]]", "[1e+20]", "true"}).Draw(t, "literal")
}
