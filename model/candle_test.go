package model

import (
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// rustRow is one table row for the Rust-framework profiles: a case (without
// expect), the outcome derived by hand from the seeds or source-facts.md,
// and the reason. A "?" in want must be "?" in the model's outcome too.
type rustRow struct {
	name, profile, caseJSON, want, reason string
}

func rustCheck(t *testing.T, rows []rustRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name+"/"+r.profile, func(t *testing.T) {
			c, err := tensor.DecodeCase([]byte(r.caseJSON))
			if err != nil {
				t.Fatalf("bad case: %v", err)
			}
			want, err := tensor.DecodeOutcome([]byte(r.want))
			if err != nil {
				t.Fatalf("bad want: %v", err)
			}
			got := Eval(r.profile, c)
			if cmp := tensor.Compare(want, got, 0); !cmp.Match() {
				t.Fatalf("%s\nwant %s\ngot  %s (%s)\nrules %s\nwhy: %s", c.Describe(), want, got, cmp.Detail, strings.Join(got.Rules, ", "), r.reason)
			}
			if want.Form == tensor.FormValue {
				for i := 0; i < want.Value.Len(); i++ {
					if want.Value.IsUnspecified(i) != got.Value.IsUnspecified(i) {
						t.Fatalf("element %d: want %s, got %s\nwhy: %s", i, want.Value.ElementString(i), got.Value.ElementString(i), r.reason)
					}
				}
			}
			for _, name := range got.Rules {
				if _, ok := LookupRule(name); !ok {
					t.Errorf("outcome names unknown rule %q", name)
				}
			}
		})
	}
}

// Rows beyond the seed corpus, derived from source-facts.md.
func TestCandleAffine(t *testing.T) {
	u8x2 := `{"dtype":"u8","shape":[2],"data":[1,2]}`
	rustCheck(t, []rustRow{
		{"u8 * 300.0: the coefficient saturates to 255, 2*255 wraps", "candle/cpu-release",
			`{"op":"mul","args":[` + u8x2 + `,{"scalar":"300.0","kind":"float"}]}`,
			`{"value":{"dtype":"u8","shape":[2],"data":[255,254]}}`, "source-facts extra 1 (t * 300.0 on u8 -> mul = 255); 510 mod 256 = 254"},
		{"u8 * 300.0 overflows in debug", "candle/cpu-debug",
			`{"op":"mul","args":[` + u8x2 + `,{"scalar":"300.0","kind":"float"}]}`,
			`{"panic":{"message":""}}`, "2 * 255 = 510 does not fit u8: debug overflow check"},
		{"5.0 - u8 is all 5 on the CPU", "candle/cpu-release",
			`{"op":"sub","args":[{"scalar":"5.0","kind":"float"},` + u8x2 + `]}`,
			`{"value":{"dtype":"u8","shape":[2],"data":[5,5]}}`, "source-facts extra 1: affine(-1, 5) with -1 as u8 = 0"},
		{"5.0 - u8 computes in f32 on Metal", "candle/metal",
			`{"op":"sub","args":[{"scalar":"5.0","kind":"float"},` + u8x2 + `]}`,
			`{"value":{"dtype":"u8","shape":[2],"data":[4,3]}}`, "source-facts #4: fma(x, -1, 5) in f32, then truncated"},
		{"u8 * 300.0 on Metal leaves the u8 range", "candle/metal",
			`{"op":"mul","args":[` + u8x2 + `,{"scalar":"300.0","kind":"float"}]}`,
			`{"value":{"dtype":"u8","shape":[2],"data":["?","?"]}}`, "300 and 600 do not fit u8: static_cast of an out-of-range float is unspecified"},
		{"i64 / 0.0: inf as i64 = MAX, the multiply overflows", "candle/cpu-debug",
			`{"op":"div","args":[{"dtype":"i64","shape":[1],"data":[5]},{"scalar":"0.0","kind":"float"}]}`,
			`{"panic":{"message":""}}`, "source-facts extra 1 (int_t / 0.0 -> mul = MAX, panic in debug)"},
		{"an integer scalar operand does not compile", "candle/cpu-release",
			`{"op":"add","args":[{"dtype":"i64","shape":[1],"data":[5]},{"scalar":"1","kind":"int"}]}`,
			`{"unsupported":{"message":""}}`, "seed 003: the operators are implemented for f64 only"},
		{"a -0.0 times 2.5 becomes +0 (v * mul + 0.0)", "candle/cpu-release",
			`{"op":"mul","args":[{"dtype":"f32","shape":[1],"data":["-0.0"]},{"scalar":"2.5","kind":"float"}]}`,
			`{"value":{"dtype":"f32","shape":[1],"data":["0.0"]}}`, "source-facts #3: the CPU computes v * mul + add with add = 0.0; -0.0 + 0.0 = +0.0"},
	})
}

func TestCandleBinaryAndCompare(t *testing.T) {
	nan1 := `{"dtype":"f32","shape":[2],"data":["nan","1.0"]}`
	one2 := `{"dtype":"f32","shape":[2],"data":["1.0","nan"]}`
	rustCheck(t, []rustRow{
		{"integer gt 2.5 compares with 2", "candle/cpu-release",
			`{"op":"gt","args":[{"dtype":"i64","shape":[2],"data":[2,3]},{"scalar":"2.5","kind":"float"}]}`,
			`{"value":{"dtype":"u8","shape":[2],"data":[0,1]}}`, "source-facts extra 3: the scalar is converted with to_dtype (2.5 as i64 = 2)"},
		{"minimum with NaN keeps the lhs on the CPU", "candle/cpu-debug",
			`{"op":"minimum","args":[` + nan1 + `,` + one2 + `]}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["nan","1.0"]}}`, "source-facts #1: if v1 > v2 { v2 } else { v1 }"},
		{"minimum with NaN takes the rhs on Metal", "candle/metal",
			`{"op":"minimum","args":[` + nan1 + `,` + one2 + `]}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["1.0","nan"]}}`, "source-facts #5a: MIN(x, y) = x < y ? x : y"},
		{"shapes are checked before dtypes", "candle/cpu-release",
			`{"op":"add","args":[{"dtype":"f32","shape":[3],"data":["1.0","2.0","3.0"]},{"dtype":"f64","shape":[1],"data":["1.0"]}]}`,
			`{"error":{"class":"ShapeMismatch","message":""}}`, "tensor.rs binary_op!: same_shape_binary_op runs before the storage's same_dtype"},
		{"an empty operation returns the lhs before the dtype check", "candle/cpu-release",
			`{"op":"add","args":[{"dtype":"f32","shape":[0],"data":[]},{"dtype":"i64","shape":[0],"data":[]}]}`,
			`{"value":{"dtype":"f32","shape":[0],"data":[]}}`, "source-facts extra 5"},
		{"Metal has no i32 binary kernel", "candle/metal",
			`{"op":"add","args":[{"dtype":"i32","shape":[1],"data":[1]},{"dtype":"i32","shape":[1],"data":[1]}]}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "source-facts #5a"},
		{"u8 division by zero on Metal is unspecified", "candle/metal",
			`{"op":"div","args":[{"dtype":"u8","shape":[2],"data":[7,9]},{"dtype":"u8","shape":[2],"data":[0,3]}]}`,
			`{"value":{"dtype":"u8","shape":[2],"data":["?",3]}}`, "seed 000 shows only i64 and u32 division by zero on Metal"},
	})
}

func TestCandleUnaryAndCast(t *testing.T) {
	rustCheck(t, []rustRow{
		{"abs of i16 MIN overflows in debug", "candle/cpu-debug",
			`{"op":"abs","args":[{"dtype":"i16","shape":[1],"data":[-32768]}]}`,
			`{"panic":{"message":""}}`, "source-facts extra 2 (i*::MIN panics in debug)"},
		{"abs of i16 MIN stays MIN in release", "candle/cpu-release",
			`{"op":"abs","args":[{"dtype":"i16","shape":[1],"data":[-32768]}]}`,
			`{"value":{"dtype":"i16","shape":[1],"data":[-32768]}}`, "release wraps: -(-32768) = -32768 in i16"},
		{"exp of an integer tensor panics (todo!)", "candle/cpu-release",
			`{"op":"exp","args":[{"dtype":"u32","shape":[1],"data":[1]}]}`,
			`{"panic":{"message":""}}`, "source-facts extra 2"},
		{"floor of an integer tensor is the identity", "candle/cpu-release",
			`{"op":"floor","args":[{"dtype":"i64","shape":[2],"data":[-3,4]}]}`,
			`{"value":{"dtype":"i64","shape":[2],"data":[-3,4]}}`, "source-facts extra 2"},
		{"sign of NaN and -0 is +0 on the CPU", "candle/cpu-release",
			`{"op":"sign","args":[{"dtype":"f32","shape":[3],"data":["nan","-0.0","-2.0"]}]}`,
			`{"value":{"dtype":"f32","shape":[3],"data":["0.0","0.0","-1.0"]}}`, "op.rs Sign: f32::from(v > 0.) - f32::from(v < 0.)"},
		{"sign of an unsigned tensor is min(1, v)", "candle/cpu-release",
			`{"op":"sign","args":[{"dtype":"u8","shape":[2],"data":[0,200]}]}`,
			`{"value":{"dtype":"u8","shape":[2],"data":[0,1]}}`, "source-facts extra 2"},
		{"i64 -> bf16 rounds twice, through f32", "candle/cpu-release",
			`{"op":"cast","args":[{"dtype":"i64","shape":[1],"data":[16842753]}],"attrs":{"to":"bf16"}}`,
			`{"value":{"dtype":"bf16","shape":[1],"data":["16777216.0"]}}`, "source-facts #8: 2^24+2^16+1 -> f32 2^24+2^16 (tie to even) -> bf16 2^24 (tie to even); one rounding gives 16908288"},
		{"Metal has no f64 cast kernel", "candle/metal",
			`{"op":"cast","args":[{"dtype":"f32","shape":[1],"data":["1.0"]}],"attrs":{"to":"f64"}}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "source-facts #5b"},
		{"a checked convert has no candle spelling", "candle/cpu-release",
			`{"op":"cast","args":[{"dtype":"f32","shape":[1],"data":["1.0"]}],"attrs":{"to":"f64","mode":"convert"}}`,
			`{"unsupported":{"message":""}}`, "tenferro's convert; candle has only to_dtype"},
	})
}

func TestCandleReduceIndex(t *testing.T) {
	f3 := `{"dtype":"f32","shape":[3],"data":["1.0","2.0","3.0"]}`
	rustCheck(t, []rustRow{
		{"integer mean is 0 for n >= 2 on the CPU", "candle/cpu-release",
			`{"op":"mean","args":[{"dtype":"i64","shape":[3],"data":[3,6,9]}]}`,
			`{"value":{"dtype":"i64","shape":[],"data":[0]}}`, "source-facts extra 1: sum * (1/3 as i64 = 0)"},
		{"integer mean goes through f32 on Metal", "candle/metal",
			`{"op":"mean","args":[{"dtype":"i64","shape":[3],"data":[3,6,9]}]}`,
			`{"value":{"dtype":"i64","shape":[],"data":[6]}}`, "source-facts #4: fma(18, f32(1/3), 0) = 6.0000002 -> 6"},
		{"argmax: a NaN survives only as the first element", "candle/cpu-release",
			`{"op":"argmax","args":[{"dtype":"f32","shape":[2,3],"data":["nan","1.0","3.0","1.0","nan","3.0"]}],"attrs":{"dim":1}}`,
			`{"value":{"dtype":"u32","shape":[2],"data":[0,2]}}`, "source-facts extra 4 (strict comparison from element 0)"},
		{"max over an empty dim is an error", "candle/cpu-release",
			`{"op":"max","args":[{"dtype":"f32","shape":[0],"data":[]}],"attrs":{"dim":0}}`,
			`{"error":{"class":"EmptyTensor","message":""}}`, "source-facts extra 5"},
		{"a sum of nothing is zero", "candle/cpu-release",
			`{"op":"sum","args":[{"dtype":"f32","shape":[0],"data":[]}]}`,
			`{"value":{"dtype":"f32","shape":[],"data":["0.0"]}}`, "source-facts extra 5"},
		{"a sum of three inexact f32 values depends on the order", "candle/cpu-release",
			`{"op":"sum","args":[{"dtype":"f32","shape":[3],"data":["0.1","0.2","0.3"]}]}`,
			`{"value":{"dtype":"f32","shape":[],"data":["?"]}}`, "source-facts extra 9 (SIMD partial sums)"},
		{"an i64 cumsum is a matmul error", "candle/cpu-release",
			`{"op":"cumsum","args":[{"dtype":"i64","shape":[2],"data":[1,2]}],"attrs":{"dim":0}}`,
			`{"error":{"class":"UnsupportedDType","message":""}}`, "source-facts extra 8"},
		{"an f32 cumsum of small integers is exact", "candle/cpu-release",
			`{"op":"cumsum","args":[` + f3 + `],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"f32","shape":[3],"data":["1.0","3.0","6.0"]}}`, "every summation order of 1+2+3 is exact"},
		{"the u8 id 255 writes zeros", "candle/cpu-release",
			`{"op":"index_select","args":[` + f3 + `,{"dtype":"u8","shape":[2],"data":[255,1]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"f32","shape":[2],"data":["0.0","2.0"]}}`, "source-facts extra 6 (I::max_value() is a sentinel)"},
		{"a negative i64 id is an error on the CPU", "candle/cpu-debug",
			`{"op":"index_select","args":[` + f3 + `,{"dtype":"i64","shape":[1],"data":[-1]}],"attrs":{"dim":0}}`,
			`{"error":{"class":"IndexOutOfRange","message":""}}`, "source-facts extra 6 (as usize, then InvalidIndex)"},
		{"Metal clamps an id past the end", "candle/metal",
			`{"op":"index_select","args":[` + f3 + `,{"dtype":"u32","shape":[1],"data":[7]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"f32","shape":[1],"data":["3.0"]}}`, "source-facts #5c (min(id, size - 1))"},
		{"read-back checks the rank before the dtype", "candle/cpu-release",
			`{"op":"to_host","args":[` + f3 + `],"attrs":{"dtype":"f64","rank":2}}`,
			`{"error":{"class":"ShapeMismatch","message":""}}`, "tensor.rs to_vec2: dims2() before cpu_storage_as_slice"},
	})
}

func TestCandleCreate(t *testing.T) {
	rustCheck(t, []rustRow{
		{"an out-of-range literal does not compile", "candle/cpu-release",
			`{"op":"from_literal","args":[],"attrs":{"literal":"[3000000000]"}}`,
			`{"unsupported":{"message":""}}`, "an unsuffixed integer literal is i32 (seed 003); overflowing_literals is deny-by-default"},
		{"integer and float literals cannot share an array", "candle/cpu-release",
			`{"op":"from_literal","args":[],"attrs":{"literal":"[1, 2.0]"}}`,
			`{"unsupported":{"message":""}}`, "E0308"},
		{"candle has no bool dtype", "candle/cpu-release",
			`{"op":"from_literal","args":[],"attrs":{"literal":"[true, false]"}}`,
			`{"unsupported":{"message":""}}`, "source-facts #9"},
		{"arange in f32 starts at 0.5", "candle/cpu-release",
			`{"op":"arange","args":[],"attrs":{"start":"0.5f32","end":"3."}}`,
			`{"value":{"dtype":"f32","shape":[3],"data":["0.5","1.5","2.5"]}}`, "seed 003 arange(0f32, 3.): the start's type, +1 while < end"},
		{"too much data for the shape reads the first elements", "candle/cpu-release",
			`{"op":"from_vec","args":[{"dtype":"f32","shape":[5],"data":["1.0","2.0","3.0","4.0","5.0"]}],"attrs":{"shape":[2,2]}}`,
			`{"value":{"dtype":"f32","shape":[2,2],"data":["1.0","2.0","3.0","4.0"]}}`, "seed 003: from_vec does not compare the lengths in 0.11.0"},
	})
}

// Rows for the Metal rules read from candle's source at 2a13b0f3 (each
// reason names the file and line).
func TestCandleMetalSourceRules(t *testing.T) {
	var rows300 strings.Builder
	for i := 0; i < 300; i++ {
		if i > 0 {
			rows300.WriteString(",")
		}
		rows300.WriteString(itoa(i))
	}
	src300 := `{"dtype":"i64","shape":[300],"data":[` + rows300.String() + `]}`
	panics := `{"panic":{"message":""}}`
	noKernel := `{"error":{"class":"UnsupportedDType","message":""}}`
	rustCheck(t, []rustRow{
		{"an empty comparison panics in linear_split", "candle/metal",
			`{"op":"eq","args":[{"dtype":"i64","shape":[0],"data":[]},{"dtype":"i64","shape":[0],"data":[]}]}`,
			panics, "tensor.rs:1127-1140 cmp has no zero-element return; utils.rs:32-33 0.div_ceil(0)"},
		{"an empty comparison with a scalar panics too", "candle/metal",
			`{"op":"lt","args":[{"dtype":"f32","shape":[2,0],"data":[]},{"scalar":"1.0","kind":"float"}]}`,
			panics, "the scalar is broadcast to [2, 0]; the strided binary kernel also calls linear_split(pipeline, 0) (kernels/binary.rs:64)"},
		{"an empty addition still returns the lhs", "candle/metal",
			`{"op":"add","args":[{"dtype":"i64","shape":[0],"data":[]},{"dtype":"i64","shape":[0],"data":[]}]}`,
			`{"value":{"dtype":"i64","shape":[0],"data":[]}}`, "tensor.rs:94-99 binary_op! returns self.clone() on zero elements"},
		{"an empty cast panics in linear_split", "candle/metal",
			`{"op":"cast","args":[{"dtype":"f32","shape":[0,2],"data":[]}],"attrs":{"to":"bf16"}}`,
			panics, "tensor.rs:2479-2488 to_dtype; kernels/cast.rs:30"},
		{"an empty cast to a missing kernel is an Err first", "candle/metal",
			`{"op":"cast","args":[{"dtype":"f32","shape":[0],"data":[]}],"attrs":{"to":"f64"}}`,
			noKernel, "metal_backend/mod.rs to_dtype bails on the (F32, F64) pair before the launch"},
		{"index_select with no ids panics in linear_split", "candle/metal",
			`{"op":"index_select","args":[{"dtype":"f32","shape":[3],"data":["1.0","2.0","3.0"]},{"dtype":"u32","shape":[0],"data":[]}],"attrs":{"dim":0}}`,
			panics, "kernels/indexing.rs:54 linear_split(pipeline, dst_el) with dst_el = 0 * 1 * 1"},
		{"a sum keeping a zero-size dim panics", "candle/metal",
			`{"op":"sum","args":[{"dtype":"i64","shape":[3,4,0],"data":[]}],"attrs":{"dim":0}}`,
			panics, "kernels/reduce.rs:22 length / out_length with out_length = 4 * 0"},
		{"a mean keeping a zero-size dim panics", "candle/metal",
			`{"op":"mean","args":[{"dtype":"f32","shape":[0,2,0],"data":[]}],"attrs":{"dim":1}}`,
			panics, "mean is sum_impl, then * scale (tensor.rs:1062-1066): the sum panics first"},
		{"a sum over a zero-size dim with kept dims is zeros", "candle/metal",
			`{"op":"sum","args":[{"dtype":"i64","shape":[0,3],"data":[]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"i64","shape":[3],"data":[0,0,0]}}`, "out_length = 3, length = 0: work_per_threadgroup 0, each output is Sum::init() = 0"},
		{"sign of i64 has no kernel", "candle/metal",
			`{"op":"sign","args":[{"dtype":"i64","shape":[2],"data":[-3,4]}]}`,
			noKernel, "metal_backend/mod.rs:742 asks for sign_i64; unary.metal:246 init_unary_float(sign, usign) only"},
		{"sign of an empty i64 returns before the kernel", "candle/metal",
			`{"op":"sign","args":[{"dtype":"i64","shape":[0],"data":[]}]}`,
			`{"value":{"dtype":"i64","shape":[0],"data":[]}}`, "tensor.rs:78-84 unary_op! returns self.clone() on zero elements"},
		{"sum of a rank-0 i32 still needs a reduce kernel", "candle/metal",
			`{"op":"sum","args":[{"dtype":"i32","shape":[],"data":[7]}]}`,
			noKernel, "tensor.rs:2159-2162 sum_all calls sum(vec![]); metal_backend/mod.rs:355-357 bails for (Sum, I32)"},
		{"max of a rank-0 i32 is the tensor itself", "candle/metal",
			`{"op":"max","args":[{"dtype":"i32","shape":[],"data":[7]}]}`,
			`{"value":{"dtype":"i32","shape":[],"data":[7]}}`, "tensor.rs:2123-2128 max_all returns self.clone() for rank 0"},
		{"argmax over a dim followed by a size-1 dim reports 0", "candle/metal",
			`{"op":"argmax","args":[{"dtype":"i64","shape":[3,1],"data":[1,5,3]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"u32","shape":[1],"data":[0]}}`, "metal_backend/mod.rs:323,375 contiguous kernel with the input's dims; reduce.metal:467 i % dims[1] = i % 1"},
		{"argmin over a size-1 dim reports the flat index modulo the last dim", "candle/metal",
			`{"op":"argmin","args":[{"dtype":"u32","shape":[1,10],"data":[1,2,3,4,5,6,7,8,9,10]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"u32","shape":[10],"data":[0,1,2,3,4,5,6,7,8,9]}}`, "output o holds element o, reported as o % 10 (reduce.metal:467)"},
		{"argmin over a size-1 dim: an element equal to u32::MAX loses to the init", "candle/metal",
			`{"op":"argmin","args":[{"dtype":"u32","shape":[1,2],"data":[4294967295,4294967295]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"u32","shape":[2],"data":[0,0]}}`, "reduce.metal:198-206 init {0, max()}; :188-190 a tie goes to the lower index"},
		{"argmax over a middle dim (strided kernel) is the position", "candle/metal",
			`{"op":"argmax","args":[{"dtype":"i64","shape":[3,2],"data":[1,6,5,2,3,4]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"u32","shape":[2],"data":[1,0]}}`, "the reordered view is not contiguous: call_reduce_strided with the reordered dims (metal_backend/mod.rs:429-437)"},
		{"max over -inf is -FLT_MAX", "candle/metal",
			`{"op":"max","args":[{"dtype":"f32","shape":[1],"data":["-inf"]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"f32","shape":[],"data":["-3.4028234663852886e38"]}}`, "reduce.metal:288-291 Max::init() = numeric_limits<float>::lowest()"},
		{"min over +inf in f16 is 65504", "candle/metal",
			`{"op":"min","args":[{"dtype":"f16","shape":[2],"data":["inf","inf"]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"f16","shape":[],"data":["65504.0"]}}`, "reduce.metal:262-265 Min::init() = numeric_limits<half>::max()"},
		{"argmax of [-inf, -FLT_MAX] ties with the init at index 0", "candle/metal",
			`{"op":"argmax","args":[{"dtype":"f32","shape":[2],"data":["-inf","-3.4028234663852886e38"]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"u32","shape":[],"data":[0]}}`, "reduce.metal:198-206 init {0, lowest}; -FLT_MAX == lowest and index 0 < 1"},
		{"the CPU max over -inf stays -inf", "candle/cpu-release",
			`{"op":"max","args":[{"dtype":"f32","shape":[1],"data":["-inf"]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"f32","shape":[],"data":["-inf"]}}`, "source-facts extra 4: the CPU folds from element 0"},
		{"a u8 id with a 300-row source clamps to the wrapped bound 43", "candle/metal",
			`{"op":"index_select","args":[` + src300 + `,{"dtype":"u8","shape":[3],"data":[100,10,255]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"i64","shape":[3],"data":[43,10,0]}}`, "indexing.metal:59 min(id, (uint8_t)(300 - 1)) = min(100, 43); 255 is the sentinel (:56-57)"},
		{"a u32 id with a 300-row source clamps to 299", "candle/metal",
			`{"op":"index_select","args":[` + src300 + `,{"dtype":"u32","shape":[1],"data":[1000]}],"attrs":{"dim":0}}`,
			`{"value":{"dtype":"i64","shape":[1],"data":[299]}}`, "indexing.metal:59 with (uint32_t)299 = 299"},
	})
}
