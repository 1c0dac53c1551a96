// binary.metal: elementwise kernels of two operands of the same dtype.
//
// Arithmetic (badd bsub bmul bdiv bminimum bmaximum) writes the operand
// dtype; comparisons (eq ne le lt ge gt) write bool (one byte, 0 or 1, which
// the host reads as U8). Dtypes: f32, f16, bf16, u8, u32, i64, the coverage
// of candle's Metal backend; anything else has no kernel and fails to load.
//
// Each name comes in two variants: NAME (both operands contiguous) and
// NAME_strided (any layout, broadcast included: a stride of 0 repeats an
// element). candle's further variants (_scalar, _cs, _sc, _lss, _rss,
// _lstrided, _rstrided) compute what _strided computes with particular
// strides and are folded into it.
//
// Semantics, per element (the reference loop the simulated twins follow):
//   integer + - * wrap (u8 through int promotion, cast back); integer / truncates
//   toward zero and never traps; min/max are x < y ? x : y and x > y ? x : y
//   (a NaN or a tie selects y); float ops are the dtype's IEEE operations.

#include <metal_stdlib>
using namespace metal;

// Every thread handles 8 bytes' worth of elements, spaced `step` apart.
template <typename T>
constexpr uint elems_per_thread() {
    return (8 + sizeof(T) - 1) / sizeof(T);
}

METAL_FUNC uint strided_offset(
    uint i,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *strides
) {
    uint offset = 0;
    for (uint k = 0; k < rank; k++) {
        const uint d = rank - 1 - k;
        offset += (i % dims[d]) * strides[d];
        i /= dims[d];
    }
    return offset;
}

struct op_add { template <typename T> METAL_FUNC T operator()(T x, T y) const { return static_cast<T>(x + y); } };
struct op_sub { template <typename T> METAL_FUNC T operator()(T x, T y) const { return static_cast<T>(x - y); } };
struct op_mul { template <typename T> METAL_FUNC T operator()(T x, T y) const { return static_cast<T>(x * y); } };
struct op_div { template <typename T> METAL_FUNC T operator()(T x, T y) const { return static_cast<T>(x / y); } };
struct op_min { template <typename T> METAL_FUNC T operator()(T x, T y) const { return x < y ? x : y; } };
struct op_max { template <typename T> METAL_FUNC T operator()(T x, T y) const { return x > y ? x : y; } };

struct op_eq { template <typename T> METAL_FUNC bool operator()(T x, T y) const { return x == y; } };
struct op_ne { template <typename T> METAL_FUNC bool operator()(T x, T y) const { return x != y; } };
struct op_le { template <typename T> METAL_FUNC bool operator()(T x, T y) const { return x <= y; } };
struct op_lt { template <typename T> METAL_FUNC bool operator()(T x, T y) const { return x < y; } };
struct op_ge { template <typename T> METAL_FUNC bool operator()(T x, T y) const { return x >= y; } };
struct op_gt { template <typename T> METAL_FUNC bool operator()(T x, T y) const { return x > y; } };

// for (i = tid; i < n; i += step) out[i] = op(lhs[i], rhs[i]),
// step = ceil(n / elems_per_thread): the grid has `step` threads (or more).
template <typename T, typename U, typename OP>
[[kernel]] void binary_contiguous(
    constant size_t &n,
    device const T *lhs,
    device const T *rhs,
    device U *out,
    uint tid [[thread_position_in_grid]]
) {
    OP op;
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        out[i] = static_cast<U>(op(lhs[i], rhs[i]));
    }
}

// The same loop; operand elements are found through their strides.
template <typename T, typename U, typename OP>
[[kernel]] void binary_strided(
    constant size_t &n,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *lhs_strides,
    constant size_t *rhs_strides,
    device const T *lhs,
    device const T *rhs,
    device U *out,
    uint tid [[thread_position_in_grid]]
) {
    OP op;
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        const uint l = strided_offset(i, rank, dims, lhs_strides);
        const uint r = strided_offset(i, rank, dims, rhs_strides);
        out[i] = static_cast<U>(op(lhs[l], rhs[r]));
    }
}

// One line per kernel: the host name, the template, its arguments.
#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("badd_f32", binary_contiguous, float, float, op_add)
init_kernel("badd_f32_strided", binary_strided, float, float, op_add)
init_kernel("bsub_f32", binary_contiguous, float, float, op_sub)
init_kernel("bsub_f32_strided", binary_strided, float, float, op_sub)
init_kernel("bmul_f32", binary_contiguous, float, float, op_mul)
init_kernel("bmul_f32_strided", binary_strided, float, float, op_mul)
init_kernel("bdiv_f32", binary_contiguous, float, float, op_div)
init_kernel("bdiv_f32_strided", binary_strided, float, float, op_div)
init_kernel("bminimum_f32", binary_contiguous, float, float, op_min)
init_kernel("bminimum_f32_strided", binary_strided, float, float, op_min)
init_kernel("bmaximum_f32", binary_contiguous, float, float, op_max)
init_kernel("bmaximum_f32_strided", binary_strided, float, float, op_max)
init_kernel("eq_f32", binary_contiguous, float, bool, op_eq)
init_kernel("eq_f32_strided", binary_strided, float, bool, op_eq)
init_kernel("ne_f32", binary_contiguous, float, bool, op_ne)
init_kernel("ne_f32_strided", binary_strided, float, bool, op_ne)
init_kernel("le_f32", binary_contiguous, float, bool, op_le)
init_kernel("le_f32_strided", binary_strided, float, bool, op_le)
init_kernel("lt_f32", binary_contiguous, float, bool, op_lt)
init_kernel("lt_f32_strided", binary_strided, float, bool, op_lt)
init_kernel("ge_f32", binary_contiguous, float, bool, op_ge)
init_kernel("ge_f32_strided", binary_strided, float, bool, op_ge)
init_kernel("gt_f32", binary_contiguous, float, bool, op_gt)
init_kernel("gt_f32_strided", binary_strided, float, bool, op_gt)

init_kernel("badd_f16", binary_contiguous, half, half, op_add)
init_kernel("badd_f16_strided", binary_strided, half, half, op_add)
init_kernel("bsub_f16", binary_contiguous, half, half, op_sub)
init_kernel("bsub_f16_strided", binary_strided, half, half, op_sub)
init_kernel("bmul_f16", binary_contiguous, half, half, op_mul)
init_kernel("bmul_f16_strided", binary_strided, half, half, op_mul)
init_kernel("bdiv_f16", binary_contiguous, half, half, op_div)
init_kernel("bdiv_f16_strided", binary_strided, half, half, op_div)
init_kernel("bminimum_f16", binary_contiguous, half, half, op_min)
init_kernel("bminimum_f16_strided", binary_strided, half, half, op_min)
init_kernel("bmaximum_f16", binary_contiguous, half, half, op_max)
init_kernel("bmaximum_f16_strided", binary_strided, half, half, op_max)
init_kernel("eq_f16", binary_contiguous, half, bool, op_eq)
init_kernel("eq_f16_strided", binary_strided, half, bool, op_eq)
init_kernel("ne_f16", binary_contiguous, half, bool, op_ne)
init_kernel("ne_f16_strided", binary_strided, half, bool, op_ne)
init_kernel("le_f16", binary_contiguous, half, bool, op_le)
init_kernel("le_f16_strided", binary_strided, half, bool, op_le)
init_kernel("lt_f16", binary_contiguous, half, bool, op_lt)
init_kernel("lt_f16_strided", binary_strided, half, bool, op_lt)
init_kernel("ge_f16", binary_contiguous, half, bool, op_ge)
init_kernel("ge_f16_strided", binary_strided, half, bool, op_ge)
init_kernel("gt_f16", binary_contiguous, half, bool, op_gt)
init_kernel("gt_f16_strided", binary_strided, half, bool, op_gt)

#if defined(__HAVE_BFLOAT__)
init_kernel("badd_bf16", binary_contiguous, bfloat, bfloat, op_add)
init_kernel("badd_bf16_strided", binary_strided, bfloat, bfloat, op_add)
init_kernel("bsub_bf16", binary_contiguous, bfloat, bfloat, op_sub)
init_kernel("bsub_bf16_strided", binary_strided, bfloat, bfloat, op_sub)
init_kernel("bmul_bf16", binary_contiguous, bfloat, bfloat, op_mul)
init_kernel("bmul_bf16_strided", binary_strided, bfloat, bfloat, op_mul)
init_kernel("bdiv_bf16", binary_contiguous, bfloat, bfloat, op_div)
init_kernel("bdiv_bf16_strided", binary_strided, bfloat, bfloat, op_div)
init_kernel("bminimum_bf16", binary_contiguous, bfloat, bfloat, op_min)
init_kernel("bminimum_bf16_strided", binary_strided, bfloat, bfloat, op_min)
init_kernel("bmaximum_bf16", binary_contiguous, bfloat, bfloat, op_max)
init_kernel("bmaximum_bf16_strided", binary_strided, bfloat, bfloat, op_max)
init_kernel("eq_bf16", binary_contiguous, bfloat, bool, op_eq)
init_kernel("eq_bf16_strided", binary_strided, bfloat, bool, op_eq)
init_kernel("ne_bf16", binary_contiguous, bfloat, bool, op_ne)
init_kernel("ne_bf16_strided", binary_strided, bfloat, bool, op_ne)
init_kernel("le_bf16", binary_contiguous, bfloat, bool, op_le)
init_kernel("le_bf16_strided", binary_strided, bfloat, bool, op_le)
init_kernel("lt_bf16", binary_contiguous, bfloat, bool, op_lt)
init_kernel("lt_bf16_strided", binary_strided, bfloat, bool, op_lt)
init_kernel("ge_bf16", binary_contiguous, bfloat, bool, op_ge)
init_kernel("ge_bf16_strided", binary_strided, bfloat, bool, op_ge)
init_kernel("gt_bf16", binary_contiguous, bfloat, bool, op_gt)
init_kernel("gt_bf16_strided", binary_strided, bfloat, bool, op_gt)
#endif

init_kernel("badd_u8", binary_contiguous, uint8_t, uint8_t, op_add)
init_kernel("badd_u8_strided", binary_strided, uint8_t, uint8_t, op_add)
init_kernel("bsub_u8", binary_contiguous, uint8_t, uint8_t, op_sub)
init_kernel("bsub_u8_strided", binary_strided, uint8_t, uint8_t, op_sub)
init_kernel("bmul_u8", binary_contiguous, uint8_t, uint8_t, op_mul)
init_kernel("bmul_u8_strided", binary_strided, uint8_t, uint8_t, op_mul)
init_kernel("bdiv_u8", binary_contiguous, uint8_t, uint8_t, op_div)
init_kernel("bdiv_u8_strided", binary_strided, uint8_t, uint8_t, op_div)
init_kernel("bminimum_u8", binary_contiguous, uint8_t, uint8_t, op_min)
init_kernel("bminimum_u8_strided", binary_strided, uint8_t, uint8_t, op_min)
init_kernel("bmaximum_u8", binary_contiguous, uint8_t, uint8_t, op_max)
init_kernel("bmaximum_u8_strided", binary_strided, uint8_t, uint8_t, op_max)
init_kernel("eq_u8", binary_contiguous, uint8_t, bool, op_eq)
init_kernel("eq_u8_strided", binary_strided, uint8_t, bool, op_eq)
init_kernel("ne_u8", binary_contiguous, uint8_t, bool, op_ne)
init_kernel("ne_u8_strided", binary_strided, uint8_t, bool, op_ne)
init_kernel("le_u8", binary_contiguous, uint8_t, bool, op_le)
init_kernel("le_u8_strided", binary_strided, uint8_t, bool, op_le)
init_kernel("lt_u8", binary_contiguous, uint8_t, bool, op_lt)
init_kernel("lt_u8_strided", binary_strided, uint8_t, bool, op_lt)
init_kernel("ge_u8", binary_contiguous, uint8_t, bool, op_ge)
init_kernel("ge_u8_strided", binary_strided, uint8_t, bool, op_ge)
init_kernel("gt_u8", binary_contiguous, uint8_t, bool, op_gt)
init_kernel("gt_u8_strided", binary_strided, uint8_t, bool, op_gt)

init_kernel("badd_u32", binary_contiguous, uint32_t, uint32_t, op_add)
init_kernel("badd_u32_strided", binary_strided, uint32_t, uint32_t, op_add)
init_kernel("bsub_u32", binary_contiguous, uint32_t, uint32_t, op_sub)
init_kernel("bsub_u32_strided", binary_strided, uint32_t, uint32_t, op_sub)
init_kernel("bmul_u32", binary_contiguous, uint32_t, uint32_t, op_mul)
init_kernel("bmul_u32_strided", binary_strided, uint32_t, uint32_t, op_mul)
init_kernel("bdiv_u32", binary_contiguous, uint32_t, uint32_t, op_div)
init_kernel("bdiv_u32_strided", binary_strided, uint32_t, uint32_t, op_div)
init_kernel("bminimum_u32", binary_contiguous, uint32_t, uint32_t, op_min)
init_kernel("bminimum_u32_strided", binary_strided, uint32_t, uint32_t, op_min)
init_kernel("bmaximum_u32", binary_contiguous, uint32_t, uint32_t, op_max)
init_kernel("bmaximum_u32_strided", binary_strided, uint32_t, uint32_t, op_max)
init_kernel("eq_u32", binary_contiguous, uint32_t, bool, op_eq)
init_kernel("eq_u32_strided", binary_strided, uint32_t, bool, op_eq)
init_kernel("ne_u32", binary_contiguous, uint32_t, bool, op_ne)
init_kernel("ne_u32_strided", binary_strided, uint32_t, bool, op_ne)
init_kernel("le_u32", binary_contiguous, uint32_t, bool, op_le)
init_kernel("le_u32_strided", binary_strided, uint32_t, bool, op_le)
init_kernel("lt_u32", binary_contiguous, uint32_t, bool, op_lt)
init_kernel("lt_u32_strided", binary_strided, uint32_t, bool, op_lt)
init_kernel("ge_u32", binary_contiguous, uint32_t, bool, op_ge)
init_kernel("ge_u32_strided", binary_strided, uint32_t, bool, op_ge)
init_kernel("gt_u32", binary_contiguous, uint32_t, bool, op_gt)
init_kernel("gt_u32_strided", binary_strided, uint32_t, bool, op_gt)

init_kernel("badd_i64", binary_contiguous, int64_t, int64_t, op_add)
init_kernel("badd_i64_strided", binary_strided, int64_t, int64_t, op_add)
init_kernel("bsub_i64", binary_contiguous, int64_t, int64_t, op_sub)
init_kernel("bsub_i64_strided", binary_strided, int64_t, int64_t, op_sub)
init_kernel("bmul_i64", binary_contiguous, int64_t, int64_t, op_mul)
init_kernel("bmul_i64_strided", binary_strided, int64_t, int64_t, op_mul)
init_kernel("bdiv_i64", binary_contiguous, int64_t, int64_t, op_div)
init_kernel("bdiv_i64_strided", binary_strided, int64_t, int64_t, op_div)
init_kernel("bminimum_i64", binary_contiguous, int64_t, int64_t, op_min)
init_kernel("bminimum_i64_strided", binary_strided, int64_t, int64_t, op_min)
init_kernel("bmaximum_i64", binary_contiguous, int64_t, int64_t, op_max)
init_kernel("bmaximum_i64_strided", binary_strided, int64_t, int64_t, op_max)
init_kernel("eq_i64", binary_contiguous, int64_t, bool, op_eq)
init_kernel("eq_i64_strided", binary_strided, int64_t, bool, op_eq)
init_kernel("ne_i64", binary_contiguous, int64_t, bool, op_ne)
init_kernel("ne_i64_strided", binary_strided, int64_t, bool, op_ne)
init_kernel("le_i64", binary_contiguous, int64_t, bool, op_le)
init_kernel("le_i64_strided", binary_strided, int64_t, bool, op_le)
init_kernel("lt_i64", binary_contiguous, int64_t, bool, op_lt)
init_kernel("lt_i64_strided", binary_strided, int64_t, bool, op_lt)
init_kernel("ge_i64", binary_contiguous, int64_t, bool, op_ge)
init_kernel("ge_i64_strided", binary_strided, int64_t, bool, op_ge)
init_kernel("gt_i64", binary_contiguous, int64_t, bool, op_gt)
init_kernel("gt_i64_strided", binary_strided, int64_t, bool, op_gt)
