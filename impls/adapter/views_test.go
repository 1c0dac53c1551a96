package adapter

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/tensor"
)

// The planted adapter's handshake names no features: it reads case format 1
// only, so views and programs are declined, and sending one anyway is a
// harness failure, never a misread case.
func TestAdapterWithoutFeaturesGetsNoViewsOrPrograms(t *testing.T) {
	b := newPlanted(t, Config{})
	for _, text := range []string{
		"neg(view(i64[3] [1, 2, 3], slice=[0:3:2]))",
		"program(i64[1] [1]): neg(arg0); neg(step0)",
	} {
		c, err := tensor.ParseCase(text)
		if err != nil {
			t.Fatal(err)
		}
		if b.Supports("numpy", c) {
			t.Errorf("%s: supported by an adapter of case format 1", text)
		}
		if out := b.Eval("numpy", c); !out.HarnessFailure() || !strings.Contains(out.Message(), "does not read") {
			t.Errorf("%s: %s, want a harness failure saying the adapter does not read it", text, out)
		}
	}
	if st := b.Stats(); st.Cases != 0 {
		t.Errorf("%d cases were sent", st.Cases)
	}
}

// TestReferenceAdapterViewsAndPrograms runs views and programs through the
// reference adapter and NumPy: the view is built with NumPy's own view ops
// and the steps keep NumPy arrays, so the outcome is what the case says.
// The wants are NumPy's under 1.24 and 2.x alike (no scalar operands).
func TestReferenceAdapterViewsAndPrograms(t *testing.T) {
	if err := exec.Command(debianPython, "-c", "import numpy").Run(); err != nil {
		t.Skipf("%s cannot import numpy", debianPython)
	}
	b, err := New(Config{Command: "TFUZZ_ADAPTER_FRAMEWORKS=numpy " + debianPython + " python/tfuzz_adapter.py",
		Timeout: 20 * time.Second, StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !b.Handshake().Has(FeatureViews) || !b.Handshake().Has(FeaturePrograms) {
		t.Fatalf("the reference adapter's features: %v", b.Handshake().Features)
	}
	profile := "numpy"
	if !servesIn(b.Handshake(), profile) {
		profile = "numpy/cpu-arm64"
	}
	tests := []struct{ text, want string }{
		{"neg(view(f32[2 3] [1, 2, 3, 4, 5, 6], permute=[1 0], slice=[0:3:2 0:2:1]))",
			`{"value": {"dtype": "f32", "shape": [2, 2], "data": ["-1.0", "-4.0", "-3.0", "-6.0"]}}`},
		{"add(view(i8[1] [3], expand=[2 2]), view(i8[4] [1, 2, 3, 4], slice=[1:4:2]))",
			`{"value": {"dtype": "i8", "shape": [2, 2], "data": [5, 7, 5, 7]}}`},
		{"sum(view(i32[2 2] [1, 2, 3, 4], permute=[1 0])) dim=1",
			`{"value": {"dtype": "i64", "shape": [2], "data": [4, 6]}}`},
		{"index_select(view(i64[3 2] [1, 2, 3, 4, 5, 6], slice=[0:3:2 0:2:1]), i64[1] [1]) dim=0",
			`{"value": {"dtype": "i64", "shape": [1, 2], "data": [5, 6]}}`},
		{"program(u8[2] [200, 100]): cast(arg0) to=i64; sum(step0)",
			`{"value": {"dtype": "i64", "shape": [], "data": [300]}}`},
		{"program(i8[2] [1, 2], i8[2] [3, 4]): add(arg0, arg1); mul(step0, step0); sub(step1, arg0)",
			`{"value": {"dtype": "i8", "shape": [2], "data": [15, 34]}}`},
		{"program(view(i64[4] [9, 1, 9, 2], slice=[1:4:2]), i64[1] [5]): add(arg0, arg0); index_select(step0, arg1) dim=0; neg(step1)",
			`{"error": {"class": "IndexOutOfRange", "message": ""}}`},
	}
	for _, tt := range tests {
		c, err := tensor.ParseCase(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tensor.DecodeOutcome([]byte(tt.want))
		if err != nil {
			t.Fatal(err)
		}
		if !b.Supports(profile, c) {
			t.Fatalf("%s: declined", tt.text)
		}
		if got := b.Eval(profile, c); !tensor.Compare(want, got, 0).Match() {
			t.Errorf("%s: got %s, want %s", tt.text, got, want)
		}
	}
}
