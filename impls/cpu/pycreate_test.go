package cpu

import (
	"math"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Table tests of index_select, creation and host-data ops.

func indexCase(src, idx *tensor.Tensor, dim int) *tensor.Case {
	return &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: src}, {Tensor: idx}}, Attrs: tensor.Attrs{Dim: intp(dim)}}
}

func literalCase(lit string) *tensor.Case {
	return &tensor.Case{Op: "from_literal", Attrs: tensor.Attrs{Literal: &lit}}
}

// unspecifiedAt marks element i of t "?".
func unspecifiedAt(t *tensor.Tensor, i int) *tensor.Tensor {
	t.SetUnspecified(i)
	return t
}

func arangeCase(start, end string) *tensor.Case {
	return &tensor.Case{Op: "arange", Attrs: tensor.Attrs{Start: &start, End: &end}}
}

func TestIndexTable(t *testing.T) {
	src := ri(tensor.I16, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	val := tensor.ValueOutcome
	nan := math.NaN()
	rows := []familyRow{
		{"gather rows", "oracle2-00175: shape[dim] = idx.numel()", "pytorch/cpu",
			indexCase(src, ri(tensor.I64, vec(3), 1, 0, 1), 0), val(ri(tensor.I16, []int{3, 3}, 4, 5, 6, 1, 2, 3, 4, 5, 6))},
		{"gather columns", "oracle2-00432", "numpy",
			indexCase(src, ri(tensor.I32, vec(2), 2, 0), 1), val(ri(tensor.I16, []int{2, 2}, 3, 1, 6, 4))},
		{"u8 index", "pytorch.index-select.index-dtype (oracle-01136)", "pytorch/cpu",
			indexCase(src, ri(tensor.U8, vec(1), 0), 0), errOut(tensor.IndexDType)},
		{"bool index is 0/1", "oracle-01136", "numpy",
			indexCase(src, ri(tensor.Bool, vec(2), 1, 0), 0), val(ri(tensor.I16, []int{2, 3}, 4, 5, 6, 1, 2, 3))},
		{"float index", "numpy.take.index (oracle-01135)", "numpy",
			indexCase(src, rf(tensor.F32, vec(1), 0), 0), errOut(tensor.IndexDType)},
		{"negative index wraps", "oracle2-00688", "jax/cpu-x64",
			indexCase(src, ri(tensor.I8, vec(1), -1), 1), val(ri(tensor.I16, []int{2, 1}, 3, 6))},
		{"negative index rejected", "pytorch.index-select.bounds", "pytorch/cpu",
			indexCase(src, ri(tensor.I64, vec(1), -1), 1), errOut(tensor.IndexOutOfRange)},
		{"out of range numpy", "numpy.take.index", "numpy",
			indexCase(src, ri(tensor.I64, vec(1), 2), 0), errOut(tensor.IndexOutOfRange)},
		{"fill signed", "jax.take.fill (oracle2-00654): MIN", "jax/cpu-x32",
			indexCase(src, ri(tensor.I64, vec(1), 9), 1), val(ri(tensor.I16, []int{2, 1}, math.MinInt16, math.MinInt16))},
		{"fill float", "jax.take.fill (oracle2-01256): NaN", "jax/cpu-x32",
			indexCase(rf(tensor.BF16, vec(2), 1, 2), ri(tensor.I32, vec(2), 1, 5), 0), val(rf(tensor.BF16, vec(2), 2, nan))},
		{"fill unsigned", "jax.take.fill (oracle2-01468): MAX", "jax/cpu-x64",
			indexCase(ri(tensor.U8, vec(2), 1, 2), ri(tensor.I32, vec(1), -3), 0), val(ri(tensor.U8, vec(1), 255))},
		{"u64 index above int64", "numpy.take.index: intp cast turns it to -1", "numpy",
			indexCase(ri(tensor.U8, vec(2), 1, 2), ri(tensor.U64, vec(1), -1), 0), val(ri(tensor.U8, vec(1), 2))},
		{"u64 index never wraps", "jax.take.index", "jax/cpu-x64",
			indexCase(ri(tensor.U8, vec(2), 1, 2), ri(tensor.U64, vec(1), -1), 0), val(ri(tensor.U8, vec(1), 255))},
		{"index shape in place of the axis", "python.index-select.gather: take", "numpy",
			indexCase(src, ri(tensor.I64, []int{2, 2}, 0, 1, 1, 0), 0), val(ri(tensor.I16, []int{2, 2, 3}, 1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3))},
		{"2-D index", "pytorch.index-select.index-shape", "pytorch/cpu",
			indexCase(src, ri(tensor.I64, []int{1, 1}, 0), 0), errOut(tensor.IndexOutOfRange)},
		{"0-dim source", "a 0-dim source counts as 1-D", "pytorch/cpu",
			indexCase(ri(tensor.I8, scalarShape, 7), ri(tensor.I64, vec(1), 0), 0), val(ri(tensor.I8, scalarShape, 7))},
		{"0-dim source jax", "jax canonicalize_axis", "jax/cpu-x32",
			indexCase(ri(tensor.I8, scalarShape, 7), ri(tensor.I64, vec(1), 0), 0), errOut(tensor.IndexOutOfRange)},
		{"narrowed source", "jax.x32.narrow-inputs", "jax/cpu-x32",
			indexCase(ri(tensor.I64, vec(2), 1<<32+5, -1), ri(tensor.I32, vec(2), 1, 0), 0), val(ri(tensor.I32, vec(2), -1, 5))},
	}
	runFamilyRows(t, rows)
}

func TestCreateTable(t *testing.T) {
	val := tensor.ValueOutcome
	rows := []familyRow{
		{"float literal", "oracle-01140: default float f32", "pytorch/cpu",
			literalCase("[1.0, 2.0]"), val(rf(tensor.F32, vec(2), 1, 2))},
		{"float literal numpy", "oracle-01140: float64", "numpy",
			literalCase("[1.0, 2.0]"), val(rf(tensor.F64, vec(2), 1, 2))},
		{"mixed literal", "oracle-01143: [1, 2.0] is float", "jax/cpu-x64",
			literalCase("[1, 2.0]"), val(rf(tensor.F64, vec(2), 1, 2))},
		{"int literal x32", "oracle-01146: no silent narrowing", "jax/cpu-x32",
			literalCase("[2147483648]"), errOut(tensor.OutOfRange)},
		{"int literal torch", "default int i64", "pytorch/cpu",
			literalCase("[2147483648]"), val(ri(tensor.I64, vec(1), 2147483648))},
		{"uint64 literal", "numpy.create.big-int", "numpy",
			literalCase("[9223372036854775808]"), val(ri(tensor.U64, vec(1), math.MinInt64))},
		{"int64 with uint64", "numpy.create.big-int: float64", "numpy",
			literalCase("[-1, 9223372036854775808]"), val(rf(tensor.F64, vec(2), -1, 9223372036854775808))},
		{"object array", "numpy.create.big-int", "numpy",
			literalCase("[18446744073709551616]"), tensor.UnsupportedOutcome("")},
		{"ragged", "python.create.literal-shape", "numpy",
			literalCase("[[1, 2], [3]]"), errOut(tensor.ShapeMismatch)},
		{"nested", "python.create.literal-shape", "pytorch/cpu",
			literalCase("[[1, 2], [3, 4.0]]"), val(rf(tensor.F32, []int{2, 2}, 1, 2, 3, 4))},
		{"bare number", "oracle-01145: 0-dim", "jax/cpu-x32",
			literalCase("3.5"), val(rf(tensor.F32, scalarShape, 3.5))},
		{"bools", "python.create.default-dtypes", "numpy",
			literalCase("[true, False]"), val(ri(tensor.Bool, vec(2), 1, 0))},
		{"empty", "an empty list is float", "pytorch/cpu",
			literalCase("[]"), val(rf(tensor.F32, vec(0)))},
		{"huge float", "float('1e400') is inf", "numpy",
			literalCase("[1e400]"), val(rf(tensor.F64, vec(1), math.Inf(1)))},
		{"int arange", "oracle-01148", "jax/cpu-x32",
			arangeCase("-2", "1"), val(ri(tensor.I32, vec(3), -2, -1, 0))},
		{"float arange torch", "start + i in double", "pytorch/cpu",
			arangeCase("0.5", "3"), val(rf(tensor.F32, vec(3), 0.5, 1.5, 2.5))},
		{"float arange numpy", "oracle-01149", "numpy",
			arangeCase("0", "2.5"), val(rf(tensor.F64, vec(3), 0, 1, 2))},
		{"reversed arange torch", "pytorch.arange.range", "pytorch/cpu",
			arangeCase("3", "0"), errOut(tensor.Other)},
		{"reversed arange numpy", "empty", "numpy",
			arangeCase("3", "0"), val(ri(tensor.I64, vec(0)))},
		{"nan arange", "int(nan) is a ValueError", "jax/cpu-x64",
			arangeCase("0", "nan"), errOut(tensor.Other)},
		{"inf arange jax", "int(inf) is an OverflowError", "jax/cpu-x32",
			arangeCase("0", "inf"), errOut(tensor.OutOfRange)},
		{"inf arange numpy", "the length's OverflowError, raised as ValueError", "numpy",
			arangeCase("0", "inf"), errOut(tensor.Other)},
		{"reversed arange beyond intp", "the length is checked before the sign", "numpy",
			arangeCase("0", "-1180591620717411303424"), errOut(tensor.Other)},
		{"numpy uint64 bounds are float64", "int64 with uint64 promotes to float64", "numpy",
			arangeCase("9223372036854775808", "9223372036854775810"), val(rf(tensor.F64, vec(2), 0x1p63, 0x1p63))},
		{"torch uint64 bounds into int64", "checked_convert<int64_t, uint64_t>", "pytorch/cpu",
			arangeCase("9223372036854775808", "9223372036854775810"), errOut(tensor.OutOfRange)},
		{"torch bound below int64", "the arg parser's OverflowError", "pytorch/cpu",
			arangeCase("0", "-9223372036854775809"), errOut(tensor.OutOfRange)},
		{"arange past int32", "the int32 add past INT32_MAX is open", "jax/cpu-x32",
			arangeCase("2147483646", "2147483649"), val(unspecifiedAt(ri(tensor.I32, vec(3), 2147483646, 2147483647, 0), 2))},
		{"jax wraps a uint64 start", "np.asarray(2**63).astype(int32)", "jax/cpu-x32",
			arangeCase("9223372036854775808", "9223372036854775810"), val(ri(tensor.I32, vec(2), 0, 1))},
		{"zeros narrowed", "python.zeros.dtype", "jax/cpu-x32",
			&tensor.Case{Op: "zeros", Attrs: tensor.Attrs{Shape: []int{2}, DType: tensor.I64}}, val(ri(tensor.I32, vec(2), 0, 0))},
		{"zeros default", "python.zeros.dtype", "numpy",
			&tensor.Case{Op: "zeros", Attrs: tensor.Attrs{Shape: []int{1, 2}}}, val(rf(tensor.F64, []int{1, 2}, 0, 0))},
	}
	runFamilyRows(t, rows)
}

func TestHostTable(t *testing.T) {
	val := tensor.ValueOutcome
	fromVec := func(v *tensor.Tensor, shape ...int) *tensor.Case {
		return &tensor.Case{Op: "from_vec", Args: []tensor.Arg{{Tensor: v}}, Attrs: tensor.Attrs{Shape: shape}}
	}
	toHost := func(v *tensor.Tensor, d tensor.DType) *tensor.Case {
		return &tensor.Case{Op: "to_host", Args: []tensor.Arg{{Tensor: v}}, Attrs: tensor.Attrs{DType: d, Rank: intp(v.Rank())}}
	}
	rows := []familyRow{
		{"reshape", "python.from_vec.reshape", "pytorch/cpu",
			fromVec(ri(tensor.I32, vec(4), 1, 2, 3, 4), 2, 2), val(ri(tensor.I32, []int{2, 2}, 1, 2, 3, 4))},
		{"reshape mismatch", "python.from_vec.reshape", "numpy",
			fromVec(ri(tensor.I32, vec(4), 1, 2, 3, 4), 3), errOut(tensor.ShapeMismatch)},
		{"narrowed data", "jax.x32.narrow-inputs", "jax/cpu-x32",
			fromVec(rf(tensor.F64, vec(1), 0.1), 1), val(rf(tensor.F32, vec(1), 0.1))},
		{"int read as float", "python.to_host.exact", "numpy",
			toHost(ri(tensor.I32, vec(2), 7, -3), tensor.F64), val(rf(tensor.F64, vec(2), 7, -3))},
		{"inexact int", "python.to_host.not-representable", "pytorch/cpu",
			toHost(ri(tensor.I64, vec(1), 1<<53+1), tensor.F64), errOut(tensor.OutOfRange)},
		{"float read as int", "python.to_host.not-representable", "jax/cpu-x64",
			toHost(rf(tensor.F32, vec(1), 1), tensor.I32), errOut(tensor.OutOfRange)},
		{"narrowing float", "0.1 is not an f16", "numpy",
			toHost(rf(tensor.F32, vec(1), 0.1), tensor.F16), errOut(tensor.OutOfRange)},
		{"out of range int", "300 is not a u8", "numpy",
			toHost(ri(tensor.I16, vec(1), 300), tensor.U8), errOut(tensor.OutOfRange)},
		{"negative to unsigned", "-1 is not a u64", "pytorch/cpu",
			toHost(ri(tensor.I8, vec(1), -1), tensor.U64), errOut(tensor.OutOfRange)},
		{"bool to int", "True is 1", "numpy",
			toHost(ri(tensor.Bool, vec(2), 1, 0), tensor.I8), val(ri(tensor.I8, vec(2), 1, 0))},
		{"nan stays", "any NaN holds a NaN", "numpy",
			toHost(rf(tensor.F64, vec(1), math.NaN()), tensor.BF16), val(rf(tensor.BF16, vec(1), math.NaN()))},
	}
	runFamilyRows(t, rows)
}

func TestCreateSupportsIsHonest(t *testing.T) {
	e := New()
	for _, tc := range []struct {
		name string
		c    *tensor.Case
	}{
		{"an arange past the case limit", arangeCase("0", "1e9")},
		{"an arange without an end", &tensor.Case{Op: "arange"}},
		{"a literal without text", &tensor.Case{Op: "from_literal"}},
		{"zeros of a negative shape", &tensor.Case{Op: "zeros", Attrs: tensor.Attrs{Shape: []int{-1}}}},
		{"to_host without a dtype", &tensor.Case{Op: "to_host", Args: []tensor.Arg{{Tensor: tensor.New(tensor.I8, 1)}}}},
		{"index_select without an index", &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: tensor.New(tensor.I8, 1)}}}},
	} {
		if e.Supports("numpy", tc.c) {
			t.Errorf("%s: Supports says yes", tc.name)
		}
	}
}
