package tensor

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// View is how an input tensor is built from other storage (the case
// format's "view" object, added 2026-12): the storage is a contiguous
// tensor of shape Base, then its dims are permuted, each dim of the result
// is sliced, and size-1 dims are broadcast to Expand. A decoded view tensor
// is a strided Tensor over the storage (Strides, Offset; zero strides where
// Expand broadcasts), so every consumer that reads elements through the
// accessors sees the view's logical elements, and an implementation that
// reads Strides and Offset sees the real layout. The View itself is kept so
// that the encoder writes the object back as it was read.
type View struct {
	Base    []int    // shape of the storage; Data holds product(Base) elements
	Permute []int    // dims of Base in their new order; nil: identity
	Slice   [][3]int // per dim of the permuted tensor, [start, stop, step]; nil: whole dims
	Expand  []int    // the final shape; nil: no broadcast
}

// Permuted returns the shape after the permutation.
func (v *View) Permuted() []int {
	if v.Permute == nil {
		return slices.Clone(v.Base)
	}
	out := make([]int, len(v.Permute))
	for i, p := range v.Permute {
		out[i] = v.Base[p]
	}
	return out
}

// Sliced returns the shape after the permutation and the slices.
func (v *View) Sliced() []int {
	shape := v.Permuted()
	for i, s := range v.Slice {
		shape[i] = sliceLen(s)
	}
	return shape
}

// sliceLen is the length of [start, stop) taken every step elements.
func sliceLen(s [3]int) int {
	if s[1] <= s[0] {
		return 0
	}
	return (s[1] - s[0] + s[2] - 1) / s[2]
}

// Layout returns the shape, strides and offset (in elements of the
// storage) that the view's steps produce, or the field of the view object
// ("view.permute", "view.slice[1]", "view.expand") whose value is wrong.
func (v *View) Layout() (shape, strides []int, offset int, err error) {
	r := len(v.Base)
	base := ContiguousStrides(v.Base)
	perm := v.Permute
	if perm == nil {
		perm = make([]int, r)
		for i := range perm {
			perm[i] = i
		}
	} else if len(perm) != r || !isPermutation(perm) {
		return nil, nil, 0, errAt("view.permute", "%v is not a permutation of the %d dims of base %v", v.Permute, r, v.Base)
	}
	shape = make([]int, r)
	strides = make([]int, r)
	for i, p := range perm {
		shape[i], strides[i] = v.Base[p], base[p]
	}
	if v.Slice != nil {
		if len(v.Slice) != r {
			return nil, nil, 0, errAt("view.slice", "has %d entries, the permuted tensor %v has %d dims", len(v.Slice), shape, r)
		}
		for i, s := range v.Slice {
			start, stop, step := s[0], s[1], s[2]
			if start < 0 || start > stop || stop > shape[i] || step < 1 {
				return nil, nil, 0, errAt(fmt.Sprintf("view.slice[%d]", i),
					"[%d, %d, %d] is out of range for a dim of size %d (0 <= start <= stop <= size, step >= 1)", start, stop, step, shape[i])
			}
			if shape[i] > 0 {
				offset += start * strides[i]
			}
			shape[i] = sliceLen(s)
			strides[i] *= step
		}
	}
	if v.Expand != nil {
		if len(v.Expand) < r {
			return nil, nil, 0, errAt("view.expand", "%v has fewer dims than the sliced tensor %v", v.Expand, shape)
		}
		lead := len(v.Expand) - r
		out := make([]int, len(v.Expand))
		for i, n := range v.Expand {
			k := i - lead
			switch {
			case n < 0:
				return nil, nil, 0, errAt("view.expand", "%v has a negative size", v.Expand)
			case k < 0: // a new leading dim
				out[i] = 0
			case shape[k] == n:
				out[i] = strides[k]
			case shape[k] == 1:
				out[i] = 0
			default:
				return nil, nil, 0, errAt("view.expand", "cannot broadcast %v to %v: dim %d has size %d, not 1 or %d", shape, v.Expand, k, shape[k], n)
			}
		}
		if NumElements(v.Expand) > MaxElements || overflowsElements(v.Expand) {
			return nil, nil, 0, errAt("view.expand", "%v has more than 2^24 elements", v.Expand)
		}
		shape, strides = slices.Clone(v.Expand), out
	}
	return shape, strides, offset, nil
}

// overflowsElements reports whether the product of shape exceeds MaxElements
// at some point (NumElements could wrap for absurd shapes).
func overflowsElements(shape []int) bool {
	n := 1
	for _, s := range shape {
		if s == 0 {
			return false
		}
		if n > MaxElements/s {
			return true
		}
		n *= s
	}
	return false
}

func isPermutation(p []int) bool {
	seen := make([]bool, len(p))
	for _, x := range p {
		if x < 0 || x >= len(p) || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// NewView returns the view v of storage, a contiguous tensor of shape
// v.Base: a strided tensor sharing storage's data, with v kept on it.
func NewView(storage *Tensor, v View) (*Tensor, error) {
	if !storage.IsContiguous() || !slices.Equal(storage.Shape, v.Base) || len(storage.Data) != storage.Len()*wordsPer(storage.DType) {
		return nil, fmt.Errorf("tensor: view storage must be contiguous of shape %v, got %v", v.Base, storage.Shape)
	}
	shape, strides, offset, err := v.Layout()
	if err != nil {
		return nil, err
	}
	v = v.clone()
	return &Tensor{DType: storage.DType, Shape: shape, Strides: strides, Offset: offset, Data: storage.Data, View: &v}, nil
}

func (v View) clone() View {
	return View{Base: slices.Clone(v.Base), Permute: slices.Clone(v.Permute), Slice: slices.Clone(v.Slice), Expand: slices.Clone(v.Expand)}
}

// IsView reports whether t is a view whose View still describes its layout
// (a tensor the encoder writes with its "view" object).
func (t *Tensor) IsView() bool {
	if t.View == nil || len(t.Data) != NumElements(t.View.Base)*wordsPer(t.DType) {
		return false
	}
	shape, strides, offset, err := t.View.Layout()
	return err == nil && offset == t.Offset && slices.Equal(shape, t.Shape) && slices.Equal(strides, t.Strides)
}

// Storage returns the contiguous storage tensor of a view (shape
// View.Base), sharing t's data; nil when t is not a view.
func (t *Tensor) Storage() *Tensor {
	if !t.IsView() {
		return nil
	}
	return &Tensor{DType: t.DType, Shape: slices.Clone(t.View.Base), Data: t.Data}
}

// StorageIndex returns the storage element (not word) that holds logical
// element i of t.
func (t *Tensor) StorageIndex(i int) int { return t.storage(i) }

// CloneLayout returns a deep copy of t that keeps its layout: strides,
// offset, storage and view (Clone returns a contiguous copy).
func (t *Tensor) CloneLayout() *Tensor {
	c := *t
	c.Shape = slices.Clone(t.Shape)
	c.Strides = slices.Clone(t.Strides)
	c.Data = slices.Clone(t.Data)
	c.Unspecified = slices.Clone(t.Unspecified)
	if t.View != nil {
		v := t.View.clone()
		c.View = &v
	}
	return &c
}

// String writes the view's steps: "base=[2 3] permute=[1 0] slice=[0:3:2 0:2:1]".
func (v *View) String() string {
	parts := []string{"base=" + intsText(v.Base)}
	if v.Permute != nil {
		parts = append(parts, "permute="+intsText(v.Permute))
	}
	if v.Slice != nil {
		s := make([]string, len(v.Slice))
		for i, x := range v.Slice {
			s[i] = fmt.Sprintf("%d:%d:%d", x[0], x[1], x[2])
		}
		parts = append(parts, "slice=["+strings.Join(s, " ")+"]")
	}
	if v.Expand != nil {
		parts = append(parts, "expand="+intsText(v.Expand))
	}
	return strings.Join(parts, " ")
}

func intsText(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// decodeView reads a "view" object; field is the tensor's JSON path.
func decodeView(data json.RawMessage, field string) (*View, error) {
	fields, err := rawObject(data, join(field, "view"))
	if err != nil {
		return nil, err
	}
	v := &View{}
	for _, f := range fields {
		ff := join(field, "view."+f.Name)
		switch f.Name {
		case "base":
			v.Base, err = decodeShape(f.Value, ff)
		case "permute":
			v.Permute, err = decodeIntList(f.Value, ff)
		case "expand":
			v.Expand, err = decodeShape(f.Value, ff)
		case "slice":
			v.Slice, err = decodeSlices(f.Value, ff)
		default:
			err = errAt(ff, "unknown view field (a view has base, permute, slice and expand)")
		}
		if err != nil {
			return nil, err
		}
	}
	if v.Base == nil {
		return nil, errAt(join(field, "view.base"), "missing")
	}
	return v, nil
}

func decodeIntList(data json.RawMessage, field string) ([]int, error) {
	items, err := rawArray(data, field)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxRank {
		return nil, errAt(field, "has %d entries, over the rank limit of %d", len(items), MaxRank)
	}
	out := make([]int, len(items))
	for i, item := range items {
		if out[i], err = rawInt(item, fmt.Sprintf("%s[%d]", field, i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeSlices(data json.RawMessage, field string) ([][3]int, error) {
	items, err := rawArray(data, field)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxRank {
		return nil, errAt(field, "has %d entries, over the rank limit of %d", len(items), MaxRank)
	}
	out := make([][3]int, len(items))
	for i, item := range items {
		f := fmt.Sprintf("%s[%d]", field, i)
		xs, err := decodeIntList(item, f)
		if err != nil {
			return nil, err
		}
		if len(xs) != 3 {
			return nil, errAt(f, "want [start, stop, step], got %s", preview(item))
		}
		out[i] = [3]int{xs[0], xs[1], xs[2]}
	}
	return out, nil
}

// applyView turns t, the decoded storage (shape View.Base), into the view
// and checks that the view produces shape, the tensor's "shape" field.
func applyView(t *Tensor, v *View, shape []int, field string) (*Tensor, error) {
	vt, err := NewView(t, *v)
	if err != nil {
		if fe, ok := err.(*fieldError); ok {
			fe.field = join(field, fe.field)
		}
		return nil, err
	}
	if !slices.Equal(vt.Shape, shape) {
		return nil, errAt(join(field, "shape"), "%v is not the shape the view produces (%v)", shape, vt.Shape)
	}
	return vt, nil
}

// writeView writes the "view" object of t (a view, IsView).
func writeView(b writer, v *View) {
	b.WriteString(`{"base": `)
	writeInts(b, v.Base)
	if v.Permute != nil {
		b.WriteString(`, "permute": `)
		writeInts(b, v.Permute)
	}
	if v.Slice != nil {
		b.WriteString(`, "slice": [`)
		for i, s := range v.Slice {
			if i > 0 {
				b.WriteString(", ")
			}
			writeInts(b, s[:])
		}
		b.WriteByte(']')
	}
	if v.Expand != nil {
		b.WriteString(`, "expand": `)
		writeInts(b, v.Expand)
	}
	b.WriteByte('}')
}
