package props

import (
	"math"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

var scalarKinds = []tensor.ScalarKind{tensor.ScalarInt, tensor.ScalarFloat, tensor.ScalarBool}

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

// genLiteral draws the text of a literal in syntax sx: a scalar, a list of
// up to four elements, a 2x2 nest, an empty or a ragged list; elements are
// integers, floats or bools, mostly at the limits of some dtype, sometimes
// mixed, and in Rust sometimes with a type suffix.
func genLiteral(d *draw, sx syntax) string {
	elem := literalElement(d, sx)
	switch d.intn(8) {
	case 0:
		return elem()
	case 1:
		return "[]"
	case 2:
		return "[[" + elem() + ", " + elem() + "], [" + elem() + ", " + elem() + "]]"
	case 3:
		return "[[" + elem() + ", " + elem() + "], [" + elem() + "]]" // ragged
	}
	parts := make([]string, d.between(1, 4))
	for i := range parts {
		parts[i] = elem()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// literalElement returns a function drawing one element of a literal:
// integers, floats or bools (fixed per literal, or mixed one time in four).
func literalElement(d *draw, sx syntax) func() string {
	kind := d.intn(4)
	var suffix string
	if sx == rustSyntax && d.oneIn(3) {
		suffix = pick(d, []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"})
	}
	return func() string {
		k := kind
		if k == 3 {
			k = d.intn(3)
		}
		switch k {
		case 0:
			if sx == pythonSyntax && d.oneIn(2) {
				return pick(d, []string{"True", "False"})
			}
			return pick(d, []string{"true", "false"})
		case 1:
			text := intText(d, "", 0)
			if suffix != "" {
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
}

// genArangeBounds draws arange's start and end texts: integers or floats,
// short ranges, empty and reversed ones.
func genArangeBounds(d *draw) (start, end string) {
	ints := []string{"0", "1", "-2", "3", "5"}
	floats := []string{"0.0", "0.5", "2.5", "3.0", "-1.5"}
	start, end = pick(d, ints), pick(d, ints)
	if d.coin() {
		start = pick(d, floats)
	}
	if d.coin() {
		end = pick(d, floats)
	}
	return start, end
}
