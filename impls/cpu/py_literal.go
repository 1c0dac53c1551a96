package cpu

import (
	"errors"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Python literals, as from_literal writes them for PyTorch, NumPy and JAX:
// "[1.0, 2.0]", "[[1, 2], [3, 4.0]]", "3.5", "[true, False]",
// "[1e+20, nan]". Lists of one level must have one shape (torch.tensor and
// np.array reject ragged nesting: policy python.create.literal-shape). The
// reader is one left-to-right pass (nesting.go) that decodes each number as
// it goes.

// pyNumber is one element of a Python literal.
type pyNumber struct {
	kind  tensor.ScalarKind // ScalarBool, ScalarInt or ScalarFloat
	truth bool
	neg   bool   // an int's sign
	mag   uint64 // an int's magnitude
	huge  bool   // an int beyond ±(2^64 - 1)
	f     float64
	text  string // as written
}

var errPySyntax = errors.New("not a Python literal")

// readPythonLiteral returns the elements of text in row-major order and the
// shape. Text that is not a literal of numbers and bools, ragged nesting,
// and a literal nested deeper than tensor.MaxRank or larger than
// tensor.MaxElements are errors.
func readPythonLiteral(text string) ([]pyNumber, []int, error) {
	var nums []pyNumber
	nest := newNesting()
	i := 0
	space := func() {
		for i < len(text) && strings.IndexByte(" \t\n\r", text[i]) >= 0 {
			i++
		}
	}
items:
	for {
		space()
		if i < len(text) && text[i] == '[' {
			if err := nest.openList(false); err != nil {
				return nil, nil, err
			}
			i++
			if space(); i == len(text) || text[i] != ']' {
				continue // the list's first item
			}
			i++
			nest.closeList()
		} else {
			end := i
			for end < len(text) && strings.IndexByte("[], \t\n\r", text[end]) < 0 {
				end++
			}
			num, ok := pyWord(text[i:end])
			if !ok {
				return nil, nil, errPySyntax
			}
			if err := nest.scalar(); err != nil {
				return nil, nil, err
			}
			nums = append(nums, num)
			i = end
		}
		for {
			space()
			switch {
			case nest.depth() == 0:
				if i != len(text) {
					return nil, nil, errPySyntax
				}
				if nest.ragged {
					return nil, nil, errors.New("ragged nesting (expected sequences of one shape)")
				}
				return nums, nest.shape, nil
			case i < len(text) && text[i] == ',':
				i++
				continue items
			case i < len(text) && text[i] == ']':
				i++
				nest.closeList()
			default:
				return nil, nil, errPySyntax
			}
		}
	}
}

// pyWord decodes one element: True/true, False/false, an int (a sign and
// decimal digits), or a float (any word with '.', an exponent, inf or nan,
// in the case format's float syntax).
func pyWord(w string) (pyNumber, bool) {
	switch w {
	case "true", "True":
		return pyNumber{kind: tensor.ScalarBool, truth: true, f: 1, text: "true"}, true
	case "false", "False":
		return pyNumber{kind: tensor.ScalarBool, text: "false"}, true
	case "":
		return pyNumber{}, false
	}
	if strings.ContainsAny(w, ".eEnN") {
		f, err := tensor.ParseFloatText(w)
		return pyNumber{kind: tensor.ScalarFloat, f: f, text: w}, err == nil
	}
	n := pyNumber{kind: tensor.ScalarInt, text: w}
	digits := w
	if w[0] == '+' || w[0] == '-' {
		n.neg, digits = w[0] == '-', w[1:]
	}
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return n, false
	}
	var err error
	n.mag, err = strconv.ParseUint(digits, 10, 64)
	n.huge = err != nil
	n.f, _ = strconv.ParseFloat(w, 64) // correctly rounded; ±inf beyond float64
	if n.mag == 0 && !n.huge {
		n.f = 0 // a Python int: -0 is 0
	}
	return n, true
}
