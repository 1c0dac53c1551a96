package cpu

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tfuzz/tfuzz/tensor"
)

func TestReadRustLiteral(t *testing.T) {
	tests := []struct {
		name, text  string
		shape       []int
		ragged      bool
		vec, mixed  bool
		first       rustTok
		wantNoToken bool
	}{
		{"f64 array", "[1.0, 2.0]", []int{2}, false, false, false, rustTok{class: "{float}", digits: "1.0"}, false},
		{"a suffix", "[1i64, 2]", []int{2}, false, false, false, rustTok{class: "i64", digits: "1"}, false},
		{"nested, float suffix on an integer", "[[1f32, 2.], [3., 4.]]", []int{2, 2}, false, false, false, rustTok{class: "f32", digits: "1"}, false},
		{"bare scalar", "3.5f32", nil, false, false, false, rustTok{class: "f32", digits: "3.5"}, false},
		{"ragged vec", "vec![vec![1f32, 2.], vec![3.]]", []int{2, 2}, true, true, false, rustTok{class: "f32", digits: "1"}, false},
		{"reference, minus, underscores", "&[-1_000, 2]", []int{2}, false, false, false, rustTok{class: "{integer}", neg: true, digits: "1000"}, false},
		{"spaces after the minus", "- 5", nil, false, false, false, rustTok{class: "{integer}", neg: true, digits: "5"}, false},
		{"exponent", "[1e5]", []int{1}, false, false, false, rustTok{class: "{float}", digits: "1e5"}, false},
		{"signed exponent", "[2.5E-3]", []int{1}, false, false, false, rustTok{class: "{float}", digits: "2.5E-3"}, false},
		{"bool", "[true, false]", []int{2}, false, false, false, rustTok{class: "bool", truth: true}, false},
		{"empty", "[]", []int{0}, false, false, false, rustTok{}, true},
		{"empty rows", "[[], []]", []int{2, 0}, false, false, false, rustTok{}, true},
		{"an empty row then a full one", "[[], [1]]", []int{2, 0}, true, false, false, rustTok{class: "{integer}", digits: "1"}, false},
		{"a deeper second row", "vec![vec![1], vec![vec![2]]]", []int{2, 1}, true, true, false, rustTok{class: "{integer}", digits: "1"}, false},
		{"array in vec", "vec![[1, 2]]", []int{1, 2}, false, true, true, rustTok{class: "{integer}", digits: "1"}, false},
		{"trailing comma", "[1, 2,]", []int{2}, false, false, false, rustTok{class: "{integer}", digits: "1"}, false},
		{"eight levels", strings.Repeat("[", 8) + "7" + strings.Repeat("]", 8), []int{1, 1, 1, 1, 1, 1, 1, 1}, false, false, false, rustTok{class: "{integer}", digits: "7"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lit, err := readRustLiteral(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.shape, lit.shape); diff != "" || lit.ragged != tt.ragged || lit.vec != tt.vec || lit.mixed != tt.mixed {
				t.Errorf("ragged %v vec %v mixed %v, want %v %v %v; shape (-want +got):\n%s",
					lit.ragged, lit.vec, lit.mixed, tt.ragged, tt.vec, tt.mixed, diff)
			}
			if lit.bare != (tt.shape == nil) {
				t.Errorf("bare %v for shape %v", lit.bare, tt.shape)
			}
			switch {
			case tt.wantNoToken && len(lit.toks) > 0:
				t.Errorf("tokens %+v, want none", lit.toks)
			case !tt.wantNoToken && (len(lit.toks) == 0 || lit.toks[0] != tt.first):
				t.Errorf("tokens %+v, want the first %+v", lit.toks, tt.first)
			}
		})
	}
}

// TestRustLiteralType is rustc's typing of a literal's elements (policy
// rust.literal.typing).
func TestRustLiteralType(t *testing.T) {
	tests := []struct {
		name, text, hint, want string // want "" means rejected
	}{
		{"unsuffixed integers are i32", "[1, 2]", "", "i32"},
		{"unsuffixed floats are f64", "[1.0, 2.]", "", "f64"},
		{"one suffix types all", "[1, 2u8, 3]", "", "u8"},
		{"a float suffix types the floats", "[1.5, 2f32]", "", "f32"},
		{"bools", "[true, false]", "", "bool"},
		{"the context's type", "[1, 2]", "i64", "i64"},
		{"integers and floats", "[1, 2.0]", "", ""},
		{"an integer where f32 is expected", "[1, 2f32]", "", ""},
		{"a float where an integer type is expected", "[1.5, 2i64]", "", ""},
		{"two suffixes", "[1u8, 2i8]", "", ""},
		{"bools and numbers", "[true, 1]", "", ""},
		{"a bool where i64 is expected", "true", "i64", ""},
		{"a suffix against the context", "1u8", "i64", ""},
		{"u8 holds 255", "[255u8]", "", "u8"},
		{"u8 does not hold 256", "[256u8]", "", ""},
		{"i8 holds -128", "[-128i8]", "", "i8"},
		{"i8 does not hold -129", "[-129i8]", "", ""},
		{"i64 holds its minimum", "-9223372036854775808i64", "", "i64"},
		{"i32 does not hold 2^31", "2147483648", "", ""},
		{"a minus on an unsigned type (E0600)", "[-0u32]", "", ""},
		{"i128 is not range-checked here", "[99999999999999999999i128]", "", "i128"},
		{"f32 overflows", "[1e39f32]", "", ""},
		{"f32 underflows to zero", "[1e-50f32]", "", "f32"},
		{"f64 holds 1e308", "[1e308]", "", "f64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lit, err := readRustLiteral(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			typ, reject := rustLiteralType(lit.toks, tt.hint)
			if typ != tt.want || (reject == "") != (tt.want != "") {
				t.Errorf("type %q (rejected: %q), want %q", typ, reject, tt.want)
			}
		})
	}
}

func TestReadPythonLiteral(t *testing.T) {
	tests := []struct {
		name, text string
		shape      []int
		kinds      string // b, i, f per element
	}{
		{"floats", "[1.0, 2.0]", []int{2}, "ff"},
		{"mixed nested", "[[1, 2], [3, 4.0]]", []int{2, 2}, "iiif"},
		{"scalar", "3.5", []int{}, "f"},
		{"bools both spellings", "[true, False]", []int{2}, "bb"},
		{"exponent, nan, inf", "[1e+20, nan, -inf]", []int{3}, "fff"},
		{"empty", "[]", []int{0}, ""},
		{"empty rows", "[[], []]", []int{2, 0}, ""},
		{"big int", "[18446744073709551616, -5, +7]", []int{3}, "iii"},
		{"eight levels, the last empty", "[[[[[[[[]]]]]]]]", []int{1, 1, 1, 1, 1, 1, 1, 0}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nums, shape, err := readPythonLiteral(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			kinds := ""
			for _, n := range nums {
				kinds += string(n.kind[0])
			}
			if diff := cmp.Diff(tt.shape, shape, cmpopts.EquateEmpty()); diff != "" || kinds != tt.kinds {
				t.Errorf("kinds %q, want %q; shape (-want +got):\n%s", kinds, tt.kinds, diff)
			}
		})
	}
}

// TestLiteralRejects: what is not a literal, and what is beyond the limits
// (depth tensor.MaxRank, maxLiteralElements), is an error, found at once.
func TestLiteralRejects(t *testing.T) {
	defer func(n int) { maxLiteralElements = n }(maxLiteralElements)
	maxLiteralElements = 1000 // the element limit, lowered to keep the literals small
	deep := func(open, leaf, close string, n int) string {
		return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
	}
	tests := []struct {
		name, text   string
		rust, python bool // whether each reader must reject it
	}{
		{"Python bools in Rust", "[True]", true, false},
		{"unclosed", "[1, 2", true, true},
		{"no f16 literal", "1.0f16", true, true},
		{"a float with an integer suffix", "1.0i32", true, true},
		{"empty item", "[1,, 2]", true, true},
		{"vec! without [", "vec!(1)", true, true},
		{"a word", "abc", true, true},
		{"a method call, not a fraction", "[1.e5]", true, false},
		{"Python's trailing comma", "[1, 2,]", false, true},
		{"Python ragged", "[[1, 2], [3]]", false, true},
		{"two values", "1 2", true, true},
		{"scalars beside lists (E0308)", "[1, [2]]", true, true},
		{"a list beside scalars, deeper", "vec![vec![1], 2]", true, true},
		{"nine levels", deep("[", "1", "]", 9), true, true},
		{"nine levels, the last empty", deep("[", "", "]", 9), true, true},
		{"100,000 levels", deep("[", "1", "]", 100_000), true, true},
		{"100,000 vec! levels", deep("vec![", "1", "]", 100_000), true, true},
		{"100,000 levels unclosed", strings.Repeat("[", 100_000), true, true},
		{"more elements than the limit", "[" + strings.Repeat("0,", 1000) + "0]", true, true},
		{"more elements than the limit, nested", "[" + strings.Repeat("[0, 0],", 500) + "[0]]", true, true},
		{"more items in one list than the limit", "[" + strings.Repeat("[],", 1000) + "[]]", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, rerr := readRustLiteral(tt.text)
			_, _, perr := readPythonLiteral(tt.text)
			if (rerr != nil) != tt.rust {
				t.Errorf("Rust reader: error %v, want an error: %v", rerr, tt.rust)
			}
			if (perr != nil) != tt.python {
				t.Errorf("Python reader: error %v, want an error: %v", perr, tt.python)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestDeepLiteralOutcome: a literal nested 100,000 deep gets, under every
// profile, the outcome of any malformed literal, at once.
func TestDeepLiteralOutcome(t *testing.T) {
	e := New()
	deep := strings.Repeat("[", 100_000) + "1" + strings.Repeat("]", 100_000)
	bad := "[1, 2"
	for _, p := range e.Profiles() {
		t.Run(p, func(t *testing.T) {
			c := &tensor.Case{Op: "from_literal"}
			c.Attrs.Literal = &deep
			m := &tensor.Case{Op: "from_literal"}
			m.Attrs.Literal = &bad
			if !e.Supports(p, c) || !e.Supports(p, m) {
				t.Fatalf("the engine declines a malformed literal")
			}
			start := time.Now()
			got, want := e.Eval(p, c), e.Eval(p, m)
			if got.Form == tensor.FormValue || !tensor.Compare(want, got, 0).Match() {
				t.Errorf("got %s, want the malformed literal's %s", got, want)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
