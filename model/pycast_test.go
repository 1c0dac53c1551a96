package model

import (
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// Profile-level cast rows. Expected outcomes are the oracle's (ids given),
// the seeds', or casts.md's; "?" in an expectation must be "?" in the model
// too, and every "?" of the model must be expected.
func TestPyCast(t *testing.T) {
	tests := []struct {
		name    string
		profile string
		arg     string // the input tensor, in case format
		to      string
		want    string // the outcome, in case format
		warning string // a substring of some warning ("" = none expected)
	}{
		{"x86 u8 through i64 (oracle-00864[14])", "pytorch/cpu",
			`{"dtype":"f64","shape":[2],"data":["-2147483649.0","300.0"]}`, "u8",
			`{"value":{"dtype":"u8","shape":[2],"data":[255,44]}}`, ""},
		{"NumPy u8 through i32 (oracle-00864[14])", "numpy",
			`{"dtype":"f64","shape":[2],"data":["-2147483649.0","300.0"]}`, "u8",
			`{"value":{"dtype":"u8","shape":[2],"data":[0,44]}}`, "invalid value encountered in cast"},
		{"NumPy: no warning inside the 32-bit range (oracle2-00046)", "numpy",
			`{"dtype":"f32","shape":[3,1],"data":["-1745.117","-1.7","0.7143"]}`, "i8",
			`{"value":{"dtype":"i8","shape":[3,1],"data":[47,-1,0]}}`, ""},
		{"JAX saturates (oracle2-00046)", "jax/gpu-x64",
			`{"dtype":"f32","shape":[3,1],"data":["-1745.117","-1.7","0.7143"]}`, "i8",
			`{"value":{"dtype":"i8","shape":[3,1],"data":[-128,-1,0]}}`, ""},
		{"CUDA u8 through i64: f32 9.3e18 saturates to 2^63-1 (oracle-00851)", "pytorch/cuda",
			`{"dtype":"f32","shape":[3],"data":["9.3e+18","-1.7","nan"]}`, "u8",
			`{"value":{"dtype":"u8","shape":[3],"data":[255,255,0]}}`, ""},
		{"x86 u32: vector body split32, tail unspecified where it differs", "pytorch/cpu",
			`{"dtype":"f32","shape":[5],"data":["nan","-inf","inf","-2.7","nan"]}`, "u32",
			`{"value":{"dtype":"u32","shape":[5],"data":[2147483648,2147483648,0,4294967294,"?"]}}`, ""},
		{"x86 u32 from f16 is scalar (oracle-00881)", "numpy",
			`{"dtype":"f16","shape":[5],"data":["nan","-inf","inf","-2.7","65504.0"]}`, "u32",
			`{"value":{"dtype":"u32","shape":[5],"data":[0,0,0,4294967294,65504]}}`, "invalid value"},
		{"x86 u32 bf16 blocks of 8 (oracle-00894)", "numpy",
			`{"dtype":"bf16","shape":[9],"data":["nan","nan","nan","nan","nan","nan","nan","nan","nan"]}`, "u32",
			`{"value":{"dtype":"u32","shape":[9],"data":[2147483648,2147483648,2147483648,2147483648,2147483648,2147483648,2147483648,2147483648,"?"]}}`, "invalid value"},
		{"JAX x32 narrows the target with a warning (oracle-00856)", "jax/cpu-x32",
			`{"dtype":"f32","shape":[3],"data":["1e+20","nan","-2.7"]}`, "i64",
			`{"value":{"dtype":"i32","shape":[3],"data":[2147483647,0,-2]}}`, "Explicitly requested dtype int64 requested in astype is not available"},
		{"JAX x32 warns on empty tensors too (oracle2-00526)", "jax/gpu-x32",
			`{"dtype":"f32","shape":[0],"data":[]}`, "f64",
			`{"value":{"dtype":"f32","shape":[0],"data":[]}}`, "truncated to dtype float32"},
		{"JAX x32 narrows i64 inputs first (oracle2-00864)", "jax/cpu-x32",
			`{"dtype":"i64","shape":[2],"data":[2147483648,4294967301]}`, "f32",
			`{"value":{"dtype":"f32","shape":[2],"data":["-2147483648.0","5.0"]}}`, ""},
		{"JAX x32 wraps i64 MIN to 0, false (oracle-00901)", "jax/cpu-x32",
			`{"dtype":"i64","shape":[1],"data":[-9223372036854775808]}`, "bool",
			`{"value":{"dtype":"bool","shape":[1],"data":[false]}}`, ""},
		{"int -> int wraps (oracle-00911)", "pytorch/cpu",
			`{"dtype":"i64","shape":[2],"data":[4294967301,-129]}`, "i8",
			`{"value":{"dtype":"i8","shape":[2],"data":[5,127]}}`, ""},
		{"to bool: NaN true, -0 false (oracle-00875)", "numpy",
			`{"dtype":"f16","shape":[3],"data":["nan","-0.0","5.960464477539063e-08"]}`, "bool",
			`{"value":{"dtype":"bool","shape":[3],"data":[true,false,true]}}`, ""},
		{"u64 -> f16 overflows with a NumPy warning (oracle-00930)", "numpy",
			`{"dtype":"u64","shape":[3],"data":[1,9223372036854775808,9007199254740993]}`, "f16",
			`{"value":{"dtype":"f16","shape":[3],"data":["1.0","inf","inf"]}}`, "overflow encountered in cast"},
		{"f32 -> f16 underflow warning (oracle-00938)", "numpy",
			`{"dtype":"f32","shape":[2],"data":["1e-08","65520.0"]}`, "f16",
			`{"value":{"dtype":"f16","shape":[2],"data":["0.0","inf"]}}`, "underflow encountered in cast"},
		{"PyTorch f64 -> f16 rounds twice (casts.md §6)", "pytorch/cuda",
			`{"dtype":"f64","shape":[1],"data":["0x1.00200001p+0"]}`, "f16",
			`{"value":{"dtype":"f16","shape":[1],"data":["1.0"]}}`, ""},
		{"NumPy f64 -> f16 rounds once (casts.md §6)", "numpy",
			`{"dtype":"f64","shape":[1],"data":["0x1.00200001p+0"]}`, "f16",
			`{"value":{"dtype":"f16","shape":[1],"data":["1.0009765625"]}}`, ""},
		{"JAX x64 f64 -> f16 path unpinned (casts.md §6)", "jax/cpu-x64",
			`{"dtype":"f64","shape":[2],"data":["0x1.00200001p+0","0.5"]}`, "f16",
			`{"value":{"dtype":"f16","shape":[2],"data":["?","0.5"]}}`, ""},
		{"JAX x32 f64 input is f32 already: double rounding", "jax/gpu-x32",
			`{"dtype":"f64","shape":[1],"data":["0x1.00200001p+0"]}`, "f16",
			`{"value":{"dtype":"f16","shape":[1],"data":["1.0"]}}`, ""},
		{"JAX wide int -> bf16 path unpinned", "jax/gpu-x64",
			`{"dtype":"i64","shape":[2],"data":[16842753,16777217]}`, "bf16",
			`{"value":{"dtype":"bf16","shape":[2],"data":["?","16777216.0"]}}`, ""},
		{"PyTorch int -> bf16 through f32", "pytorch/cpu",
			`{"dtype":"i64","shape":[1],"data":[16842753]}`, "bf16",
			`{"value":{"dtype":"bf16","shape":[1],"data":["16777216.0"]}}`, ""},
		{"seed 003 M2 Max: f32 -> i64", "pytorch/cpu-arm64",
			`{"dtype":"f32","shape":[8],"data":["-1.7","-0.5","0.5","1.7","2.5","300.0","nan","inf"]}`, "i64",
			`{"value":{"dtype":"i64","shape":[8],"data":[-1,0,0,1,2,300,0,9223372036854775807]}}`, ""},
		{"seed 003 M2 Max: f32 -> u32", "pytorch/cpu-arm64",
			`{"dtype":"f32","shape":[8],"data":["-1.7","-0.5","0.5","1.7","2.5","300.0","nan","inf"]}`, "u32",
			`{"value":{"dtype":"u32","shape":[8],"data":[0,0,0,1,2,300,0,4294967295]}}`, ""},
		{"seed 003 M2 Max: f32 -> u8", "pytorch/cpu-arm64",
			`{"dtype":"f32","shape":[8],"data":["-1.7","-0.5","0.5","1.7","2.5","300.0","nan","inf"]}`, "u8",
			`{"value":{"dtype":"u8","shape":[8],"data":[255,0,0,1,2,44,0,255]}}`, ""},
		{"seed 003 M2 Max: i64 -> u8 and f32", "pytorch/cpu-arm64",
			`{"dtype":"i64","shape":[2],"data":[16777217,-1]}`, "f32",
			`{"value":{"dtype":"f32","shape":[2],"data":["16777216.0","-1.0"]}}`, ""},
		{"Arm64 f64 -> i32 beyond 32 bits is unpinned", "pytorch/cpu-arm64",
			`{"dtype":"f64","shape":[2],"data":["1e+10","-7.5"]}`, "i32",
			`{"value":{"dtype":"i32","shape":[2],"data":["?",-7]}}`, ""},
		{"MPS has no f64 target", "pytorch/mps",
			`{"dtype":"f32","shape":[1],"data":["1.0"]}`, "f64",
			`{"error":{"class":"UnsupportedDType","message":""}}`, ""},
		{"MPS has no f64 source", "pytorch/mps",
			`{"dtype":"f64","shape":[1],"data":["1.0"]}`, "f32",
			`{"error":{"class":"UnsupportedDType","message":""}}`, ""},
		{"MPS follows CUDA (assumed)", "pytorch/mps",
			`{"dtype":"f32","shape":[3],"data":["1e+20","nan","300.0"]}`, "i8",
			`{"value":{"dtype":"i8","shape":[3],"data":[-1,0,44]}}`, ""},
		{"complex -> int takes the real part (casts.md §7)", "pytorch/cpu",
			`{"dtype":"c64","shape":[1],"data":[["2.7","1.0"]]}`, "i32",
			`{"value":{"dtype":"i32","shape":[1],"data":[2]}}`, "discards the imaginary part"},
		{"complex -> bool tests both parts", "jax/cpu-x64",
			`{"dtype":"c128","shape":[2],"data":[["0.0","1.0"],["-0.0","0.0"]]}`, "bool",
			`{"value":{"dtype":"bool","shape":[2],"data":[true,false]}}`, ""},
		{"c128 -> c64 rounds each part", "numpy",
			`{"dtype":"c128","shape":[1],"data":[["0.1","1e+300"]]}`, "c64",
			`{"value":{"dtype":"c64","shape":[1],"data":[["0.10000000149011612","inf"]]}}`, "overflow"},
		{"real -> complex is (x, +0)", "pytorch/cuda",
			`{"dtype":"i8","shape":[1],"data":[-3]}`, "c128",
			`{"value":{"dtype":"c128","shape":[1],"data":[["-3.0","0.0"]]}}`, ""},
		{"bool -> bf16 (oracle-00933)", "numpy",
			`{"dtype":"bool","shape":[2],"data":[true,false]}`, "bf16",
			`{"value":{"dtype":"bf16","shape":[2],"data":["1.0","0.0"]}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tensor.DecodeCase([]byte(`{"id":"t","op":"cast","args":[` + tt.arg + `],"attrs":{"to":"` + tt.to + `"}}`))
			if err != nil {
				t.Fatal(err)
			}
			want, err := tensor.DecodeOutcome([]byte(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			got := Eval(tt.profile, c)
			if cmp := tensor.Compare(want, got, 0); !cmp.Match() {
				t.Fatalf("got %s, want %s: %s", got, want, cmp.Detail)
			}
			checkUnspecifiedAgree(t, want, got)
			checkWarning(t, got.Warnings, tt.warning)
		})
	}
}

func TestPyCastConvertModeUnsupported(t *testing.T) {
	c, err := tensor.DecodeCase([]byte(`{"id":"t","op":"cast","args":[{"dtype":"f32","shape":[1],"data":["1.0"]}],"attrs":{"to":"f64","mode":"convert"}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"pytorch/cpu", "numpy", "jax/cpu-x64"} {
		if got := Eval(p, c); got.Form != tensor.FormUnsupported {
			t.Errorf("%s: %s, want unsupported", p, got)
		}
	}
}

// TestPyCastParallelTail: a PyTorch CPU loop longer than one grain may be
// split across threads, so no u32 element is known to be in a vector body.
func TestPyCastParallelTail(t *testing.T) {
	src := tensor.New(tensor.F32, torchParallelGrain+1)
	for i := 0; i < src.Len(); i++ {
		src.SetFloat(i, cvNaN)
	}
	c := &tensor.Case{ID: "t", Op: "cast", Args: []tensor.Arg{{Tensor: src}}, Attrs: tensor.Attrs{To: tensor.U32}}
	got := Eval("pytorch/cpu", c)
	if got.Form != tensor.FormValue || !got.Value.IsUnspecified(0) {
		t.Fatalf("pytorch/cpu: element 0 of a parallel loop should be unspecified: %s", got)
	}
	if got := Eval("numpy", c); got.Value.IsUnspecified(0) || got.Value.Uint(0) != 1<<31 {
		t.Errorf("numpy: element 0 should be in the vector body: %s", got)
	}
}

func checkUnspecifiedAgree(t *testing.T, want, got tensor.Outcome) {
	t.Helper()
	if want.Form != tensor.FormValue {
		return
	}
	for i := 0; i < want.Value.Len(); i++ {
		if want.Value.IsUnspecified(i) != got.Value.IsUnspecified(i) {
			t.Errorf("element %d: want unspecified=%v, got %v", i, want.Value.IsUnspecified(i), got.Value.IsUnspecified(i))
		}
	}
}

func checkWarning(t *testing.T, warnings []string, want string) {
	t.Helper()
	if want == "" {
		if len(warnings) > 0 {
			t.Errorf("unexpected warnings %q", warnings)
		}
		return
	}
	for _, w := range warnings {
		if strings.Contains(w, want) {
			return
		}
	}
	t.Errorf("no warning containing %q in %q", want, warnings)
}
