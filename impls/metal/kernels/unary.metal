// unary.metal: elementwise functions of one operand, same dtype out.
//
// The float functions exist for f32, f16 and bf16 only; the integer dtypes
// (u8, u32, i64) have copy and nothing else, so candle's neg, abs, sqrt,
// exp, ... of an integer tensor find no kernel (and sign_i64, which
// candle's host asks for, does not exist). Every function is evaluated as
// candle's unary.metal evaluates it, in the element type, so that the
// compiler picks the same overloads: sqrt, exp and log of a half are the
// half-precision functions, of a float the fast float ones (the kernels
// are compiled with fast math); abs goes through float, and recip is
// 1.0 / x, whose literal is a float:
//
//   neg -x          abs |float(x)|    sign: 1, -1, ±0 kept, NaN -> 0
//   sqrt, exp, log  (fast-math functions of T: not fixed to the bit)
//   floor, ceil     round: half away from zero
//   sqr x * x       recip 1.0 / x     copy x
//
// candle's host reaches the _strided kernels of sign and recip never: its
// strided table lacks both.
//
// const_set_T writes one value into every element (Tensor::full's
// const_set, unary.metal:68-95,223-276 at 2a13b0f3), for f32 f16 bf16 u8
// u32 i64: the contiguous kernel in the loop above (out[i] = value), the
// _strided one at out[strided_offset(tid, ...)]. The value is bound with
// setBytes (candle's set_params of a scalar) to a `device const T &`.
//
// copy2d_T copies d1 rows of d2 elements between two buffers with their
// own row strides (candle's copy2d, unary.metal:98-111,220-221,250-280 at
// 2a13b0f3; MetalStorage::copy2d, which Tensor::cat and copy_strided_src
// run), for f32 f16 bf16 u8 u32 i64 i32 i16: one thread per element of a
// d1 x d2 grid of threads (dispatchThreads),
//
//   out[x * dst_s + y] = in[x * src_s + y]    (x < d1, y < d2)

#include <metal_stdlib>
using namespace metal;

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

// One functor per op: static_cast<T>(expression in T).
#define unary_op(name, expr)                                    \
struct name {                                                   \
    template <typename T> METAL_FUNC T operator()(T x) const {  \
        return static_cast<T>(expr);                            \
    }                                                           \
};

unary_op(u_neg, -x)
unary_op(u_abs, abs(static_cast<float>(x)))
unary_op(u_sign, sign(x))
unary_op(u_sqrt, sqrt(x))
unary_op(u_exp, exp(x))
unary_op(u_log, log(x))
unary_op(u_floor, floor(x))
unary_op(u_ceil, ceil(x))
unary_op(u_round, round(x))
unary_op(u_sqr, x * x)
unary_op(u_recip, 1.0 / x)
unary_op(u_copy, x)

template <typename T, typename OP>
[[kernel]] void unary_contiguous(
    constant size_t &n,
    device const T *in,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    OP op;
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        out[i] = op(in[i]);
    }
}

// One thread per element.
template <typename T, typename OP>
[[kernel]] void unary_strided(
    constant size_t &n,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *strides,
    device const T *in,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    OP op;
    if (tid >= n) {
        return;
    }
    out[tid] = op(in[strided_offset(tid, rank, dims, strides)]);
}

template <typename T>
[[kernel]] void const_set_contiguous(
    constant size_t &n,
    device const T &value,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        out[i] = value;
    }
}

// One thread per element, written at its strided offset.
template <typename T>
[[kernel]] void const_set_strided(
    constant size_t &n,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *strides,
    device const T &value,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    if (tid >= n) {
        return;
    }
    out[strided_offset(tid, rank, dims, strides)] = value;
}

// One thread per element of a d1 x d2 grid, in 64-bit index arithmetic.
template <typename T>
[[kernel]] void copy2d(
    constant int64_t &d1,
    constant int64_t &d2,
    constant int64_t &src_s,
    constant int64_t &dst_s,
    device const T *in,
    device T *out,
    uint2 pos [[thread_position_in_grid]]
) {
    const int64_t row = pos.x;
    const int64_t col = pos.y;
    if (row >= d1 || col >= d2) {
        return;
    }
    out[row * dst_s + col] = in[row * src_s + col];
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("neg_f32", unary_contiguous, float, u_neg)
init_kernel("neg_f32_strided", unary_strided, float, u_neg)
init_kernel("abs_f32", unary_contiguous, float, u_abs)
init_kernel("abs_f32_strided", unary_strided, float, u_abs)
init_kernel("sign_f32", unary_contiguous, float, u_sign)
init_kernel("sign_f32_strided", unary_strided, float, u_sign)
init_kernel("sqrt_f32", unary_contiguous, float, u_sqrt)
init_kernel("sqrt_f32_strided", unary_strided, float, u_sqrt)
init_kernel("exp_f32", unary_contiguous, float, u_exp)
init_kernel("exp_f32_strided", unary_strided, float, u_exp)
init_kernel("log_f32", unary_contiguous, float, u_log)
init_kernel("log_f32_strided", unary_strided, float, u_log)
init_kernel("floor_f32", unary_contiguous, float, u_floor)
init_kernel("floor_f32_strided", unary_strided, float, u_floor)
init_kernel("ceil_f32", unary_contiguous, float, u_ceil)
init_kernel("ceil_f32_strided", unary_strided, float, u_ceil)
init_kernel("round_f32", unary_contiguous, float, u_round)
init_kernel("round_f32_strided", unary_strided, float, u_round)
init_kernel("sqr_f32", unary_contiguous, float, u_sqr)
init_kernel("sqr_f32_strided", unary_strided, float, u_sqr)
init_kernel("recip_f32", unary_contiguous, float, u_recip)
init_kernel("recip_f32_strided", unary_strided, float, u_recip)
init_kernel("copy_f32", unary_contiguous, float, u_copy)
init_kernel("copy_f32_strided", unary_strided, float, u_copy)

init_kernel("neg_f16", unary_contiguous, half, u_neg)
init_kernel("neg_f16_strided", unary_strided, half, u_neg)
init_kernel("abs_f16", unary_contiguous, half, u_abs)
init_kernel("abs_f16_strided", unary_strided, half, u_abs)
init_kernel("sign_f16", unary_contiguous, half, u_sign)
init_kernel("sign_f16_strided", unary_strided, half, u_sign)
init_kernel("sqrt_f16", unary_contiguous, half, u_sqrt)
init_kernel("sqrt_f16_strided", unary_strided, half, u_sqrt)
init_kernel("exp_f16", unary_contiguous, half, u_exp)
init_kernel("exp_f16_strided", unary_strided, half, u_exp)
init_kernel("log_f16", unary_contiguous, half, u_log)
init_kernel("log_f16_strided", unary_strided, half, u_log)
init_kernel("floor_f16", unary_contiguous, half, u_floor)
init_kernel("floor_f16_strided", unary_strided, half, u_floor)
init_kernel("ceil_f16", unary_contiguous, half, u_ceil)
init_kernel("ceil_f16_strided", unary_strided, half, u_ceil)
init_kernel("round_f16", unary_contiguous, half, u_round)
init_kernel("round_f16_strided", unary_strided, half, u_round)
init_kernel("sqr_f16", unary_contiguous, half, u_sqr)
init_kernel("sqr_f16_strided", unary_strided, half, u_sqr)
init_kernel("recip_f16", unary_contiguous, half, u_recip)
init_kernel("recip_f16_strided", unary_strided, half, u_recip)
init_kernel("copy_f16", unary_contiguous, half, u_copy)
init_kernel("copy_f16_strided", unary_strided, half, u_copy)

#if defined(__HAVE_BFLOAT__)
init_kernel("neg_bf16", unary_contiguous, bfloat, u_neg)
init_kernel("neg_bf16_strided", unary_strided, bfloat, u_neg)
init_kernel("abs_bf16", unary_contiguous, bfloat, u_abs)
init_kernel("abs_bf16_strided", unary_strided, bfloat, u_abs)
init_kernel("sign_bf16", unary_contiguous, bfloat, u_sign)
init_kernel("sign_bf16_strided", unary_strided, bfloat, u_sign)
init_kernel("sqrt_bf16", unary_contiguous, bfloat, u_sqrt)
init_kernel("sqrt_bf16_strided", unary_strided, bfloat, u_sqrt)
init_kernel("exp_bf16", unary_contiguous, bfloat, u_exp)
init_kernel("exp_bf16_strided", unary_strided, bfloat, u_exp)
init_kernel("log_bf16", unary_contiguous, bfloat, u_log)
init_kernel("log_bf16_strided", unary_strided, bfloat, u_log)
init_kernel("floor_bf16", unary_contiguous, bfloat, u_floor)
init_kernel("floor_bf16_strided", unary_strided, bfloat, u_floor)
init_kernel("ceil_bf16", unary_contiguous, bfloat, u_ceil)
init_kernel("ceil_bf16_strided", unary_strided, bfloat, u_ceil)
init_kernel("round_bf16", unary_contiguous, bfloat, u_round)
init_kernel("round_bf16_strided", unary_strided, bfloat, u_round)
init_kernel("sqr_bf16", unary_contiguous, bfloat, u_sqr)
init_kernel("sqr_bf16_strided", unary_strided, bfloat, u_sqr)
init_kernel("recip_bf16", unary_contiguous, bfloat, u_recip)
init_kernel("recip_bf16_strided", unary_strided, bfloat, u_recip)
init_kernel("copy_bf16", unary_contiguous, bfloat, u_copy)
init_kernel("copy_bf16_strided", unary_strided, bfloat, u_copy)
#endif

init_kernel("copy_u8", unary_contiguous, uint8_t, u_copy)
init_kernel("copy_u8_strided", unary_strided, uint8_t, u_copy)
init_kernel("copy_u32", unary_contiguous, uint32_t, u_copy)
init_kernel("copy_u32_strided", unary_strided, uint32_t, u_copy)
init_kernel("copy_i64", unary_contiguous, int64_t, u_copy)
init_kernel("copy_i64_strided", unary_strided, int64_t, u_copy)

init_kernel("const_set_f32", const_set_contiguous, float)
init_kernel("const_set_f32_strided", const_set_strided, float)
init_kernel("const_set_f16", const_set_contiguous, half)
init_kernel("const_set_f16_strided", const_set_strided, half)
#if defined(__HAVE_BFLOAT__)
init_kernel("const_set_bf16", const_set_contiguous, bfloat)
init_kernel("const_set_bf16_strided", const_set_strided, bfloat)
#endif
init_kernel("const_set_u8", const_set_contiguous, uint8_t)
init_kernel("const_set_u8_strided", const_set_strided, uint8_t)
init_kernel("const_set_u32", const_set_contiguous, uint32_t)
init_kernel("const_set_u32_strided", const_set_strided, uint32_t)
#if __METAL_VERSION__ >= 220
init_kernel("const_set_i64", const_set_contiguous, int64_t)
init_kernel("const_set_i64_strided", const_set_strided, int64_t)
#endif

init_kernel("copy2d_f32", copy2d, float)
init_kernel("copy2d_f16", copy2d, half)
#if defined(__HAVE_BFLOAT__)
init_kernel("copy2d_bf16", copy2d, bfloat)
#endif
init_kernel("copy2d_u8", copy2d, uint8_t)
init_kernel("copy2d_u32", copy2d, uint32_t)
#if __METAL_VERSION__ >= 220
init_kernel("copy2d_i64", copy2d, int64_t)
#endif
init_kernel("copy2d_i32", copy2d, int32_t)
init_kernel("copy2d_i16", copy2d, int16_t)
