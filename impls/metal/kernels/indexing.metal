// indexing.metal: index_select and gather along one dim.
//
// is_IDS_SRC selects rows of a SRC tensor with IDS indices: candle's 16
// kernels, ids u8 and u32 over sources u8, u32, i64, f32, f16, bf16, and
// ids i64 over i64, f32, f16, bf16 only. There is no is_i64_u8 and no
// is_i64_u32 (candle's host asks for them, and loading them fails), and
// i32 or f32 indices find no kernel. One thread per output element:
//
//   id = ids[(t / right) % n_ids]
//   id == the ids dtype's maximum (255, 2^32 - 1, 2^63 - 1): out[t] = 0
//   otherwise row = min(id, IDS(src_dim - 1)) and, with
//   at = (t / right / n_ids) * src_dim * right + row * right + t % right,
//   out[t] = src[at] for a contiguous source, and for a strided one
//   out[t] = src[strided_offset(at, src_dim, src_dims, src_strides)]:
//   candle passes the size of the selected dim where the number of dims
//   belongs (indexing.metal:68 at 2a13b0f3), and the offset is taken over
//   the first src_dim entries of dims and strides, which is the source's
//   own layout only when src_dim equals its rank (past the rank, it reads
//   beyond the bound arrays).
//
// An index past the end is clamped to the last row, not reported; the
// clamp bound is converted to the ids dtype first (a u8 bound wraps when
// src_dim > 256). A negative i64 index is not clamped: the offset computed
// in 64-bit unsigned arithmetic points before the row, possibly outside
// the buffer.

#include <metal_stdlib>
using namespace metal;

template <typename I> METAL_FUNC I sentinel();
template <> METAL_FUNC uint8_t sentinel<uint8_t>() { return 0xFF; }
template <> METAL_FUNC uint32_t sentinel<uint32_t>() { return 0xFFFFFFFFu; }
template <> METAL_FUNC int64_t sentinel<int64_t>() { return 0x7FFFFFFFFFFFFFFF; }

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

template <typename T, typename I>
[[kernel]] void index_select(
    constant size_t &n_out,
    constant size_t &left,
    constant size_t &src_dim,
    constant size_t &right,
    constant size_t &n_ids,
    constant bool &contiguous,
    constant size_t *src_dims,
    constant size_t *src_strides,
    device const T *src,
    device const I *ids,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    if (tid >= n_out) {
        return;
    }
    const I id = ids[(tid / right) % n_ids];
    if (id == sentinel<I>()) {
        out[tid] = static_cast<T>(0);
        return;
    }
    const I row = min(id, static_cast<I>(src_dim - 1));
    const size_t l = tid / right / n_ids;
    const size_t r = tid % right;
    const size_t at = l * src_dim * right + static_cast<size_t>(row) * right + r;
    out[tid] = src[contiguous ? at : strided_offset(at, src_dim, src_dims, src_strides)];
}

template <typename T, typename I>
[[kernel]] void gather(
    constant size_t &n_out,
    constant size_t &left,
    constant size_t &src_dim,
    constant size_t &right,
    constant size_t &n_ids,
    device const T *src,
    device const I *ids,
    device T *out,
    uint tid [[thread_position_in_grid]]
) {
    if (tid >= n_out) {
        return;
    }
    const I id = ids[tid];
    if (id == sentinel<I>()) {
        out[tid] = static_cast<T>(0);
        return;
    }
    const size_t l = tid / right / n_ids;
    const size_t r = tid % right;
    out[tid] = src[(l * src_dim + static_cast<size_t>(id)) * right + r];
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("is_u8_u8", index_select, uint8_t, uint8_t)
init_kernel("is_u8_u32", index_select, uint32_t, uint8_t)
init_kernel("is_u8_i64", index_select, int64_t, uint8_t)
init_kernel("is_u8_f32", index_select, float, uint8_t)
init_kernel("is_u8_f16", index_select, half, uint8_t)
init_kernel("is_u32_u8", index_select, uint8_t, uint32_t)
init_kernel("is_u32_u32", index_select, uint32_t, uint32_t)
init_kernel("is_u32_i64", index_select, int64_t, uint32_t)
init_kernel("is_u32_f32", index_select, float, uint32_t)
init_kernel("is_u32_f16", index_select, half, uint32_t)
init_kernel("is_i64_i64", index_select, int64_t, int64_t)
init_kernel("is_i64_f32", index_select, float, int64_t)
init_kernel("is_i64_f16", index_select, half, int64_t)

#if defined(__HAVE_BFLOAT__)
init_kernel("is_u8_bf16", index_select, bfloat, uint8_t)
init_kernel("is_u32_bf16", index_select, bfloat, uint32_t)
init_kernel("is_i64_bf16", index_select, bfloat, int64_t)
#endif

init_kernel("gather_u8_u8", gather, uint8_t, uint8_t)
init_kernel("gather_u8_u32", gather, uint32_t, uint8_t)
init_kernel("gather_u8_i64", gather, int64_t, uint8_t)
init_kernel("gather_u8_f32", gather, float, uint8_t)
init_kernel("gather_u8_f16", gather, half, uint8_t)
init_kernel("gather_u32_u32", gather, uint32_t, uint32_t)
init_kernel("gather_u32_i64", gather, int64_t, uint32_t)
init_kernel("gather_u32_f32", gather, float, uint32_t)
init_kernel("gather_u32_f16", gather, half, uint32_t)
init_kernel("gather_i64_u32", gather, uint32_t, int64_t)
init_kernel("gather_i64_i64", gather, int64_t, int64_t)
init_kernel("gather_i64_f32", gather, float, int64_t)
init_kernel("gather_i64_f16", gather, half, int64_t)
#if defined(__HAVE_BFLOAT__)
init_kernel("gather_u8_bf16", gather, bfloat, uint8_t)
init_kernel("gather_u32_bf16", gather, bfloat, uint32_t)
init_kernel("gather_i64_bf16", gather, bfloat, int64_t)
#endif
