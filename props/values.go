package props

import (
	"math"

	"github.com/tfuzz/tfuzz/tensor"
)

// bias steers the values drawn for one operand: the op's special operands
// for it (a divisor's 0 and ±1, pow's exponents), and the dtype whose limits
// matter most to the op (a cast's target).
type bias struct {
	specials []uint64     // bit patterns of the operand's dtype (component dtype for complex)
	target   tensor.DType // tensor.Invalid: none
}

// setElement draws element i of x: a special operand, a boundary value (of
// the bias's target dtype half the time), a small value, a value anywhere in
// the dtype's range, or any bit pattern.
func (d *draw) setElement(x *tensor.Tensor, i int, b bias) {
	switch {
	case x.DType == tensor.Bool:
		x.SetBits(i, d.word()&1)
	case x.DType.IsComplex():
		c := x.DType.Component()
		re := tensor.FloatFromBits(d.valueBits(c, b), c)
		im := tensor.FloatFromBits(d.valueBits(c, bias{}), c)
		x.SetComplex(i, complex(re, im))
	default:
		x.SetBits(i, d.valueBits(x.DType, b))
	}
}

// valueBits draws the bit pattern of one value of the real dtype dt.
func (d *draw) valueBits(dt tensor.DType, b bias) uint64 {
	r := d.intn(20)
	switch {
	case r < 3 && len(b.specials) > 0:
		return pick(d, b.specials)
	case r < 10:
		if b.target.Valid() && d.coin() {
			if near := thePalette.near[dt][b.target.Component()]; len(near) > 0 {
				return pick(d, near)
			}
		}
		return pick(d, thePalette.all[dt])
	case r < 14:
		return smallValue(d, dt)
	case r < 17:
		return rangeValue(d, dt)
	}
	w := d.word()
	if dt.Bits() < 64 {
		w &= 1<<dt.Bits() - 1
	}
	return w
}

// smallValue draws an integer in [-8, 8] (as far as dt holds it), or for a
// float a multiple of 1/2 in [-8, 8].
func smallValue(d *draw, dt tensor.DType) uint64 {
	v := int64(d.between(-16, 16))
	if dt.IsFloat() {
		return tensor.FloatBits(float64(v)/2, dt)
	}
	v /= 2
	if dt.IsUnsigned() && v < 0 {
		v = -v
	}
	return uint64(v) & (^uint64(0) >> (64 - dt.Bits()))
}

// rangeValue draws an integer anywhere in dt's range, or a float with a
// random significand and an exponent within ±40 (finite in every float
// dtype but f16, where it overflows to ±inf now and then).
func rangeValue(d *draw, dt tensor.DType) uint64 {
	if dt.IsInt() {
		return d.word() & (^uint64(0) >> (64 - dt.Bits()))
	}
	frac := float64(d.word()>>11) / (1 << 53) // [0, 1)
	x := math.Ldexp(1+frac, d.between(-40, 40))
	if d.coin() {
		x = -x
	}
	return tensor.FloatBits(x, dt)
}

// fillElements draws every element of x: each on its own, or, one time in
// fewValuesOneIn, from two or three values drawn first, so that equal
// elements are common (ties of max, min, argmax and sort; +0 beside -0; a
// value beside itself in a comparison).
func (d *draw) fillElements(x *tensor.Tensor, b bias) {
	n := x.Len()
	if n < 3 || !d.oneIn(fewValuesOneIn) {
		for i := 0; i < n; i++ {
			d.setElement(x, i, b)
		}
		return
	}
	k := d.between(2, 3)
	words := len(x.Data) / n
	for i := 0; i < k; i++ {
		d.setElement(x, i, b)
	}
	if x.DType.IsFloat() && d.coin() {
		// +0 and -0 among them: the tie max, min and sort treat differently
		x.SetFloat(0, 0)
		x.SetFloat(1, math.Copysign(0, -1))
	}
	for i := k; i < n; i++ {
		j := d.intn(k)
		copy(x.Data[i*words:(i+1)*words], x.Data[j*words:(j+1)*words])
	}
}

// fewValuesOneIn is how often a small tensor holds only a few values.
const fewValuesOneIn = 4
