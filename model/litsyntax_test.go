package model

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfuzz/tfuzz/tensor"
)

func TestReadRustSyntax(t *testing.T) {
	tests := []struct {
		name, text string
		shape      []int
		ragged     bool
		first      rustLitElem
		mixed      bool
	}{
		{"f64 array", "[1.0, 2.0]", []int{2}, false, rustLitElem{Float: true, Digits: "1.0"}, false},
		{"suffix types the first", "[1i64, 2]", []int{2}, false, rustLitElem{Digits: "1", Suffix: "i64"}, false},
		{"nested", "[[1f32, 2.], [3., 4.]]", []int{2, 2}, false, rustLitElem{Float: true, Digits: "1", Suffix: "f32"}, false},
		{"scalar", "3.5f32", []int{}, false, rustLitElem{Float: true, Digits: "3.5", Suffix: "f32"}, false},
		{"ragged vec", "vec![vec![1f32, 2.], vec![3.]]", []int{2, 2}, true, rustLitElem{Float: true, Digits: "1", Suffix: "f32"}, false},
		{"negative with underscores", "&[-1_000, 2]", []int{2}, false, rustLitElem{Neg: true, Digits: "1000"}, false},
		{"exponent", "[1e5]", []int{1}, false, rustLitElem{Float: true, Digits: "1e5"}, false},
		{"bool", "[true, false]", []int{2}, false, rustLitElem{IsBool: true, BoolValue: true}, false},
		{"empty", "[]", []int{0}, false, rustLitElem{}, false},
		{"array in vec", "vec![[1, 2]]", []int{1, 2}, false, rustLitElem{Digits: "1"}, true},
		{"trailing comma", "[1, 2,]", []int{2}, false, rustLitElem{Digits: "1"}, false},
		{"eight levels", strings.Repeat("[", 8) + "1" + strings.Repeat("]", 8), []int{1, 1, 1, 1, 1, 1, 1, 1}, false, rustLitElem{Digits: "1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := readRustSyntax(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			shape, ragged := n.Shape()
			if diff := cmp.Diff(tt.shape, shape); diff != "" || ragged != tt.ragged {
				t.Errorf("ragged %v, want %v; shape (-want +got):\n%s", ragged, tt.ragged, diff)
			}
			if s := n.Scalars(); len(s) > 0 && s[0] != tt.first {
				t.Errorf("first scalar %+v, want %+v", s[0], tt.first)
			}
			if n.MixedNesting() != tt.mixed {
				t.Errorf("mixed nesting %v, want %v", n.MixedNesting(), tt.mixed)
			}
		})
	}
}

// TestReadSyntaxRejects: what is not a literal, and what is beyond the size
// limits, is an error, found in time linear in the text.
func TestReadSyntaxRejects(t *testing.T) {
	deep := func(open, leaf, close string, n int) string {
		return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
	}
	// the element limit, lowered to keep the literals small
	defer func(n int) { maxLiteralElements = n }(maxLiteralElements)
	maxLiteralElements = 1000
	long := "[" + strings.Repeat("0,", 1000) + "0]"
	nested := "[" + strings.Repeat("[0, 0],", 500) + "[0]]"
	tests := []struct {
		name, text   string
		rust, python bool // whether each reader must reject it
	}{
		{"python bools in Rust", "[True]", true, false},
		{"unclosed", "[1, 2", true, true},
		{"no f16 literal", "1.0f16", true, true},
		{"empty item", "[1,, 2]", true, true},
		{"vec! without [", "vec!(1)", true, true},
		{"a word", "abc", true, true},
		{"Python ragged", "[[1, 2], [3]]", false, true},
		{"two values", "1 2", true, true},
		{"scalars beside lists (E0308)", "[1, [2]]", true, true},
		{"a list beside scalars, deeper", "vec![vec![1], 2]", true, true},
		{"nine levels", deep("[", "1", "]", 9), true, true},
		{"nine levels, the last empty", deep("[", "", "]", 9), true, true},
		{"100,000 levels", deep("[", "1", "]", 100_000), true, true},
		{"100,000 vec! levels", deep("vec![", "1", "]", 100_000), true, false},
		{"100,000 levels unclosed", strings.Repeat("[", 100_000), true, true},
		{"more elements than the limit", long, true, true},
		{"more elements than the limit, nested", nested, true, true},
		{"more items in one list than the limit", "[" + strings.Repeat("[],", 1000) + "[]]", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, rerr := readRustSyntax(tt.text)
			_, _, perr := readPythonSyntax(tt.text)
			if tt.rust && rerr == nil {
				t.Errorf("Rust reader accepts %.40q", tt.text)
			}
			if tt.python && perr == nil {
				t.Errorf("Python reader accepts %.40q", tt.text)
			}
			// a deep literal fails at the ninth level, whatever follows
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestReadPythonSyntax(t *testing.T) {
	tests := []struct {
		name, text string
		shape      []int
		kinds      []literalKind
	}{
		{"floats", "[1.0, 2.0]", []int{2}, []literalKind{litFloat, litFloat}},
		{"mixed nested", "[[1, 2], [3, 4.0]]", []int{2, 2}, []literalKind{litInt, litInt, litInt, litFloat}},
		{"scalar", "3.5", []int{}, []literalKind{litFloat}},
		{"bools both spellings", "[true, False]", []int{2}, []literalKind{litBool, litBool}},
		{"exponent and nan", "[1e+20, nan]", []int{2}, []literalKind{litFloat, litFloat}},
		{"empty", "[]", []int{0}, nil},
		{"big int", "[2147483648]", []int{1}, []literalKind{litInt}},
		{"eight levels, the last empty", "[[[[[[[[]]]]]]]]", []int{1, 1, 1, 1, 1, 1, 1, 0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			elems, shape, err := readPythonSyntax(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []literalKind
			for _, e := range elems {
				kinds = append(kinds, e.Kind)
			}
			if diff := cmp.Diff(tt.shape, shape); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeepLiteralOutcome: a literal nested 100,000 deep gets, under every
// profile, the outcome of any malformed literal, at once.
func TestDeepLiteralOutcome(t *testing.T) {
	deep := strings.Repeat("[", 100_000) + "1" + strings.Repeat("]", 100_000)
	bad := "[1, 2"
	for _, p := range Names() {
		t.Run(p, func(t *testing.T) {
			c := &tensor.Case{Op: "from_literal"}
			c.Attrs.Literal = &deep
			m := &tensor.Case{Op: "from_literal"}
			m.Attrs.Literal = &bad
			start := time.Now()
			got, want := Eval(p, c), Eval(p, m)
			if got.Form == tensor.FormValue || !tensor.Compare(want, got, 0).Match() {
				t.Errorf("got %s, want the malformed literal's %s", got, want)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
