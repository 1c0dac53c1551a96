package model

import (
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

func uicLiteral(text string) string { return `{"literal":"` + text + `"}` }

func TestPyFromLiteral(t *testing.T) {
	uicCheck(t, []uicRow{
		{"PyTorch float literal is f32 (oracle-01140)", "pytorch/cpu", "from_literal", "", uicLiteral("[1.0, 2.0]"),
			`{"value":{"dtype":"f32","shape":[2],"data":["1.0","2.0"]}}`, ""},
		{"NumPy float literal is f64 (oracle-01140)", "numpy", "from_literal", "", uicLiteral("[1.0, 2.0]"),
			`{"value":{"dtype":"f64","shape":[2],"data":["1.0","2.0"]}}`, ""},
		{"JAX x32 int literal is i32 (oracle-01141)", "jax/gpu-x32", "from_literal", "", uicLiteral("[1, 2]"),
			`{"value":{"dtype":"i32","shape":[2],"data":[1,2]}}`, ""},
		{"bools are bool (oracle-01142)", "jax/cpu-x64", "from_literal", "", uicLiteral("[true, false]"),
			`{"value":{"dtype":"bool","shape":[2],"data":[true,false]}}`, ""},
		{"one float makes the list float (oracle-01143)", "jax/cpu-x64", "from_literal", "", uicLiteral("[1, 2.0]"),
			`{"value":{"dtype":"f64","shape":[2],"data":["1.0","2.0"]}}`, ""},
		{"a bare number is 0-dim (oracle-01144)", "pytorch/cuda", "from_literal", "", uicLiteral("3.5"),
			`{"value":{"dtype":"f32","shape":[],"data":["3.5"]}}`, ""},
		{"a bare int is 0-dim (oracle-01145)", "numpy", "from_literal", "", uicLiteral("3"),
			`{"value":{"dtype":"i64","shape":[],"data":[3]}}`, ""},
		{"JAX x32 refuses ints beyond int32 (oracle-01146)", "jax/cpu-x32", "from_literal", "", uicLiteral("[1099511627776]"),
			`{"error":{"class":"OutOfRange","message":""}}`, "out of bounds for int32"},
		{"i64 max fits elsewhere (oracle-01147)", "pytorch/cpu", "from_literal", "", uicLiteral("[9223372036854775807]"),
			`{"value":{"dtype":"i64","shape":[1],"data":[9223372036854775807]}}`, ""},
		{"PyTorch refuses ints beyond int64 (predicted)", "pytorch/cpu", "from_literal", "", uicLiteral("[9223372036854775808]"),
			`{"error":{"class":"OutOfRange","message":""}}`, "Overflow when unpacking long"},
		{"NumPy makes u64 of an int beyond int64 (predicted)", "numpy", "from_literal", "", uicLiteral("[9223372036854775808, true]"),
			`{"value":{"dtype":"u64","shape":[2],"data":[9223372036854775808,1]}}`, ""},
		{"nested lists give their shape; f32 rounds 0.1", "pytorch/mps", "from_literal", "", uicLiteral("[[0.1], [-0.0]]"),
			`{"value":{"dtype":"f32","shape":[2,1],"data":["0.10000000149011612","-0.0"]}}`, ""},
		{"bools among ints are 0/1 ints (predicted)", "jax/cpu-x32", "from_literal", "", uicLiteral("[true, 2]"),
			`{"value":{"dtype":"i32","shape":[2],"data":[1,2]}}`, ""},
		{"an empty list is float", "pytorch/cpu", "from_literal", "", uicLiteral("[]"),
			`{"value":{"dtype":"f32","shape":[0],"data":[]}}`, ""},
		{"ragged nesting is an error", "numpy", "from_literal", "", uicLiteral("[[1, 2], [3]]"),
			`{"error":{"class":"ShapeMismatch","message":""}}`, ""},
	})
}

func TestPyArange(t *testing.T) {
	uicCheck(t, []uicRow{
		{"int arange is the default int (oracle-01148)", "jax/cpu-x32", "arange", "", `{"start":"0","end":"3"}`,
			`{"value":{"dtype":"i32","shape":[3],"data":[0,1,2]}}`, ""},
		{"float arange is the default float (oracle-01149)", "numpy", "arange", "", `{"start":"0.0","end":"3.0"}`,
			`{"value":{"dtype":"f64","shape":[3],"data":["0.0","1.0","2.0"]}}`, ""},
		{"ceil(end - start) elements", "pytorch/cpu", "arange", "", `{"start":"0.5","end":"3"}`,
			`{"value":{"dtype":"f32","shape":[3],"data":["0.5","1.5","2.5"]}}`, ""},
		{"PyTorch refuses end < start (source)", "pytorch/cuda", "arange", "", `{"start":"3","end":"0"}`,
			`{"error":{"class":"Other","message":""}}`, ""},
		{"NumPy gives an empty array for end < start", "numpy", "arange", "", `{"start":"3","end":"0"}`,
			`{"value":{"dtype":"i64","shape":[0],"data":[]}}`, ""},
		{"PyTorch CPU: -0.0 + 0 is +0", "pytorch/cpu", "arange", "", `{"start":"-0.0","end":"1"}`,
			`{"value":{"dtype":"f32","shape":[1],"data":["0.0"]}}`, ""},
		{"NumPy keeps start as given", "numpy", "arange", "", `{"start":"-0.0","end":"1"}`,
			`{"value":{"dtype":"f64","shape":[1],"data":["-0.0"]}}`, ""},
	})
}

// zeros is not dispatched to pyCreate by evalPython yet, so the rule is
// checked directly.
func TestPyZeros(t *testing.T) {
	for _, tt := range []struct {
		profile, attrs string
		want           tensor.DType
		warns          bool
	}{
		{"pytorch/cpu", `{"shape":[2]}`, tensor.F32, false},
		{"numpy", `{"shape":[2]}`, tensor.F64, false},
		{"jax/cpu-x32", `{"shape":[2,0],"dtype":"i64"}`, tensor.I32, true},
		{"jax/gpu-x64", `{"shape":[],"dtype":"u64"}`, tensor.U64, false},
	} {
		c, err := tensor.DecodeCase([]byte(`{"op":"zeros","args":[],"attrs":` + tt.attrs + `}`))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := Lookup(tt.profile)
		e := &evaluation{p: p, c: c}
		got := e.pyCreate()
		if got.Form != tensor.FormValue || got.Value.DType != tt.want || !sameShape(got.Value.Shape, c.Attrs.Shape) {
			t.Errorf("%s zeros %s: got %s, want dtype %s", tt.profile, tt.attrs, got, tt.want)
			continue
		}
		for i := 0; i < got.Value.Len(); i++ {
			if got.Value.Bits(i) != 0 {
				t.Errorf("%s zeros: element %d is not zero", tt.profile, i)
			}
		}
		if (len(e.warnings) > 0) != tt.warns {
			t.Errorf("%s zeros %s: warnings %q", tt.profile, tt.attrs, e.warnings)
		}
	}
}
