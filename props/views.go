package props

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// viewArgs replaces some tensor arguments of c by non-contiguous views of
// the same logical elements, so that implementations' strided paths are
// exercised: the dimensions are laid out in storage in a drawn order, each
// with a stride of one or two times the extent below it (gaps hold junk),
// after a drawn offset.
func (d *draw) viewArgs(c *tensor.Case) {
	for i := range c.Args {
		if a := c.Args[i].Tensor; a != nil && d.coin() {
			c.Args[i].Tensor = d.view(a)
		}
	}
}

// view returns a strided view holding the elements of the contiguous x.
func (d *draw) view(x *tensor.Tensor) *tensor.Tensor {
	r := x.Rank()
	perm := make([]int, r)
	for i := range perm {
		perm[i] = i
	}
	for i := r - 1; i > 0; i-- { // Fisher-Yates
		j := d.intn(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	strides := make([]int, r)
	extent := 1
	for k := r - 1; k >= 0; k-- { // perm[r-1] is innermost in storage
		dim := perm[k]
		strides[dim] = extent * d.between(1, 2)
		extent = strides[dim] * max(x.Shape[dim], 1)
	}
	offset := d.between(0, 3)
	words := 1
	if x.DType.IsComplex() {
		words = 2
	}
	v := &tensor.Tensor{DType: x.DType, Shape: slices.Clone(x.Shape), Strides: strides, Offset: offset,
		Data: make([]uint64, (offset+extent)*words)}
	if x.Len() > 0 { // junk in the gaps: copies of the first element
		for p := 0; p < len(v.Data); p += words {
			copy(v.Data[p:p+words], x.Data[:words])
		}
	}
	for i := 0; i < x.Len(); i++ {
		if words == 2 {
			v.SetComplex(i, x.Complex(i))
		} else {
			v.SetBits(i, x.Bits(i))
		}
	}
	return v
}
