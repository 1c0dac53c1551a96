package props

import (
	"math"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// intEdges returns the interesting values of an integer dtype, as int64 bit
// patterns of the dtype (u64 values above MaxInt64 appear negative).
func intEdges(d tensor.DType) []int64 {
	if d == tensor.Bool {
		return []int64{0, 1}
	}
	min, max := d.MinInt(), d.MaxInt()
	if d == tensor.U64 {
		max = -1 // 2^64 - 1 as a bit pattern
	}
	edges := []int64{0, 1, 2, 7, min, max, min + 1, max - 1}
	if d.IsSigned() {
		edges = append(edges, -1, -2, -7)
	}
	for _, v := range []int64{127, 128, 255, 256, 300, 1 << 15, 1 << 16, 1<<24 - 1, 1 << 24, 1<<24 + 1,
		1 << 31, 1<<31 + 1, 1 << 32, 1<<53 + 1, -129, -(1 << 31) - 1} {
		if fitsInt(v, d) {
			edges = append(edges, v)
		}
	}
	return edges
}

func fitsInt(v int64, d tensor.DType) bool {
	if d.IsUnsigned() {
		return v >= 0 && (d.Bits() == 64 || uint64(v) <= d.MaxUint())
	}
	return v >= d.MinInt() && v <= d.MaxInt()
}

// floatEdges returns the interesting values of a float dtype (exact in it).
func floatEdges(d tensor.DType) []float64 {
	c := d.Component()
	smallestSubnormal := tensor.FloatFromBits(1, c)
	smallestNormal := map[tensor.DType]float64{tensor.F16: 6.103515625e-05, tensor.BF16: 0x1p-126,
		tensor.F32: 0x1p-126, tensor.F64: 0x1p-1022}[c]
	edges := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, -1.7, 2.7,
		math.NaN(), math.Inf(1), math.Inf(-1), tensor.MaxFloat(c), -tensor.MaxFloat(c),
		smallestSubnormal, -smallestSubnormal, smallestNormal, 65504, 65520, 127.5, -128.5, 255.5, 256, 300,
		1<<24 + 1, 1 << 31, -(1 << 31) - 1, 1 << 32, 1 << 63, 1e20, -1e20, 0.1, 1.0 / 3,
		1 + 0x1p-11, 1 + 0x1p-8, 1 + 3*0x1p-11, 65535.5}
	out := edges[:0]
	for _, x := range edges {
		out = append(out, tensor.RoundFloat(x, c))
	}
	return out
}

// elementGen draws one element of dtype d, biased to the edges, and stores it
// at index i of t.
func setElement(t *rapid.T, dst *tensor.Tensor, i int, label string) {
	d := dst.DType
	switch {
	case d == tensor.Bool:
		dst.SetBool(i, rapid.Bool().Draw(t, label))
	case d.IsInt():
		dst.SetInt(i, intValue(d).Draw(t, label))
	case d.IsComplex():
		re := floatValue(d.Component()).Draw(t, label+".re")
		im := floatValue(d.Component()).Draw(t, label+".im")
		dst.SetComplex(i, complex(re, im))
	default:
		dst.SetFloat(i, floatValue(d).Draw(t, label))
	}
}

// intValue generates integers of d: edges half the time, small values, or any bit pattern.
func intValue(d tensor.DType) *rapid.Generator[int64] {
	edges := intEdges(d)
	return rapid.OneOf(
		rapid.SampledFrom(edges),
		rapid.Int64Range(-8, 8).Filter(func(v int64) bool { return fitsInt(v, d) }),
		rapid.Custom(func(t *rapid.T) int64 {
			if d.Bits() == 64 {
				return rapid.Int64().Draw(t, "bits")
			}
			if d.IsUnsigned() {
				return int64(rapid.Uint64Range(0, d.MaxUint()).Draw(t, "v"))
			}
			return rapid.Int64Range(d.MinInt(), d.MaxInt()).Draw(t, "v")
		}),
	)
}

// floatValue generates values of the float dtype d: edges, small halves and
// integers, or any finite value of d.
func floatValue(d tensor.DType) *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.SampledFrom(floatEdges(d)),
		rapid.Custom(func(t *rapid.T) float64 {
			return float64(rapid.IntRange(-16, 16).Draw(t, "halves")) / 2
		}),
		rapid.Custom(func(t *rapid.T) float64 {
			return tensor.RoundFloat(rapid.Float64Range(-1e6, 1e6).Draw(t, "x"), d)
		}),
		rapid.Custom(func(t *rapid.T) float64 {
			bits := rapid.Uint64Range(0, 1<<uint(d.Bits())-1).Draw(t, "bits")
			return tensor.FloatFromBits(bits, d)
		}),
	)
}
