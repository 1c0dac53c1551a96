package model

import (
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// uicRow is one table row of the unary, index and creation tests: a case and
// the outcome a profile must give, in case format. A "?" in want must be "?"
// in the model's outcome too, and every "?" of the model must be wanted.
type uicRow struct {
	name    string
	profile string
	op      string
	args    string // the args array's items, in case format
	attrs   string // the attrs object ("" = none)
	want    string
	msg     string // a substring the error message must contain ("" = not checked)
}

// uicCheck runs the rows.
func uicCheck(t *testing.T, rows []uicRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			attrs := r.attrs
			if attrs == "" {
				attrs = "{}"
			}
			c, err := tensor.DecodeCase([]byte(`{"id":"t","op":"` + r.op + `","args":[` + r.args + `],"attrs":` + attrs + `}`))
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
	uicI8Grid  = `{"dtype":"i8","shape":[10],"data":[-128,127,0,1,2,7,5,-1,-7,-2]}`
	uicI64Grid = `{"dtype":"i64","shape":[12],"data":[-9223372036854775808,9223372036854775807,0,1,2,7,5,-1,-7,-2,16777217,9007199254740993]}`
	uicF16Grid = `{"dtype":"f16","shape":[9],"data":["-2.5","-0.5","0.5","1.5","2.5","-0.0","nan","inf","-4.0"]}`
	uicF64Grid = `{"dtype":"f64","shape":[9],"data":["-2.5","-0.5","0.5","1.5","2.5","-0.0","nan","inf","-4.0"]}`
	uicBool3   = `{"dtype":"bool","shape":[3],"data":[false,true,true]}`
)

func TestPyUnaryIntegers(t *testing.T) {
	uicCheck(t, []uicRow{
		{"x32 narrows i64 before neg (oracle-01082)", "jax/cpu-x32", "neg", uicI64Grid, "",
			`{"value":{"dtype":"i32","shape":[12],"data":[0,1,0,-1,-2,-7,-5,1,7,2,-16777217,-1]}}`, ""},
		{"neg(MIN) = MIN in i64 (oracle-01082)", "numpy", "neg", uicI64Grid, "",
			`{"value":{"dtype":"i64","shape":[12],"data":[-9223372036854775808,-9223372036854775807,0,-1,-2,-7,-5,1,7,2,-16777217,-9007199254740993]}}`, ""},
		{"abs(MIN) wraps to MIN (oracle-01041)", "numpy", "abs", uicI8Grid, "",
			`{"value":{"dtype":"i8","shape":[10],"data":[-128,127,0,1,2,7,5,1,7,2]}}`, ""},
		{"u8 neg wraps (oracle-01047)", "pytorch/cuda", "neg", `{"dtype":"u8","shape":[4],"data":[0,255,1,200]}`, "",
			`{"value":{"dtype":"u8","shape":[4],"data":[0,1,255,56]}}`, ""},
		{"i8 square wraps (oracle-01046)", "jax/gpu-x64", "square", uicI8Grid, "",
			`{"value":{"dtype":"i8","shape":[10],"data":[0,1,0,1,4,49,25,1,49,4]}}`, ""},
		{"PyTorch has no u16 abs kernel", "pytorch/cpu", "abs", `{"dtype":"u16","shape":[1],"data":[3]}`, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"abs_cpu" not implemented for 'UInt16'`},
		{"PyTorch square of u32 is pow (CUDA)", "pytorch/cuda", "square", `{"dtype":"u32","shape":[1],"data":[3]}`, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"pow_cuda" not implemented for 'UInt32'`},
		{"PyTorch floor of u64 is a copy", "pytorch/cpu", "floor", `{"dtype":"u64","shape":[1],"data":[18446744073709551615]}`, "",
			`{"value":{"dtype":"u64","shape":[1],"data":[18446744073709551615]}}`, ""},
		{"PyTorch has no float bitwise_not (oracle2-00348)", "pytorch/cpu", "bitwise_not", `{"dtype":"f16","shape":[1],"data":["-1.7"]}`, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"bitwise_not_cpu" not implemented for 'Half'`},
		{"JAX has no float bitwise_not (oracle2-00348)", "jax/cpu-x64", "bitwise_not", `{"dtype":"f16","shape":[1],"data":["-1.7"]}`, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, "not does not accept dtype float16"},
	})
}

func TestPyUnaryBool(t *testing.T) {
	uicCheck(t, []uicRow{
		{"PyTorch sign of bool is the bool (oracle2-00063)", "pytorch/cuda", "sign", uicBool3, "",
			`{"value":{"dtype":"bool","shape":[3],"data":[false,true,true]}}`, ""},
		{"NumPy has no sign(bool) loop (oracle2-00063)", "numpy", "sign", uicBool3, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, ""},
		{"JAX sign rejects bool (oracle2-00063)", "jax/gpu-x32", "sign", uicBool3, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, "sign does not accept dtype bool"},
		{"PyTorch trunc of bool has no kernel (oracle2-01126)", "pytorch/cuda", "trunc", uicBool3, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"trunc_cuda" not implemented for 'Bool'`},
		{"NumPy trunc of bool is the bool (oracle2-01126)", "numpy", "trunc", uicBool3, "",
			`{"value":{"dtype":"bool","shape":[3],"data":[false,true,true]}}`, ""},
		{"bitwise_not of bool is logical not", "jax/cpu-x32", "bitwise_not", uicBool3, "",
			`{"value":{"dtype":"bool","shape":[3],"data":[true,false,false]}}`, ""},
		{"PyTorch neg of bool refused (predicted)", "pytorch/cpu", "neg", uicBool3, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, "Negation"},
		{"PyTorch CPU has no bool abs kernel (predicted)", "pytorch/cpu", "abs", uicBool3, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, `"abs_cpu" not implemented for 'Bool'`},
		{"PyTorch CUDA abs of bool is the bool (predicted)", "pytorch/cuda", "abs", uicBool3, "",
			`{"value":{"dtype":"bool","shape":[3],"data":[false,true,true]}}`, ""},
		{"PyTorch square of bool is i64 (predicted)", "pytorch/cpu", "square", uicBool3, "",
			`{"value":{"dtype":"i64","shape":[3],"data":[0,1,1]}}`, ""},
		{"NumPy square of bool is i8 (predicted)", "numpy", "square", uicBool3, "",
			`{"value":{"dtype":"i8","shape":[3],"data":[0,1,1]}}`, ""},
		{"JAX square of bool is i32 even with x64 (predicted)", "jax/cpu-x64", "square", uicBool3, "",
			`{"value":{"dtype":"i32","shape":[3],"data":[0,1,1]}}`, ""},
		{"NumPy round of bool goes through rint: f16 (predicted)", "numpy", "round", uicBool3, "",
			`{"value":{"dtype":"f16","shape":[3],"data":["0.0","1.0","1.0"]}}`, ""},
		{"JAX round of bool reaches lax.round (predicted)", "jax/gpu-x64", "round", uicBool3, "",
			`{"error":{"class":"UnsupportedDType","message":""}}`, "round does not accept dtype bool"},
	})
}

func TestPyUnaryFloats(t *testing.T) {
	uicCheck(t, []uicRow{
		{"round is half to even and keeps -0 (oracle-01103)", "numpy", "round", uicF16Grid, "",
			`{"value":{"dtype":"f16","shape":[9],"data":["-2.0","-0.0","0.0","2.0","2.0","-0.0","nan","inf","-4.0"]}}`, ""},
		{"trunc keeps the sign of zero, x32 narrows f64 (oracle-01125)", "jax/gpu-x32", "trunc", uicF64Grid, "",
			`{"value":{"dtype":"f32","shape":[9],"data":["-2.0","-0.0","0.0","1.0","2.0","-0.0","nan","inf","-4.0"]}}`, ""},
		{"floor(-0.5) = -1, floor(-0) = -0 (oracle-01102)", "pytorch/cpu", "floor", uicF16Grid, "",
			`{"value":{"dtype":"f16","shape":[9],"data":["-3.0","-1.0","0.0","1.0","2.0","-0.0","nan","inf","-4.0"]}}`, ""},
		{"PyTorch sign: NaN -> 0, -0 -> +0 (oracle-01098)", "pytorch/cuda", "sign", uicF16Grid, "",
			`{"value":{"dtype":"f16","shape":[9],"data":["-1.0","-1.0","1.0","1.0","1.0","0.0","0.0","1.0","-1.0"]}}`, ""},
		{"NumPy sign: NaN stays, -0 -> +0 (oracle-01098)", "numpy", "sign", uicF16Grid, "",
			`{"value":{"dtype":"f16","shape":[9],"data":["-1.0","-1.0","1.0","1.0","1.0","0.0","nan","1.0","-1.0"]}}`, ""},
		{"NumPy bf16 sign keeps -0 (oracle-01106)", "numpy", "sign", `{"dtype":"bf16","shape":[2],"data":["-0.0","nan"]}`, "",
			`{"value":{"dtype":"bf16","shape":[2],"data":["-0.0","nan"]}}`, ""},
		{"JAX sign keeps -0 (oracle-01098)", "jax/cpu-x32", "sign", uicF16Grid, "",
			`{"value":{"dtype":"f16","shape":[9],"data":["-1.0","-1.0","1.0","1.0","1.0","-0.0","nan","1.0","-1.0"]}}`, ""},
		{"square(-0) = +0, rounded once", "jax/cpu-x64", "square", `{"dtype":"f32","shape":[2],"data":["-0.0","1.1"]}`, "",
			`{"value":{"dtype":"f32","shape":[2],"data":["0.0","1.2100000381469727"]}}`, ""},
		{"neg flips the sign bit of -0 (oracle-01096)", "pytorch/cpu", "neg", `{"dtype":"f32","shape":[2],"data":["-0.0","nan"]}`, "",
			`{"value":{"dtype":"f32","shape":[2],"data":["0.0","nan"]}}`, ""},
	})
}

func TestPyUnaryTranscendental(t *testing.T) {
	uicCheck(t, []uicRow{
		{"NumPy sqrt of i8 is f16 (oracle-01044)", "numpy", "sqrt", uicI8Grid, "",
			`{"value":{"dtype":"f16","shape":[10],"data":["nan","11.265625","0.0","1.0","1.4140625","2.646484375","2.236328125","nan","nan","nan"]}}`, ""},
		{"JAX GPU f32 sqrt is approximate (oracle-01044)", "jax/gpu-x32", "sqrt", uicI8Grid, "",
			`{"value":{"dtype":"f32","shape":[10],"data":["nan","?","0.0","?","?","?","?","nan","nan","nan"]}}`, ""},
		{"JAX CPU f32 sqrt is correctly rounded (oracle-01044)", "jax/cpu-x64", "sqrt", uicI8Grid, "",
			`{"value":{"dtype":"f32","shape":[10],"data":["nan","11.269427299499512","0.0","1.0","1.4142135381698608","2.6457512378692627","2.2360680103302","nan","nan","nan"]}}`, ""},
		{"PyTorch converts u64 to f32 before sqrt (oracle-01093)", "pytorch/cuda", "sqrt",
			`{"dtype":"u64","shape":[4],"data":[18446744073709551615,9223372036854775808,16777217,9007199254740993]}`, "",
			`{"value":{"dtype":"f32","shape":[4],"data":["4294967296.0","3037000448.0","4096.0","94906264.0"]}}`, ""},
		{"x32 wraps i64 before sqrt (oracle-01086)", "jax/cpu-x32", "sqrt", uicI64Grid, "",
			`{"value":{"dtype":"f32","shape":[12],"data":["0.0","nan","0.0","1.0","1.4142135381698608","2.6457512378692627","2.2360680103302","nan","nan","nan","4096.0","1.0"]}}`, ""},
		{"MKL f64 sqrt is not correctly rounded (oracle-01123)", "pytorch/cpu", "sqrt", uicF64Grid, "",
			`{"value":{"dtype":"f64","shape":[9],"data":["nan","nan","?","?","?","-0.0","nan","inf","nan"]}}`, ""},
		{"CUDA f64 sqrt is correctly rounded (oracle-01123)", "pytorch/cuda", "sqrt", uicF64Grid, "",
			`{"value":{"dtype":"f64","shape":[9],"data":["nan","nan","0.7071067811865476","1.224744871391589","1.5811388300841898","-0.0","nan","inf","nan"]}}`, ""},
		{"f32 exp: only settled values are stated (oracle-01045)", "pytorch/cpu", "exp", uicI8Grid, "",
			`{"value":{"dtype":"f32","shape":[10],"data":["0.0","inf","1.0","?","?","?","?","?","?","?"]}}`, ""},
		{"NumPy exp of i8 is f16, correctly rounded (oracle-01045)", "numpy", "exp", uicI8Grid, "",
			`{"value":{"dtype":"f16","shape":[10],"data":["0.0","inf","1.0","2.71875","7.390625","1097.0","148.375","0.367919921875","0.000911712646484375","0.1353759765625"]}}`, ""},
		{"JAX x64 exp of i32 is f32 (oracle2-00326)", "jax/gpu-x64", "exp",
			`{"dtype":"i32","shape":[4],"data":[-2124619127,-16777215,2,-2147483647]}`, "",
			`{"value":{"dtype":"f32","shape":[4],"data":["0.0","0.0","?","0.0"]}}`, ""},
		{"NumPy exp of u32 is f64 (oracle-01080)", "numpy", "exp",
			`{"dtype":"u32","shape":[4],"data":[0,4294967295,200,2147483648]}`, "",
			`{"value":{"dtype":"f64","shape":[4],"data":["1.0","inf","?","inf"]}}`, ""},
		{"f16 exp near a rounding boundary is unspecified (uic_dblround_scan.py)", "pytorch/cuda", "exp",
			`{"dtype":"f16","shape":[2],"data":["0.007297515869140625","1.0"]}`, "",
			`{"value":{"dtype":"f16","shape":[2],"data":["?","2.71875"]}}`, ""},
		{"MPS exp and sqrt precision is not stated", "pytorch/mps", "exp",
			`{"dtype":"f16","shape":[3],"data":["1.0","0.0","-inf"]}`, "",
			`{"value":{"dtype":"f16","shape":[3],"data":["?","1.0","0.0"]}}`, ""},
		{"Arm64 PyTorch f64 sqrt is fsqrt, correctly rounded", "pytorch/cpu-arm64", "sqrt",
			`{"dtype":"f64","shape":[1],"data":["0.5"]}`, "",
			`{"value":{"dtype":"f64","shape":[1],"data":["0.7071067811865476"]}}`, ""},
		{"exp of bool in NumPy is f16 (predicted)", "numpy", "exp", uicBool3, "",
			`{"value":{"dtype":"f16","shape":[3],"data":["1.0","2.71875","2.71875"]}}`, ""},
	})
}
