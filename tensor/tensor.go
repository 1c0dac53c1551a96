package tensor

import (
	"fmt"
	"strings"
)

// Limits on what a case may hold; the codec rejects anything larger.
// Budget (budget.go) limits what evaluating a case may cost.
const (
	MaxRank     = 8
	MaxElements = 1 << 24
	// MaxLineBytes bounds one line of a case file (one case): 2^24 small
	// integers fit, and a reader never holds more than this of one line.
	MaxLineBytes = 64 << 20
	// MaxLiteralBytes bounds the text of a literal attr (from_literal's
	// literal, arange's start and end, full's value) and of a host scalar:
	// literals are source code, and the parsers' time and memory grow with
	// the text.
	MaxLiteralBytes = 64 << 10
)

// Tensor is a strided view of exactly stored elements.
//
// Data holds raw bit patterns, one word per element (two for complex: the
// real and imaginary parts as bits of the component type). Integers keep only
// their dtype's low bits, zero-extended. Strides and Offset count elements;
// nil Strides means contiguous row-major. Unspecified, when not nil, marks the
// storage elements an outcome leaves undefined ("?" in the case format).
type Tensor struct {
	DType       DType
	Shape       []int
	Strides     []int
	Offset      int
	Data        []uint64
	Unspecified []bool
	// View, when not nil, says how the case file built this input from
	// its storage (Data); see View and IsView.
	View *View
}

// New returns a contiguous tensor of zeros.
func New(d DType, shape ...int) *Tensor {
	if !d.Valid() {
		panic("tensor: New with an invalid dtype")
	}
	words := NumElements(shape) * wordsPer(d)
	if len(shape) > smallRank || words > smallWords {
		return &Tensor{DType: d, Shape: append([]int{}, shape...), Data: make([]uint64, words)}
	}
	// Most tensors a campaign makes are small: one allocation holds the
	// tensor, its shape and its elements (the slices are capped, so an
	// append never writes into the neighbouring field).
	s := &smallTensor{}
	n := copy(s.shape[:], shape)
	s.Tensor = Tensor{DType: d, Shape: s.shape[:n:n], Data: s.data[:words:words]}
	return &s.Tensor
}

// smallTensor is a tensor of at most smallRank dims and smallWords words in
// one allocation.
type smallTensor struct {
	Tensor
	shape [smallRank]int
	data  [smallWords]uint64
}

const (
	smallRank  = 4
	smallWords = 8
)

// NumElements returns the product of shape (1 for a 0-dim shape).
func NumElements(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

func wordsPer(d DType) int {
	if d.IsComplex() {
		return 2
	}
	return 1
}

// Rank returns the number of dimensions.
func (t *Tensor) Rank() int { return len(t.Shape) }

// Len returns the number of elements.
func (t *Tensor) Len() int { return NumElements(t.Shape) }

// ContiguousStrides returns the row-major strides of shape.
func ContiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= shape[i]
	}
	return st
}

// IsContiguous reports whether element i of the row-major order is storage element i.
// checkLayout reports an error when an element of t lies outside its
// data, or t's strides, offset or unspecified marks do not fit its shape.
func (t *Tensor) checkLayout() error {
	if t.Strides != nil && len(t.Strides) != len(t.Shape) {
		return fmt.Errorf("%d strides for %d dims", len(t.Strides), len(t.Shape))
	}
	if t.Unspecified != nil && len(t.Unspecified)*wordsPer(t.DType) != len(t.Data) {
		return fmt.Errorf("%d unspecified marks for %d words", len(t.Unspecified), len(t.Data))
	}
	if t.Len() == 0 {
		return nil
	}
	lo, hi := t.Offset, t.Offset // the lowest and highest element positions
	for i, n := range t.Shape {
		s := 1
		if t.Strides != nil {
			s = t.Strides[i]
		} else {
			s = NumElements(t.Shape[i+1:])
		}
		if s < 0 {
			lo += (n - 1) * s
		} else {
			hi += (n - 1) * s
		}
	}
	if lo < 0 || (hi+1)*wordsPer(t.DType) > len(t.Data) {
		return fmt.Errorf("elements at %d to %d of %d words", lo, hi, len(t.Data))
	}
	return nil
}

func (t *Tensor) IsContiguous() bool {
	if t.Strides == nil {
		return t.Offset == 0
	}
	if t.Offset != 0 {
		return false
	}
	want := ContiguousStrides(t.Shape)
	for i, s := range t.Shape {
		if s != 1 && t.Strides[i] != want[i] {
			return false
		}
	}
	return true
}

// storage maps the row-major logical index i to a storage element index.
func (t *Tensor) storage(i int) int {
	if t.Strides == nil {
		return t.Offset + i
	}
	pos := t.Offset
	for d := len(t.Shape) - 1; d >= 0; d-- {
		s := t.Shape[d]
		pos += (i % s) * t.Strides[d]
		i /= s
	}
	return pos
}

// Bits returns the raw bits of element i (the real part's for complex).
func (t *Tensor) Bits(i int) uint64 { return t.Data[t.storage(i)*wordsPer(t.DType)] }

// SetBits stores raw bits into element i (the real part for complex).
func (t *Tensor) SetBits(i int, b uint64) { t.Data[t.storage(i)*wordsPer(t.DType)] = b }

// Int returns element i of an integer or bool tensor as int64: signed types
// sign-extended, unsigned ones reinterpreted (u64 above MaxInt64 turn negative).
func (t *Tensor) Int(i int) int64 {
	b := t.Bits(i)
	if t.DType.IsSigned() {
		shift := 64 - t.DType.Bits()
		return int64(b<<shift) >> shift
	}
	return int64(b)
}

// Uint returns element i of an integer or bool tensor as its two's-complement
// uint64 (signed types sign-extended first).
func (t *Tensor) Uint(i int) uint64 { return uint64(t.Int(i)) }

// Bool returns element i of a tensor as a truth value (nonzero bits).
func (t *Tensor) Bool(i int) bool { return t.Bits(i) != 0 }

// Float returns element i of a float tensor (the real part for complex).
func (t *Tensor) Float(i int) float64 {
	return bitsToFloat(t.Bits(i), t.DType.Component())
}

// Complex returns element i of a complex tensor.
func (t *Tensor) Complex(i int) complex128 {
	p := t.storage(i) * 2
	c := t.DType.Component()
	return complex(bitsToFloat(t.Data[p], c), bitsToFloat(t.Data[p+1], c))
}

// SetInt stores v into element i of an integer or bool tensor, keeping the
// dtype's low bits (bool: v != 0).
func (t *Tensor) SetInt(i int, v int64) {
	if t.DType == Bool {
		if v != 0 {
			v = 1
		}
		t.SetBits(i, uint64(v))
		return
	}
	t.SetBits(i, uint64(v)&(^uint64(0)>>(64-t.DType.Bits())))
}

// SetUint stores v into element i of an integer or bool tensor, keeping the dtype's low bits.
func (t *Tensor) SetUint(i int, v uint64) { t.SetInt(i, int64(v)) }

// SetBool stores a truth value into element i of a bool tensor.
func (t *Tensor) SetBool(i int, v bool) {
	var b uint64
	if v {
		b = 1
	}
	t.SetBits(i, b)
}

// SetFloat stores v rounded to the tensor's float dtype (to nearest, ties to
// even) into element i; for complex it sets the real part and zeroes the imaginary.
func (t *Tensor) SetFloat(i int, v float64) {
	if t.DType.IsComplex() {
		t.SetComplex(i, complex(v, 0))
		return
	}
	t.SetBits(i, FloatBits(v, t.DType))
}

// SetComplex stores v, each part rounded to the component type, into element i.
func (t *Tensor) SetComplex(i int, v complex128) {
	p := t.storage(i) * 2
	c := t.DType.Component()
	t.Data[p] = FloatBits(real(v), c)
	t.Data[p+1] = FloatBits(imag(v), c)
}

// IsUnspecified reports whether element i is "?".
func (t *Tensor) IsUnspecified(i int) bool {
	return t.Unspecified != nil && t.Unspecified[t.storage(i)]
}

// SetUnspecified marks element i as "?" (its bits are kept but mean nothing).
func (t *Tensor) SetUnspecified(i int) {
	if t.Unspecified == nil {
		t.Unspecified = make([]bool, len(t.Data)/wordsPer(t.DType))
	}
	t.Unspecified[t.storage(i)] = true
}

// HasUnspecified reports whether any element is "?".
func (t *Tensor) HasUnspecified() bool {
	for i := 0; i < t.Len(); i++ {
		if t.IsUnspecified(i) {
			return true
		}
	}
	return false
}

// Contiguous returns a row-major copy of t (t itself if it already is one).
func (t *Tensor) Contiguous() *Tensor {
	if t.IsContiguous() && len(t.Data) == t.Len()*wordsPer(t.DType) {
		return t
	}
	return t.Clone()
}

// Clone returns a contiguous deep copy of t.
func (t *Tensor) Clone() *Tensor {
	n := t.Len()
	w := wordsPer(t.DType)
	c := New(t.DType, t.Shape...)
	for i := 0; i < n; i++ {
		p := t.storage(i) * w
		copy(c.Data[i*w:i*w+w], t.Data[p:p+w])
		if t.IsUnspecified(i) {
			c.SetUnspecified(i)
		}
	}
	return c
}

// Reshape returns a contiguous tensor with the same elements and a new shape
// of the same element count.
func (t *Tensor) Reshape(shape ...int) *Tensor {
	if NumElements(shape) != t.Len() {
		panic("tensor: Reshape to a different element count")
	}
	c := t.Clone()
	c.Shape = append([]int{}, shape...)
	return c
}

// ElementString formats element i as the case format writes it, without
// quotes: "true", "-7", "0.5", "nan", "[1.0, -0.0]", "?".
func (t *Tensor) ElementString(i int) string {
	switch {
	case t.IsUnspecified(i):
		return "?"
	case t.DType == Bool:
		return fmt.Sprint(t.Bool(i))
	case t.DType.IsSigned():
		return fmt.Sprint(t.Int(i))
	case t.DType.IsUnsigned():
		return fmt.Sprint(uint64(t.Bits(i)))
	case t.DType.IsComplex():
		c := t.Complex(i)
		return "[" + FormatFloat(real(c)) + ", " + FormatFloat(imag(c)) + "]"
	}
	return FormatFloat(t.Float(i))
}

// String renders t compactly: "i64[4] [-3, 3, 3, -3]", eliding the
// elements after the 16th of a tensor of over 20.
func (t *Tensor) String() string { return t.format(20) }

// format writes t in the case notation, eliding the elements after the 16th
// of a tensor of over limit (none when limit < 0).
func (t *Tensor) format(limit int) string {
	if t.IsView() {
		return t.viewNotation(limit)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%v [", t.DType, t.Shape)
	n := t.Len()
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		if limit >= 0 && i == 16 && n > limit {
			fmt.Fprintf(&b, "... (%d more)", n-i)
			break
		}
		b.WriteString(t.ElementString(i))
	}
	b.WriteByte(']')
	return b.String()
}
