package model

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// redRow is one reduction or cumsum case under one profile and the outcome
// the oracle, a seed or the notes' simulation says it has.
type redRow struct {
	name, profile, op string
	arg, attrs, want  string
}

// redCheck evaluates every row and compares it as tfuzz eval --check does,
// and also requires the same "?" elements and at least one rule.
func redCheck(t *testing.T, rows []redRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name+" "+r.profile, func(t *testing.T) {
			attrs := r.attrs
			if attrs == "" {
				attrs = "{}"
			}
			c, err := tensor.DecodeCase([]byte(`{"id":"t","op":"` + r.op + `","args":[` + r.arg + `],"attrs":` + attrs + `}`))
			if err != nil {
				t.Fatal(err)
			}
			want, err := tensor.DecodeOutcome([]byte(r.want))
			if err != nil {
				t.Fatal(err)
			}
			got := Eval(r.profile, c)
			if len(got.Rules) == 0 {
				t.Errorf("outcome %s names no rule", got)
			}
			if cmp := tensor.Compare(want, got, 0); !cmp.Match() {
				t.Fatalf("got %s, want %s: %s (rules %v)", got, want, cmp.Detail, got.Rules)
			}
			if want.Form == tensor.FormValue {
				for i := 0; i < want.Value.Len(); i++ {
					if want.Value.IsUnspecified(i) != got.Value.IsUnspecified(i) {
						t.Errorf("element %d: want unspecified=%v, got %s (rules %v)", i, want.Value.IsUnspecified(i), got, got.Rules)
					}
				}
			}
		})
	}
}

// redRepeat builds a 1-D tensor argument of dtype d from head followed by
// n copies of rest (float elements as strings).
func redRepeat(d string, head []string, rest string, n int) string {
	data := append([]string{}, head...)
	for range n {
		data = append(data, rest)
	}
	return `{"dtype":"` + d + `","shape":[` + itoa(len(data)) + `],"data":["` + strings.Join(data, `","`) + `"]}`
}

// Inputs whose expected sums come from model/evidence/sim/reductions_sim.py
// (the notes' orders, AVX-512 and AVX2 alike); each differs from the plain
// sequential sum, so the row pins the order.
const (
	redSimTorchCPU40 = `{"dtype":"f32","shape":[40],"data":["4653301.5","-7553.01123046875","2.154045581817627","-0.35052037239074707","-6879368.5","10263.8271484375","-0.5499329566955566","-0.295281320810318","-0.0002931918133981526","-2166941.0","-9461010.0","-1421124.875","-0.00047703130985610187","1.8258296251296997","-14989889.0","1079183.375","0.06294562667608261","-4316838.0","2914945.75","-9611391.0","0.0005939505062997341","-2510682.75","0.09451760351657867","-9295445.0","237749.234375","-0.8793092966079712","6583192.5","-0.0005603153840638697","7819072.5","2676885.0","12207.7177734375","-6080376.0","-0.0006448766216635704","0.7603986859321594","-0.05334979295730591","-0.00029682216700166464","3497647.5","0.0028361473232507706","-11315.7177734375","0.4296705424785614"]}`
	redSimCUDA100    = `{"dtype":"f32","shape":[100],"data":["-0.0005756418104283512","-15296045.0","-3918657.0","0.046508464962244034","0.0836278647184372","-0.0002863610861822963","-0.014268417842686176","-6778.9541015625","-0.05379447713494301","-0.0005414062179625034","0.7326342463493347","-1429355.0","11631.6796875","-5300.4462890625","7012481.5","0.8420626521110535","0.0006457373965531588","11047.4873046875","-11333.3056640625","1.8318358659744263","-2704150.0","0.5555110573768616","-888.9374389648438","0.0005752557190135121","-0.0001343328767688945","-0.3145696222782135","-3534029.0","-0.13823236525058746","-1.7059446573257446","-0.0005498836399056017","0.006318613421171904","0.08326078951358795","-0.0009751030011102557","6227939.5","-0.3935484290122986","4217.3359375","0.8633849024772644","-1.1695563793182373","-9633006.0","8903711.0","-0.848243236541748","-9807.4931640625","0.9726974368095398","-3548396.25","-0.08358172327280045","-0.09305400401353836","-6471776.5","10260.4990234375","-10592141.0","-3.635058965301141e-05","2228.836181640625","0.03710220754146576","0.5867950916290283","-6612473.5","-0.4269876778125763","-0.0009217137703672051","-4618980.0","1.9600852727890015","0.08690671622753143","-1.656189203262329","0.0818425863981247","-2903.305908203125","-0.34429845213890076","-0.09379420429468155","5637.755859375","0.7853500843048096","-0.045387834310531616","12266.642578125","2.144420862197876","965.4730834960938","-4496.95166015625","-1.4041109085083008","-0.7323477268218994","-2.3275258541107178","2577.393798828125","7514.5771484375","-0.4619143009185791","-11430774.0","0.03326965495944023","-0.7165360450744629","8240301.0","-0.6827908158302307","3973189.25","0.25543004274368286","-3059489.0","0.9501357078552246","2.0871896743774414","-1.593927264213562","0.07907991111278534","0.0009851654758676887","7.537116471212357e-05","1.7408270650776103e-05","-4231806.5","-0.0006250992882996798","5160855.5","-16771885.0","0.9351526498794556","12958805.0","-0.013266793452203274","2448495.5"]}`
	redSimNumPy20    = `{"dtype":"f32","shape":[20],"data":["1.1909735202789307","-2.3894166946411133","-6829035.5","3338361.75","0.5117437243461609","6527918.0","-333.942138671875","-0.00038283676258288324","-0.0007033469737507403","-9823874.0","0.00014662544708698988","-0.09583105146884918","9505.6865234375","0.028639527037739754","0.7737370133399963","-0.09686251729726791","0.09292007237672806","0.03779185563325882","11874.6103515625","-0.0687674805521965"]}`
	redSimXLA16      = `{"dtype":"f32","shape":[16],"data":["0.29565584659576416","1902831.375","9712.9814453125","-940.8392944335938","-2.5039024353027344","0.018936119973659515","-4742.33935546875","7596.13134765625","-1691083.75","1933.90283203125","0.015195646323263645","0.0007580671226605773","-12911549.0","11032.8095703125","0.010288216173648834","0.6192545890808105"]}`
)

func redVal(d, shape, data string) string {
	return `{"value":{"dtype":"` + d + `","shape":` + shape + `,"data":` + data + `}}`
}

func redErr(class string) string { return `{"error":{"class":"` + class + `","message":""}}` }

func TestPyReduce(t *testing.T) {
	const (
		big3   = `{"dtype":"f64","shape":[3],"data":["1e308","1e308","-1e308"]}`
		bf3    = `{"dtype":"bf16","shape":[3],"data":["256.0","1.0","1.0"]}`
		i32x4  = `{"dtype":"i32","shape":[4],"data":[2147483646,37,-2147483648,0]}`
		u64x5  = `{"dtype":"u64","shape":[5],"data":[0,0,350652514799607462,7,3999015604519849449]}`
		i32x2  = `{"dtype":"i32","shape":[2],"data":[1500000000,1500000000]}`
		nanArg = `{"dtype":"f32","shape":[4],"data":["1.0","nan","inf","nan"]}`
		zeros  = `{"dtype":"f32","shape":[2],"data":["-0.0","-0.0"]}`
		tie    = `{"dtype":"f32","shape":[3],"data":["-1.0","-0.0","0.0"]}`
		empty  = `{"dtype":"f32","shape":[0],"data":[]}`
		scalar = `{"dtype":"i16","shape":[],"data":[-7]}`
		dim0   = `{"dim":0}`
	)
	redCheck(t, []redRow{
		{"CUDA block tree: thread 0 adds x0 and x2 (oracle-01033)", "pytorch/cuda", "sum", big3, "", redVal("f64", "[]", `["1e308"]`)},
		{"CPU cascade overflows in order (oracle-01033)", "pytorch/cpu", "sum", big3, "", redVal("f64", "[]", `["inf"]`)},
		{"XLA GPU elemental loop for n = 3 (oracle-01033)", "jax/gpu-x64", "sum", big3, "", redVal("f64", "[]", `["inf"]`)},
		{"JAX x32 narrows 1e308 to inf first (oracle-01033)", "jax/cpu-x32", "sum", big3, "", redVal("f32", "[]", `["nan"]`)},
		{"NumPy bf16 rounds every step (oracle-01012)", "numpy", "sum", bf3, "", redVal("bf16", "[]", `["256.0"]`)},
		{"PyTorch bf16 sums in f32 (oracle-01012)", "pytorch/cpu", "sum", bf3, "", redVal("bf16", "[]", `["258.0"]`)},
		{"JAX upcasts bf16 (oracle-01012)", "jax/gpu-x32", "sum", bf3, "", redVal("bf16", "[]", `["258.0"]`)},
		{"PyTorch CPU bf16 mean in f32 (oracle-01015)", "pytorch/cpu", "mean", bf3, "", redVal("bf16", "[]", `["86.0"]`)},
		{"NumPy bf16 mean (oracle-01015)", "numpy", "mean", bf3, "", redVal("bf16", "[]", `["85.5"]`)},
		{"XLA GPU shuffle tree of 4 (oracle2-00947)", "jax/gpu-x32", "mean", i32x4, "", redVal("f32", "[]", `["9.25"]`)},
		{"XLA CPU in order in f32 (oracle2-00947)", "jax/cpu-x64", "mean", i32x4, "", redVal("f32", "[]", `["0.0"]`)},
		{"NumPy int mean in f64 (oracle2-00947)", "numpy", "mean", i32x4, "", redVal("f64", "[]", `["8.75"]`)},
		{"PyTorch mean of ints (oracle2-00947)", "pytorch/cuda", "mean", i32x4, "", redErr("UnsupportedDType")},
		{"JAX mean is sum * (1/N) (oracle2-00722)", "jax/gpu-x64", "mean", u64x5, dim0, redVal("f64", "[]", `["8.699336238638915e+17"]`)},
		{"NumPy divides (oracle2-00722)", "numpy", "mean", u64x5, dim0, redVal("f64", "[]", `["8.699336238638913e+17"]`)},
		{"JAX x32 prod wraps in i32 (oracle-00972)", "jax/cpu-x32", "prod", i32x2, "", redVal("i32", "[]", `[950075392]`)},
		{"JAX x64 prod in i64 (oracle-00972)", "jax/gpu-x64", "prod", i32x2, "", redVal("i64", "[]", `[2250000000000000000]`)},
		{"NumPy u8 sum is u64 (oracle-00942)", "numpy", "sum", `{"dtype":"u8","shape":[2],"data":[200,100]}`, "", redVal("u64", "[]", `[300]`)},
		{"argmax along a size-1 dim runs no kernel (oracle2-00380)", "pytorch/cpu", "argmax",
			`{"dtype":"u64","shape":[1,4],"data":[15359059845456616018,0,16777215,2]}`, `{"dim":0,"keepdim":false}`, redVal("i64", "[4]", `[0,0,0,0]`)},
		{"argmax of u32 has no kernel (oracle-00989)", "pytorch/cuda", "argmax", `{"dtype":"u32","shape":[2],"data":[2147483648,2147483648]}`, "", redErr("UnsupportedDType")},
		{"JAX x32 argmax is i32 (oracle-00989)", "jax/gpu-x32", "argmax", `{"dtype":"u32","shape":[2],"data":[2147483648,2147483648]}`, "", redVal("i32", "[]", `[0]`)},
		{"amax along an empty dim (oracle2-00656)", "pytorch/cpu", "max", empty, `{"dim":0,"keepdim":true}`, redErr("IndexOutOfRange")},
		{"NumPy max of nothing (oracle2-00656)", "numpy", "max", empty, `{"dim":0,"keepdim":true}`, redErr("EmptyTensor")},
		{"max_all of nothing (oracle2-00054)", "pytorch/cuda", "max", empty, "", redErr("EmptyTensor")},
		{"argmax without dim of nothing (oracle2-00147)", "pytorch/cpu", "argmin", empty, "", redErr("IndexOutOfRange")},
		{"NumPy mean of nothing is NaN (oracle2-00391)", "numpy", "mean", empty, `{"dim":0,"keepdim":true}`, redVal("f32", "[1]", `["nan"]`)},
		{"empty sum is 0 (oracle2-00160)", "jax/gpu-x32", "sum", empty, "", redVal("f32", "[]", `["0.0"]`)},
		{"empty prod along dim keeps a 1 (oracle2-01142)", "pytorch/cpu", "prod", empty, `{"dim":0,"keepdim":true}`, redVal("f32", "[1]", `["1.0"]`)},
		{"prod's zero sign is exact (oracle2-01394)", "jax/gpu-x32", "prod",
			`{"dtype":"f32","shape":[5],"data":["16777217.0","65520.0","0.0","5.960464477539063e-08","-1.052"]}`, "", redVal("f32", "[]", `["-0.0"]`)},
		{"keepdim keeps the dim as 1 (oracle2-00015)", "pytorch/cpu", "min",
			`{"dtype":"i32","shape":[2,3],"data":[-2147483647,-249635751,16777217,-2,7,-415340613]}`, `{"dim":0,"keepdim":true}`,
			redVal("i32", "[1,3]", `[-2147483647,-249635751,-415340613]`)},
		{"max of bool is any (oracle-01002)", "jax/cpu-x32", "max", `{"dtype":"bool","shape":[3],"data":[false,true,false]}`, "", redVal("bool", "[]", `[true]`)},
		{"max propagates NaN (oracle-01030)", "numpy", "max", nanArg, "", redVal("f32", "[]", `["nan"]`)},
		{"argmax: the first NaN wins (source)", "pytorch/cpu", "argmax", nanArg, "", redVal("i64", "[]", `[1]`)},
		{"argmin: the first NaN wins (source)", "jax/cpu-x64", "argmin", nanArg, "", redVal("i64", "[]", `[1]`)},
		{"argmin: -0 and +0 tie at the lower index", "numpy", "argmax", tie, "", redVal("i64", "[]", `[1]`)},
		{"a -0/+0 tie in max is unspecified", "numpy", "max", tie, "", redVal("f32", "[]", `["?"]`)},
		{"a sum of only -0 is +0", "pytorch/cuda", "sum", zeros, "", redVal("f32", "[]", `["0.0"]`)},
		{"XLA GPU emitter: the sign of a zero sum is unspecified", "jax/gpu-x32", "sum", zeros, "", redVal("f32", "[]", `["?"]`)},
		{"XLA CPU: a sum of only -0 is +0", "jax/cpu-x32", "sum", zeros, "", redVal("f32", "[]", `["0.0"]`)},
		{"PyTorch reduces a 0-dim input along dim 0", "pytorch/cpu", "sum", scalar, dim0, redVal("i64", "[]", `[-7]`)},
		{"NumPy reduces a 0-dim input along axis 0", "numpy", "argmax", scalar, dim0, redVal("i64", "[]", `[0]`)},
		{"NumPy mean of a 0-dim input along axis 0", "numpy", "mean", scalar, dim0, redErr("OutOfRange")},
		{"JAX has no axis 0 of a 0-dim input", "jax/cpu-x64", "sum", scalar, dim0, redErr("OutOfRange")},
		{"PyTorch dim out of range", "pytorch/cpu", "sum", scalar, `{"dim":1}`, redErr("IndexOutOfRange")},
		{"MPS has no float64", "pytorch/mps", "sum", big3, "", redErr("UnsupportedDType")},
		{"MPS cannot sum u32 (seed 000)", "pytorch/mps", "sum", `{"dtype":"u32","shape":[2],"data":[2147483648,2147483648]}`, "", redErr("UnsupportedDType")},
		{"MPS: u8 sums to i64 (seed 000)", "pytorch/mps", "sum", `{"dtype":"u8","shape":[2],"data":[200,100]}`, "", redVal("i64", "[]", `[300]`)},
		{"MPS: an inexact sum of three is unspecified", "pytorch/mps", "sum", `{"dtype":"f32","shape":[3],"data":["0.1","0.2","0.3"]}`, "", redVal("f32", "[]", `["?"]`)},
		{"MPS: an exact sum is order-free", "pytorch/mps", "sum", `{"dtype":"f32","shape":[3],"data":["1.0","2.0","3.0"]}`, "", redVal("f32", "[]", `["6.0"]`)},
		{"PyTorch CPU cascade of 40 (notes' simulation)", "pytorch/cpu", "sum", redSimTorchCPU40, "", redVal("f32", "[]", `["-37267480.0"]`)},
		{"CUDA block of 100 (notes' simulation)", "pytorch/cuda", "sum", redSimCUDA100, "", redVal("f32", "[]", `["-48900344.0"]`)},
		{"NumPy pairwise of 20 (notes' simulation)", "numpy", "sum", redSimNumPy20, "", redVal("f32", "[]", `["-6765584.0"]`)},
		{"XLA GPU shuffle tree of 16 (notes' simulation)", "jax/gpu-x32", "sum", redSimXLA16, "", redVal("f32", "[]", `["-12675211.0"]`)},
		{"XLA CPU in order (notes' simulation)", "jax/cpu-x32", "sum", redSimXLA16, "", redVal("f32", "[]", `["-12675210.0"]`)},
		{"CUDA beyond 128 elements is not pinned", "pytorch/cuda", "sum", redRepeat("f32", []string{"16777216.0"}, "1.0", 128), "", redVal("f32", "[]", `["?"]`)},
		{"CUDA beyond 128 elements: an exact sum", "pytorch/cuda", "sum", redRepeat("f32", nil, "1.0", 200), "", redVal("f32", "[]", `["200.0"]`)},
		{"XLA beyond 32 elements is not pinned", "jax/cpu-x64", "sum", redRepeat("f32", []string{"16777216.0"}, "1.0", 32), "", redVal("f32", "[]", `["?"]`)},
		{"XLA beyond 32 elements: NaN is order-free", "jax/gpu-x64", "sum", redRepeat("f32", []string{"nan"}, "0.1", 40), "", redVal("f32", "[]", `["nan"]`)},
		{"PyTorch CPU with threads: an exact sum", "pytorch/cpu", "sum", redRepeat("f16", nil, "1.0", torchGrainSize), "", redVal("f16", "[]", `["32768.0"]`)},
	})
}

// TestOrderFree checks OrderFree against many association orders: when it
// says a group is order-free, every order gives the same result (up to the
// sign of a zero sum).
func TestOrderFree(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, 3, 65504, 1e-7}
	common := []Order{SequentialOrder, CUDAThreadOrder, CUDABlockOrder(4), CUDABlockOrder(2)}
	sums := append([]Order{NumPyPairwiseOrder, TorchCPUSumOrder(16, tensor.F32, true, 0, 1, true),
		TorchCPUSumOrder(16, tensor.F16, true, 0, 1, true), TorchCPUSumOrder(16, tensor.F32, false, 0, 1, true)}, common...)
	prods := append([]Order{TorchCPUProdOrder(8, tensor.F32, true), TorchCPUProdOrder(4, tensor.F16, true)}, common...)
	free := 0
	for trial := range 20000 {
		a := Arith{Prod: trial%2 == 1, Prec: []tensor.DType{tensor.F16, tensor.BF16, tensor.F32, tensor.F64}[trial/2%4]}
		xs := make([]float64, 1+rng.Intn(12))
		for i := range xs {
			switch rng.Intn(3) {
			case 0:
				xs[i] = specials[rng.Intn(len(specials))]
			case 1:
				xs[i] = float64(rng.Intn(41) - 20)
			default:
				xs[i] = math.Ldexp(float64(rng.Intn(2047)-1023), rng.Intn(60)-30)
			}
			xs[i] = roundTo(xs[i], a.Prec)
		}
		if !OrderFree(xs, a) {
			continue
		}
		free++
		orders := sums
		if a.Prod {
			orders = prods
		}
		var results []float64
		for _, o := range orders {
			results = append(results, o.Reduce(xs, a))
		}
		if len(xs)&(len(xs)-1) == 0 {
			results = append(results, XLATreeOrder.Reduce(xs, a))
		}
		for range 5 { // random permutations in order
			p := append([]float64{}, xs...)
			rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			results = append(results, SequentialOrder.Reduce(p, a))
		}
		for _, r := range results[1:] {
			if !redSame(results[0], r) && !(results[0] == 0 && r == 0 && !a.Prod) {
				t.Fatalf("%+v %v: order-free but orders give %v", a, xs, results)
			}
		}
	}
	if free < 2000 {
		t.Fatalf("only %d order-free groups: the generator does not exercise OrderFree", free)
	}
}

// TestTorchCPUSumSmallIsSequential: below four elements every cascade path
// is the plain sum from 0 (reductions.md §5.1).
func TestTorchCPUSumSmallIsSequential(t *testing.T) {
	xs := []float64{16777216, 1, 1}
	a := Arith{Prec: tensor.F32}
	for _, w := range []int{16, 32, 64} {
		for _, inner := range []bool{true, false} {
			if got := TorchCPUSumOrder(w, tensor.F32, inner, 0, 1, true).Reduce(xs, a); got != 16777216 {
				t.Errorf("width %d inner %v: got %v, want 16777216", w, inner, got)
			}
		}
	}
}

// TestReduceTotal evaluates random reductions and cumsums (every dtype,
// 0-dim, empty and long shapes, every dim) under every Python profile: no
// panic, a well-formed outcome, and at least one rule.
func TestReduceTotal(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	ops := []string{"sum", "prod", "mean", "max", "min", "argmax", "argmin", "cumsum"}
	edges := []float64{0, math.Copysign(0, -1), 1, -1, math.NaN(), math.Inf(1), math.Inf(-1), 65504, 16777217, 1e-8, 0.1}
	for trial := range 3000 {
		d := tensor.AllDTypes[rng.Intn(len(tensor.AllDTypes))]
		shape := make([]int, rng.Intn(4))
		for i := range shape {
			shape[i] = []int{0, 1, 2, 3, 5, 40, 130}[rng.Intn(7)]
		}
		if tensor.NumElements(shape) > 5000 {
			continue
		}
		x := tensor.New(d, shape...)
		for i := range x.Len() {
			switch {
			case d.IsFloat() || d.IsComplex():
				x.SetFloat(i, edges[rng.Intn(len(edges))])
			default:
				x.SetInt(i, rng.Int63()-rng.Int63())
			}
		}
		c := &tensor.Case{Op: ops[trial%len(ops)], Args: []tensor.Arg{{Tensor: x}}}
		if rng.Intn(3) > 0 || c.Op == "cumsum" {
			dim := rng.Intn(2*max(len(shape), 1)+1) - max(len(shape), 1)
			keep := rng.Intn(2) == 0
			c.Attrs.Dim, c.Attrs.Keepdim = &dim, &keep
		}
		for _, p := range []string{"pytorch/cpu", "pytorch/cpu-arm64", "pytorch/cuda", "pytorch/mps", "numpy",
			"jax/cpu-x32", "jax/cpu-x64", "jax/gpu-x32", "jax/gpu-x64"} {
			got := Eval(p, c)
			if err := got.Check(); err != nil {
				t.Fatalf("%s %s: malformed %s: %v", p, c.Describe(), got, err)
			}
			if len(got.Rules) == 0 {
				t.Fatalf("%s %s: %s names no rule", p, c.Describe(), got)
			}
		}
	}
}
