package props

import (
	"math"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// The focused draws of candle's Metal cat, matmul and sort for
// metalFocused: operands that pass candle's checks mostly (one dtype, the
// shapes cat and matmul need), with views that take the other kernels
// (a transposed matrix, a narrowed tensor, a broadcast batch), sizes
// around the kernels' tiles, and values whose sums are exact so that the
// model states them.

// metalFocusedCopyMatmulSort fills c (whose first argument is a tensor of
// dtype d and shape) for cat, matmul, sort or argsort.
func metalFocusedCopyMatmulSort(t *rapid.T, c *tensor.Case, class tensor.OpClass, d tensor.DType, shape []int) {
	switch class {
	case tensor.ClassCat:
		metalFocusedCat(t, c, d, shape)
	case tensor.ClassSort:
		metalFocusedSort(t, c, d, shape)
	case tensor.ClassMatmul:
		metalFocusedMatmul(t, c, d)
	}
}

// metalFocusedMatmul draws a of [batch.., m, k] and b of [batch.., k, n]:
// rank 2 to 4, m, k and n from 1 to 5 mostly and one time in four up to
// 80 (past the gemm tiles and their K blocks; m = 1 or n = 1 takes gemv);
// small integers and halves, whose sums are exact, one time in four any
// values; one in eight with another dtype, a k that does not match, or
// batch dims that differ; one in three a view (a transposed matrix takes
// the nt, tn and tt kernels, a broadcast batch the folded one).
func metalFocusedMatmul(t *rapid.T, c *tensor.Case, d tensor.DType) {
	size := func(name string) int {
		if rapid.IntRange(0, 3).Draw(t, name+" large") == 0 {
			return rapid.IntRange(1, 80).Draw(t, name)
		}
		return rapid.IntRange(1, 5).Draw(t, name)
	}
	m, k, n := size("m"), size("k"), size("n")
	if rapid.IntRange(0, 15).Draw(t, "zero") == 0 {
		m, k, n = rapid.IntRange(0, 2).Draw(t, "m0"), rapid.IntRange(0, 2).Draw(t, "k0"), rapid.IntRange(0, 2).Draw(t, "n0")
	}
	batch := make([]int, rapid.IntRange(0, 2).Draw(t, "batch rank"))
	for i := range batch {
		batch[i] = rapid.IntRange(1, 3).Draw(t, "batch")
	}
	bBatch := batch
	k2 := k
	switch rapid.IntRange(0, 15).Draw(t, "mismatch") {
	case 0:
		k2 = k + 1
	case 1:
		bBatch = append([]int{2}, batch...)
	}
	bd := d
	if rapid.IntRange(0, 7).Draw(t, "other dtype") == 0 {
		bd = rapid.SampledFrom(append(append([]tensor.DType{}, metalCoreDTypes...), tensor.F64, tensor.I32)).Draw(t, "b dtype")
	}
	operand := func(dt tensor.DType, shape []int, name string) *tensor.Tensor {
		x := tensor.New(dt, shape...)
		anyValues := rapid.IntRange(0, 3).Draw(t, name+" any") == 0
		for i := 0; i < x.Len(); i++ {
			switch {
			case anyValues:
				(&draw{src: RapidSource(t)}).setElement(x, i, bias{})
			case dt.IsFloat():
				x.SetFloat(i, float64(rapid.IntRange(-8, 8).Draw(t, name))/2)
			default:
				x.SetInt(i, int64(rapid.IntRange(0, 3).Draw(t, name)))
			}
		}
		return metalView(t, x)
	}
	a := operand(d, append(append([]int{}, batch...), m, k), "a")
	b := operand(bd, append(append([]int{}, bBatch...), k2, n), "b")
	c.Args = []tensor.Arg{{Tensor: a}, {Tensor: b}}
}

// metalFocusedSort draws the tensor to sort: shape with its last dim
// redrawn (1 to 40, one in eight up to 1030, past a threadgroup, one in
// sixteen 0), values from a few (ties, -0.0 and +0.0, NaN, infinities) or
// any; one in eight of candle's other dtypes; the last dim or another,
// ascending or descending; one in three a view.
func metalFocusedSort(t *rapid.T, c *tensor.Case, d tensor.DType, shape []int) {
	if rapid.IntRange(0, 7).Draw(t, "candle dtype") == 0 {
		d = rapid.SampledFrom([]tensor.DType{tensor.F64, tensor.I32, tensor.I16}).Draw(t, "sort dtype")
	}
	if len(shape) > 0 {
		n := rapid.IntRange(1, 40).Draw(t, "row")
		switch rapid.IntRange(0, 15).Draw(t, "row size") {
		case 0:
			n = 0
		case 1, 2:
			n = rapid.IntRange(500, 1030).Draw(t, "long row")
		}
		shape[len(shape)-1] = n
		for i := range shape[:len(shape)-1] {
			shape[i] = min(shape[i], 3)
		}
	}
	x := tensor.New(d, shape...)
	few := []float64{0, math.Copysign(0, -1), 1, -1, 2, 2, math.NaN(), math.Inf(1), math.Inf(-1), 0.5}
	for i := 0; i < x.Len(); i++ {
		switch {
		case rapid.IntRange(0, 3).Draw(t, "any") == 0:
			(&draw{src: RapidSource(t)}).setElement(x, i, bias{})
		case d.IsFloat():
			x.SetFloat(i, rapid.SampledFrom(few).Draw(t, "v"))
		default:
			x.SetInt(i, int64(rapid.IntRange(0, 4).Draw(t, "v")))
		}
	}
	c.Args = []tensor.Arg{{Tensor: metalView(t, x)}}
	if rapid.IntRange(0, 3).Draw(t, "has dim") == 0 {
		dim := rapid.IntRange(-2, 2).Draw(t, "dim")
		c.Attrs.Dim = &dim
	}
	desc := rapid.Bool().Draw(t, "descending")
	c.Attrs.Descending = &desc
}

// metalFocusedCat draws one to three tensors of shape with dim's size
// redrawn (0 to 3), of dtype d (one in eight of another), each a
// contiguous tensor, a transposed or a narrowed view.
func metalFocusedCat(t *rapid.T, c *tensor.Case, d tensor.DType, shape []int) {
	if len(shape) == 0 && rapid.IntRange(0, 3).Draw(t, "rank 0 kept") != 0 {
		shape = []int{rapid.IntRange(1, 3).Draw(t, "n")}
	}
	dim := 0
	if len(shape) > 0 {
		dim = rapid.IntRange(-len(shape), len(shape)-1).Draw(t, "dim")
	} else {
		dim = rapid.IntRange(-1, 0).Draw(t, "dim")
	}
	c.Attrs.Dim = &dim
	c.Args = nil
	dtypes := append(append([]tensor.DType{}, metalCoreDTypes...), tensor.I32, tensor.I16, tensor.F64)
	if rapid.IntRange(0, 3).Draw(t, "candle dtype") == 0 {
		d = rapid.SampledFrom(dtypes).Draw(t, "cat dtype")
	}
	for i, n := 0, rapid.IntRange(1, 3).Draw(t, "tensors"); i < n; i++ {
		s := append([]int{}, shape...)
		if len(s) > 0 {
			s[(dim+len(s))%len(s)] = rapid.IntRange(0, 3).Draw(t, "dim size")
		}
		td := d
		if rapid.IntRange(0, 7).Draw(t, "other dtype") == 0 {
			td = rapid.SampledFrom(dtypes).Draw(t, "other")
		}
		c.Args = append(c.Args, tensor.Arg{Tensor: metalView(t, genElements(t, td, s, "x"))})
	}
}

// metalView returns x, or one time in three a view of x (permuted,
// narrowed, broadcast: props' view draw, without steps, which candle's
// narrow lacks).
func metalView(t *rapid.T, x *tensor.Tensor) *tensor.Tensor {
	if rapid.IntRange(0, 2).Draw(t, "view") != 0 {
		return x
	}
	return (&draw{src: RapidSource(t)}).view(x, false)
}
