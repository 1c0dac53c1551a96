package props

import (
	"math"
	"math/big"
	"slices"
	"sync"

	"github.com/tfuzz/tfuzz/tensor"
)

// The boundary palette: for each input dtype, the exact values at and one
// unit (one ulp) around every limit of every dtype that the input dtype can
// hold, so that a value where some conversion, overflow check or rounding
// changes behaviour is a likely draw (an f64 exactly one below INT32_MIN
// entering a 32-bit truncating conversion, f16's 65520 that rounds to inf,
// bf16's smallest subnormal).
//
// A limit is an exact number (math/big), so that the neighbours of limits
// float64 cannot hold (2^63 - 1, 2^64 - 1) are computed exactly too.

const limitPrec = 256

func bigInt(v *big.Int) *big.Float { return new(big.Float).SetPrec(limitPrec).SetInt(v) }
func bigF(x float64) *big.Float    { return new(big.Float).SetPrec(limitPrec).SetFloat64(x) }

// dtypeLimits returns the limits of d: MIN and MAX of an integer type; for a
// float type its largest finite value, the overflow threshold MAX + ulp/2
// (f16's 65520), its smallest subnormal and normal, its largest subnormal,
// 2^p (the first integer above which not every integer is exact; 2^24 for
// f32), and the tie 1 + 2^-p between 1 and its successor.
func dtypeLimits(d tensor.DType) []*big.Float {
	switch {
	case d == tensor.Bool:
		return []*big.Float{bigF(0), bigF(1)}
	case d.IsSigned():
		return []*big.Float{bigF(float64(d.MinInt())), bigF(float64(d.MaxInt()))}
	case d.IsUnsigned():
		max := new(big.Int).Lsh(big.NewInt(1), uint(d.Bits()))
		return []*big.Float{bigF(0), bigInt(max.Sub(max, big.NewInt(1)))}
	case d.IsFloat():
		p := map[tensor.DType]int{tensor.F16: 11, tensor.BF16: 8, tensor.F32: 24, tensor.F64: 53}[d]
		maxF := tensor.MaxFloat(d)
		ulpAtMax := math.Ldexp(1, math.Ilogb(maxF)-p+1)
		overflow := new(big.Float).SetPrec(limitPrec).Add(bigF(maxF), bigF(ulpAtMax/2))
		sub := tensor.FloatFromBits(1, d)
		normal := math.Ldexp(1, map[tensor.DType]int{tensor.F16: -14, tensor.BF16: -126, tensor.F32: -126, tensor.F64: -1022}[d])
		pow := math.Ldexp(1, p)
		tie := new(big.Float).SetPrec(limitPrec).Add(bigF(1), bigF(math.Ldexp(1, -p)))
		return []*big.Float{bigF(maxF), bigF(-maxF), overflow, new(big.Float).Neg(overflow), bigF(sub), bigF(-sub),
			bigF(normal), bigF(normal - sub), bigF(pow), bigF(-pow), tie}
	}
	return nil
}

// specialValues are in every palette that can hold them.
var specialValues = []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1, 1.0 / 3,
	math.Inf(1), math.Inf(-1), math.NaN()}

// palette holds, per dtype, the bit patterns of its boundary values, all
// together and by the dtype whose limit they neighbour.
type palette struct {
	all [tensor.C128 + 1][]uint64
	// near[d][t] are the values of d at and around the limits of t.
	near [tensor.C128 + 1][tensor.C128 + 1][]uint64
}

var thePalette = buildPalette()

func buildPalette() *palette {
	p := &palette{}
	for _, d := range tensor.AllDTypes {
		if d.IsComplex() {
			continue // complex elements draw each part from the component's palette
		}
		seen := map[uint64]bool{}
		add := func(t tensor.DType, bits uint64) {
			if !slices.Contains(p.near[d][t], bits) {
				p.near[d][t] = append(p.near[d][t], bits)
			}
			if !seen[bits] {
				seen[bits] = true
				p.all[d] = append(p.all[d], bits)
			}
		}
		for _, x := range specialValues {
			for _, b := range valuesAround(d, bigFOrNaN(x)) {
				add(tensor.Invalid, b)
			}
		}
		for _, t := range tensor.AllDTypes {
			if t.IsComplex() {
				continue
			}
			for _, l := range dtypeLimits(t) {
				for _, b := range valuesAround(d, l) {
					add(t, b)
				}
			}
		}
	}
	for _, d := range []tensor.DType{tensor.C64, tensor.C128} {
		p.all[d] = p.all[d.Component()]
		p.near[d] = p.near[d.Component()]
	}
	return p
}

func bigFOrNaN(x float64) *big.Float {
	if math.IsNaN(x) {
		return nil
	}
	return bigF(x)
}

// valuesAround returns the bit patterns of the values of d at l (if d holds
// it exactly) and nearest to it on either side: l-1, l, l+1 for an integer
// type, the float neighbours of l for a float type. nil l stands for NaN.
func valuesAround(d tensor.DType, l *big.Float) []uint64 {
	if d == tensor.Bool {
		if l != nil && (l.Cmp(bigF(0)) == 0 || l.Cmp(bigF(1)) == 0) {
			v, _ := l.Int64()
			return []uint64{uint64(v)}
		}
		return nil
	}
	if d.IsInt() {
		if l == nil || l.IsInf() || !l.IsInt() {
			return nil
		}
		v, _ := l.Int(nil)
		var out []uint64
		for _, delta := range []int64{-1, 0, 1} {
			w := new(big.Int).Add(v, big.NewInt(delta))
			if bits, ok := intBits(w, d); ok {
				out = append(out, bits)
			}
		}
		return out
	}
	if l == nil {
		return []uint64{tensor.FloatBits(math.NaN(), d)}
	}
	if l.IsInf() {
		return []uint64{tensor.FloatBits(math.Inf(l.Sign()), d)}
	}
	x, _ := l.Float64()
	r := tensor.RoundFloat(x, d)
	var below, above float64
	switch cmpExact(r, l) {
	case 0:
		if r == 0 { // -0 and +0 are limits of their own; 0's neighbours are the subnormals
			return []uint64{tensor.FloatBits(r, d)}
		}
		return bitsOf(d, r, nextFloat(r, d, -1), nextFloat(r, d, +1))
	case -1:
		below, above = r, nextFloat(r, d, +1)
	default:
		below, above = nextFloat(r, d, -1), r
	}
	return bitsOf(d, below, above)
}

func bitsOf(d tensor.DType, xs ...float64) []uint64 {
	var out []uint64
	for _, x := range xs {
		if b := tensor.FloatBits(x, d); !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// cmpExact compares the float64 r (maybe ±inf) with the finite l.
func cmpExact(r float64, l *big.Float) int {
	if math.IsInf(r, 0) {
		return int(math.Copysign(1, r))
	}
	return bigF(r).Cmp(l)
}

// nextFloat returns the value of d after x in direction dir (+1 up, -1
// down), saturating at ±inf.
func nextFloat(x float64, d tensor.DType, dir int) float64 {
	if math.IsInf(x, dir) {
		return x
	}
	w := d.Bits()
	b := tensor.FloatBits(x, d)
	neg := b>>(w-1)&1 == 1
	mag := b &^ (1 << (w - 1))
	switch {
	case mag == 0 && dir < 0:
		b = 1<<(w-1) | 1 // below ±0: the negative smallest subnormal
	case mag == 0:
		b = 1
	case neg == (dir < 0):
		b++ // away from zero
	default:
		b--
	}
	return tensor.FloatFromBits(b, d)
}

// intBits returns v as a bit pattern of the integer dtype d, if it fits.
func intBits(v *big.Int, d tensor.DType) (uint64, bool) {
	if d.IsSigned() {
		if !v.IsInt64() || v.Int64() < d.MinInt() || v.Int64() > d.MaxInt() {
			return 0, false
		}
		return uint64(v.Int64()) & (^uint64(0) >> (64 - d.Bits())), true
	}
	if v.Sign() < 0 || !v.IsUint64() || v.Uint64() > d.MaxUint() {
		return 0, false
	}
	return v.Uint64(), true
}

// Per-op special operands: values an op treats specially, drawn often for
// the operand where they matter.
var (
	divisorOps = []string{"div", "floor_div", "trunc_div", "rem", "fmod"}
	// divisors: a zero divisor, ±1 (MIN / -1), -0.0.
	divisorValues = []float64{0, 1, -1, math.Copysign(0, -1)}
	// powExponents: the exponents pow implementations special-case (1/sqrt
	// for -0.5, sqrt for 0.5, a multiply for 2 and 3, a reciprocal for -1).
	powExponents = []float64{-1, -0.5, 0, 0.5, 1, 2, 3, -2}
)

// opSpecials returns the bit patterns of d that op treats specially in its
// operand arg (0 first, 1 second), or nil. The slice is shared: callers
// only read it.
func opSpecials(op string, arg int, d tensor.DType) []uint64 {
	if t := specialsTable()[op]; t != nil && arg < len(t) {
		return t[arg][d]
	}
	return computeOpSpecials(op, arg, d)
}

// specialsTable holds the opSpecials of every catalog op, operand and
// dtype, computed once: every tensor a draw makes asks for them.
var specialsTable = sync.OnceValue(func() map[string]*[3][numDTypes][]uint64 {
	table := map[string]*[3][numDTypes][]uint64{}
	for _, op := range tensor.Ops {
		t := new([3][numDTypes][]uint64)
		for arg := range t {
			for _, d := range tensor.AllDTypes {
				t[arg][d] = computeOpSpecials(op.Name, arg, d)
			}
		}
		table[op.Name] = t
	}
	return table
})

func computeOpSpecials(op string, arg int, d tensor.DType) []uint64 {
	var xs []float64
	switch {
	case arg == 1 && slices.Contains(divisorOps, op):
		xs = divisorValues
	case arg == 0 && slices.Contains(divisorOps, op) && d.IsSigned():
		return []uint64{uint64(d.MinInt()) & (^uint64(0) >> (64 - d.Bits()))} // MIN, for MIN / -1
	case arg == 1 && op == "pow":
		xs = powExponents
	case arg == 0 && op == "pow":
		xs = []float64{0, math.Copysign(0, -1), 1, -1, -2, math.Inf(1), math.Inf(-1), math.NaN()}
	case arg == 1 && (op == "shift_left" || op == "shift_right") && d.IsInt():
		xs = shiftCounts(d) // gen_newops_a.go
	case (op == "mul" || op == "add" || op == "sub") && d.IsInt():
		return overflowOperands(op, d)
	case arg == 0 && (op == "sort" || op == "argsort") && (d.IsFloat() || d.IsComplex()):
		xs = sortSpecials // gen_sort.go
	default:
		return nil
	}
	var out []uint64
	for _, x := range xs {
		out = append(out, valuesAt(d, x)...)
	}
	return out
}

// overflowOperands are the integer operands whose sums and products land
// exactly on the overflow bound of d or one past it: MIN, MAX, ±1 and, for
// mul, -1 (MIN * -1), ±2 and the powers of two 2^(w/2-1) and 2^(w/2) with
// their negatives (2^31 * 2^32 = 2^63: one past i64's MAX, while -2^31 *
// 2^32 is MIN itself). Both operands draw them, so that a pair meets.
func overflowOperands(op string, d tensor.DType) []uint64 {
	xs := []float64{1, -1}
	if op == "mul" {
		h := float64(d.Bits() / 2)
		xs = append(xs, 2, -2, math.Exp2(h-1), -math.Exp2(h-1), math.Exp2(h), -math.Exp2(h))
	}
	var out []uint64
	for _, x := range xs {
		out = append(out, valuesAt(d, x)...)
	}
	if d.IsSigned() {
		out = append(out, uint64(d.MinInt())&(^uint64(0)>>(64-d.Bits())), uint64(d.MaxInt()))
	} else {
		out = append(out, d.MaxUint())
	}
	return out
}

// valuesAt returns the bit pattern of x in d when d holds x exactly.
func valuesAt(d tensor.DType, x float64) []uint64 {
	switch {
	case d == tensor.Bool:
		if x == 0 || x == 1 {
			return []uint64{uint64(x)}
		}
	case d.IsInt():
		if !math.IsInf(x, 0) && x == math.Trunc(x) {
			if b, ok := intBits(big.NewInt(int64(x)), d); ok {
				return []uint64{b}
			}
		}
	case d.IsFloat(), d.IsComplex():
		d = d.Component()
		if r := tensor.RoundFloat(x, d); r == x || math.IsNaN(x) {
			return []uint64{tensor.FloatBits(x, d)}
		}
	}
	return nil
}
