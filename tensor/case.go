package tensor

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Case is one tensor operation with its inputs: the unit that generators
// produce, implementations evaluate, shrinking minimizes and the corpus stores.
type Case struct {
	ID     string
	Format int // the "format" field: 0 when absent (format 1), 1, or 2 for a program
	Op     string
	Args   []Arg // a program's inputs
	Attrs  Attrs
	Steps  []Step   // a program's ops (format 2; program.go)
	Expect Outcomes // expected outcome per profile
	Got    Outcomes // outcomes computed by a tool (tfuzz eval --json); an addition to v1
	Source string
	Group  string
	Extra  []RawField // unknown top-level fields, preserved in order
}

// RawField is a top-level field the codec does not know, kept verbatim.
type RawField struct {
	Name  string
	Value json.RawMessage
}

// Arg is one input: a tensor or a host scalar.
type Arg struct {
	Tensor *Tensor
	Scalar *Scalar
	// Result marks a tensor that is the result of an earlier step of a
	// program (Case.StepCase): a tensor of the framework already, not host
	// data handed to its constructor. Never encoded.
	Result bool
}

// IsScalar reports whether the argument is a host scalar.
func (a Arg) IsScalar() bool { return a.Scalar != nil }

// IsNull reports whether the argument is JSON null: an optional operand not
// given (clamp's min or max), neither a tensor nor a scalar.
func (a Arg) IsNull() bool { return a.Tensor == nil && a.Scalar == nil }

func (a Arg) String() string { return a.format(20) }

func (a Arg) format(limit int) string {
	if a.IsNull() {
		return "null"
	}
	if a.Scalar != nil {
		return a.Scalar.String()
	}
	return a.Tensor.format(limit)
}

// ScalarKind is the kind of a host-language scalar literal.
type ScalarKind string

const (
	ScalarFloat ScalarKind = "float"
	ScalarInt   ScalarKind = "int"
	ScalarBool  ScalarKind = "bool"
	// ScalarComplex is a Python complex literal, its text in complex()
	// syntax ("1.5+2j", "-0j") (case format, added 2026-12).
	ScalarComplex ScalarKind = "complex"
)

// HostTypes are the static types a scalar's host variable may have: the
// primitive number types of Rust (and bool). Repro programs declare the
// variable with it, so a case file cannot put anything else there.
var HostTypes = []string{"f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize",
	"u8", "u16", "u32", "u64", "u128", "usize", "bool"}

// Scalar is a host-language scalar operand, as written in the source program.
type Scalar struct {
	Text string     // the literal's text: "0.5", "300", "true", "1.5+2j"
	Kind ScalarKind // float, int, bool or complex
	Host string     // optional static type of the host variable ("f64", "f32", "i32")
}

func (s *Scalar) String() string {
	if s.Host != "" {
		return fmt.Sprintf("%s scalar %s (%s)", s.Kind, s.Text, s.Host)
	}
	return fmt.Sprintf("%s scalar %s", s.Kind, s.Text)
}

// Complex returns the value of a complex scalar, or of any other as a
// complex number with a +0 imaginary part.
func (s *Scalar) Complex() complex128 {
	if s.Kind == ScalarComplex {
		v, _ := ParseComplexText(s.Text)
		return v
	}
	return complex(s.Float(), 0)
}

// Float returns the scalar's value as float64 (bool: 0 or 1; complex: NaN,
// a complex scalar has no real value: use Complex).
func (s *Scalar) Float() float64 {
	switch s.Kind {
	case ScalarBool:
		if s.Text == "true" {
			return 1
		}
		return 0
	case ScalarComplex:
		return math.NaN()
	}
	v, _ := ParseFloatText(s.Text)
	return v
}

// Attrs are the op parameters of a case. Pointer and zero fields are absent.
type Attrs struct {
	Dim           *int
	Keepdim       *bool
	Descending    *bool  // sort, argsort (absent: false)
	Stable        *bool  // sort, argsort (absent: false)
	To            DType  // cast target
	Mode          string // cast: "cast" (default) or "convert"
	Literal       *string
	Start, End    *string
	Value         *string // full: the fill value's literal text
	Shape         []int   // zeros, from_vec
	DType         DType   // to_host element type, zeros dtype
	Rank          *int    // to_host
	ToleranceULPs int     // elements match within this many ulps
}

// KeepDim reports the keepdim attr (false when absent).
func (a Attrs) KeepDim() bool { return a.Keepdim != nil && *a.Keepdim }

func (a Attrs) String() string { return a.string(false) }

// string writes the attrs in the case notation; in a program's step a
// literal holding ';' is quoted, since ';' ends the step there.
func (a Attrs) string(inStep bool) string {
	var parts []string
	if a.Dim != nil {
		parts = append(parts, fmt.Sprintf("dim=%d", *a.Dim))
	}
	if a.Keepdim != nil {
		parts = append(parts, fmt.Sprintf("keepdim=%t", *a.Keepdim))
	}
	parts = a.sortAttrParts(parts)
	if a.To.Valid() {
		parts = append(parts, "to="+a.To.String())
	}
	if a.Mode != "" {
		parts = append(parts, "mode="+a.Mode)
	}
	if a.Literal != nil {
		parts = append(parts, "literal="+attrText(*a.Literal, inStep))
	}
	if a.Start != nil {
		parts = append(parts, "start="+attrText(*a.Start, inStep))
	}
	if a.End != nil {
		parts = append(parts, "end="+attrText(*a.End, inStep))
	}
	if a.Value != nil {
		parts = append(parts, "value="+attrText(*a.Value, inStep))
	}
	if a.Shape != nil {
		parts = append(parts, fmt.Sprintf("shape=%v", a.Shape))
	}
	if a.DType.Valid() {
		parts = append(parts, "dtype="+a.DType.String())
	}
	if a.Rank != nil {
		parts = append(parts, fmt.Sprintf("rank=%d", *a.Rank))
	}
	if a.ToleranceULPs != 0 {
		parts = append(parts, fmt.Sprintf("tolerance_ulps=%d", a.ToleranceULPs))
	}
	return strings.Join(parts, " ")
}

// Describe renders the case on one line in the case notation (ParseCase
// reads it back), eliding the elements of tensors of over 20:
// "div(i64[4] [-7, -7, 7, 7], i64[4] [2, -2, 2, -2])", "sum(u8[2] [200, 100]) dim=0".
func (c *Case) Describe() string { return c.describe(20) }

func (c *Case) describe(limit int) string {
	if c.IsProgram() {
		return c.describeProgram(limit)
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.format(limit)
	}
	s := c.Op + "(" + strings.Join(args, ", ") + ")"
	if at := c.Attrs.String(); at != "" {
		s += " " + at
	}
	return s
}

// Int returns an int scalar's exact value.
func (s *Scalar) Int() *big.Int {
	v, ok := parseBigInt(s.Text)
	if !ok {
		return new(big.Int)
	}
	return v
}
