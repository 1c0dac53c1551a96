package metal

import (
	"math"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// genCase draws a case of an op the backend simulates, over candle's Metal
// dtypes mostly, with edge values; the package's tests use it where they
// need generated cases without the props package (which imports the model).
func genCase() *rapid.Generator[*tensor.Case] {
	return rapid.Custom(func(t *rapid.T) *tensor.Case {
		op := rapid.SampledFrom([]string{"add", "sub", "mul", "div", "maximum", "minimum", "pow",
			"eq", "ne", "lt", "le", "gt", "ge", "neg", "abs", "sign", "sqrt", "exp", "floor", "ceil", "round",
			"square", "cast", "sum", "mean", "max", "min", "argmax", "argmin", "index_select",
			"broadcast_add", "broadcast_maximum", "where", "clamp", "full"}).Draw(t, "op")
		info, _ := tensor.LookupOp(op)
		d := rapid.SampledFrom([]tensor.DType{tensor.F32, tensor.F16, tensor.BF16, tensor.U8, tensor.U32,
			tensor.I64, tensor.I32}).Draw(t, "dtype")
		shape := make([]int, rapid.IntRange(0, 3).Draw(t, "rank"))
		for i := range shape {
			shape[i] = rapid.IntRange(1, 5).Draw(t, "dim")
		}
		if op == "index_select" && len(shape) == 0 {
			shape = []int{rapid.IntRange(1, 5).Draw(t, "n")}
		}
		a := genTensor(t, d, shape, "a")
		c := &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: a}}}
		switch info.Class {
		case tensor.ClassBinary:
			if rapid.IntRange(0, 3).Draw(t, "scalar") == 0 {
				text := rapid.SampledFrom([]string{"0.5", "-1.0", "2.5", "1e+20", "16777217.0", "0.0", "-0.0", "3.0"}).Draw(t, "s")
				c.Args = append(c.Args, tensor.Arg{Scalar: &tensor.Scalar{Text: text, Kind: tensor.ScalarFloat}})
			} else {
				c.Args = append(c.Args, tensor.Arg{Tensor: genTensor(t, d, shape, "b")})
			}
		case tensor.ClassCast:
			c.Attrs.To = rapid.SampledFrom([]tensor.DType{tensor.F32, tensor.F16, tensor.BF16, tensor.U8,
				tensor.U32, tensor.I64}).Draw(t, "to")
		case tensor.ClassReduce:
			if len(shape) > 0 && rapid.Bool().Draw(t, "has dim") {
				dim := rapid.IntRange(-len(shape), len(shape)-1).Draw(t, "dim")
				c.Attrs.Dim = &dim
			}
		case tensor.ClassBroadcast: // a row, or a column of ones
			row := append([]int{}, shape[rapid.IntRange(0, len(shape)).Draw(t, "dropped dims"):]...)
			for i := range row {
				if rapid.Bool().Draw(t, "one") {
					row[i] = 1
				}
			}
			c.Args = append(c.Args, tensor.Arg{Tensor: genTensor(t, d, row, "b")})
		case tensor.ClassWhere:
			cd := rapid.SampledFrom([]tensor.DType{tensor.U8, tensor.U32}).Draw(t, "cond dtype")
			cond := tensor.New(cd, shape...)
			for i := 0; i < cond.Len(); i++ {
				cond.SetUint(i, uint64(rapid.IntRange(0, 2).Draw(t, "cond")))
			}
			c.Args = []tensor.Arg{{Tensor: cond}, {Tensor: a}, {Tensor: genTensor(t, d, shape, "b")}}
		case tensor.ClassClamp:
			lo := tensor.Arg{Scalar: &tensor.Scalar{Text: rapid.SampledFrom([]string{"0.5", "-1.0", "2.0"}).Draw(t, "min"), Kind: tensor.ScalarFloat}}
			c.Args = append(c.Args, lo, tensor.Arg{Tensor: genTensor(t, d, shape, "max")})
		case tensor.ClassFull:
			text := rapid.SampledFrom([]string{"7u8", "7u32", "-3i64", "0.5f32", "1e-40f32", "7"}).Draw(t, "value")
			c.Args, c.Attrs.Shape, c.Attrs.Value = nil, shape, &text
		case tensor.ClassIndexSelect:
			dim := rapid.IntRange(0, len(shape)-1).Draw(t, "dim")
			c.Attrs.Dim = &dim
			it := rapid.SampledFrom([]tensor.DType{tensor.U8, tensor.U32, tensor.I64}).Draw(t, "ids dtype")
			ids := tensor.New(it, rapid.IntRange(1, 4).Draw(t, "n ids"))
			for i := 0; i < ids.Len(); i++ {
				ids.SetInt(i, int64(rapid.IntRange(-1, shape[dim]+1).Draw(t, "id")))
			}
			c.Args = append(c.Args, tensor.Arg{Tensor: ids})
		}
		return c
	})
}

func genTensor(t *rapid.T, d tensor.DType, shape []int, label string) *tensor.Tensor {
	x := tensor.New(d, shape...)
	for i := 0; i < x.Len(); i++ {
		if d.IsFloat() {
			edges := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2.5, -2.5, math.NaN(), math.Inf(1), math.Inf(-1),
				tensor.MaxFloat(d), -tensor.MaxFloat(d), 1 << 24, 1<<24 + 1, 65504, 1e20, 0.1, 300}
			v := rapid.SampledFrom(edges).Draw(t, label)
			if rapid.Bool().Draw(t, label+" any") {
				v = tensor.FloatFromBits(rapid.Uint64Range(0, 1<<uint(d.Bits())-1).Draw(t, label+" bits"), d)
			}
			x.SetFloat(i, v)
			continue
		}
		v := rapid.SampledFrom([]int64{0, 1, 2, -1, -7, 255, 256, 1 << 24, 1<<24 + 1, 1 << 31, math.MaxInt64, math.MinInt64}).Draw(t, label)
		if rapid.Bool().Draw(t, label+" any") {
			v = rapid.Int64().Draw(t, label+" bits")
		}
		x.SetInt(i, v)
	}
	return x
}
