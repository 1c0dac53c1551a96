package tensor

import (
	"strings"
	"testing"
)

// TestMatmulCatCodec: matmul reads two tensors, cat one or more and a dim;
// both write back, read back from their notation, and what they do not
// allow is an error naming the field.
func TestMatmulCatCodec(t *testing.T) {
	f32 := `{"dtype": "f32", "shape": [2, 2], "data": ["1.0", "nan", "-0.0", "2"]}`
	i8 := `{"dtype": "i8", "shape": [2], "data": [1, -128]}`
	ok := []struct{ name, line string }{
		{"matmul", `{"op": "matmul", "args": [` + f32 + `, ` + f32 + `], "attrs": {}}`},
		{"matmul with a tolerance", `{"op": "matmul", "args": [` + i8 + `, ` + f32 + `], "attrs": {"tolerance_ulps": 2}}`},
		{"cat of one tensor", `{"op": "cat", "args": [` + i8 + `], "attrs": {"dim": 0}}`},
		{"cat of three of two dtypes", `{"op": "cat", "args": [` + f32 + `, ` + i8 + `, ` + f32 + `], "attrs": {"dim": -1}}`},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeCase([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeCase(EncodeCase(c))
			if err != nil || string(EncodeCase(back)) != string(EncodeCase(c)) {
				t.Fatalf("round trip: %v\n%s\n%s", err, EncodeCase(c), EncodeCase(back))
			}
			p, err := ParseCase(c.Notation())
			if err != nil || string(EncodeCase(p)) != string(EncodeCase(c)) {
				t.Fatalf("notation %q: %v", c.Notation(), err)
			}
		})
	}
	bad := []decodeErrorRow{
		{"cat of nothing", `{"op": "cat", "args": [], "attrs": {"dim": 0}}`, "args", "takes one or more tensors, got none"},
		{"cat without dim", `{"op": "cat", "args": [` + i8 + `], "attrs": {}}`, "attrs.dim", "cat needs attr dim"},
		{"cat of a scalar", `{"op": "cat", "args": [` + i8 + `, {"scalar": "1", "kind": "int"}], "attrs": {"dim": 0}}`, "args[1]", "tensors only"},
		{"cat with keepdim", `{"op": "cat", "args": [` + i8 + `], "attrs": {"dim": 0, "keepdim": true}}`, "attrs.keepdim", `cat takes no attr "keepdim"`},
		{"matmul of one", `{"op": "matmul", "args": [` + f32 + `], "attrs": {}}`, "args", "matmul takes 2 args, got 1"},
		{"matmul of a scalar", `{"op": "matmul", "args": [` + f32 + `, {"scalar": "2", "kind": "int"}], "attrs": {}}`, "args[1]", "tensors only"},
		{"matmul with a dim", `{"op": "matmul", "args": [` + f32 + `, ` + f32 + `], "attrs": {"dim": 0}}`, "attrs.dim", `matmul takes no attr "dim"`},
	}
	checkDecodeErrors(t, bad)
}

// TestMatmulCatCost: matmul's result is its broadcast batch times m*n and
// its work that times k; cat's result is the sum of its inputs; a matmul
// over the work limit is refused with a message that says so.
func TestMatmulCatCost(t *testing.T) {
	tt := func(shape ...int) Arg { return Arg{Tensor: New(F32, shape...)} }
	tests := []struct {
		name         string
		c            *Case
		result, work int64
	}{
		{"matrix times matrix", &Case{Op: "matmul", Args: []Arg{tt(3, 4), tt(4, 5)}}, 15, 60},
		{"vector dot vector", &Case{Op: "matmul", Args: []Arg{tt(7), tt(7)}}, 1, 7},
		{"broadcast batch", &Case{Op: "matmul", Args: []Arg{tt(2, 1, 3, 4), tt(5, 4, 6)}}, 2 * 5 * 3 * 6, 2 * 5 * 3 * 6 * 4},
		{"empty k still costs the result", &Case{Op: "matmul", Args: []Arg{tt(3, 0), tt(0, 5)}}, 15, 15},
		{"cat", &Case{Op: "cat", Args: []Arg{tt(3, 4), tt(1, 4), tt(0, 4)}}, 16, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CaseCost(tc.c)
			if got.ResultElements != tc.result || got.Work != tc.work {
				t.Errorf("CaseCost = %d result, %d work; want %d, %d", got.ResultElements, got.Work, tc.result, tc.work)
			}
		})
	}
	big := &Case{Op: "matmul", Args: []Arg{tt(1024, 1024), tt(1024, 1024)}}
	err := DefaultBudget.Check(big, 1)
	if err == nil || !strings.Contains(err.Error(), "multiply-adds") {
		t.Errorf("a 2^30 multiply-add matmul: got %v, want a work-limit error", err)
	}
	if err := DefaultBudget.Check(&Case{Op: "matmul", Args: []Arg{tt(256, 256), tt(256, 256)}}, 1); err != nil {
		t.Errorf("a 256^3 matmul is refused: %v", err)
	}
}
