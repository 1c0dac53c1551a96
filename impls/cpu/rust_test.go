package cpu

import (
	"math"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Table tests of the Rust profiles: behaviours the seed documents and the
// frameworks' source (research/source-facts.md) state and the seed corpus
// does not already replay (rust_seeds_test.go). Expected outcomes are
// written by hand from that evidence.

func rInts(d tensor.DType, shape []int, vals ...int64) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, v := range vals {
		t.SetInt(i, v)
	}
	return t
}

func rVec(d tensor.DType, vals ...int64) *tensor.Tensor { return rInts(d, []int{len(vals)}, vals...) }

func rFloats(d tensor.DType, vals ...float64) *tensor.Tensor {
	t := tensor.New(d, len(vals))
	for i, v := range vals {
		t.SetFloat(i, v)
	}
	return t
}

func rArgs(xs ...any) []tensor.Arg {
	var a []tensor.Arg
	for _, x := range xs {
		switch v := x.(type) {
		case *tensor.Tensor:
			a = append(a, tensor.Arg{Tensor: v})
		case *tensor.Scalar:
			a = append(a, tensor.Arg{Scalar: v})
		}
	}
	return a
}

func rFloat(text string) *tensor.Scalar { return &tensor.Scalar{Text: text, Kind: tensor.ScalarFloat} }

func rPanic() tensor.Outcome                                   { return tensor.PanicOutcome("") }
func rErr(c tensor.ErrorClass) tensor.Outcome                  { return tensor.ErrorOutcome(c, "") }
func rVal(t *tensor.Tensor) tensor.Outcome                     { return tensor.ValueOutcome(t) }
func rDim(d int) *int                                          { return &d }
func rCase(op string, a ...any) *tensor.Case                   { return &tensor.Case{Op: op, Args: rArgs(a...)} }
func rWith(c *tensor.Case, f func(*tensor.Attrs)) *tensor.Case { f(&c.Attrs); return c }

func TestRustProfilesTable(t *testing.T) {
	const (
		minI32 = math.MinInt32
		maxI32 = math.MaxInt32
		minI64 = math.MinInt64
		maxI64 = math.MaxInt64
	)
	nan := math.NaN()
	i64, i32, u8, u32, f32 := tensor.I64, tensor.I32, tensor.U8, tensor.U32, tensor.F32
	dim0 := func(a *tensor.Attrs) { a.Dim = rDim(0) }
	for _, tc := range []struct {
		profiles []string
		c        *tensor.Case
		want     tensor.Outcome
		reason   string
	}{
		// candle
		{[]string{"candle/cpu-debug"}, rCase("abs", rVec(i64, minI64)), rPanic(),
			"i64::MIN.abs() overflows: a debug panic (source-facts extra 2)"},
		{[]string{"candle/cpu-release"}, rCase("abs", rVec(i64, minI64, -3)), rVal(rVec(i64, minI64, 3)),
			"release wraps |MIN| to MIN"},
		{[]string{"candle/cpu-debug"}, rCase("sum", rVec(i32, maxI32, 1, -1)), rPanic(),
			"*res += x overflows at the partial sum MAX + 1, whatever the final sum"},
		{[]string{"candle/cpu-release"}, rCase("sum", rVec(i32, maxI32, 1, -1)), rVal(rInts(i32, []int{}, maxI32)),
			"release wraps there and back"},
		{[]string{"candle/cpu-debug", "candle/cpu-release"}, rWith(rCase("max", rFloats(f32, nan, 1)), dim0), rVal(rFloats(f32, nan).Reshape()),
			"the fold keeps a NaN in front (source-facts extra 4)"},
		{[]string{"candle/cpu-debug", "candle/cpu-release"}, rWith(rCase("max", rFloats(f32, 1, nan, 2)), dim0), rVal(rFloats(f32, 2).Reshape()),
			"a later NaN never wins the strict comparison"},
		{[]string{"candle/cpu-release"}, rWith(rCase("argmax", rVec(i64, 3, 7, 7)), dim0), rVal(rInts(u32, []int{}, 1)),
			"argmax is U32 and a tie keeps the first"},
		{[]string{"candle/cpu-release"}, rWith(rCase("index_select", rFloats(f32, 10, 20, 30), rVec(u8, 255, 1)), dim0), rVal(rFloats(f32, 0, 20)),
			"an id equal to u8::MAX writes zeros (source-facts extra 6)"},
		{[]string{"candle/cpu-release"}, rWith(rCase("index_select", rFloats(f32, 10, 20, 30), rVec(i64, -1)), dim0), rErr(tensor.IndexOutOfRange),
			"a negative i64 id is a huge usize: InvalidIndex"},
		{[]string{"candle/cpu-debug"}, rCase("mul", rVec(u8, 1, 2), rFloat("300.0")), rPanic(),
			"300.0 as u8 = 255; 2 * 255 overflows (source-facts extra 1)"},
		{[]string{"candle/cpu-release"}, rCase("mul", rVec(u8, 1, 2), rFloat("300.0")), rVal(rVec(u8, 255, 254)),
			"release wraps 2 * 255"},
		{[]string{"candle/cpu-release"}, rCase("div", rVec(i64, 2, 0), rFloat("0.0")), rVal(rVec(i64, -2, 0)),
			"1 / 0.0 = inf as i64 = MAX: a multiply by MAX"},
		{[]string{"candle/cpu-debug", "candle/cpu-release"}, rCase("sub", rFloat("5.0"), rVec(u8, 1, 2)), rVal(rVec(u8, 5, 5)),
			"5.0 - t is affine(-1, 5): -1 as u8 = 0 (source-facts extra 1)"},
		{[]string{"candle/cpu-debug", "candle/cpu-release"}, rCase("mean", rVec(i64, 2, 4)), rVal(rInts(i64, []int{}, 0)),
			"mean = sum * (1/2 as i64 = 0)"},
		{[]string{"candle/cpu-debug"}, rWith(rCase("cumsum", rVec(i64, 1, 2)), dim0), rErr(tensor.UnsupportedDType),
			"cumsum is an f32/f64 matmul (source-facts extra 8)"},
		{[]string{"candle/cpu-release"}, rWith(rCase("cumsum", rFloats(f32, math.Copysign(0, -1), math.Copysign(0, -1)).Reshape(1, 2)), dim0),
			rVal(rFloats(f32, 0, 0).Reshape(1, 2)), "running sums start from +0: -0 gives +0 (over rows of 2: the strided path)"},
		{[]string{"candle/cpu-release"}, rWith(rCase("cumsum", rFloats(f32, math.Copysign(0, -1), 1)), dim0),
			rVal(rFloats(f32, 0, 1)), "running sums start from +0 (one row: the contiguous path)"},
		{[]string{"candle/cpu-release"}, rCase("sum", rFloats(f32, math.Copysign(0, -1), math.Copysign(0, -1))), rVal(rFloats(f32, 0).Reshape()),
			"sums start from +0"},
		{[]string{"candle/cpu-release"}, rCase("div", rFloat("1.0"), rVec(i64, 1)), rPanic(),
			"f64 / t is t.recip(), which has no integer function (source-facts extra 2)"},
		{[]string{"candle/cpu-release"}, rCase("gt", rVec(i64, 1, 2, 3), rFloat("2.5")), rVal(rVec(u8, 0, 0, 1)),
			"the scalar 2.5 becomes 2 with `as` (source-facts extra 3)"},
		{[]string{"candle/cpu-release"}, rCase("div", rVec(i32, minI32), rVec(i32, -1)), rPanic(),
			"MIN / -1 panics in release too (source-facts #1)"},
		// burn
		{[]string{"burn/flex-debug", "burn/flex-release"}, rCase("div", rVec(i32, minI32), rVec(i32, -1)), rVal(rVec(i32, minI32)),
			"Flex divides I32 in i64 and truncates: MIN (source-facts extra 11)"},
		{[]string{"burn/flex-debug"}, rCase("add", rVec(i32, maxI32), rVec(i32, 1)), rVal(rVec(i32, minI32)),
			"Flex I32 + wraps even in debug"},
		{[]string{"burn/flex-release"}, rCase("div", rVec(i64, 7), rFloat("2.5")), rVal(rVec(i32, 3)),
			"div_scalar(2.5) on Int is Scalar::Int(2) (source-facts extra 12)"},
		{[]string{"burn/flex-release"}, rCase("rem", rVec(i32, -7, 7), rVec(i32, 2, -2)), rVal(rVec(i32, 1, -1)),
			"remainder has the divisor's sign (source-facts #11e)"},
		{[]string{"burn/ndarray"}, rCase("rem", rVec(i64, 7), rVec(i64, 0)), rPanic(),
			"ndarray computes the remainder in f64: NaN cannot be represented (source-facts #11e)"},
		{[]string{"burn/flex-debug"}, rCase("rem", rVec(i64, 7), rVec(i64, 0)), rPanic(),
			"Flex % by zero panics"},
		{[]string{"burn/flex-release"}, rCase("sum", rVec(i64, maxI32, 1)), rVal(rVec(i32, minI32)),
			"I32 sum accumulates in i64 and truncates (source-facts #11a)"},
		{[]string{"burn/flex-release"}, rWith(rCase("argmax", rVec(i64, 1, 5, 5)), dim0), rVal(rVec(i64, 1)),
			"argmax gives I64 indices of rank 1"},
		{[]string{"burn/flex-release"}, rCase("neg", rVec(i64, 5, minI32)), rVal(rVec(i32, -5, minI32)),
			"Int data becomes I32 on Flex; neg is wrapping_neg"},
		{[]string{"burn/ndarray"}, rCase("neg", rVec(i64, 5)), rVal(rVec(i64, -5)),
			"ndarray's Int is I64"},
		// tenferro
		{[]string{"tenferro/traced", "tenferro/eager", "tenferro/direct"}, rCase("mul", rVec(i32, 1, -1), rFloat("2.5")), rVal(rVec(i32, 3, -3)),
			"scale_real rounds 2.5 half away from zero (source-facts #12d)"},
		{[]string{"tenferro/direct"}, rCase("mul", rVec(i64, 4), rFloat("-2.5")), rVal(rVec(i64, -12)),
			"-2.5 rounds to -3"},
		{[]string{"tenferro/direct"}, rCase("mul", rVec(i32, 4), rFloat("2147483647.5")), rErr(tensor.OutOfRange),
			"the rounded factor 2^31 does not fit i32"},
		{[]string{"tenferro/direct"}, rCase("mul", rVec(i64, 4), rFloat("inf")), rErr(tensor.OutOfRange),
			"a non-finite factor is an error for integers"},
		{[]string{"tenferro/eager"}, rCase("div", rVec(i32, 7, 1), rVec(i32, 1, 0)), rErr(tensor.ZeroDivision),
			"a zero divisor anywhere is an error (source-facts extra 13)"},
		{[]string{"tenferro/eager"}, rCase("div", rVec(i32, minI32), rVec(i32, -1)), rVal(rVec(i32, minI32)),
			"wrapping_div: MIN / -1 = MIN"},
		{[]string{"tenferro/eager"}, rCase("rem", rVec(i64, -7, minI64), rVec(i64, 2, -1)), rVal(rVec(i64, -1, 0)),
			"% has the dividend's sign; MIN % -1 = 0"},
		{[]string{"tenferro/direct"}, rCase("pow", rVec(i32, 2), rVec(i32, -1)), rErr(tensor.Other),
			"a negative integer exponent is an error"},
		{[]string{"tenferro/traced"}, rWith(rCase("cast", rFloats(tensor.F64, 2147483647.5)), func(a *tensor.Attrs) { a.To = i32 }), rErr(tensor.OutOfRange),
			"the i32 range check comes before truncation (source-facts #12c)"},
		{[]string{"tenferro/traced"}, rWith(rCase("cast", rVec(i64, 1<<32+5)), func(a *tensor.Attrs) { a.To = i32 }), rVal(rVec(i32, 5)),
			"I64 -> I32 wraps unchecked (source-facts #12c)"},
		{[]string{"tenferro/direct"}, rCase("add", rVec(i32, 1), rFloats(f32, 1)), rErr(tensor.DTypeMismatch),
			"direct ops do not promote"},
		{[]string{"tenferro/traced"}, rCase("add", rVec(i32, 1), rFloats(f32, 0.5)), rVal(rFloats(tensor.F64, 1.5)),
			"an integer with F32 promotes to F64 (seed 001)"},
	} {
		for _, p := range tc.profiles {
			want := tc.want
			for _, e := range []*Engine{New(), New(WithWorkers(3), WithParallelThreshold(1))} {
				if !e.Supports(p, tc.c) {
					t.Errorf("%s: %s: declined (%s)", p, tc.c.Describe(), tc.reason)
					break
				}
				got := e.Eval(p, tc.c)
				if cmp := tensor.Compare(want, got, 0); !cmp.Match() {
					t.Errorf("%s: %s: got %s, want %s (%s): %s", p, tc.c.Describe(), got, want, tc.reason, cmp.Detail)
					break
				}
			}
		}
	}
}
