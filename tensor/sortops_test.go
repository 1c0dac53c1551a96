package tensor

import "testing"

// TestSortOpsCodec: sort, argsort and mask_select read and write back in
// JSON and in the notation, and the codec rejects what they do not allow,
// naming the field.
func TestSortOpsCodec(t *testing.T) {
	f32 := `{"dtype": "f32", "shape": [3], "data": ["1.0", "nan", "-0.0"]}`
	u8 := `{"dtype": "u8", "shape": [3], "data": [1, 0, 1]}`
	ok := []struct{ name, line, notation string }{
		{"sort with no attrs", `{"op": "sort", "args": [` + f32 + `], "attrs": {}}`, "sort(f32[3] [1.0, nan, -0.0])"},
		{"argsort with every attr", `{"op": "argsort", "args": [` + f32 + `], "attrs": {"dim": 0, "descending": true, "stable": false}}`,
			"argsort(f32[3] [1.0, nan, -0.0]) dim=0 descending=true stable=false"},
		{"mask_select with a u8 mask", `{"op": "mask_select", "args": [` + f32 + `, ` + u8 + `], "attrs": {}}`,
			"mask_select(f32[3] [1.0, nan, -0.0], u8[3] [1, 0, 1])"},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeCase([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			if string(EncodeCase(c)) != tt.line {
				t.Errorf("EncodeCase = %s, want %s", EncodeCase(c), tt.line)
			}
			if got := c.Notation(); got != tt.notation {
				t.Errorf("Notation = %q, want %q", got, tt.notation)
			}
			p, err := ParseCase(tt.notation)
			if err != nil {
				t.Fatalf("ParseCase(%q): %v", tt.notation, err)
			}
			if string(EncodeCase(p)) != tt.line {
				t.Errorf("notation %q parses to\n%s, want\n%s", tt.notation, EncodeCase(p), tt.line)
			}
		})
	}
	bad := []decodeErrorRow{
		{"a scalar to sort", `{"op": "sort", "args": [{"scalar": "1", "kind": "int"}], "attrs": {}}`, "args[0]", "tensors only"},
		{"a scalar mask", `{"op": "mask_select", "args": [` + f32 + `, {"scalar": "true", "kind": "bool"}], "attrs": {}}`, "args[1]", "tensors only"},
		{"mask_select arity", `{"op": "mask_select", "args": [` + f32 + `], "attrs": {}}`, "args", "takes 2 args, got 1"},
		{"descending not a bool", `{"op": "sort", "args": [` + f32 + `], "attrs": {"descending": 1}}`, "attrs.descending", "want true or false"},
		{"keepdim on sort", `{"op": "argsort", "args": [` + f32 + `], "attrs": {"keepdim": true}}`, "attrs.keepdim", `argsort takes no attr "keepdim" (it takes only dim, descending, stable`},
		{"stable on mask_select", `{"op": "mask_select", "args": [` + f32 + `, ` + u8 + `], "attrs": {"stable": true}}`, "attrs.stable", "takes no attrs"},
	}
	checkDecodeErrors(t, bad)
}

// TestSortAttrDefaults: dim -1, descending and stable false when absent.
func TestSortAttrDefaults(t *testing.T) {
	yes, zero := true, 0
	tests := []struct {
		name         string
		a            Attrs
		dim          int
		desc, stable bool
	}{
		{"absent", Attrs{}, -1, false, false},
		{"given", Attrs{Dim: &zero, Descending: &yes, Stable: &yes}, 0, true, true},
	}
	for _, tt := range tests {
		if got := tt.a.SortDim(); got != tt.dim {
			t.Errorf("%s: SortDim = %d, want %d", tt.name, got, tt.dim)
		}
		if tt.a.IsDescending() != tt.desc || tt.a.IsStable() != tt.stable {
			t.Errorf("%s: descending %t stable %t, want %t %t", tt.name, tt.a.IsDescending(), tt.a.IsStable(), tt.desc, tt.stable)
		}
	}
}

// TestMaskSelectCost: the bound covers a bool mask (at most every element)
// and an integer mask gathering trailing slices.
func TestMaskSelectCost(t *testing.T) {
	a := New(F32, 2, 3)
	tests := []struct {
		name string
		mask *Tensor
		want int64
	}{
		{"bool mask of the leading dim", New(Bool, 2), 6},
		{"integer mask gathering rows", New(I64, 5), 15},
		{"empty mask", New(U8, 0), 6},
	}
	for _, tt := range tests {
		c := &Case{Op: "mask_select", Args: []Arg{{Tensor: a}, {Tensor: tt.mask}}}
		if got := CaseCost(c).ResultElements; got != tt.want {
			t.Errorf("%s: ResultElements = %d, want %d", tt.name, got, tt.want)
		}
	}
}
