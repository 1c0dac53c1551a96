package props

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

var scalarKinds = []tensor.ScalarKind{tensor.ScalarInt, tensor.ScalarFloat, tensor.ScalarBool, tensor.ScalarComplex}

// intTypes are the integer dtypes whose limits scalars and literals take.
var intTypes = []tensor.DType{tensor.U8, tensor.I8, tensor.I16, tensor.U16, tensor.I32, tensor.U32, tensor.I64, tensor.U64}

// floatTypes are the real float dtypes.
var floatTypes = []tensor.DType{tensor.F16, tensor.BF16, tensor.F32, tensor.F64}

// drawScalar draws a host scalar of kind k as a program would write it, at
// operand position pos of op: the op's special operands there, the limits
// of the integer and float dtypes and their neighbours, small values.
func drawScalar(d *draw, k tensor.ScalarKind, op string, pos int) *tensor.Scalar {
	s := &tensor.Scalar{Kind: k}
	switch k {
	case tensor.ScalarBool:
		s.Text = pick(d, []string{"true", "false"})
	case tensor.ScalarInt:
		s.Text = intText(d, op, pos)
	case tensor.ScalarComplex:
		s.Text = complexText(d, op, pos)
	default:
		s.Text = floatText(d, op, pos)
	}
	return s
}

// intText draws the decimal text of an integer: a special operand of op,
// a value at or next to an integer dtype's limit (2^64 and -2^63 - 1, which
// fit no dtype, included), a float dtype's integer limit, or a small value.
func intText(d *draw, op string, pos int) string {
	switch r := d.intn(8); {
	case r == 0:
		if sp := opSpecials(op, pos, tensor.I64); len(sp) > 0 {
			return strconv.FormatInt(int64(pick(d, sp)), 10)
		}
		fallthrough
	case r <= 3:
		t := pick(d, intTypes)
		if t.IsUnsigned() {
			v := t.MaxUint()
			switch d.intn(3) {
			case 0:
				return strconv.FormatUint(v, 10)
			case 1:
				return strconv.FormatUint(v-1, 10)
			}
			if v == math.MaxUint64 {
				return "18446744073709551616"
			}
			return strconv.FormatUint(v+1, 10)
		}
		lim := pick(d, []int64{t.MinInt(), t.MaxInt()})
		switch delta := d.between(-1, 1); {
		case lim == math.MinInt64 && delta < 0:
			return "-9223372036854775809"
		case lim == math.MaxInt64 && delta > 0:
			return "9223372036854775808"
		default:
			return strconv.FormatInt(lim+int64(delta), 10)
		}
	case r == 4:
		return pick(d, []string{"2048", "2049", "16777216", "16777217", "9007199254740993", "65504", "65520", "256", "257"})
	}
	return strconv.Itoa(d.between(-8, 8))
}

// floatText draws the text of a float: a special operand of op, a boundary
// value of a float dtype, a small half, or any finite f64.
func floatText(d *draw, op string, pos int) string {
	switch r := d.intn(8); {
	case r == 0:
		if sp := opSpecials(op, pos, tensor.F64); len(sp) > 0 {
			return formatFloat(math.Float64frombits(pick(d, sp)))
		}
		fallthrough
	case r <= 4:
		t := pick(d, floatTypes)
		x := tensor.FloatFromBits(pick(d, thePalette.all[t]), t)
		return formatFloat(x)
	case r == 5:
		return formatFloat(math.Float64frombits(rangeValue(d, tensor.F64)))
	}
	return formatFloat(float64(d.between(-16, 16)) / 2)
}

// complexText draws the text of a Python complex literal ("1.5+2j", "-0j",
// "nan+1j"): each part a float as floatText draws it, sometimes a pure
// imaginary number.
func complexText(d *draw, op string, pos int) string {
	im := floatText(d, op, pos)
	if d.oneIn(3) {
		return im + "j"
	}
	re := floatText(d, op, pos)
	if strings.HasPrefix(im, "-") {
		return re + im + "j"
	}
	return re + "+" + im + "j"
}

// formatFloat writes x as the case format's float text ("1.0", "-0.0",
// "1e+20", "nan", "inf").
func formatFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".en") {
		s += ".0"
	}
	return s
}

// syntax is the language a literal is written in.
type syntax int

const (
	pythonSyntax syntax = iota
	rustSyntax
)

// litForm is the form of a literal: its nesting and its element kind.
type litForm struct {
	nest litNest
	kind litKind
}

type litNest int

const (
	litScalar litNest = iota // 3.5
	litList                  // [1, 2]
	litNested                // [[1, 2], [3, 4]]
	litEmpty                 // []
	litRagged                // [[1, 2], [3]]
)

type litKind int

const (
	litBool litKind = iota
	litInt
	litFloat
	litMixed // elements of different kinds
)

// litForms lists every literal form.
var litForms = func() []litForm {
	var fs []litForm
	for n := litScalar; n <= litRagged; n++ {
		for k := litBool; k <= litMixed; k++ {
			fs = append(fs, litForm{n, k})
		}
	}
	return fs
}()

// probeText is the simplest literal of form f in syntax sx, to probe
// whether a profile accepts the form.
func (f litForm) probeText(sx syntax) string {
	elems := map[litKind][]string{litBool: {"true", "false"}, litInt: {"1", "2"}, litFloat: {"1.0", "2.0"}, litMixed: {"1", "2.0"}}[f.kind]
	if sx == pythonSyntax && f.kind == litBool {
		elems = []string{"True", "False"}
	}
	return f.text(elems)
}

// text writes elements (at least two) in form f.
func (f litForm) text(e []string) string {
	switch f.nest {
	case litScalar:
		return e[0]
	case litNested:
		return "[[" + e[0] + ", " + e[1] + "], [" + e[1] + ", " + e[0] + "]]"
	case litEmpty:
		return "[]"
	case litRagged:
		return "[[" + e[0] + ", " + e[1] + "], [" + e[0] + "]]"
	}
	return "[" + strings.Join(e, ", ") + "]"
}

// genLiteral draws the text of a literal in syntax sx, of one of forms (any
// when nil): elements at the limits of some dtype mostly, in Rust sometimes
// with a type suffix.
func genLiteral(d *draw, sx syntax, forms []litForm) string {
	if len(forms) == 0 {
		forms = litForms
	}
	f := pick(d, forms)
	var suffix string
	if sx == rustSyntax && f.kind != litBool && d.oneIn(3) {
		suffix = pick(d, []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"})
	}
	n := 2
	if f.nest == litList {
		n = d.between(2, 4)
	}
	elems := make([]string, n)
	for i := range elems {
		k := f.kind
		if k == litMixed {
			k = litKind(d.intn(3))
			if i == 0 {
				k = litInt // an int first, a float after: the typical mixed literal
			} else if i == 1 {
				k = litFloat
			}
		}
		elems[i] = literalElement(d, sx, k, suffix)
	}
	if f.nest == litList && d.oneIn(4) {
		elems = elems[:1] // a one-element list
		return "[" + elems[0] + "]"
	}
	return f.text(elems)
}

// literalElement draws one element of kind k.
func literalElement(d *draw, sx syntax, k litKind, suffix string) string {
	switch k {
	case litBool:
		if sx == pythonSyntax && d.coin() {
			return pick(d, []string{"True", "False"})
		}
		return pick(d, []string{"true", "false"})
	case litInt:
		text := intText(d, "", 0)
		if suffix != "" && suffix[0] != 'f' {
			text += suffix
		}
		return text
	}
	t := pick(d, floatTypes)
	x := tensor.FloatFromBits(pick(d, thePalette.all[t]), t)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		x = float64(d.between(-16, 16)) / 2 // no literal syntax for them
	}
	text := formatFloat(x)
	if suffix == "f32" || suffix == "f64" {
		text += suffix
	}
	return text
}

// arangeKinds are the kinds of arange bounds: both integers, both floats,
// or an integer start and a float end.
var arangeKinds = []litKind{litInt, litFloat, litMixed}

// genArangeBounds draws arange's start and end texts of kind k: short
// ranges, empty and reversed ones, often starting at or next to an integer
// limit (a range of one element at INT32_MAX + 1 is where an overflow check
// that skips short ranges shows) or at a float's integer limits.
func genArangeBounds(d *draw, k litKind) (start, end string) {
	ints := []string{"0", "1", "-2", "3", "5"}
	floats := []string{"0.0", "0.5", "2.5", "3.0", "-1.5"}
	if d.coin() {
		switch k {
		case litInt:
			return pick(d, ints), pick(d, ints)
		case litFloat:
			return pick(d, floats), pick(d, floats)
		}
		return pick(d, ints), pick(d, floats)
	}
	// start at a limit, end a few past it (or one before: empty)
	from, _ := new(big.Int).SetString(pick(d, arangeLimits), 10)
	to := new(big.Int).Add(from, big.NewInt(int64(d.between(-1, 3))))
	switch k {
	case litInt:
		return from.String(), to.String()
	case litFloat:
		half := ""
		if d.coin() {
			half = ".5"
		}
		return from.String() + half, to.String() + ".0"
	}
	return from.String(), to.String() + ".0"
}

// arangeLimits are the integer limits arange bounds start at: each signed
// type's MIN and MAX and their outer neighbours, the unsigned maxima and
// one past, and the first integers f32 and f64 do not hold.
var arangeLimits = func() []string {
	var out []string
	for _, t := range intTypes {
		if t.IsUnsigned() {
			m := new(big.Int).SetUint64(t.MaxUint())
			out = append(out, m.String(), new(big.Int).Add(m, big.NewInt(1)).String())
			continue
		}
		lo, hi := big.NewInt(t.MinInt()), big.NewInt(t.MaxInt())
		out = append(out, lo.String(), new(big.Int).Sub(lo, big.NewInt(1)).String(), hi.String(), new(big.Int).Add(hi, big.NewInt(1)).String())
	}
	return append(out, "16777216", "16777217", "9007199254740992", "9007199254740993")
}()
