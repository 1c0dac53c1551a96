// ternary.metal: where_cond, out = cond ? on_true : on_false elementwise.
//
// where_IDS_T selects between two T tensors by an IDS condition: candle's
// 18 kernels, conditions u8, u32 and i64 over values f16, f32, u8, u32,
// i64 and bf16 (ternary.metal:98-125 at 2a13b0f3). candle's host names
// only seven of them (metal_backend/mod.rs:873-881: u8 over f32, bf16,
// f16, i64, u32, u8, and u32 over f32) and bails for every other pair, so
// the rest are never loaded. The three operands share the shape dims
// (rank entries); each is read at i when it is contiguous and at
// strided_offset(i, rank, dims, its strides) otherwise. The contiguous
// kernels' loop, each thread taking every step-th element:
//
//   step = ceil(n / elems_per_thread<T>)
//   for (i = tid; i < n; i += step)
//       out[i] = cond[c(i)] != 0 ? on_true[t(i)] : on_false[f(i)]
//
// candle passes the three contiguity flags as function constants
// (IDS_CONTIGUOUS, T_CONTIGUOUS, F_CONTIGUOUS, ternary.metal:4-6, set by
// kernels/ternary.rs:27-33): one specialized pipeline per combination.
// These kernels take them as three constant bool arguments after out,
// which gives every element the same value without function constants in
// the Device interface; the other arguments are bound as candle binds them.

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

template <typename T, typename ID>
[[kernel]] void where_cond(
    constant size_t &n,
    constant size_t &rank,
    constant size_t *dims,
    constant size_t *cond_strides,
    constant size_t *true_strides,
    constant size_t *false_strides,
    device const ID *cond,
    device const T *on_true,
    device const T *on_false,
    device T *out,
    constant bool &cond_contiguous,
    constant bool &true_contiguous,
    constant bool &false_contiguous,
    uint tid [[thread_position_in_grid]]
) {
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        const uint c = cond_contiguous ? i : strided_offset(i, rank, dims, cond_strides);
        const uint t = true_contiguous ? i : strided_offset(i, rank, dims, true_strides);
        const uint f = false_contiguous ? i : strided_offset(i, rank, dims, false_strides);
        out[i] = cond[c] != 0 ? on_true[t] : on_false[f];
    }
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("where_u32_f16", where_cond, half, uint32_t)
init_kernel("where_u32_f32", where_cond, float, uint32_t)
init_kernel("where_u32_u8", where_cond, uint8_t, uint32_t)
init_kernel("where_u32_u32", where_cond, uint32_t, uint32_t)

init_kernel("where_u8_f16", where_cond, half, uint8_t)
init_kernel("where_u8_f32", where_cond, float, uint8_t)
init_kernel("where_u8_u8", where_cond, uint8_t, uint8_t)
init_kernel("where_u8_u32", where_cond, uint32_t, uint8_t)

#if __METAL_VERSION__ >= 220
init_kernel("where_u8_i64", where_cond, int64_t, uint8_t)
init_kernel("where_u32_i64", where_cond, int64_t, uint32_t)

init_kernel("where_i64_f16", where_cond, half, int64_t)
init_kernel("where_i64_f32", where_cond, float, int64_t)
init_kernel("where_i64_u8", where_cond, uint8_t, int64_t)
init_kernel("where_i64_u32", where_cond, uint32_t, int64_t)
init_kernel("where_i64_i64", where_cond, int64_t, int64_t)
#if defined(__HAVE_BFLOAT__)
init_kernel("where_i64_bf16", where_cond, bfloat, int64_t)
#endif
#endif

#if defined(__HAVE_BFLOAT__)
init_kernel("where_u8_bf16", where_cond, bfloat, uint8_t)
init_kernel("where_u32_bf16", where_cond, bfloat, uint32_t)
#endif
