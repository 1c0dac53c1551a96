package model

import "testing"

// Rows beyond the seed corpus, derived from source-facts.md (tenferro rows).
func TestTenferroPromotionAndArithmetic(t *testing.T) {
	i32x2 := `{"dtype":"i32","shape":[2],"data":[1,2]}`
	rustCheck(t, []rustRow{
		{"traced int + float values are F64", "tenferro/traced",
			`{"op":"add","args":[` + i32x2 + `,{"dtype":"f32","shape":[2],"data":["0.5","0.25"]}]}`,
			`{"value":{"dtype":"f64","shape":[2],"data":["1.5","2.25"]}}`, "source-facts #12a (int + float -> F64)"},
		{"an int with a complex is C64 (c128)", "tenferro/eager",
			`{"op":"add","args":[` + i32x2 + `,{"dtype":"c64","shape":[2],"data":[["1.0","1.0"],["0.0","-1.0"]]}]}`,
			`{"value":{"dtype":"c128","shape":[2],"data":[["2.0","1.0"],["2.0","-1.0"]]}}`, "source-facts #12a (int + complex -> C64)"},
		{"direct ops do not promote", "tenferro/direct",
			`{"op":"mul","args":[{"dtype":"f32","shape":[1],"data":["1.0"]},{"dtype":"f64","shape":[1],"data":["1.0"]}]}`,
			`{"error":{"class":"DTypeMismatch","message":""}}`, "seed 001 (direct rows)"},
		{"MIN / -1 wraps to MIN", "tenferro/direct",
			`{"op":"div","args":[{"dtype":"i32","shape":[1],"data":[-2147483648]},{"dtype":"i32","shape":[1],"data":[-1]}]}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[-2147483648]}}`, "source-facts extra 13 (wrapping_div)"},
		{"remainder has the dividend's sign", "tenferro/traced",
			`{"op":"rem","args":[{"dtype":"i64","shape":[2],"data":[-7,7]},{"dtype":"i64","shape":[2],"data":[2,-2]}]}`,
			`{"value":{"dtype":"i64","shape":[2],"data":[-1,1]}}`, "source-facts extra 13 (truncated remainder)"},
		{"a zero divisor is an error", "tenferro/eager",
			`{"op":"div","args":[` + i32x2 + `,{"dtype":"i32","shape":[2],"data":[1,0]}]}`,
			`{"error":{"class":"ZeroDivision","message":""}}`, "source-facts extra 13 (pre-scan, not a panic)"},
		{"a negative integer exponent is an error", "tenferro/direct",
			`{"op":"pow","args":[` + i32x2 + `,{"dtype":"i32","shape":[2],"data":[2,-1]}]}`,
			`{"error":{"class":"Other","message":""}}`, "source-facts extra 13 (NegativeIntegerExponent)"},
		{"maximum propagates NaN", "tenferro/traced",
			`{"op":"maximum","args":[{"dtype":"f64","shape":[2],"data":["nan","1.0"]},{"dtype":"f64","shape":[2],"data":["1.0","nan"]}]}`,
			`{"value":{"dtype":"f64","shape":[2],"data":["nan","nan"]}}`, "source-facts extra 13"},
		{"comparisons return Bool", "tenferro/direct",
			`{"op":"lt","args":[` + i32x2 + `,{"dtype":"i32","shape":[2],"data":[2,2]}]}`,
			`{"value":{"dtype":"bool","shape":[2],"data":[true,false]}}`, "source-facts extra 13"},
	})
}

func TestTenferroScaleAndCast(t *testing.T) {
	rustCheck(t, []rustRow{
		{"scale_real rounds the factor half away from zero for I32", "tenferro/traced",
			`{"op":"mul","args":[{"dtype":"i32","shape":[2],"data":[2,-2]},{"scalar":"2.5","kind":"float"}]}`,
			`{"value":{"dtype":"i32","shape":[2],"data":[6,-6]}}`, "source-facts #12d (2.5.round() = 3)"},
		{"scale_real of I32 by a factor past i32 is an error", "tenferro/direct",
			`{"op":"mul","args":[{"dtype":"i32","shape":[1],"data":[1]},{"scalar":"3e9","kind":"float"}]}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "source-facts #12d (i32::try_from)"},
		{"cast rejects 2147483647.5 to I32", "tenferro/traced",
			`{"op":"cast","args":[{"dtype":"f64","shape":[1],"data":["2147483647.5"]}],"attrs":{"to":"i32"}}`,
			`{"error":{"class":"OutOfRange","message":""}}`, "source-facts #12c (checked before truncation)"},
		{"cast accepts -2^63 to I64", "tenferro/eager",
			`{"op":"cast","args":[{"dtype":"f64","shape":[1],"data":["-9.223372036854775808e18"]}],"attrs":{"to":"i64"}}`,
			`{"value":{"dtype":"i64","shape":[1],"data":[-9223372036854775808]}}`, "source-facts #12c: the range is [-2^63, 2^63)"},
		{"I64 -> I32 wraps unchecked", "tenferro/traced",
			`{"op":"cast","args":[{"dtype":"i64","shape":[1],"data":[4294967297]}],"attrs":{"to":"i32"}}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[1]}}`, "source-facts #12c (gap)"},
		{"convert I32 -> I64 widens", "tenferro/direct",
			`{"op":"cast","args":[{"dtype":"i32","shape":[1],"data":[-5]}],"attrs":{"to":"i64","mode":"convert"}}`,
			`{"value":{"dtype":"i64","shape":[1],"data":[-5]}}`, "source-facts #12b (promote(I32, I64) = I64)"},
		{"convert I64 -> I32 is refused", "tenferro/traced",
			`{"op":"cast","args":[{"dtype":"i64","shape":[1],"data":[5]}],"attrs":{"to":"i32","mode":"convert"}}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "source-facts #12b (promote(I64, I32) = I64 != I32)"},
		{"vec![true, false] is Bool", "tenferro/eager",
			`{"op":"from_literal","args":[],"attrs":{"literal":"[true, false]"}}`,
			`{"value":{"dtype":"bool","shape":[2],"data":[true,false]}}`, "source-facts extra 13 (Bool is a dtype); seed 001 (the Vec's element type)"},
		{"reductions are not stated", "tenferro/traced",
			`{"op":"sum","args":[{"dtype":"f64","shape":[2],"data":["1.0","2.0"]}]}`,
			`{"unsupported":{"message":""}}`, "tenferro.unspecified: neither seed 001 nor source-facts describe reductions"},
	})
}
