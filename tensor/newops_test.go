package tensor

import "testing"

// TestNewOpsCodec: the additions of 2026-12 read and write back, and the
// codec rejects what they do not allow, naming the field.
func TestNewOpsCodec(t *testing.T) {
	f32 := `{"dtype": "f32", "shape": [2], "data": ["1.0", "nan"]}`
	u8 := `{"dtype": "u8", "shape": [2], "data": [1, 0]}`
	ok := []struct{ name, line string }{
		{"clamp with a null bound", `{"op": "clamp", "args": [` + f32 + `, null, {"scalar": "0.5", "kind": "float"}], "attrs": {}}`},
		{"clamp with both bounds null", `{"op": "clamp", "args": [` + f32 + `, null, null], "attrs": {}}`},
		{"where with scalars", `{"op": "where", "args": [` + u8 + `, {"scalar": "1", "kind": "int"}, ` + f32 + `], "attrs": {}}`},
		{"broadcast_mul", `{"op": "broadcast_mul", "args": [` + f32 + `, ` + f32 + `], "attrs": {}}`},
		{"shift_left with a scalar count", `{"op": "shift_left", "args": [` + u8 + `, {"scalar": "8", "kind": "int"}], "attrs": {}}`},
		{"full", `{"op": "full", "args": [], "attrs": {"value": "7", "shape": [3], "dtype": "u8"}}`},
		{"sum with a dtype", `{"op": "sum", "args": [` + u8 + `], "attrs": {"dtype": "i64"}}`},
		{"cumsum without dim, with a dtype", `{"op": "cumsum", "args": [` + u8 + `], "attrs": {"dtype": "f32"}}`},
		{"from_literal with a dtype", `{"op": "from_literal", "args": [], "attrs": {"literal": "[0.1, 0.2]", "dtype": "f64"}}`},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeCase([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeCase(EncodeCase(c))
			if err != nil {
				t.Fatalf("re-decoding %s: %v", EncodeCase(c), err)
			}
			if string(EncodeCase(back)) != string(EncodeCase(c)) {
				t.Errorf("round trip changed the case:\n%s\n%s", EncodeCase(c), EncodeCase(back))
			}
			p, err := ParseCase(c.Notation())
			if err != nil {
				t.Fatalf("ParseCase(%q): %v", c.Notation(), err)
			}
			if string(EncodeCase(p)) != string(EncodeCase(c)) {
				t.Errorf("notation %q parses to\n%s, want\n%s", c.Notation(), EncodeCase(p), EncodeCase(c))
			}
		})
	}
	bad := []decodeErrorRow{
		{"null outside clamp's bounds", `{"op": "clamp", "args": [null, null, null], "attrs": {}}`, "args[0]", "takes no null"},
		{"null in a binary op", `{"op": "add", "args": [` + f32 + `, null], "attrs": {}}`, "args[1]", "takes no null"},
		{"scalar condition", `{"op": "where", "args": [{"scalar": "true", "kind": "bool"}, ` + f32 + `, ` + f32 + `], "attrs": {}}`, "args[0]", "tensors only"},
		{"scalar in a broadcast op", `{"op": "broadcast_add", "args": [` + f32 + `, {"scalar": "1", "kind": "int"}], "attrs": {}}`, "args[1]", "tensors only"},
		{"dtype on max", `{"op": "max", "args": [` + u8 + `], "attrs": {"dtype": "i64"}}`, "attrs.dtype", `max takes no attr "dtype"`},
		{"full without value", `{"op": "full", "args": [], "attrs": {"shape": [3]}}`, "attrs.value", "needs attr value"},
		{"clamp arity", `{"op": "clamp", "args": [` + f32 + `, null], "attrs": {}}`, "args", "takes 3 args"},
	}
	checkDecodeErrors(t, bad)
}

func TestBroadcastBase(t *testing.T) {
	for op, want := range map[string]string{"broadcast_mul": "mul", "broadcast_maximum": "maximum", "mul": "", "nope": ""} {
		if got := BroadcastBase(op); got != want {
			t.Errorf("BroadcastBase(%q) = %q, want %q", op, got, want)
		}
	}
}
