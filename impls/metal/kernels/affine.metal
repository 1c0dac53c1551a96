// affine.metal: x * mul + add with f32 coefficients, and x ** e (powf).
//
// candle turns `tensor op f64` into affine(mul, add); its Metal backend
// passes both coefficients as f32 (rounded from f64 on the host) and every
// element goes through float:
//
//     out[i] = static_cast<T>(fma(float(in[i]), mul, add))
//
// so an integer above 2^24 loses bits, the product and sum are rounded once
// (fused) to f32, and the result is converted back: truncated toward zero
// for integers, rounded to nearest even for f16/bf16. affine exists for f32,
// f16, bf16, u8, u32, i64; powf for f32, f16, bf16.

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

template <typename T>
[[kernel]] void affine_contiguous(
    constant size_t &n,
    constant float &mul,
    constant float &add,
    device const T *in,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        out[i] = static_cast<T>(fma(static_cast<float>(in[i]), mul, add));
    }
}

// One thread per element.
template <typename T>
[[kernel]] void affine_strided(
    constant size_t &n,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *strides,
    constant float &mul,
    constant float &add,
    device const T *in,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    if (tid >= n) {
        return;
    }
    const float x = static_cast<float>(in[strided_offset(tid, rank, dims, strides)]);
    out[tid] = static_cast<T>(fma(x, mul, add));
}

template <typename T>
[[kernel]] void powf_contiguous(
    constant size_t &n,
    constant float &e,
    device const T *in,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        out[i] = static_cast<T>(pow(static_cast<float>(in[i]), e));
    }
}

template <typename T>
[[kernel]] void powf_strided(
    constant size_t &n,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *strides,
    constant float &e,
    device const T *in,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    if (tid >= n) {
        return;
    }
    const float x = static_cast<float>(in[strided_offset(tid, rank, dims, strides)]);
    out[tid] = static_cast<T>(pow(x, e));
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("affine_f32", affine_contiguous, float)
init_kernel("affine_f32_strided", affine_strided, float)
init_kernel("affine_f16", affine_contiguous, half)
init_kernel("affine_f16_strided", affine_strided, half)
init_kernel("affine_u8", affine_contiguous, uint8_t)
init_kernel("affine_u8_strided", affine_strided, uint8_t)
init_kernel("affine_u32", affine_contiguous, uint32_t)
init_kernel("affine_u32_strided", affine_strided, uint32_t)
init_kernel("affine_i64", affine_contiguous, int64_t)
init_kernel("affine_i64_strided", affine_strided, int64_t)

init_kernel("powf_f32", powf_contiguous, float)
init_kernel("powf_f32_strided", powf_strided, float)
init_kernel("powf_f16", powf_contiguous, half)
init_kernel("powf_f16_strided", powf_strided, half)

#if defined(__HAVE_BFLOAT__)
init_kernel("affine_bf16", affine_contiguous, bfloat)
init_kernel("affine_bf16_strided", affine_strided, bfloat)
init_kernel("powf_bf16", powf_contiguous, bfloat)
init_kernel("powf_bf16_strided", powf_strided, bfloat)
#endif
