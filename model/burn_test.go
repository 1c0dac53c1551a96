package model

import "testing"

// Rows beyond the seed corpus, derived from source-facts.md (burn rows).
func TestBurnIntArithmetic(t *testing.T) {
	rustCheck(t, []rustRow{
		{"Flex i32 MIN / -1 is MIN, no panic", "burn/flex-debug",
			`{"op":"div","args":[{"dtype":"i32","shape":[1],"data":[-2147483648]},{"dtype":"i32","shape":[1],"data":[-1]}]}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[-2147483648]}}`, "source-facts extra 11 (computed in i64, cast back with as)"},
		{"Flex i32 overflow wraps even in debug", "burn/flex-debug",
			`{"op":"add","args":[{"dtype":"i32","shape":[1],"data":[2147483647]},{"dtype":"i32","shape":[1],"data":[1]}]}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[-2147483648]}}`, "source-facts extra 11"},
		{"a zero divisor panics in release", "burn/flex-release",
			`{"op":"div","args":[{"dtype":"i32","shape":[2],"data":[1,2]},{"dtype":"i32","shape":[2],"data":[1,0]}]}`,
			`{"panic":{"message":""}}`, "source-facts extra 11 (/0 and %0 panic for every int dtype)"},
		{"remainder takes the divisor's sign", "burn/flex-release",
			`{"op":"rem","args":[{"dtype":"i64","shape":[4],"data":[-7,-7,7,7]},{"dtype":"i64","shape":[4],"data":[2,-2,2,-2]}]}`,
			`{"value":{"dtype":"i32","shape":[4],"data":[1,-1,1,-1]}}`, "source-facts #11e ((a % b) + b) % b; i64 host data is I32 on Flex"},
		{"ndarray remainder by zero panics through NaN", "burn/ndarray",
			`{"op":"rem","args":[{"dtype":"i64","shape":[1],"data":[5]},{"dtype":"i64","shape":[1],"data":[0]}]}`,
			`{"panic":{"message":""}}`, "source-facts #11e (f64 NaN -> Float cannot be represented...)"},
		{"ndarray remainder loses precision above 2^53", "burn/ndarray",
			`{"op":"rem","args":[{"dtype":"i64","shape":[1],"data":[9007199254740993]},{"dtype":"i64","shape":[1],"data":[2]}]}`,
			`{"value":{"dtype":"i64","shape":[1],"data":[0]}}`, "source-facts #11e: 2^53+1 as f64 is 2^53, so the remainder is 0, not 1"},
		{"div_scalar(2.5) on Int divides by 2", "burn/flex-release",
			`{"op":"div","args":[{"dtype":"i32","shape":[1],"data":[7]},{"scalar":"2.5","kind":"float"}]}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[3]}}`, "source-facts extra 12 (Scalar::Int(2))"},
		{"a NaN scalar for an Int tensor panics", "burn/flex-release",
			`{"op":"add","args":[{"dtype":"i32","shape":[1],"data":[7]},{"scalar":"nan","kind":"float"}]}`,
			`{"panic":{"message":""}}`, "burn-std cast.rs: float -> i64 ToElement panics outside (MIN-1, MAX+1) and for NaN"},
		{"wrapping_neg keeps i32 MIN in debug", "burn/flex-debug",
			`{"op":"neg","args":[{"dtype":"i32","shape":[1],"data":[-2147483648]}]}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[-2147483648]}}`, "source-facts extra 12"},
		{"Float and Int tensors do not mix", "burn/flex-release",
			`{"op":"add","args":[{"dtype":"f32","shape":[1],"data":["1.0"]},{"dtype":"i64","shape":[1],"data":[1]}]}`,
			`{"unsupported":{"message":""}}`, "Tensor<B, D, Float> and Tensor<B, D, Int> are different types"},
	})
}

func TestBurnCreateReduce(t *testing.T) {
	rustCheck(t, []rustRow{
		{"u8 host data becomes I32 on Flex", "burn/flex-release",
			`{"op":"from_vec","args":[{"dtype":"u8","shape":[2],"data":[200,7]}],"attrs":{"shape":[2]}}`,
			`{"value":{"dtype":"i32","shape":[2],"data":[200,7]}}`, "source-facts #11c (Int default I32)"},
		{"ndarray's Int default is I64", "burn/ndarray",
			`{"op":"from_vec","args":[{"dtype":"i32","shape":[1],"data":[5]}],"attrs":{"shape":[1]}}`,
			`{"value":{"dtype":"i64","shape":[1],"data":[5]}}`, "source-facts #11c"},
		{"f64 host data becomes F32, overflowing to inf", "burn/flex-release",
			`{"op":"from_vec","args":[{"dtype":"f64","shape":[2],"data":["1e+300","0.1"]}],"attrs":{"shape":[2]}}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["inf","0.10000000149011612"]}}`, "burn-std cast.rs: float -> float is `as`"},
		{"I32 prod accumulates in i64 and truncates", "burn/flex-debug",
			`{"op":"prod","args":[{"dtype":"i32","shape":[2],"data":[65536,65537]}]}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[65536]}}`, "source-facts #11a: 65536*65537 = 2^32 + 2^16, low 32 bits 65536"},
		{"Int mean is the sum divided by n, truncating", "burn/flex-release",
			`{"op":"mean","args":[{"dtype":"i32","shape":[2],"data":[1,2]}]}`,
			`{"value":{"dtype":"i32","shape":[1],"data":[1]}}`, "source-facts extra 12 (int_mean = sum / n)"},
		{"argmax returns I64 indices", "burn/flex-release",
			`{"op":"argmax","args":[{"dtype":"f32","shape":[3],"data":["1.0","3.0","3.0"]}],"attrs":{"dim":0,"keepdim":true}}`,
			`{"value":{"dtype":"i64","shape":[1],"data":[1]}}`, "source-facts #11c (INDEX_DTYPE I64); the first maximum"},
		{"an f32 cumsum adds in order", "burn/flex-release",
			`{"op":"cumsum","args":[{"dtype":"f32","shape":[3],"data":["0.1","0.2","0.3"]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"f32","shape":[3],"data":["0.10000000149011612","0.30000001192092896","0.6000000238418579"]}}`, "source-facts #11b (sequential acc + val in f32)"},
		{"float round ties to even", "burn/flex-release",
			`{"op":"round","args":[{"dtype":"f32","shape":[3],"data":["0.5","2.5","-1.5"]}]}`,
			`{"value":{"dtype":"f32","shape":[3],"data":["0.0","2.0","-2.0"]}}`, "burn-flex ops/unary.rs round_ties_even"},
		{"f32 -> i64 passes through the device's I32", "burn/flex-release",
			`{"op":"cast","args":[{"dtype":"f32","shape":[2],"data":["3e+09","1.5"]}],"attrs":{"to":"i64"}}`,
			`{"value":{"dtype":"i64","shape":[2],"data":["?",1]}}`, "burn.cast: .int() saturates at I32 (2147483647), a direct cast at i64 (3000000000)"},
		{"burn has no rank-0 tensors", "burn/flex-release",
			`{"op":"from_literal","args":[],"attrs":{"literal":"3.5"}}`,
			`{"unsupported":{"message":""}}`, "Tensor<B, D> with D >= 1"},
	})
}
