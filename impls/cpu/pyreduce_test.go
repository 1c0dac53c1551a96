package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Table tests of the reduction and cumsum families: one row per rule, with
// the recorded case or the source that states it.

// rf builds a float tensor of dtype d and shape from values.
func rf(d tensor.DType, shape []int, vs ...float64) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, v := range vs {
		t.SetFloat(i, v)
	}
	return t
}

// ri builds an integer or bool tensor of dtype d and shape from values.
func ri(d tensor.DType, shape []int, vs ...int64) *tensor.Tensor {
	t := tensor.New(d, shape...)
	for i, v := range vs {
		t.SetInt(i, v)
	}
	return t
}

func vec(n int) []int { return []int{n} }

var scalarShape = []int{}

func intp(v int) *int    { return &v }
func boolp(v bool) *bool { return &v }

func redCase(op string, x *tensor.Tensor, dim *int, keep *bool) *tensor.Case {
	return &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: x}}, Attrs: tensor.Attrs{Dim: dim, Keepdim: keep}}
}

func errOut(c tensor.ErrorClass) tensor.Outcome { return tensor.ErrorOutcome(c, "") }

type familyRow struct {
	name, reason, profile string
	c                     *tensor.Case
	want                  tensor.Outcome
}

func runFamilyRows(t *testing.T, rows []familyRow) {
	t.Helper()
	engines := []*Engine{New(WithWorkers(1)), New(WithWorkers(3), WithParallelThreshold(1))}
	var failures []string
	for _, r := range rows {
		for _, e := range engines {
			if !e.Supports(r.profile, r.c) {
				failures = append(failures, r.name+" ("+r.profile+"): not supported")
				break
			}
			got := e.Eval(r.profile, r.c)
			if cmp := tensor.Compare(r.want, got, 0); !cmp.Match() {
				failures = append(failures, r.name+" ("+r.profile+", "+r.reason+"): "+cmp.Detail+"\n    got "+got.String())
				break
			}
		}
	}
	for _, f := range failures { // every violation, not the first
		t.Error(f)
	}
}

func TestReductionTable(t *testing.T) {
	bf := func(vs ...float64) *tensor.Tensor { return rf(tensor.BF16, vec(len(vs)), vs...) }
	f32 := func(vs ...float64) *tensor.Tensor { return rf(tensor.F32, vec(len(vs)), vs...) }
	val := tensor.ValueOutcome
	nan := math.NaN()
	negz := math.Copysign(0, -1)
	rows := []familyRow{
		{"bf16 sum in f32", "oracle-01012: cascade_sum accumulates in f32", "pytorch/cpu",
			redCase("sum", bf(256, 1, 1), nil, nil), val(rf(tensor.BF16, scalarShape, 258))},
		{"bf16 sum in bf16", "oracle-01012: ml_dtypes adds in bf16", "numpy",
			redCase("sum", bf(256, 1, 1), nil, nil), val(rf(tensor.BF16, scalarShape, 256))},
		{"bf16 sum upcast", "oracle-01012: _upcast_f16", "jax/cpu-x32",
			redCase("sum", bf(256, 1, 1), nil, nil), val(rf(tensor.BF16, scalarShape, 258))},
		{"bf16 mean torch", "oracle-01015: f32 sum / 3", "pytorch/cpu",
			redCase("mean", bf(256, 1, 1), nil, nil), val(rf(tensor.BF16, scalarShape, 86))},
		{"bf16 mean numpy", "oracle-01015: bf16 sum / 3", "numpy",
			redCase("mean", bf(256, 1, 1), nil, nil), val(rf(tensor.BF16, scalarShape, 85.5))},
		{"f64 overflow in order", "oracle-01033: (1e308 + 1e308) - 1e308 = inf", "pytorch/cpu",
			redCase("sum", rf(tensor.F64, vec(3), 1e308, 1e308, -1e308), nil, nil), val(rf(tensor.F64, scalarShape, math.Inf(1)))},
		{"f32 cumsum in f64", "oracle-01020: acc_type<float> is double", "pytorch/cpu",
			redCase("cumsum", f32(16777216, 1, 1), intp(0), nil), val(f32(16777216, 16777216, 16777218))},
		{"f32 cumsum in f32", "oracle-01020", "numpy",
			redCase("cumsum", f32(16777216, 1, 1), intp(0), nil), val(f32(16777216, 16777216, 16777216))},
		{"bf16 cumsum torch", "oracle-01013: f32 accumulator", "pytorch/cpu-arm64",
			redCase("cumsum", bf(256, 1, 1), intp(0), nil), val(bf(256, 256, 258))},
		{"bf16 cumsum jax", "oracle-01013: in the dtype", "jax/cpu-x64",
			redCase("cumsum", bf(256, 1, 1), intp(0), nil), val(bf(256, 256, 256))},
		{"u8 sum widens", "seed 000 §溢出: 200 + 100 = 300", "pytorch/cpu",
			redCase("sum", ri(tensor.U8, vec(2), 200, 100), nil, nil), val(ri(tensor.I64, scalarShape, 300))},
		{"u8 sum to u32", "jax.reduce.int-to-default", "jax/cpu-x32",
			redCase("sum", ri(tensor.U8, vec(2), 200, 100), nil, nil), val(ri(tensor.U32, scalarShape, 300))},
		{"u8 cumsum keeps u8", "oracle-00943: [200, 100] -> [200, 44]", "jax/cpu-x64",
			redCase("cumsum", ri(tensor.U8, vec(2), 200, 100), intp(0), nil), val(ri(tensor.U8, vec(2), 200, 44))},
		{"i64 narrowed before sum", "jax.x32.narrow-inputs: low 32 bits", "jax/cpu-x32",
			redCase("sum", ri(tensor.I64, vec(2), 1<<32+1, 1), nil, nil), val(ri(tensor.I32, scalarShape, 2))},
		{"i32 prod wraps", "python.reduce.int-wrap", "numpy",
			redCase("prod", ri(tensor.I32, vec(3), 1<<20, 1<<20, 1<<30), nil, nil), val(ri(tensor.I64, scalarShape, 0))},
		{"argmax first NaN", "python.reduce.argmax: NaN is the extreme", "numpy",
			redCase("argmax", f32(1, nan, nan, 3), nil, nil), val(ri(tensor.I64, scalarShape, 1))},
		{"argmin tie", "oracle-00975: ties go to the lower index", "jax/cpu-x32",
			redCase("argmin", f32(2, 1, 1), nil, nil), val(ri(tensor.I32, scalarShape, 1))},
		{"max NaN", "oracle2-00701", "pytorch/cpu",
			redCase("max", f32(1, nan, 3), nil, nil), val(rf(tensor.F32, scalarShape, nan))},
		{"argmax bool", "pytorch.argmax.bool", "pytorch/cpu",
			redCase("argmax", ri(tensor.Bool, vec(2), 0, 1), nil, nil), errOut(tensor.UnsupportedDType)},
		{"mean of ints", "pytorch.mean.float-only", "pytorch/cpu",
			redCase("mean", ri(tensor.I32, vec(2), 1, 2), nil, nil), errOut(tensor.UnsupportedDType)},
		{"mean of ints in f64", "numpy.mean.dtype", "numpy",
			redCase("mean", ri(tensor.I32, vec(2), 1, 2), nil, nil), val(rf(tensor.F64, scalarShape, 1.5))},
		{"max of u32", "pytorch.coverage.no-kernel: max_all", "pytorch/cpu",
			redCase("max", ri(tensor.U32, vec(2), 1, 2), nil, nil), errOut(tensor.UnsupportedDType)},
		{"argmax u32 on a size-1 dim", "pytorch.argmax.trivial-dim (oracle2-00380)", "pytorch/cpu",
			redCase("argmax", ri(tensor.U64, []int{1, 4}, 1, 2, 3, 4), intp(0), nil), val(ri(tensor.I64, vec(4), 0, 0, 0, 0))},
		{"max of nothing", "pytorch.reduce.empty", "pytorch/cpu",
			redCase("max", f32(), nil, nil), errOut(tensor.EmptyTensor)},
		{"argmax of nothing", "pytorch.reduce.empty", "pytorch/cpu",
			redCase("argmax", f32(), nil, nil), errOut(tensor.IndexOutOfRange)},
		{"max of nothing numpy", "numpy.reduce.empty", "numpy",
			redCase("max", rf(tensor.F32, []int{2, 0}), intp(1), nil), errOut(tensor.EmptyTensor)},
		{"max of an empty result", "numpy: axis 1 has 3 values", "numpy",
			redCase("max", rf(tensor.F32, []int{0, 3}), intp(1), nil), val(rf(tensor.F32, vec(0)))},
		{"0-dim with axis", "numpy.reduce.axis", "numpy",
			redCase("sum", ri(tensor.I8, scalarShape, 5), intp(0), nil), val(ri(tensor.I64, scalarShape, 5))},
		{"0-dim mean with axis", "numpy.reduce.axis: not for mean", "numpy",
			redCase("mean", rf(tensor.F32, scalarShape, 5), intp(0), nil), errOut(tensor.OutOfRange)},
		{"0-dim with axis jax", "jax.reduce.axis", "jax/cpu-x64",
			redCase("sum", ri(tensor.I8, scalarShape, 5), intp(-1), nil), errOut(tensor.OutOfRange)},
		{"dim out of range", "pytorch.reduce.dim-range", "pytorch/cpu",
			redCase("sum", f32(1, 2), intp(1), nil), errOut(tensor.IndexOutOfRange)},
		{"0-dim cumsum", "oracle2-00639: NumPy gives shape [1]", "numpy",
			redCase("cumsum", ri(tensor.I8, scalarShape, 5), intp(0), nil), val(ri(tensor.I64, vec(1), 5))},
		{"keepdim", "python.reduce.shape", "pytorch/cpu",
			redCase("sum", rf(tensor.F32, []int{2, 2}, 1, 2, 3, 4), intp(0), boolp(true)), val(rf(tensor.F32, []int{1, 2}, 4, 6))},
		{"sum of -0 is +0", "python.reduce.float: the output starts at +0", "numpy",
			redCase("sum", f32(negz, negz), nil, nil), val(rf(tensor.F32, scalarShape, 0))},
		{"prod sign", "oracle2-01394", "pytorch/cpu",
			redCase("prod", f32(negz, 1), nil, nil), val(rf(tensor.F32, scalarShape, negz))},
		{"cumsum keeps a leading -0", "numpy.cumsum.sequential: copies x0", "numpy",
			redCase("cumsum", f32(negz), intp(0), nil), val(f32(negz))},
		{"cumsum adds to +0", "jax.cumsum.reduce-window", "jax/cpu-x32",
			redCase("cumsum", f32(negz), intp(0), nil), val(f32(0))},
		{"f16 outer sum rounds every step", "reductions.md §5.3: HALF_add", "numpy",
			redCase("sum", rf(tensor.F16, []int{3, 2}, 2048, 2048, 1, 1, 1, 1), intp(0), nil), val(rf(tensor.F16, vec(2), 2048, 2048))},
		{"f16 inner sum in f32", "reductions.md §5.3", "numpy",
			redCase("sum", rf(tensor.F16, vec(3), 2048, 1, 1), nil, nil), val(rf(tensor.F16, scalarShape, 2050))},
		{"mean by reciprocal", "jax.mean.reciprocal: s * R(1/N)", "jax/cpu-x32",
			redCase("mean", f32(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), nil, nil),
			val(rf(tensor.F32, scalarShape, float64(float32(49)*(1/float32(49)))))},
	}
	runFamilyRows(t, rows)
}

// TestSplitDoesNotChangeReductions runs large reductions and scans serially
// and split across goroutines from the first element: integer results,
// pinned float orders (NumPy's pairwise tree, PyTorch below its grain
// size), max/min and cumsum must not change.
func TestSplitDoesNotChangeReductions(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	serial, par := New(WithWorkers(1)), New(WithWorkers(5), WithParallelThreshold(1))
	shapes := [][]int{{100003}, {7, 9001}, {9001, 7}, {3, 257, 33}, {20000}}
	for _, d := range []tensor.DType{tensor.I32, tensor.U8, tensor.I64, tensor.Bool, tensor.F16, tensor.F32, tensor.F64} {
		for _, shape := range shapes {
			x := tensor.New(d, shape...)
			for i := 0; i < x.Len(); i++ {
				if d.IsFloat() {
					x.SetFloat(i, math.Ldexp(r.Float64()-0.5, r.IntN(20)))
				} else {
					x.SetInt(i, int64(r.Uint64()))
				}
			}
			for _, profile := range []string{"pytorch/cpu", "numpy", "jax/cpu-x64"} {
				for _, op := range []string{"sum", "prod", "max", "argmin", "cumsum", "mean"} {
					for _, dim := range []*int{nil, intp(0), intp(-1)} {
						if op == "cumsum" && dim == nil {
							continue
						}
						c := redCase(op, x, dim, nil)
						g := newRedGeom(shape, 0, false)
						if dim == nil {
							g = newRedGeom(shape, -1, false)
						} else if *dim == -1 {
							g = newRedGeom(shape, len(shape)-1, false)
						}
						open := (d.IsFloat() && (op == "sum" || op == "prod") || op == "mean") &&
							(profile == "pytorch/cpu" && g.numel >= torchGrain && (g.groups() == 1 || !g.contiguous()) ||
								profile == "jax/cpu-x64" && g.n > 32)
						if open {
							continue // the profile leaves the order open: splits may differ
						}
						a, b := serial.Eval(profile, c), par.Eval(profile, c)
						if cmp := tensor.Compare(a, b, 0); !cmp.Match() {
							t.Errorf("%s %s %s%v dim %v: split changes the result: %s", profile, op, d, shape, c.Attrs.String(), cmp.Detail)
						}
					}
				}
			}
		}
	}
}

func TestReductionSupportsIsHonest(t *testing.T) {
	e := New()
	c := &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: tensor.New(tensor.C64, 2)}}}
	if e.Supports("numpy", c) {
		t.Error("sum of complex: Supports says yes")
	}
	c = &tensor.Case{Op: "cumsum", Args: []tensor.Arg{{Tensor: tensor.New(tensor.C128, 2)}}}
	if e.Supports("pytorch/cpu", c) {
		t.Error("cumsum of complex: Supports says yes")
	}
	c = &tensor.Case{Op: "sum", Args: []tensor.Arg{{Tensor: &tensor.Tensor{DType: tensor.F32, Shape: []int{4}, Data: []uint64{1, 2}}}}}
	if e.Supports("jax/cpu-x32", c) {
		t.Error("a view reaching past its data: Supports says yes")
	}
}
