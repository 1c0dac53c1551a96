package tensor

import (
	"reflect"
	"testing"
)

func TestParseRustLiteral(t *testing.T) {
	tests := []struct {
		name, text string
		shape      []int
		ragged     bool
		first      LiteralScalar
		mixed      bool
	}{
		{"f64 array", "[1.0, 2.0]", []int{2}, false, LiteralScalar{Float: true, Digits: "1.0"}, false},
		{"suffix types the first", "[1i64, 2]", []int{2}, false, LiteralScalar{Digits: "1", Suffix: "i64"}, false},
		{"nested", "[[1f32, 2.], [3., 4.]]", []int{2, 2}, false, LiteralScalar{Float: true, Digits: "1", Suffix: "f32"}, false},
		{"scalar", "3.5f32", []int{}, false, LiteralScalar{Float: true, Digits: "3.5", Suffix: "f32"}, false},
		{"ragged vec", "vec![vec![1f32, 2.], vec![3.]]", []int{2, 2}, true, LiteralScalar{Float: true, Digits: "1", Suffix: "f32"}, false},
		{"negative with underscores", "&[-1_000, 2]", []int{2}, false, LiteralScalar{Neg: true, Digits: "1000"}, false},
		{"exponent", "[1e5]", []int{1}, false, LiteralScalar{Float: true, Digits: "1e5"}, false},
		{"bool", "[true, false]", []int{2}, false, LiteralScalar{IsBool: true, BoolValue: true}, false},
		{"empty", "[]", []int{0}, false, LiteralScalar{}, false},
		{"array in vec", "vec![[1, 2]]", []int{1, 2}, false, LiteralScalar{Digits: "1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := ParseRustLiteral(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			shape, ragged := n.Shape()
			if !reflect.DeepEqual(shape, tt.shape) || ragged != tt.ragged {
				t.Errorf("shape %v ragged %v, want %v %v", shape, ragged, tt.shape, tt.ragged)
			}
			if s := n.Scalars(); len(s) > 0 && s[0] != tt.first {
				t.Errorf("first scalar %+v, want %+v", s[0], tt.first)
			}
			if n.MixedNesting() != tt.mixed {
				t.Errorf("mixed nesting %v, want %v", n.MixedNesting(), tt.mixed)
			}
		})
	}
	for _, bad := range []string{"[True]", "[1, 2", "1.0f16", "[1,, 2]", "vec!(1)", "abc"} {
		if _, err := ParseRustLiteral(bad); err == nil {
			t.Errorf("%q parsed, want an error", bad)
		}
	}
}

func TestParsePythonLiteral(t *testing.T) {
	tests := []struct {
		name, text string
		shape      []int
		kinds      []LiteralKind
	}{
		{"floats", "[1.0, 2.0]", []int{2}, []LiteralKind{LiteralFloat, LiteralFloat}},
		{"mixed nested", "[[1, 2], [3, 4.0]]", []int{2, 2}, []LiteralKind{LiteralInt, LiteralInt, LiteralInt, LiteralFloat}},
		{"scalar", "3.5", []int{}, []LiteralKind{LiteralFloat}},
		{"bools both spellings", "[true, False]", []int{2}, []LiteralKind{LiteralBool, LiteralBool}},
		{"exponent and nan", "[1e+20, nan]", []int{2}, []LiteralKind{LiteralFloat, LiteralFloat}},
		{"empty", "[]", []int{0}, nil},
		{"big int", "[2147483648]", []int{1}, []LiteralKind{LiteralInt}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			elems, shape, err := ParsePythonLiteral(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []LiteralKind
			for _, e := range elems {
				kinds = append(kinds, e.Kind)
			}
			if !reflect.DeepEqual(shape, tt.shape) || !reflect.DeepEqual(kinds, tt.kinds) {
				t.Errorf("shape %v kinds %v, want %v %v", shape, kinds, tt.shape, tt.kinds)
			}
		})
	}
	for _, bad := range []string{"[[1, 2], [3]]", "[1, 2", "[x]", "[1,, 2]", "1 2"} {
		if _, _, err := ParsePythonLiteral(bad); err == nil {
			t.Errorf("%q parsed, want an error", bad)
		}
	}
}
