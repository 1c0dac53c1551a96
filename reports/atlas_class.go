package reports

import (
	"sort"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// ClassKey groups the divergences between two profiles: the op, the kinds of
// its inputs, and how the outcomes differ. Where one side has no spelling of
// the case (an unsupported outcome), the kinds only multiply one fact ("candle
// has no i8, bool or complex dtype"), so such a class is the op, the rules
// that make that side unsupported, and the divergence.
type ClassKey struct {
	Op         string // an op of the catalog, or "program " and a program's ops ("program cast>sum")
	Inputs     string // "signed, float scalar", "float -> unsigned", "literal int"; "" with Reason
	Divergence string // "value", "dtype", "form value/unsupported", "error-class", ...
	Reason     string // the unsupported side's rules, comma-separated
}

func (k ClassKey) String() string {
	if k.Reason != "" {
		return k.Op + " " + k.Divergence + " (" + k.Reason + ")"
	}
	return k.Op + "(" + k.Inputs + ") " + k.Divergence
}

// Section is the part of an atlas a divergence belongs to.
type Section int

const (
	SectionValues      Section = iota // same form and dtype, other values
	SectionDTypes                     // values of another dtype or shape
	SectionFails                      // a value on one side, an error, panic or crash on the other
	SectionFailsOther                 // both fail, differently
	SectionUnsupported                // the op (or this use of it) exists on one side only
)

var sectionTitles = [...]string{
	SectionValues:      "Same operation, different values",
	SectionDTypes:      "Different result dtype or shape",
	SectionFails:       "A value on one side, a failure on the other",
	SectionFailsOther:  "Both fail, differently",
	SectionUnsupported: "Available on one side only",
}

var sectionIntros = [...]string{
	SectionValues:      "Both sides give a tensor of the same dtype and shape, but some elements differ: the silent hazards.",
	SectionDTypes:      "Both sides give a tensor, of a different dtype or shape: code that reads the result back as one type breaks or converts silently.",
	SectionFails:       "One side computes a tensor where the other raises an error, panics or dies.",
	SectionFailsOther:  "Neither side computes a tensor, but they fail differently: another error class, an error against a panic or a crash, or a failure against an op that does not exist there.",
	SectionUnsupported: "One side has no spelling of the operation for these inputs (no such op, no such dtype, the program does not compile).",
}

// Section returns the section of the class.
func (k ClassKey) Section() Section {
	switch k.Divergence {
	case string(tensor.DiffValue), string(tensor.DiffNaN), string(tensor.DiffZeroSign):
		return SectionValues
	case string(tensor.DiffDType), string(tensor.DiffShape):
		return SectionDTypes
	case string(tensor.DiffErrorClass), string(tensor.DiffSignal):
		return SectionFailsOther
	}
	if strings.Contains(k.Divergence, "unsupported") {
		if strings.Contains(k.Divergence, "value") {
			return SectionUnsupported
		}
		return SectionFailsOther
	}
	if strings.Contains(k.Divergence, "value") {
		return SectionFails
	}
	return SectionFailsOther
}

// classKey is the class of a divergence of case c between two outcomes.
func classKey(c *tensor.Case, from, to tensor.Outcome) ClassKey {
	cmp := tensor.Compare(from, to, c.Tolerance())
	div := string(cmp.Divergence)
	if cmp.Divergence == tensor.DiffForm {
		div = "form " + from.Form.String() + "/" + to.Form.String()
		for _, o := range []tensor.Outcome{from, to} {
			if o.Form == tensor.FormUnsupported {
				return ClassKey{Op: classOp(c), Divergence: div, Reason: strings.Join(o.Rules, ", ")}
			}
		}
	}
	return ClassKey{Op: classOp(c), Inputs: inputKinds(c), Divergence: div}
}

// classOp names what a case runs: its op, or a program's ops ("cast>sum").
func classOp(c *tensor.Case) string {
	if c.IsProgram() {
		return "program " + strings.Join(c.Ops(), ">")
	}
	return c.Op
}

// inputKinds names the kinds of a case's inputs: the kinds of its tensor
// operands, sorted and without repeats ("signed", "float+signed"), then a
// host scalar's kind, an index's kind, a cast's target kind, a literal's kind.
func inputKinds(c *tensor.Case) string {
	var kinds, extra []string
	seen := map[string]bool{}
	for i, a := range c.Args {
		switch {
		case a.IsNull():
			extra = append(extra, "null bound")
		case a.Scalar != nil:
			extra = append(extra, string(a.Scalar.Kind)+" scalar")
		case c.Op == "index_select" && i == 1:
			extra = append(extra, "index "+a.Tensor.DType.Kind().String())
		case c.Op == "mask_select" && i == 1:
			extra = append(extra, maskKind(a.Tensor)) // repro_sort.go
		default:
			k := a.Tensor.DType.Kind().String()
			if a.Tensor.View != nil {
				k += " view"
			}
			if !seen[k] {
				seen[k] = true
				kinds = append(kinds, k)
			}
		}
	}
	sort.Strings(kinds)
	s := strings.Join(kinds, "+")
	at := c.Attrs
	switch c.Op {
	case "cast":
		if at.To.Valid() {
			s += " -> " + at.To.Kind().String()
		}
	case "to_host":
		if at.DType.Valid() {
			s += " as " + at.DType.Kind().String()
		}
	case "from_literal":
		if at.Literal != nil {
			extra = append(extra, "literal "+literalKind(*at.Literal))
		}
	case "arange":
		if at.Start != nil && at.End != nil {
			extra = append(extra, "literals "+literalKind(*at.Start)+", "+literalKind(*at.End))
		}
	case "sort", "argsort":
		extra = append(extra, sortAttrKinds(at)...) // repro_sort.go
	case "matmul", "cat":
		extra = append(extra, matmulCatKind(c)) // repro_matmul.go
	case "zeros":
		if at.DType.Valid() {
			extra = append(extra, "dtype "+at.DType.Kind().String())
		} else {
			extra = append(extra, "default dtype")
		}
	}
	if s == "" {
		return strings.Join(extra, ", ")
	}
	return strings.Join(append([]string{s}, extra...), ", ")
}

// literalKind is the kind of a literal's elements: bool, int, float, mixed, empty.
func literalKind(text string) string {
	t := strings.ToLower(text)
	hasBool := strings.Contains(t, "true") || strings.Contains(t, "false")
	rest := strings.NewReplacer("true", "", "false", "", "vec!", "").Replace(t)
	hasFloat := strings.ContainsAny(rest, ".e") || strings.Contains(rest, "nan") || strings.Contains(rest, "inf") ||
		strings.Contains(rest, "f32") || strings.Contains(rest, "f64")
	hasDigit := strings.ContainsAny(rest, "0123456789")
	switch {
	case hasBool && (hasFloat || hasDigit):
		return "mixed"
	case hasBool:
		return "bool"
	case hasFloat:
		return "float"
	case hasDigit:
		return "int"
	}
	return "empty"
}
