package adapter

import (
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// newOpCase reads a case in the case notation, or in JSON when it starts
// with "{" (complex scalars have no notation).
func newOpCase(t *testing.T, text string) *tensor.Case {
	t.Helper()
	var c *tensor.Case
	var err error
	if strings.HasPrefix(text, "{") {
		c, err = tensor.DecodeCase([]byte(text))
	} else {
		c, err = tensor.ParseCase(text)
	}
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return c
}

// An adapter that reads views and programs but not the ops and attrs
// added 2026-12: cases holding them are declined, never sent (it would
// misread a dtype attr or a cumsum without dim as the older catalog's op),
// while the older ops still go.
func TestAdapterWithoutOps2026GetsNoNewOps(t *testing.T) {
	b := newPlanted(t, Config{Command: `sh -c 'echo "{\"tfuzz_adapter\": 1, \"profiles\": [\"numpy\"], \"features\": [\"views\", \"programs\"]}"; cat >/dev/null'`})
	for _, text := range []string{
		"broadcast_add(i64[1], i64[1])",
		"where(bool[true], i64[1], 2)",
		"clamp(f32[1.0], null, 2.0)",
		"shift_left(u8[1], 8)",
		"full() shape=[2] value=7",
		"sort(i64[2, 1]) descending=true",
		"mask_select(i64[1, 2], bool[true, false])",
		"matmul(f32[[1.0]], f32[[2.0]])",
		"cat(i64[1], i64[2]) dim=0",
		"sum(u8[200, 100]) dtype=u8",
		"cumsum(i64[[1, 2], [3, 4]])",
		"cumsum(i64[1, 2]) dim=0 dtype=i32",
		"from_literal() literal=[1, 2] dtype=f16",
		"arange() end=3 dtype=f32",
		"program(i64[1, 2]): neg(arg0); cumsum(step0)",
		"program(i64[1, 2]): neg(arg0); neg(step0); sort(step1)",
		"program(f32[1.0]): neg(arg0); clamp(step0, 0.0, null)",
		`{"op": "add", "args": [{"dtype": "c64", "shape": [1], "data": [["1.0", "0.0"]]}, {"scalar": "1.5+2j", "kind": "complex"}]}`,
	} {
		c := newOpCase(t, text)
		if b.Supports("numpy", c) {
			t.Errorf("%s: supported by an adapter without %s", text, FeatureOps2026)
		}
		if out := b.Eval("numpy", c); !out.HarnessFailure() || !strings.Contains(out.Message(), "does not read "+FeatureOps2026) {
			t.Errorf("%s: %s, want a harness failure saying the adapter does not read %s", text, out, FeatureOps2026)
		}
	}
	if st := b.Stats(); st.Cases != 0 {
		t.Errorf("%d cases were sent", st.Cases)
	}
	for _, text := range []string{"cumsum(i64[1, 2]) dim=0", "sum(u8[200, 100]) dim=0", "zeros() shape=[2] dtype=u8", "add(i64[1], 2)",
		"program(view(i64[2] [1, 2], slice=[0:2:1])): neg(arg0); cumsum(step0) dim=0"} {
		if !b.Supports("numpy", newOpCase(t, text)) {
			t.Errorf("%s: an op of the older catalog is declined", text)
		}
	}
}
