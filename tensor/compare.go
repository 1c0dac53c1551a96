package tensor

import (
	"fmt"
	"math"
)

// Divergence names how two outcomes differ; together with the profile, op
// and dtypes it forms a finding's signature.
type Divergence string

const (
	Same           Divergence = ""
	DiffForm       Divergence = "form"        // value vs error, panic vs crash, ...
	DiffErrorClass Divergence = "error-class" // both errors, different classes
	DiffSignal     Divergence = "signal"      // both crashes, different signals
	DiffDType      Divergence = "dtype"
	DiffShape      Divergence = "shape"
	DiffValue      Divergence = "value"     // some element differs in value
	DiffNaN        Divergence = "nan"       // NaN on one side only
	DiffZeroSign   Divergence = "zero-sign" // -0.0 against 0.0
)

// Comparison is the result of comparing an expected outcome with an actual one.
type Comparison struct {
	Divergence Divergence // Same when they match
	Detail     string     // what differs, for a person
	Element    int        // first differing element, -1 if none
	Mismatched int        // number of differing elements
	// ThroughUnspecified counts the elements that matched only because one
	// side is "?", so that an unspecified element cannot hide a wrong model.
	ThroughUnspecified int
}

// Match reports whether the outcomes match.
func (c Comparison) Match() bool { return c.Divergence == Same }

// Compare compares outcomes as case format v1 defines it: the same form; for
// values the same dtype, shape and elements (integers and bools exactly,
// floats bit-exactly except that any NaN matches any NaN, -0.0 does not match
// 0.0, "?" matches anything, and with toleranceULPs > 0 floats match within
// that many units in the last place); for errors the same class; for crashes
// the same signal. Messages, warnings and rules are not compared.
func Compare(want, got Outcome, toleranceULPs int) Comparison {
	c := Comparison{Element: -1}
	if want.Form != got.Form {
		c.Divergence = DiffForm
		c.Detail = fmt.Sprintf("want %s, got %s", want.Form, got.Form)
		return c
	}
	switch want.Form {
	case FormError:
		if want.Class != got.Class {
			c.Divergence = DiffErrorClass
			c.Detail = fmt.Sprintf("want error class %s, got %s", want.Class, got.Class)
		}
	case FormCrash:
		if want.Signal != got.Signal {
			c.Divergence = DiffSignal
			c.Detail = fmt.Sprintf("want signal %s, got %s", want.Signal, got.Signal)
		}
	case FormValue:
		compareValues(&c, want.Value, got.Value, toleranceULPs)
	}
	return c
}

func compareValues(c *Comparison, want, got *Tensor, tol int) {
	if want.DType != got.DType {
		c.Divergence = DiffDType
		c.Detail = fmt.Sprintf("want dtype %s, got %s", want.DType, got.DType)
		return
	}
	if !equalShapes(want.Shape, got.Shape) {
		c.Divergence = DiffShape
		c.Detail = fmt.Sprintf("want shape %v, got %v", want.Shape, got.Shape)
		return
	}
	for i := 0; i < want.Len(); i++ {
		if want.IsUnspecified(i) || got.IsUnspecified(i) {
			c.ThroughUnspecified++
			continue
		}
		d := elementDivergence(want, got, i, tol)
		if d == Same {
			continue
		}
		c.Mismatched++
		if c.Element < 0 {
			c.Element = i
			c.Divergence = d
			c.Detail = fmt.Sprintf("element %d: want %s, got %s", i, want.ElementString(i), got.ElementString(i))
		}
	}
	if c.Mismatched > 1 {
		c.Detail += fmt.Sprintf(" (%d of %d elements differ)", c.Mismatched, want.Len())
	}
}

func equalShapes(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func elementDivergence(want, got *Tensor, i int, tol int) Divergence {
	d := want.DType
	if !d.IsFloat() && !d.IsComplex() {
		if want.Bits(i) != got.Bits(i) {
			return DiffValue
		}
		return Same
	}
	if d.IsComplex() {
		w, g := want.Complex(i), got.Complex(i)
		if dv := floatDivergence(real(w), real(g), d.Component(), tol); dv != Same {
			return dv
		}
		return floatDivergence(imag(w), imag(g), d.Component(), tol)
	}
	return floatDivergence(want.Float(i), got.Float(i), d, tol)
}

func floatDivergence(w, g float64, d DType, tol int) Divergence {
	wn, gn := math.IsNaN(w), math.IsNaN(g)
	switch {
	case wn && gn:
		return Same
	case wn != gn:
		return DiffNaN
	case math.Float64bits(w) == math.Float64bits(g):
		return Same
	case tol > 0 && ULPDistance(w, g, d) <= uint64(tol):
		return Same
	case w == 0 && g == 0:
		return DiffZeroSign
	}
	return DiffValue
}
