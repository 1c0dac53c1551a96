// cast.metal: dtype conversions among f32, f16, bf16, i64, u32, u8.
//
// cast_FROM_TO is static_cast<TO>(x) for every pair of the six dtypes (the
// identity pairs too, which candle's host never asks for). There is no f64,
// i32 or i16 on either side: candle's to_dtype to or from them fails on
// Metal. What static_cast computes:
//   float -> float   round to nearest, ties to even (overflow to ±inf)
//   int -> float     round to nearest, ties to even, one rounding
//   float -> int     truncate toward zero; out of range saturates and NaN
//                    gives 0 on Apple GPUs (C++ leaves both undefined)
//   int -> int       two's complement: keep the low bits, sign- or zero-extend

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

template <typename T, typename U>
[[kernel]] void cast_contiguous(
    constant size_t &n,
    device const T *in,
    device U *out,
    uint tid [[thread_position_in_grid]]
) {
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        out[i] = static_cast<U>(in[i]);
    }
}

// One thread per element.
template <typename T, typename U>
[[kernel]] void cast_strided(
    constant size_t &n,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *strides,
    device const T *in,
    device U *out,
    uint tid [[thread_position_in_grid]]
) {
    if (tid >= n) {
        return;
    }
    out[tid] = static_cast<U>(in[strided_offset(tid, rank, dims, strides)]);
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("cast_f32_f32", cast_contiguous, float, float)
init_kernel("cast_f32_f32_strided", cast_strided, float, float)
init_kernel("cast_f32_f16", cast_contiguous, float, half)
init_kernel("cast_f32_f16_strided", cast_strided, float, half)
init_kernel("cast_f32_i64", cast_contiguous, float, int64_t)
init_kernel("cast_f32_i64_strided", cast_strided, float, int64_t)
init_kernel("cast_f32_u32", cast_contiguous, float, uint32_t)
init_kernel("cast_f32_u32_strided", cast_strided, float, uint32_t)
init_kernel("cast_f32_u8", cast_contiguous, float, uint8_t)
init_kernel("cast_f32_u8_strided", cast_strided, float, uint8_t)
init_kernel("cast_f16_f32", cast_contiguous, half, float)
init_kernel("cast_f16_f32_strided", cast_strided, half, float)
init_kernel("cast_f16_f16", cast_contiguous, half, half)
init_kernel("cast_f16_f16_strided", cast_strided, half, half)
init_kernel("cast_f16_i64", cast_contiguous, half, int64_t)
init_kernel("cast_f16_i64_strided", cast_strided, half, int64_t)
init_kernel("cast_f16_u32", cast_contiguous, half, uint32_t)
init_kernel("cast_f16_u32_strided", cast_strided, half, uint32_t)
init_kernel("cast_f16_u8", cast_contiguous, half, uint8_t)
init_kernel("cast_f16_u8_strided", cast_strided, half, uint8_t)
init_kernel("cast_i64_f32", cast_contiguous, int64_t, float)
init_kernel("cast_i64_f32_strided", cast_strided, int64_t, float)
init_kernel("cast_i64_f16", cast_contiguous, int64_t, half)
init_kernel("cast_i64_f16_strided", cast_strided, int64_t, half)
init_kernel("cast_i64_i64", cast_contiguous, int64_t, int64_t)
init_kernel("cast_i64_i64_strided", cast_strided, int64_t, int64_t)
init_kernel("cast_i64_u32", cast_contiguous, int64_t, uint32_t)
init_kernel("cast_i64_u32_strided", cast_strided, int64_t, uint32_t)
init_kernel("cast_i64_u8", cast_contiguous, int64_t, uint8_t)
init_kernel("cast_i64_u8_strided", cast_strided, int64_t, uint8_t)
init_kernel("cast_u32_f32", cast_contiguous, uint32_t, float)
init_kernel("cast_u32_f32_strided", cast_strided, uint32_t, float)
init_kernel("cast_u32_f16", cast_contiguous, uint32_t, half)
init_kernel("cast_u32_f16_strided", cast_strided, uint32_t, half)
init_kernel("cast_u32_i64", cast_contiguous, uint32_t, int64_t)
init_kernel("cast_u32_i64_strided", cast_strided, uint32_t, int64_t)
init_kernel("cast_u32_u32", cast_contiguous, uint32_t, uint32_t)
init_kernel("cast_u32_u32_strided", cast_strided, uint32_t, uint32_t)
init_kernel("cast_u32_u8", cast_contiguous, uint32_t, uint8_t)
init_kernel("cast_u32_u8_strided", cast_strided, uint32_t, uint8_t)
init_kernel("cast_u8_f32", cast_contiguous, uint8_t, float)
init_kernel("cast_u8_f32_strided", cast_strided, uint8_t, float)
init_kernel("cast_u8_f16", cast_contiguous, uint8_t, half)
init_kernel("cast_u8_f16_strided", cast_strided, uint8_t, half)
init_kernel("cast_u8_i64", cast_contiguous, uint8_t, int64_t)
init_kernel("cast_u8_i64_strided", cast_strided, uint8_t, int64_t)
init_kernel("cast_u8_u32", cast_contiguous, uint8_t, uint32_t)
init_kernel("cast_u8_u32_strided", cast_strided, uint8_t, uint32_t)
init_kernel("cast_u8_u8", cast_contiguous, uint8_t, uint8_t)
init_kernel("cast_u8_u8_strided", cast_strided, uint8_t, uint8_t)

#if defined(__HAVE_BFLOAT__)
init_kernel("cast_f32_bf16", cast_contiguous, float, bfloat)
init_kernel("cast_f32_bf16_strided", cast_strided, float, bfloat)
init_kernel("cast_f16_bf16", cast_contiguous, half, bfloat)
init_kernel("cast_f16_bf16_strided", cast_strided, half, bfloat)
init_kernel("cast_bf16_f32", cast_contiguous, bfloat, float)
init_kernel("cast_bf16_f32_strided", cast_strided, bfloat, float)
init_kernel("cast_bf16_f16", cast_contiguous, bfloat, half)
init_kernel("cast_bf16_f16_strided", cast_strided, bfloat, half)
init_kernel("cast_bf16_bf16", cast_contiguous, bfloat, bfloat)
init_kernel("cast_bf16_bf16_strided", cast_strided, bfloat, bfloat)
init_kernel("cast_bf16_i64", cast_contiguous, bfloat, int64_t)
init_kernel("cast_bf16_i64_strided", cast_strided, bfloat, int64_t)
init_kernel("cast_bf16_u32", cast_contiguous, bfloat, uint32_t)
init_kernel("cast_bf16_u32_strided", cast_strided, bfloat, uint32_t)
init_kernel("cast_bf16_u8", cast_contiguous, bfloat, uint8_t)
init_kernel("cast_bf16_u8_strided", cast_strided, bfloat, uint8_t)
init_kernel("cast_i64_bf16", cast_contiguous, int64_t, bfloat)
init_kernel("cast_i64_bf16_strided", cast_strided, int64_t, bfloat)
init_kernel("cast_u32_bf16", cast_contiguous, uint32_t, bfloat)
init_kernel("cast_u32_bf16_strided", cast_strided, uint32_t, bfloat)
init_kernel("cast_u8_bf16", cast_contiguous, uint8_t, bfloat)
init_kernel("cast_u8_bf16_strided", cast_strided, uint8_t, bfloat)
#endif
