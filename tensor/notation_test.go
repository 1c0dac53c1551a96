package tensor_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

func TestParseCaseExamples(t *testing.T) {
	tests := []struct {
		name, text string
		want       string // the case as a case-format line
	}{
		{"the issue's question", "floor_div(i8[-128], i8[-1])",
			`{"op": "floor_div", "args": [{"dtype": "i8", "shape": [1], "data": [-128]}, {"dtype": "i8", "shape": [1], "data": [-1]}], "attrs": {}}`},
		{"shape then data, as Describe writes", "div(i64[2] [-7, 7], i64[2] [2, -2])",
			`{"op": "div", "args": [{"dtype": "i64", "shape": [2], "data": [-7, 7]}, {"dtype": "i64", "shape": [2], "data": [2, -2]}], "attrs": {}}`},
		{"nested list gives the shape", "neg(f32[[1, 2.5], [-0.0, nan]])",
			`{"op": "neg", "args": [{"dtype": "f32", "shape": [2, 2], "data": ["1.0", "2.5", "-0.0", "nan"]}], "attrs": {}}`},
		{"0-dim by one element, shorthand scalars", "add(i64 3, 0.5)",
			`{"op": "add", "args": [{"dtype": "i64", "shape": [], "data": [3]}, {"scalar": "0.5", "kind": "float"}], "attrs": {}}`},
		{"int and bool scalars", "mul(u8[2] [200, 1], 2)",
			`{"op": "mul", "args": [{"dtype": "u8", "shape": [2], "data": [200, 1]}, {"scalar": "2", "kind": "int"}], "attrs": {}}`},
		{"scalar on the left with its host type", "sub(float scalar 5.0 (f32), f16[1] [65504])",
			`{"op": "sub", "args": [{"scalar": "5.0", "kind": "float", "host": "f32"}, {"dtype": "f16", "shape": [1], "data": ["65504.0"]}], "attrs": {}}`},
		{"attrs", "sum(u8[2 2] [200, 100, 7, 1]) dim=-1 keepdim=true",
			`{"op": "sum", "args": [{"dtype": "u8", "shape": [2, 2], "data": [200, 100, 7, 1]}], "attrs": {"dim": -1, "keepdim": true}}`},
		{"cast target and mode", "cast(f64[inf, -1e+300]) to=i32 mode=convert",
			`{"op": "cast", "args": [{"dtype": "f64", "shape": [2], "data": ["inf", "-1e+300"]}], "attrs": {"to": "i32", "mode": "convert"}}`},
		{"literal with spaces", "from_literal() literal=[1, 2.5]",
			`{"op": "from_literal", "args": [], "attrs": {"literal": "[1, 2.5]"}}`},
		{"quoted literal", `from_literal() literal="[1,\n 2]"`,
			`{"op": "from_literal", "args": [], "attrs": {"literal": "[1,\n 2]"}}`},
		{"arange", "arange() start=0 end=2.5",
			`{"op": "arange", "args": [], "attrs": {"start": "0", "end": "2.5"}}`},
		{"zeros with a shape", "zeros() shape=[2 3] dtype=bf16",
			`{"op": "zeros", "args": [], "attrs": {"shape": [2, 3], "dtype": "bf16"}}`},
		{"complex elements", "neg(c64[[1.0, -2.0], [0.5, nan]])",
			`{"op": "neg", "args": [{"dtype": "c64", "shape": [2], "data": [["1.0", "-2.0"], ["0.5", "nan"]]}], "attrs": {}}`},
		{"hex float and bool tensor", "eq(f64[0x1.8p+1], bool[true])",
			`{"op": "eq", "args": [{"dtype": "f64", "shape": [1], "data": ["3.0"]}, {"dtype": "bool", "shape": [1], "data": [true]}], "attrs": {}}`},
		{"empty tensor", "sum(i32[0] [])",
			`{"op": "sum", "args": [{"dtype": "i32", "shape": [0], "data": []}], "attrs": {}}`},
		{"a view: storage and steps", "neg(view(f32[2 3] [1, 2, 3, 4, 5, 6], permute=[1 0], slice=[0:3:2 0:2:1]))",
			`{"op": "neg", "args": [{"dtype": "f32", "shape": [2, 2], "data": ["1.0", "2.0", "3.0", "4.0", "5.0", "6.0"], "view": {"base": [2, 3], "permute": [1, 0], "slice": [[0, 3, 2], [0, 2, 1]]}}], "attrs": {}}`},
		{"an expanded view", "add(view(i8[1] [3], expand=[2 2]), i8 1)",
			`{"op": "add", "args": [{"dtype": "i8", "shape": [2, 2], "data": [3], "view": {"base": [1], "expand": [2, 2]}}, {"dtype": "i8", "shape": [], "data": [1]}], "attrs": {}}`},
		{"a program", "program(u8[2] [200, 100]): cast(arg0) to=i64; sum(step0)",
			`{"format": 2, "args": [{"dtype": "u8", "shape": [2], "data": [200, 100]}], "steps": [{"op": "cast", "args": [{"arg": 0}], "attrs": {"to": "i64"}}, {"op": "sum", "args": [{"step": 0}]}]}`},
		{"a program with literals and a literal attr", `program(): from_literal() literal=[1, 2]; add(step0, 0.5); mul(step1, i64[2] [3, 4])`,
			`{"format": 2, "args": [], "steps": [{"op": "from_literal", "args": [], "attrs": {"literal": "[1, 2]"}}, {"op": "add", "args": [{"step": 0}, {"scalar": "0.5", "kind": "float"}]}, {"op": "mul", "args": [{"step": 1}, {"dtype": "i64", "shape": [2], "data": [3, 4]}]}]}`},
		{"a quoted literal holding ';' in a step", `program(): from_literal() literal="vec![0; 3]"`,
			`{"format": 2, "args": [], "steps": [{"op": "from_literal", "args": [], "attrs": {"literal": "vec![0; 3]"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tensor.ParseCase(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(tensor.EncodeCase(c))); diff != "" {
				t.Errorf("ParseCase(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestParseCaseErrors(t *testing.T) {
	tests := []struct{ name, text, msg string }{
		{"unknown op lists a near one", "floordiv(i8[1], i8[1])", `unknown op "floordiv" (did you mean "floor_div"?`},
		{"unknown dtype", "add(i7[1], i8[1])", "neither a dtype"},
		{"ragged", "neg(i8[[1, 2], [3]])", "ragged"},
		{"shape and data disagree", "neg(i8[3] [1, 2])", "2 elements for shape [3]"},
		{"out of range", "neg(u8[256])", "want an integer in u8 range"},
		{"elided elements", "neg(i8[30] [1, 2, ... (28 more)])", "elided"},
		{"unclosed call", "neg(i8[1]", "want ')'"},
		{"wrong attr for the op", "sum(u8[1]) axis=0", `sum takes no attr "axis" (it takes only dim, keepdim, tolerance_ulps, dtype; axis is called dim here)`},
		{"attr the op does not take", "neg(u8[1]) dim=0", `at column 12: neg takes no attr "dim" (it takes only tolerance_ulps)`},
		{"attr of another op", "sum(u8[1]) to=i8", `sum takes no attr "to" (it takes only dim, keepdim, tolerance_ulps, dtype; to is called dtype here)`},
		{"attr of a step", "program(u8[1] [1]): neg(arg0) keepdim=true", `neg takes no attr "keepdim"`},
		{"lists nested past the rank limit", "neg(i8" + strings.Repeat("[", 100000) + "1" + strings.Repeat("]", 100000) + ")",
			"at column 16: lists nested deeper than 9 levels (the rank limit is 8)"},
		{"a complex tensor past the rank limit", "neg(c64" + strings.Repeat("[", 9) + "[1, 2]" + strings.Repeat("]", 9) + ")",
			"lists nested deeper than 9 levels"},
		{"arity", "add(u8[1])", "args: add takes 2 args, got 1"},
		{"a program over the step limit", "program(u8[1] [1]): " + strings.Repeat("neg(arg0); ", 64) + "neg(arg0)", "steps: 65 steps are over the limit of 64"},
		{"unknown scalar host", "add(u8[1], int scalar 1 (u7))", "unknown host type"},
		{"? in args", "neg(i8[?])", "only in outcomes"},
		{"a view that does not fit its storage", "neg(view(i8[2] [1, 2], slice=[0:3:1]))", "view.slice[0]"},
		{"a program reading a later step", "program(i8[1] [1]): neg(step1); neg(arg0)", "steps[0].args[0].step: step 1 is not an earlier step"},
		{"a program step of an unknown op", "program(i8[1] [1]): nag(arg0)", `unknown op "nag"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tensor.ParseCase(tt.text)
			if err == nil || !strings.Contains(err.Error(), tt.msg) || strings.Contains(err.Error(), "<input>") {
				t.Errorf("ParseCase(%q): got %v, want an error containing %q", tt.text, err, tt.msg)
			}
		})
	}
}

// TestDescribeParsesBack: the notation every finding and report prints is
// read back by ParseCase to the same case, for generated cases of every
// op, dtype and attr (views read back as the contiguous tensors of their
// elements, NaNs as NaN).
func TestDescribeParsesBack(t *testing.T) {
	gen := props.GenCase(props.CaseOptions{MaxElems: 20, Views: true})
	rapid.Check(t, func(t *rapid.T) {
		c := gen.Draw(t, "case")
		if d := c.Describe(); !strings.Contains(d, "... (") { // a view's storage may be elided
			checkRoundTrip(t, c, d)
		}
		checkRoundTrip(t, c, c.Notation())
	})
}

// TestNotationQuotesAmbiguousLiterals: a literal that holds a line break,
// a quote or text that reads as another attr is written quoted, and still
// parses back.
func TestNotationQuotesAmbiguousLiterals(t *testing.T) {
	for _, lit := range []string{"[1,\n2]", `"x"`, "[1] dim=0", " 3", "", "1\u0085import os", "a\u2028b"} {
		c := &tensor.Case{Op: "from_literal", Args: []tensor.Arg{}, Attrs: tensor.Attrs{Literal: &lit}}
		text := c.Describe()
		if strings.ContainsAny(text, "\n\u0085\u2028") {
			t.Errorf("Describe of literal %q spans lines: %q", lit, text)
		}
		checkRoundTrip(t, c, text)
	}
}

func checkRoundTrip(t interface {
	Helper()
	Fatalf(string, ...any)
}, c *tensor.Case, text string) {
	t.Helper()
	back, err := tensor.ParseCase(text)
	if err != nil {
		t.Fatalf("ParseCase(%q): %v", text, err)
	}
	if back.Op != c.Op || len(back.Args) != len(c.Args) || len(back.Steps) != len(c.Steps) {
		t.Fatalf("%q parsed as %q", text, back.Describe())
	}
	sameArg := func(what string, a, b tensor.Arg) {
		switch {
		case a.IsNull():
			if !b.IsNull() {
				t.Fatalf("%q: %s: null read back as %v", text, what, b)
			}
		case a.Scalar != nil:
			if b.Scalar == nil || *a.Scalar != *b.Scalar {
				t.Fatalf("%q: %s: scalar %v read back as %v", text, what, a, b)
			}
		case b.Tensor == nil || !sameElements(a.Tensor, b.Tensor):
			t.Fatalf("%q: %s: %s read back as %s", text, what, a.Tensor.Notation(), b.String())
		case a.Tensor.View != nil && !cmp.Equal(a.Tensor.View, b.Tensor.View):
			t.Fatalf("%q: %s: view %s read back as %v", text, what, a.Tensor.View, b.Tensor.View)
		}
	}
	for i, a := range c.Args {
		sameArg(fmt.Sprintf("argument %d", i), a, back.Args[i])
	}
	if diff := cmp.Diff(c.Attrs, back.Attrs); diff != "" {
		t.Fatalf("%q: attrs (-want +got):\n%s", text, diff)
	}
	for j, s := range c.Steps {
		b := back.Steps[j]
		if s.Op != b.Op || len(s.Args) != len(b.Args) {
			t.Fatalf("%q: step %d read back as %s%v", text, j, b.Op, b.Args)
		}
		for i, a := range s.Args {
			if a.From != b.Args[i].From || a.Index != b.Args[i].Index {
				t.Fatalf("%q: step %d argument %d: %v read back as %v", text, j, i, a, b.Args[i])
			}
			if a.From == tensor.FromLiteral {
				sameArg(fmt.Sprintf("step %d argument %d", j, i), a.Arg, b.Args[i].Arg)
			}
		}
		if diff := cmp.Diff(s.Attrs, b.Attrs); diff != "" {
			t.Fatalf("%q: step %d attrs (-want +got):\n%s", text, j, diff)
		}
	}
}

// sameElements compares dtype, shape and every element's bits (any NaN
// with any NaN of the same dtype).
func sameElements(a, b *tensor.Tensor) bool {
	if a.DType != b.DType || !cmp.Equal(a.Shape, b.Shape) {
		return false
	}
	for i := 0; i < a.Len(); i++ {
		switch {
		case a.DType.IsComplex():
			x, y := a.Complex(i), b.Complex(i)
			if !sameFloat(real(x), real(y)) || !sameFloat(imag(x), imag(y)) {
				return false
			}
		case a.DType.IsFloat():
			if !sameFloat(a.Float(i), b.Float(i)) {
				return false
			}
		default:
			if a.Bits(i) != b.Bits(i) {
				return false
			}
		}
	}
	return true
}

func sameFloat(x, y float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	return math.Float64bits(x) == math.Float64bits(y)
}

// TestParseCaseDeepestTensors: the nesting limit lets tensors of the
// largest rank through, complex ones with their [re, im] level.
func TestParseCaseDeepestTensors(t *testing.T) {
	for _, text := range []string{
		"neg(i8" + strings.Repeat("[", 8) + "1" + strings.Repeat("]", 8) + ")",
		"neg(c64" + strings.Repeat("[", 8) + "[1, 2]" + strings.Repeat("]", 8) + ")",
	} {
		c, err := tensor.ParseCase(text)
		if err != nil {
			t.Fatalf("ParseCase(%q): %v", text, err)
		}
		if diff := cmp.Diff([]int{1, 1, 1, 1, 1, 1, 1, 1}, c.Args[0].Tensor.Shape); diff != "" {
			t.Errorf("ParseCase(%q): shape (-want +got):\n%s", text, diff)
		}
	}
}
