package model

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// binRow is one binary-op case and the outcome a profile must give, in case
// format. A "?" in want must be "?" in the model's outcome and vice versa.
type binRow struct {
	name    string
	profile string
	op      string
	args    string // the args array's items
	want    string
	msg     string // a substring the message must contain ("" = unchecked)
}

func runBinRows(t *testing.T, rows []binRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name+"/"+r.profile, func(t *testing.T) {
			c, err := tensor.DecodeCase([]byte(`{"id":"t","op":"` + r.op + `","args":[` + r.args + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			want, err := tensor.DecodeOutcome([]byte(r.want))
			if err != nil {
				t.Fatal(err)
			}
			got := Eval(r.profile, c)
			if cmp := tensor.Compare(want, got, 0); !cmp.Match() {
				t.Fatalf("got %s, want %s: %s (rules %v)", got, want, cmp.Detail, got.Rules)
			}
			if want.Form == tensor.FormValue {
				for i := 0; i < want.Value.Len(); i++ {
					if want.Value.IsUnspecified(i) != got.Value.IsUnspecified(i) {
						t.Errorf("element %d: want unspecified=%v, got %s", i, want.Value.IsUnspecified(i), got)
					}
				}
			}
			if r.msg != "" && !strings.Contains(got.Message(), r.msg) {
				t.Errorf("message %q does not contain %q", got.Message(), r.msg)
			}
		})
	}
}

const (
	i64ByZero = `{"dtype":"i64","shape":[5],"data":[7,-9223372036854775808,9223372036854775807,0,-7]},{"dtype":"i64","shape":[5],"data":[0,0,0,0,0]}`
	i32MinNeg = `{"dtype":"i32","shape":[1],"data":[-2147483648]},{"dtype":"i32","shape":[1],"data":[-1]}`
	f16Tenth  = `{"dtype":"f16","shape":[4],"data":["1.0","3.0","65504.0","-2.5"]},{"scalar":"0.1","kind":"float"}`
	powNegInt = `{"dtype":"i64","shape":[3,1],"data":[-36,-7,-3]},{"dtype":"i64","shape":[3,1],"data":[0,-1,-6945268794210533327]}`
	div255    = `{"dtype":"i64","shape":[3],"data":[30,-9007199254740993,-2147483648]},{"scalar":"255","kind":"int"}`
	valueErr  = `{"error":{"class":"Other","message":""}}`
)

func TestPyBinaryIntegerDivision(t *testing.T) {
	runBinRows(t, []binRow{
		{"x // 0 raises on CPU (oracle-00145)", "pytorch/cpu", "floor_div", i64ByZero,
			`{"error":{"class":"ZeroDivision","message":""}}`, "ZeroDivisionError"},
		{"x // 0 on CUDA: nvcc's 32-bit fast path for small dividends (oracle-00145)", "pytorch/cuda", "floor_div", i64ByZero,
			`{"value":{"dtype":"i64","shape":[5],"data":[4294967295,-2,-1,4294967295,-2]}}`, ""},
		{"x // 0 is 0 in NumPy (oracle-00145)", "numpy", "floor_div", i64ByZero,
			`{"value":{"dtype":"i64","shape":[5],"data":[0,0,0,0,0]}}`, ""},
		{"XLA x / 0 = -1, corrected toward -inf (oracle-00145)", "jax/gpu-x64", "floor_div", i64ByZero,
			`{"value":{"dtype":"i64","shape":[5],"data":[-2,-2,-2,-1,-2]}}`, ""},
		{"x32 narrows MIN to 0 and MAX to -1 first (oracle-00145)", "jax/cpu-x32", "floor_div", i64ByZero,
			`{"value":{"dtype":"i32","shape":[5],"data":[-2,-1,-2,-1,-2]}}`, ""},
		{"CUDA x % False is the all-ones pattern (oracle2-00335)", "pytorch/cuda", "rem",
			`{"dtype":"i64","shape":[2,3],"data":[-9,0,-16777217,12,-16777217,7170864886495290748]},{"scalar":"false","kind":"bool"}`,
			`{"value":{"dtype":"i64","shape":[2,3],"data":[-1,4294967295,-1,4294967295,-1,-1]}}`, ""},
		{"x86 idiv traps on MIN / -1 (oracle-00105)", "pytorch/cpu", "trunc_div", i32MinNeg, `{"crash":{"signal":"SIGFPE"}}`, ""},
		{"GPUs do not trap on MIN / -1 (oracle-00105)", "pytorch/cuda", "trunc_div", i32MinNeg,
			`{"value":{"dtype":"i32","shape":[1],"data":[-2147483648]}}`, ""},
		{"Arm64 sdiv gives MIN for MIN / -1 (DESIGN.md)", "pytorch/cpu-arm64", "trunc_div", i32MinNeg,
			`{"value":{"dtype":"i32","shape":[1],"data":[-2147483648]}}`, ""},
		{"Arm64 still checks zero divisors first", "pytorch/cpu-arm64", "trunc_div",
			`{"dtype":"i64","shape":[2],"data":[7,-7]},{"dtype":"i64","shape":[2],"data":[0,0]}`,
			`{"error":{"class":"ZeroDivision","message":""}}`, ""},
		{"floor_div of MIN / -1 does not trap (oracle-00103)", "pytorch/cpu", "floor_div", i32MinNeg,
			`{"value":{"dtype":"i32","shape":[1],"data":[-2147483648]}}`, ""},
		{"MPS does not check: [7,-7] // 0 = [0,-1] (seed 000)", "pytorch/mps", "floor_div",
			`{"dtype":"i64","shape":[2],"data":[7,-7]},{"dtype":"i64","shape":[2],"data":[0,0]}`,
			`{"value":{"dtype":"i64","shape":[2],"data":[0,-1]}}`, ""},
		{"MPS truncating x / 0 = 0 (seed 000)", "pytorch/mps", "trunc_div",
			`{"dtype":"i64","shape":[2],"data":[7,-7]},{"dtype":"i64","shape":[2],"data":[0,0]}`,
			`{"value":{"dtype":"i64","shape":[2],"data":[0,0]}}`, ""},
		{"no zero check on an empty output (oracle2-01578)", "pytorch/cpu", "floor_div",
			`{"dtype":"i8","shape":[0],"data":[]},{"scalar":"false","kind":"bool"}`,
			`{"value":{"dtype":"i8","shape":[0],"data":[]}}`, ""},
		{"NumPy and JAX have no truncating division (oracle-00105)", "numpy", "trunc_div", i32MinNeg,
			`{"unsupported":{"message":""}}`, ""},
	})
}

func TestPyBinaryScalars(t *testing.T) {
	i8With300 := `{"dtype":"i8","shape":[3],"data":[-128,1,127]},{"scalar":"300","kind":"int"}`
	runBinRows(t, []binRow{
		{"PyTorch reads 0.1 at f32 in f16 mul (oracle-00829)", "pytorch/cpu", "mul", f16Tenth,
			`{"value":{"dtype":"f16","shape":[4],"data":["0.0999755859375","0.300048828125","6552.0","-0.25"]}}`, ""},
		{"CUDA reads 0.1 at f32 too (oracle-00829)", "pytorch/cuda", "mul", f16Tenth,
			`{"value":{"dtype":"f16","shape":[4],"data":["0.0999755859375","0.300048828125","6552.0","-0.25"]}}`, ""},
		{"NumPy rounds the weak 0.1 to f16 (oracle-00829)", "numpy", "mul", f16Tenth,
			`{"value":{"dtype":"f16","shape":[4],"data":["0.0999755859375","0.2998046875","6548.0","-0.25"]}}`, ""},
		{"JAX rounds the weak 0.1 to f16 (oracle-00829)", "jax/gpu-x32", "mul", f16Tenth,
			`{"value":{"dtype":"f16","shape":[4],"data":["0.0999755859375","0.2998046875","6548.0","-0.25"]}}`, ""},
		{"PyTorch wraps 300 to 44 (oracle-00704)", "pytorch/cpu", "add", i8With300,
			`{"value":{"dtype":"i8","shape":[3],"data":[-84,45,-85]}}`, ""},
		{"NumPy: 300 is out of bounds for int8 (oracle-00704)", "numpy", "add", i8With300,
			`{"error":{"class":"OutOfRange","message":""}}`, "Python integer 300 out of bounds for int8"},
		{"NumPy compares an out-of-range int exactly (NEP 50)", "numpy", "lt", i8With300,
			`{"value":{"dtype":"bool","shape":[3],"data":[true,true,true]}}`, ""},
		{"PyTorch compares with the wrapped 44", "pytorch/cpu", "lt", i8With300,
			`{"value":{"dtype":"bool","shape":[3],"data":[true,true,false]}}`, ""},
		{"JAX x32 cannot parse 2147483648 (oracle2-00071)", "jax/cpu-x32", "floor_div",
			`{"dtype":"i8","shape":[1],"data":[5]},{"scalar":"2147483648","kind":"int"}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "argument path is x2"},
		{"i64 * 0.5 promotes to f32 in PyTorch (oracle-00784)", "pytorch/cuda", "mul",
			`{"dtype":"i64","shape":[2],"data":[-7,16777217]},{"scalar":"0.5","kind":"float"}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["-3.5","8388608.0"]}}`, ""},
		{"sub with a Python bool is refused (oracle2-00914)", "pytorch/cpu", "sub",
			`{"scalar":"true","kind":"bool"},{"dtype":"bf16","shape":[1],"data":["1.0"]}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "Subtraction"},
	})
}

func TestPyBinaryFloatDivision(t *testing.T) {
	f32By3 := `{"dtype":"f32","shape":[4],"data":["1.0","3.0","65504.0","-2.5"]},{"scalar":"3.0","kind":"float"}`
	runBinRows(t, []binRow{
		{"CPU divides exactly (oracle-00842)", "pytorch/cpu", "div", f32By3,
			`{"value":{"dtype":"f32","shape":[4],"data":["0.3333333432674408","1.0","21834.666015625","-0.8333333134651184"]}}`, ""},
		{"CUDA multiplies by rn(1/3) (oracle-00842)", "pytorch/cuda", "div", f32By3,
			`{"value":{"dtype":"f32","shape":[4],"data":["0.3333333432674408","1.0","21834.66796875","-0.8333333730697632"]}}`, ""},
		{"XLA CPU multiplies by rn(1/3) (oracle-00842)", "jax/cpu-x64", "div", f32By3,
			`{"value":{"dtype":"f32","shape":[4],"data":["0.3333333432674408","1.0","21834.66796875","-0.8333333730697632"]}}`, ""},
		{"XLA GPU f32 division is approximate (oracle2-00388)", "jax/gpu-x32", "div", div255,
			`{"value":{"dtype":"f32","shape":[3],"data":["?","?","?"]}}`, ""},
		{"x32 narrows i64 MIN to 0 before 0 / -1 (oracle-00144)", "jax/gpu-x32", "div",
			`{"dtype":"i64","shape":[1],"data":[-9223372036854775808]},{"dtype":"i64","shape":[1],"data":[-1]}`,
			`{"value":{"dtype":"f32","shape":[1],"data":["-0.0"]}}`, ""},
		{"int operands become f32 first, then one division (oracle-00132)", "pytorch/cpu", "div",
			`{"dtype":"i64","shape":[1],"data":[-9223372036854775808]},{"dtype":"i64","shape":[1],"data":[16777217]}`,
			`{"value":{"dtype":"f32","shape":[1],"data":["-549755813888.0"]}}`, ""},
		{"floor_div -0.0 keeps the IEEE sign of a / b (oracle-00195)", "numpy", "floor_div",
			`{"dtype":"f32","shape":[2],"data":["-0.0","-0.0"]},{"dtype":"f32","shape":[2],"data":["-2.5","3.0"]}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["0.0","-0.0"]}}`, ""},
		{"JAX rounds the corrected quotient half away from zero (oracle-00195)", "jax/cpu-x32", "floor_div",
			`{"dtype":"f32","shape":[2],"data":["-0.0","-0.0"]},{"dtype":"f32","shape":[2],"data":["-2.5","3.0"]}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["-0.0","0.0"]}}`, ""},
		{"NumPy gives a zero remainder the divisor's sign (oracle-00196)", "numpy", "rem",
			`{"dtype":"f32","shape":[2],"data":["0.0","0.0"]},{"dtype":"f32","shape":[2],"data":["-2.5","3.0"]}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["-0.0","0.0"]}}`, ""},
		{"PyTorch keeps fmod's zero (oracle-00196)", "pytorch/cuda", "rem",
			`{"dtype":"f32","shape":[2],"data":["0.0","0.0"]},{"dtype":"f32","shape":[2],"data":["-2.5","3.0"]}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["0.0","0.0"]}}`, ""},
	})
}

func TestPyBinaryMaxMinZeros(t *testing.T) {
	zeros := `{"dtype":"f16","shape":[2],"data":["0.0","-0.0"]},{"dtype":"f16","shape":[2],"data":["-0.0","0.0"]}`
	runBinRows(t, []binRow{
		{"x86 maxps returns the second operand (oracle-00178)", "pytorch/cpu", "maximum", zeros,
			`{"value":{"dtype":"f16","shape":[2],"data":["-0.0","0.0"]}}`, ""},
		{"CUDA orders -0 < +0 (oracle-00178)", "pytorch/cuda", "maximum", zeros,
			`{"value":{"dtype":"f16","shape":[2],"data":["0.0","0.0"]}}`, ""},
		{"NumPy's f16 loop keeps the first operand (oracle-00178)", "numpy", "maximum", zeros,
			`{"value":{"dtype":"f16","shape":[2],"data":["0.0","-0.0"]}}`, ""},
		{"JAX minimum orders -0 < +0", "jax/cpu-x64", "minimum", zeros,
			`{"value":{"dtype":"f16","shape":[2],"data":["-0.0","-0.0"]}}`, ""},
		{"MPS ties are unspecified", "pytorch/mps", "maximum", zeros,
			`{"value":{"dtype":"f16","shape":[2],"data":["?","?"]}}`, ""},
	})
}

func TestPyBinaryPow(t *testing.T) {
	u8Sqrt := `{"dtype":"u8","shape":[3,1],"data":[32,82,30]},{"scalar":"0.5","kind":"float"}`
	runBinRows(t, []binRow{
		{"negative exponents give 0 or ±1 (oracle2-00170)", "pytorch/cpu", "pow", powNegInt,
			`{"value":{"dtype":"i64","shape":[3,1],"data":[1,0,0]}}`, ""},
		{"NumPy refuses negative integer exponents (oracle2-00170)", "numpy", "pow", powNegInt, valueErr, "negative integer powers"},
		{"JAX uses the low 6 exponent bits (oracle2-00170)", "jax/gpu-x64", "pow", powNegInt,
			`{"value":{"dtype":"i64","shape":[3,1],"data":[1,-2898552624600762295,-8165106457226027331]}}`, ""},
		{"bool ** bool has no kernel (oracle2-00665)", "pytorch/cuda", "pow",
			`{"dtype":"bool","shape":[],"data":[false]},{"dtype":"bool","shape":[],"data":[true]}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"pow_cuda" not implemented for 'Bool'`},
		{"NumPy computes bool ** bool in int8 (oracle2-00665)", "numpy", "pow",
			`{"dtype":"bool","shape":[],"data":[false]},{"dtype":"bool","shape":[],"data":[true]}`,
			`{"value":{"dtype":"i8","shape":[],"data":[0]}}`, ""},
		{"JAX computes bool ** bool in int32 (oracle2-00665)", "jax/cpu-x64", "pow",
			`{"dtype":"bool","shape":[],"data":[false]},{"dtype":"bool","shape":[],"data":[true]}`,
			`{"value":{"dtype":"i32","shape":[],"data":[0]}}`, ""},
		{"u64 ** True copies without a kernel (oracle2-00771)", "pytorch/cpu", "pow",
			`{"dtype":"u64","shape":[2],"data":[9007199254740993,1]},{"scalar":"true","kind":"bool"}`,
			`{"value":{"dtype":"u64","shape":[2],"data":[9007199254740993,1]}}`, ""},
		{"an int tensor ** a negative int is an error", "pytorch/cpu", "pow",
			`{"dtype":"i32","shape":[1],"data":[2]},{"scalar":"-1","kind":"int"}`, valueErr, "negative integer powers"},
		{"** 0.5 is sqrt in f32 (oracle2-00857)", "pytorch/cuda", "pow", u8Sqrt,
			`{"value":{"dtype":"f32","shape":[3,1],"data":["5.656854152679443","9.05538558959961","5.4772257804870605"]}}`, ""},
		{"XLA's GPU pow is only faithful (oracle2-00857)", "jax/gpu-x32", "pow", u8Sqrt,
			`{"value":{"dtype":"f32","shape":[3,1],"data":["?","?","?"]}}`, ""},
		{"x ** 3 is (x*x)*x in f32 (oracle2-01308)", "jax/cpu-x32", "pow",
			`{"dtype":"f64","shape":[],"data":["123.5247"]},{"scalar":"3","kind":"int"}`,
			`{"value":{"dtype":"f32","shape":[],"data":["1884783.125"]}}`, ""},
		{"JAX's integer_pow of a bool base is i32", "jax/cpu-x64", "pow",
			`{"dtype":"bool","shape":[2],"data":[false,true]},{"scalar":"2","kind":"int"}`,
			`{"value":{"dtype":"i32","shape":[2],"data":[0,1]}}`, ""},
		{"-0.0 ** 0.5 is sqrt(-0.0) = -0.0 in NumPy", "numpy", "pow",
			`{"dtype":"f64","shape":[1],"data":["-0.0"]},{"scalar":"0.5","kind":"float"}`,
			`{"value":{"dtype":"f64","shape":[1],"data":["-0.0"]}}`, ""},
		{"-0.0 ** 0.5 is pow's +0.0 in JAX", "jax/cpu-x64", "pow",
			`{"dtype":"f64","shape":[1],"data":["-0.0"]},{"scalar":"0.5","kind":"float"}`,
			`{"value":{"dtype":"f64","shape":[1],"data":["0.0"]}}`, ""},
	})
}

func TestPyBinaryShapes(t *testing.T) {
	col := `{"dtype":"i32","shape":[2,1],"data":[1,2]},{"dtype":"i32","shape":[3],"data":[10,20,30]}`
	runBinRows(t, []binRow{
		// The oracle records a ShapeMismatch for pytorch (oracle-01305): a
		// runner artifact; real PyTorch broadcasts like NumPy and JAX.
		{"[2,1] + [3] broadcasts to [2,3] (oracle-01305)", "pytorch/cpu", "add", col,
			`{"value":{"dtype":"i32","shape":[2,3],"data":[11,21,31,12,22,32]}}`, ""},
		{"[2,1] + [3] broadcasts to [2,3] (oracle-01305)", "numpy", "add", col,
			`{"value":{"dtype":"i32","shape":[2,3],"data":[11,21,31,12,22,32]}}`, ""},
		{"[2] + [3] does not broadcast (oracle-01306)", "pytorch/cuda", "add",
			`{"dtype":"i32","shape":[2],"data":[1,2]},{"dtype":"i32","shape":[3],"data":[10,20,30]}`,
			`{"error":{"class":"ShapeMismatch","message":""}}`, "size of tensor a (2) must match the size of tensor b (3)"},
	})
}

func TestPowCandidates(t *testing.T) {
	tests := []struct {
		name   string
		x, y   float64
		d      tensor.DType
		rn     float64
		exact  bool
		source string
	}{
		{"sqrt(82) in f32", 82, 0.5, tensor.F32, 9.05538558959961, false, "oracle2-00857 pytorch"},
		{"a large power in f64", 3056163783070999784, 2.5, tensor.F64, 1.6328322220012906e+46, false, "oracle2-00029 jax/cpu-x64"},
		{"another large power", 134116932, 2.5, tensor.F64, 2.083094754697925e+20, false, "oracle2-00886 jax/cpu-x64"},
		{"an underflowing power", 0.3, 168, tensor.F64, 1.433411197966772e-88, false, "oracle2-00369 numpy"},
		{"an exact power", 16777216, 2.5, tensor.F64, 1.152921504606847e+18, true, "oracle2-00029 (2^60)"},
		{"an exact negative power", 2, -3, tensor.F32, 0.125, true, "C99"},
		{"a negative base and an odd power", -2, 3, tensor.F64, -8, true, "C99"},
		{"a negative base and a non-integer power", -8, 1.0 / 3, tensor.F64, math.NaN(), true, "C99 (oracle2-00223)"},
		{"zero to a negative odd power", math.Copysign(0, -1), -7, tensor.F32, math.Inf(-1), true, "C99 (oracle2-00223)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rn, other := powCandidates(tt.x, tt.y, tt.d)
			if !binSameFloat(rn, tt.rn) {
				t.Errorf("rn = %v, want %v (%s)", rn, tt.rn, tt.source)
			}
			if exact := binSameFloat(rn, other); exact != tt.exact {
				t.Errorf("other = %v: exact = %v, want %v", other, exact, tt.exact)
			}
		})
	}
}

func TestApproxDivF32(t *testing.T) {
	tests := []struct {
		name   string
		x, y   float64
		d      tensor.DType
		v      float64
		unspec bool
	}{
		{"30/255: the two faithful reciprocals differ (oracle2-00388)", 30, 255, tensor.F32, 0.11764706671237946, true},
		{"6/3 in f32: 6 * rd(1/3) is 1.9999999", 6, 3, tensor.F32, 2, true},
		{"6/3 in f16: either reciprocal rounds to 2", 6, 3, tensor.F16, 2, false},
		{"a power-of-two divisor is exact", 0.5, 256, tensor.F32, 0.001953125, false},
		{"x/0 is IEEE", -1, 0, tensor.F32, math.Inf(-1), false},
	}
	for _, tt := range tests {
		v, unspec := approxDivF32(tt.x, tt.y, tt.d)
		if !binSameFloat(v, tt.v) || unspec != tt.unspec {
			t.Errorf("%s: got %v (unspecified %v), want %v (%v)", tt.name, v, unspec, tt.v, tt.unspec)
		}
	}
}

func TestIntegerKernels(t *testing.T) {
	minI64 := uint64(1) << 63
	tests := []struct {
		name      string
		got, want uint64
		evidence  string
	}{
		{"CUDA 7 / 0 in i64: 32-bit fast path", cudaDivByZero(7, tensor.I64), 4294967295, "oracle-00145"},
		{"CUDA MIN / 0 in i64: 64-bit routine", cudaDivByZero(minI64, tensor.I64), math.MaxUint64, "oracle-00145"},
		{"CUDA 7 / 0 in u8", cudaDivByZero(7, tensor.U8), 255, "oracle-00040"},
		{"XLA 7 / 0 in u16 is MAX", xlaDiv(7, 0, tensor.U16), 65535, "oracle-00082"},
		{"jnp.floor_divide(0, 0) is -1", jaxFloorDiv(0, 0, tensor.I8), allOnes(tensor.I8), "oracle-00016"},
		{"jnp.remainder(x, 0) is 0", jaxRemainder(7, 0, tensor.I32), 0, "oracle-00020"},
		{"JAX (-7) ** -1 = (-7) ** 63 wrapped", jaxIntPow(uint64(math.MaxUint64-6), math.MaxUint64, tensor.I64),
			0xD7C645BEBFE53849, "oracle2-00170 (-2898552624600762295)"},
		{"integer_pow 3 ** 2^64+1 wraps in u8", intPowBig(3, new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1)), tensor.U8), 3,
			"3^(2^64) = 1 mod 256 (3 has order 64 mod 256)"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d (%s)", tt.name, tt.got, tt.want, tt.evidence)
		}
	}
}

// TestTorchFunctionsNeedTensors: ops PyTorch spells as functions reject a
// Python number where the function has no Scalar overload.
func TestTorchFunctionsNeedTensors(t *testing.T) {
	ten := `{"dtype": "f32", "shape": [1], "data": ["3.0"]}`
	num := `{"scalar": "2.0", "kind": "float"}`
	tests := []struct {
		name, op, args string
		wantError      bool
	}{
		{"fmod scalar first", "fmod", num + ", " + ten, true},
		{"fmod scalar second has an overload", "fmod", ten + ", " + num, false},
		{"trunc_div scalar first", "trunc_div", num + ", " + ten, true},
		{"trunc_div scalar second has an overload", "trunc_div", ten + ", " + num, false},
		{"maximum takes no number", "maximum", ten + ", " + num, true},
		{"rem is an operator: 2.0 % t works", "rem", num + ", " + ten, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tensor.DecodeCase([]byte(`{"op": "` + tt.op + `", "args": [` + tt.args + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			got := Eval("pytorch/cpu", c)
			if isErr := got.Form == tensor.FormError; isErr != tt.wantError {
				t.Errorf("got %s, want an error: %v", got, tt.wantError)
			}
		})
	}
}
