package metal

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// exactF32 rounds the exact value x*m + a to float32 with math/big: the
// plain reference of fmaF32.
func exactF32(x, m, a float64) float64 {
	p := new(big.Float).SetPrec(2000).SetFloat64(x)
	p.Mul(p, new(big.Float).SetPrec(2000).SetFloat64(m))
	p.Add(p, new(big.Float).SetPrec(2000).SetFloat64(a))
	if p.Sign() == 0 {
		return float64(float32(x*m + a)) // the sign of an exact zero, as IEEE gives it
	}
	f, _ := p.Float32()
	return float64(f)
}

func TestFmaF32MatchesExactRounding(t *testing.T) {
	// x*m = 2^-24 + 2^-60 exactly: rounding x*m + 1 to float64 lands on the
	// float32 midpoint 1 + 2^-24, and rounding that again would give 1.
	x := float64(float32(14192008 * math.Ldexp(1, -24)))
	m := float64(float32(9916672 * math.Ldexp(1, -24)))
	cases := [][3]float64{
		{x, m * math.Ldexp(1, -23), 1},
		{-7, 0.5, 0},
		{16777216, 1, 1}, // 2^24 + 1 rounds to even: 2^24
		{3, 1, -4},
		{math.Copysign(0, -1), 1, math.Copysign(0, -1)},
		{1, math.MaxFloat32, math.MaxFloat32},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		f := func() float64 {
			return float64(math.Float32frombits(rng.Uint32()))
		}
		cases = append(cases, [3]float64{f(), f(), f()})
	}
	bad := 0
	for _, c := range cases {
		if finite := !math.IsInf(c[0]*c[1]+c[2], 0) && !math.IsNaN(c[0]*c[1]+c[2]); !finite {
			continue // IEEE specials: checked below
		}
		got, want := fmaF32(c[0], c[1], c[2]), exactF32(c[0], c[1], c[2])
		if math.Float64bits(got) != math.Float64bits(want) {
			if bad++; bad < 10 {
				t.Errorf("fmaF32(%g, %g, %g) = %g, want %g", c[0], c[1], c[2], got, want)
			}
		}
	}
	if got := fmaF32(0, math.Inf(1), 0); !math.IsNaN(got) {
		t.Errorf("fma(0, inf, 0) = %v, want NaN", got)
	}
	if got := fmaF32(cases[0][0], cases[0][1], cases[0][2]); got != 1+math.Ldexp(1, -23) {
		t.Errorf("the double-rounding case gives %v, want 1 + 2^-23", got)
	}
}

func TestIntToFloatRoundsOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		mag := rng.Uint64() >> rng.IntN(64)
		for _, typ := range []mslType{tHalf, tBfloat, tFloat, tDouble} {
			prec := map[mslType]uint{tHalf: 11, tBfloat: 8, tFloat: 24, tDouble: 53}[typ]
			r, _ := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).SetUint64(mag).Float64()
			want := typ.round(r)
			if got := intToFloat(mag, false, typ); got != want {
				t.Fatalf("intToFloat(%d) to %s = %g, want %g", mag, typ, got, want)
			}
		}
	}
	// 2^60 + 2^52 + 1: through float64 it would be a tie and round to 2^60.
	if got := intToFloat(1<<60+1<<52+1, false, tBfloat); got != math.Ldexp(1, 60)+math.Ldexp(1, 53) {
		t.Errorf("bf16 of 2^60 + 2^52 + 1 = %g", got)
	}
}

func TestScalarSemantics(t *testing.T) {
	tests := []struct {
		name, why string
		got, want val
	}{
		{"i64 7 / 0", "seed 000: Metal i64 [7,-7]/[0,0] = [0,0]", arith('/', tLong, intVal(7), intVal(0)), intVal(0)},
		{"i64 -7 / 0", "seed 000", arith('/', tLong, intVal(uint64(1<<64-7)), intVal(0)), intVal(0)},
		{"u32 9 / 0", "seed 000: Metal u32 [7,9]/[0,0] = all ones", arith('/', tUint, intVal(9), intVal(0)), intVal(math.MaxUint32)},
		{"i64 MIN / -1", "seed 000 (prose): Metal MIN / -1 = MIN", arith('/', tLong, intVal(1<<63), intVal(math.MaxUint64)), intVal(1 << 63)},
		{"i64 -7 / 2", "truncation toward zero", arith('/', tLong, intVal(uint64(1<<64-7)), intVal(2)), intVal(uint64(1<<64 - 3))},
		{"u8 200 + 100", "wraps through int promotion", arith('+', tUchar, intVal(200), intVal(100)), intVal(44)},
		{"u32 3 - 5", "wraps", arith('-', tUint, intVal(3), intVal(5)), intVal(4294967294)},
		{"f32 -1.0 -> u32", "seed 000: u32 3 - 4.0 = 0", convert(tFloat, tUint, floatVal(-1)), intVal(0)},
		{"f32 -1.5 -> i64", "seed 000: truncation", convert(tFloat, tLong, floatVal(-1.5)), intVal(math.MaxUint64)},
		{"f32 NaN -> i64", "assumed: NaN -> 0", convert(tFloat, tLong, floatVal(math.NaN())), intVal(0)},
		{"f32 1e20 -> u8", "assumed: saturation", convert(tFloat, tUchar, floatVal(1e20)), intVal(255)},
		{"i64 -1 -> u32", "two's complement", convert(tLong, tUint, intVal(math.MaxUint64)), intVal(math.MaxUint32)},
		{"i64 2^24+1 -> f32", "round to nearest even", convert(tLong, tFloat, intVal(1<<24+1)), floatVal(1 << 24)},
		{"f32 70000 -> f16", "overflows to inf", convert(tFloat, tHalf, floatVal(70000)), floatVal(math.Inf(1))},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s (%s): got %+v, want %+v", tt.name, tt.why, tt.got, tt.want)
		}
	}
}

// recorder is a Device that records the dispatches it forwards.
type recorder struct {
	Device
	log []string
}

func (r *recorder) Dispatch(name string, args []Arg, groups, groupSize int) error {
	r.log = append(r.log, fmt.Sprintf("%s %dx%d", name, groups, groupSize))
	return r.Device.Dispatch(name, args, groups, groupSize)
}

// DispatchGrid records "name SIZExGROUP" (threads: "name threads SIZExGROUP").
func (r *recorder) DispatchGrid(name string, args []Arg, g Grid) error {
	kind := ""
	if g.PerThread {
		kind = "threads "
	}
	r.log = append(r.log, fmt.Sprintf("%s %s%vx%v", name, kind, g.Size, g.Group))
	return r.Device.DispatchGrid(name, args, g)
}

// Blit records "blit N".
func (r *recorder) Blit(src Buffer, srcOff int, dst Buffer, dstOff, n int) error {
	r.log = append(r.log, fmt.Sprintf("blit %d", n))
	return r.Device.Blit(src, srcOff, dst, dstOff, n)
}

func floats(d tensor.DType, shape []int, xs ...float64) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, x := range xs {
		t.SetFloat(i, x)
	}
	return t
}

func ints(d tensor.DType, shape []int, xs ...int64) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, x := range xs {
		t.SetInt(i, x)
	}
	return t
}

func dim(d int) *int { return &d }

func ptr(s string) *string { return &s }

// transposed is the view x.t() of a rank-2 tensor: the same storage with
// its dims and strides swapped.
func transposed(x *tensor.Tensor) *tensor.Tensor {
	st := tensor.ContiguousStrides(x.Shape)
	return &tensor.Tensor{DType: x.DType, Shape: []int{x.Shape[1], x.Shape[0]}, Strides: []int{st[1], st[0]}, Data: x.Data}
}

// broadcast is the view x.broadcast_as(shape) of a one-element tensor:
// every stride 0.
func broadcast(x *tensor.Tensor, shape ...int) *tensor.Tensor {
	return &tensor.Tensor{DType: x.DType, Shape: shape, Strides: make([]int, len(shape)), Data: x.Data}
}

// TestHostLaunches checks the kernels and grids the host picks, candle's.
func TestHostLaunches(t *testing.T) {
	iota := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i)
		}
		return xs
	}
	tests := []struct {
		name string
		c    *tensor.Case
		want string
	}{
		{"f32 add: 2 elements a thread", &tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{5}, iota(5)...)}, {Tensor: floats(tensor.F32, []int{5}, iota(5)...)}}},
			"badd_f32 1x3"},
		{"u8 add: 8 elements a thread", &tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: ints(tensor.U8, []int{20})}, {Tensor: ints(tensor.U8, []int{20})}}},
			"badd_u8 1x3"},
		{"one-element operands: both scalar-like", &tensor.Case{Op: "mul", Args: []tensor.Arg{{Tensor: ints(tensor.I64, []int{1}, 3)}, {Tensor: ints(tensor.I64, []int{1}, 4)}}},
			"bmul_i64_scalar 1x1"},
		{"maximum with a scalar: a contiguous lhs, a broadcast rhs", &tensor.Case{Op: "maximum", Args: []tensor.Arg{{Tensor: ints(tensor.I64, []int{3})}, {Scalar: &tensor.Scalar{Text: "2", Kind: tensor.ScalarInt}}}},
			"bmaximum_i64_cs 1x3"},
		{"a one-element lhs and a contiguous rhs", &tensor.Case{Op: "lt", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{1, 1}, 3)}, {Tensor: floats(tensor.F32, []int{1, 1}, 4)}}},
			"lt_f32_scalar 1x1"},
		{"a transposed lhs: lstrided", &tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: transposed(floats(tensor.F32, []int{2, 3}, 1, 2, 3, 4, 5, 6))}, {Tensor: floats(tensor.F32, []int{3, 2}, iota(6)...)}}},
			"badd_f32_lstrided 1x3"},
		{"a transposed rhs: rstrided", &tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{3, 2}, iota(6)...)}, {Tensor: transposed(floats(tensor.F32, []int{2, 3}, 1, 2, 3, 4, 5, 6))}}},
			"badd_f32_rstrided 1x3"},
		{"two transposed operands: strided", &tensor.Case{Op: "sub", Args: []tensor.Arg{{Tensor: transposed(floats(tensor.F32, []int{2, 3}, iota(6)...))}, {Tensor: transposed(floats(tensor.F32, []int{2, 3}, iota(6)...))}}},
			"bsub_f32_strided 1x3"},
		{"a broadcast lhs, a transposed rhs: rss", &tensor.Case{Op: "mul", Args: []tensor.Arg{{Tensor: broadcast(floats(tensor.F32, []int{1}, 2), 3, 2)}, {Tensor: transposed(floats(tensor.F32, []int{2, 3}, iota(6)...))}}},
			"bmul_f32_rss 1x3"},
		{"a transposed lhs, a broadcast rhs: lss", &tensor.Case{Op: "mul", Args: []tensor.Arg{{Tensor: transposed(floats(tensor.F32, []int{2, 3}, iota(6)...))}, {Tensor: broadcast(floats(tensor.F32, []int{1}, 2), 3, 2)}}},
			"bmul_f32_lss 1x3"},
		{"a broadcast lhs, a contiguous rhs: sc", &tensor.Case{Op: "ge", Args: []tensor.Arg{{Tensor: broadcast(ints(tensor.U8, []int{1}, 2), 4)}, {Tensor: ints(tensor.U8, []int{4}, 1, 2, 3, 4)}}},
			"ge_u8_sc 1x1"},
		{"i64 * 0.5 is affine", &tensor.Case{Op: "mul", Args: []tensor.Arg{{Tensor: ints(tensor.I64, []int{4}, -7, -7, 7, 7)}, {Scalar: &tensor.Scalar{Text: "0.5", Kind: tensor.ScalarFloat}}}},
			"affine_i64 1x4"},
		{"sum of the last dim: a threadgroup per row of next_pow2(n/2) threads", &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{3, 40}, iota(120)...)}}, Attrs: tensor.Attrs{Dim: dim(1)}},
			"fast_sum_f32 3x32"},
		{"sum of the first dim: strided", &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{3, 4}, iota(12)...)}}, Attrs: tensor.Attrs{Dim: dim(0)}},
			"fast_sum_f32_strided 4x1"},
		{"argmax over a dim followed by a size-1 dim: contiguous", &tensor.Case{Op: "argmax", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{3, 1}, 1, 5, 3)}}, Attrs: tensor.Attrs{Dim: dim(0)}},
			"fast_argmax_f32 1x1"},
		{"mean: sum, then affine(1/n)", &tensor.Case{Op: "mean", Args: []tensor.Arg{{Tensor: ints(tensor.U32, []int{4}, 1, 2, 3, 4)}}},
			"fast_sum_u32 1x2, affine_u32 1x1"},
		{"cast", &tensor.Case{Op: "cast", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{2}, -1.5, 2.7)}}, Attrs: tensor.Attrs{To: tensor.U32}},
			"cast_f32_u32 1x1"},
		{"index_select: a thread per output element", &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{3}, 10, 20, 30)}, {Tensor: ints(tensor.U8, []int{2}, 2, 0)}}, Attrs: tensor.Attrs{Dim: dim(0)}},
			"is_u8_f32 1x2"},
		{"where: tiles of the value dtype", &tensor.Case{Op: "where", Args: []tensor.Arg{{Tensor: ints(tensor.U8, []int{5}, 1, 0, 1, 0, 1)}, {Tensor: floats(tensor.F32, []int{5}, iota(5)...)}, {Tensor: floats(tensor.F32, []int{5}, iota(5)...)}}},
			"where_u8_f32 1x3"},
		{"broadcast_add of a row: the rhs broadcast, rstrided", &tensor.Case{Op: "broadcast_add", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{2, 3}, iota(6)...)}, {Tensor: floats(tensor.F32, []int{3}, 1, 2, 3)}}},
			"badd_f32_rstrided 1x3"},
		{"broadcast_mul of a one-element lhs: every stride 0, sc", &tensor.Case{Op: "broadcast_mul", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{1}, 2)}, {Tensor: floats(tensor.F32, []int{2, 2}, iota(4)...)}}},
			"bmul_f32_sc 1x2"},
		{"clamp: maximum, then minimum, of broadcast scalars", &tensor.Case{Op: "clamp", Args: []tensor.Arg{{Tensor: ints(tensor.U8, []int{3}, 1, 100, 200)}, {Scalar: &tensor.Scalar{Text: "50", Kind: tensor.ScalarInt}}, {Scalar: &tensor.Scalar{Text: "150", Kind: tensor.ScalarInt}}}},
			"bmaximum_u8_cs 1x1, bminimum_u8_cs 1x1"},
		{"full: const_set over tiles", &tensor.Case{Op: "full", Attrs: tensor.Attrs{Shape: []int{2, 3}, Value: ptr("7u32")}},
			"const_set_u32 1x3"},
	}
	for _, tt := range tests {
		rec := &recorder{Device: NewSimDevice()}
		out := New("rec", rec).Eval(Profile, tt.c)
		if got := strings.Join(rec.log, ", "); got != tt.want {
			t.Errorf("%s: launches %q, want %q (outcome %s)", tt.name, got, tt.want, out)
		}
	}
}

// TestReduceOrder pins the order of a float sum: with four elements and two
// threads, thread 0 adds x0 and x2, thread 1 adds x1 and x3, and the tree
// adds the two. Summed in order, 1e8 + 1 - 1e8 + 1 is 1 in f32.
func TestReduceOrder(t *testing.T) {
	c := &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{4}, 1e8, 1, -1e8, 1)}}}
	got := NewSim().Eval(Profile, c)
	if got.Form != tensor.FormValue || got.Value.Float(0) != 2 {
		t.Errorf("sum = %s, want 2 ((1e8 + -1e8) + (1 + 1))", got)
	}
}

// TestUndefinedMemory checks that reads outside a buffer come back as
// unspecified elements, and reads inside it as values: a negative i64 index
// is not clamped, and row l reads at l*n + id.
func TestUndefinedMemory(t *testing.T) {
	src := floats(tensor.F32, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	c := &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: src}, {Tensor: ints(tensor.I64, []int{2}, -1, 7)}}, Attrs: tensor.Attrs{Dim: dim(1)}}
	got := NewSim().Eval(Profile, c)
	if got.Form != tensor.FormValue {
		t.Fatalf("got %s", got)
	}
	v := got.Value
	// row 0: id -1 reads before the buffer; id 7 is clamped to 2 -> 3.
	// row 1: id -1 reads element 3 - 1 = 2 (value 3); id 7 -> 6.
	if !v.IsUnspecified(0) || v.Float(1) != 3 || v.IsUnspecified(2) || v.Float(2) != 3 || v.Float(3) != 6 {
		t.Errorf("index_select = %s, want [?, 3, 3, 6]", v)
	}
}

// TestShuffledThreads runs generated cases with the threads of every grid
// kernel in random orders: no result may depend on the order.
func TestShuffledThreads(t *testing.T) {
	plain := NewSim()
	rapid.Check(t, func(rt *rapid.T) {
		c := genCase().Draw(rt, "case")
		seed := rapid.Uint64().Draw(rt, "seed")
		want := plain.Eval(Profile, c)
		got := NewSim(WithShuffledThreads(seed)).Eval(Profile, c)
		if cmp := tensor.Compare(want, got, 0); !cmp.Match() || want.String() != got.String() {
			rt.Fatalf("%s: in order %s, shuffled %s", c.Describe(), want, got)
		}
	})
}

// TestKernelsWithoutTwinsAreMissing checks that a dtype without kernels
// fails the way candle fails: the host's own refusals for affine, unary,
// cast, reduce and index_select, the pipeline load for binary ops.
func TestKernelsWithoutTwinsAreMissing(t *testing.T) {
	i32 := ints(tensor.I32, []int{2}, 1, 2)
	tests := []struct {
		c     *tensor.Case
		class tensor.ErrorClass
	}{
		{&tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: i32}, {Tensor: i32}}}, tensor.UnsupportedDType},
		{&tensor.Case{Op: "add", Args: []tensor.Arg{{Tensor: i32}, {Scalar: &tensor.Scalar{Text: "1.0", Kind: tensor.ScalarFloat}}}}, tensor.UnsupportedDType},
		{&tensor.Case{Op: "neg", Args: []tensor.Arg{{Tensor: ints(tensor.I64, []int{1}, 1)}}}, tensor.UnsupportedDType},
		{&tensor.Case{Op: "cast", Args: []tensor.Arg{{Tensor: ints(tensor.I64, []int{2}, 2, 0)}}, Attrs: tensor.Attrs{To: tensor.I32}}, tensor.UnsupportedDType},
		{&tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: i32}}}, tensor.UnsupportedDType},
		{&tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: floats(tensor.F32, []int{3}, 1, 2, 3)}, {Tensor: floats(tensor.F32, []int{1}, 0)}}}, tensor.IndexDType},
		{&tensor.Case{Op: "sign", Args: []tensor.Arg{{Tensor: ints(tensor.I64, []int{1}, -3)}}}, tensor.UnsupportedDType},
	}
	for _, tt := range tests {
		got := NewSim().Eval(Profile, tt.c)
		if got.Form != tensor.FormError || got.Class != tt.class {
			t.Errorf("%s: got %s, want an error of class %s", tt.c.Describe(), got, tt.class)
		}
	}
}

// TestIndexClamping checks index_select's out-of-range rules on Metal
// (source-facts #5c): an id past the end reads the last row, an id equal to
// the ids dtype's maximum writes zeros, and the clamp bound is converted to
// the ids dtype first, so with u8 ids and a dim above 256 it wraps.
func TestIndexClamping(t *testing.T) {
	row := make([]float64, 300)
	for i := range row {
		row[i] = float64(i)
	}
	src := floats(tensor.F32, []int{300}, row...)
	tests := []struct {
		name string
		ids  *tensor.Tensor
		n    int // source length used
		want []float64
	}{
		{"u32 past the end: the last row", ints(tensor.U32, []int{3}, 5, 3, 1), 3, []float64{2, 2, 1}},
		{"i64 past the end", ints(tensor.I64, []int{2}, 1000, 0), 3, []float64{2, 0}},
		{"u8 255 is the sentinel: zero", ints(tensor.U8, []int{2}, 255, 1), 3, []float64{0, 1}},
		{"u32 max is the sentinel", ints(tensor.U32, []int{1}, math.MaxUint32), 3, []float64{0}},
		{"i64 max is the sentinel", ints(tensor.I64, []int{1}, math.MaxInt64), 3, []float64{0}},
		{"u8 ids, dim 300: the bound (u8)299 = 43 clamps 100", ints(tensor.U8, []int{2}, 100, 40), 300, []float64{43, 40}},
	}
	for _, tt := range tests {
		s := floats(tensor.F32, []int{tt.n}, row[:tt.n]...)
		if tt.n == 300 {
			s = src
		}
		c := &tensor.Case{Op: "index_select", Args: []tensor.Arg{{Tensor: s}, {Tensor: tt.ids}}, Attrs: tensor.Attrs{Dim: dim(0)}}
		got := NewSim().Eval(Profile, c)
		want := floats(tensor.F32, []int{len(tt.want)}, tt.want...)
		if cmp := tensor.Compare(tensor.ValueOutcome(want), got, 0); !cmp.Match() {
			t.Errorf("%s: got %s, want %s", tt.name, got, want)
		}
	}
}
