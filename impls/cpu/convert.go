package cpu

import (
	"math"
	"unsafe"
)

// Float -> integer conversions as the hardware and compilers of each profile
// compute them. Each primitive takes the exact source value as float64 (f16,
// bf16 and f32 widen exactly) and returns the two's-complement bits of the
// result, sign-extended; the kernel keeps the destination's low bits. None
// relies on Go's own conversion of out-of-range values, which the language
// leaves implementation-specific: every range is tested explicitly, so the
// engine computes the same x86 values on an Arm64 host and vice versa.

// cvtt32 is x86 cvttss2si / cvttsd2si into a 32-bit register: truncation,
// and the "integer indefinite" -2^31 for NaN, ±inf and out-of-range values.
// (policy cast.f2i.x86.cvtt32)
func cvtt32(x float64) uint64 {
	if x > -0x1p31-1 && x < 0x1p31 {
		return uint64(int64(x))
	}
	return 0xffffffff80000000 // -2^31, sign-extended
}

// cvtt64 is cvttsd2si into a 64-bit register (-2^63 when out of range).
// (policy cast.f2i.x86.cvtt64)
func cvtt64(x float64) uint64 {
	if x >= -0x1p63 && x < 0x1p63 {
		return uint64(int64(x))
	}
	return 1 << 63
}

// split64 is gcc's float -> u64 sequence (comisd 2^63; cvttsd2si; btc 63):
// x >= 2^63 ? cvtt64(x - 2^63) ^ 2^63 : cvtt64(x). The subtraction is exact
// whenever the result can be in range. (policy cast.f2i.x86.u64-split)
func split64(x float64) uint64 {
	if x >= 0x1p63 {
		return cvtt64(x-0x1p63) ^ 1<<63
	}
	return cvtt64(x)
}

// split32 is the 2^31 range split gcc vectorizes float -> u32 loops with.
// (policy cast.f2i.x86.u32-vector-split)
func split32(x float64) uint64 {
	if x >= 0x1p31 {
		return (cvtt32(x-0x1p31) ^ 1<<31) & 0xffffffff
	}
	return cvtt32(x) & 0xffffffff
}

// low32 is scalar float -> u32 code: cvtt into 64 bits, keeping the low 32.
// (policy cast.f2i.x86.u32-scalar-low32)
func low32(x float64) uint64 { return cvtt64(x) & 0xffffffff }

// satSigned truncates x and clamps it to the signed range of width bits,
// NaN -> 0 (Rust `as`, XLA's convert, Arm64 fcvtzs).
func satSigned(x float64, width uint) uint64 {
	lim := float64(uint64(1) << (width - 1))
	switch {
	case x != x:
		return 0
	case x <= -lim:
		return uint64(int64(-1) << (width - 1))
	case x >= lim:
		if zooBuild && zoo("missing-saturation") {
			return uint64(int64(x)) // zoo: no clamp at the top of the range
		}
		return uint64(1)<<(width-1) - 1
	}
	return uint64(int64(x))
}

// satUnsigned truncates x and clamps it to [0, 2^width - 1], NaN -> 0
// (Arm64 fcvtzu, XLA's convert to unsigned types).
func satUnsigned(x float64, width uint) uint64 {
	switch {
	case x != x || x <= -1:
		return 0
	case width == 64 && x >= 0x1p64:
		return math.MaxUint64
	case width < 64 && x >= float64(uint64(1)<<width):
		return uint64(1)<<width - 1
	case x < 0:
		return 0 // (-1, 0) truncates to 0
	}
	return uint64(x)
}

// f2iPolicy is how a profile converts floats to one integer destination.
type f2iPolicy uint8

const (
	f2iSatDst       f2iPolicy = iota // saturate at the destination width, NaN -> 0 (JAX)
	f2iX86Low32                      // cvtt32, keep the low bits (x86 i8/i16/u16/i32, NumPy u8)
	f2iX86Cvtt64                     // cvtt64, keep the low bits (x86 i64; PyTorch u8 via i64)
	f2iX86Split64                    // u64 range split
	f2iX86Split32                    // u32 vector body (the scalar tail is fixed up: low32)
	f2iX86Low32of64                  // u32 scalar code (f16 sources)
	f2iArmSat32s                     // fcvtzs w: saturate at signed 32 bits, keep the low bits
	f2iArmSat32u                     // fcvtzu w: saturate at unsigned 32 bits
	f2iArmSat64                      // fcvtz* x at the destination's own 64 bits
	f2iArmSat64Low                   // fcvtzs x, keep the low bits (PyTorch u8 via i64)
)

// kCastF2I returns the kernel converting floats S to integers D by pol.
// The policy is chosen once; each loop calls an inlined primitive.
//
// S and D are constrained to number so that the cast family can instantiate
// it from a generic dispatch; it is only called with float S and integer D.
func kCastF2I[S, D number](pol f2iPolicy) unaryKernel[S, D] {
	var z D
	w := uint(unsafe.Sizeof(z)) * 8
	z--
	signed := z < 0
	switch pol {
	case f2iSatDst:
		if signed {
			return func(dst []D, a []S) fault {
				a = a[:len(dst)]
				for i := range dst {
					dst[i] = D(satSigned(float64(a[i]), w))
				}
				return 0
			}
		}
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(satUnsigned(float64(a[i]), w))
			}
			return 0
		}
	case f2iX86Low32:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(cvtt32(float64(a[i])))
			}
			return 0
		}
	case f2iX86Cvtt64:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(cvtt64(float64(a[i])))
			}
			return 0
		}
	case f2iX86Split64:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(split64(float64(a[i])))
			}
			return 0
		}
	case f2iX86Split32:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(split32(float64(a[i])))
			}
			return 0
		}
	case f2iX86Low32of64:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(low32(float64(a[i])))
			}
			return 0
		}
	case f2iArmSat32s:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(satSigned(float64(a[i]), 32))
			}
			return 0
		}
	case f2iArmSat32u:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(satUnsigned(float64(a[i]), 32))
			}
			return 0
		}
	case f2iArmSat64Low:
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(satSigned(float64(a[i]), 64))
			}
			return 0
		}
	}
	// f2iArmSat64: the destination is i64 or u64
	if signed {
		return func(dst []D, a []S) fault {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = D(satSigned(float64(a[i]), 64))
			}
			return 0
		}
	}
	return func(dst []D, a []S) fault {
		a = a[:len(dst)]
		for i := range dst {
			dst[i] = D(satUnsigned(float64(a[i]), 64))
		}
		return 0
	}
}

// kConvert computes dst[i] = D(a[i]) for conversions Go defines exactly:
// integer -> integer (wrap), integer -> float (round to nearest even),
// float -> wider or equal float, f64 -> f32 (round to nearest even).
func kConvert[S, D number](dst []D, a []S) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = D(a[i])
	}
	return 0
}

// kToBool computes dst[i] = a[i] != 0 (NaN is true, -0 false).
func kToBool[S number](dst []uint8, a []S) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = b2u(a[i] != 0)
	}
	return 0
}

// kF64ToF16 rounds f64 values to f16 once (kept as float32).
func kF64ToF16(dst []float32, a []float64) fault {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] = roundF16From64(a[i])
	}
	return 0
}

// narrowF16 writes the f16 bit patterns of src (rounded to nearest even)
// into dst: the f32 -> f16 cast kernel, and how f16 results are stored.
//
// Reference: dst[i] = f32ToF16(src[i]).
//
// Values whose f16 is normal or an overflow to inf (2^-14 <= |f| < 2^16)
// take the integer fast path: rebias the exponent and round the 13 dropped
// significand bits to even (a carry out of the significand bumps the
// exponent, up to inf); subnormals, zeros, inf and NaN call f32ToF16.
func narrowF16[D ~uint16 | ~uint64](dst []D, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		u := math.Float32bits(src[i])
		a := u & 0x7fffffff
		var h uint32
		if a-0x38800000 < 0x47800000-0x38800000 {
			h = (a + 0xc8000fff + a>>13&1) >> 13 // + (15-127)<<23 + 0xfff + odd, mod 2^32
		} else {
			h = uint32(f32ToF16(math.Float32frombits(a)))
			if zooBuild && zoo("f16-subnormal-flush") && h < 0x400 {
				h = 0 // zoo: subnormal results flushed to zero
			}
		}
		dst[i] = D(u>>16&0x8000 | h)
	}
}

// kNarrowF16 is the f32 -> f16 cast kernel on f16 storage (bit patterns).
func kNarrowF16(dst []uint16, a []float32) fault {
	narrowF16(dst, a)
	return 0
}
