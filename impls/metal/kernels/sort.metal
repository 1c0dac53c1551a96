// sort.metal: arg_sort_last_dim, the indices that sort each row.
//
// asort_asc_T and asort_desc_T (candle's sort.metal at 2a13b0f3, for f32
// f16 u8 u32 i64 bf16; candle's host also names f64, i16 and i32, whose
// pipelines do not load) sort the indices of one row of ncols elements
// with a bitonic network over ncols_pad (the next power of two) threads:
// one threadgroup per row (the row is threadgroup_position_in_grid.y),
// the indices in threadgroup memory (ncols_pad uint32 at
// [[threadgroup(0)]]), padding indices >= ncols sorting last:
//
//   idx[col] = col
//   for k = 2, 4, ..., ncols_pad; for j = k/2, k/4, ..., 1:
//     thread col with partner p = col ^ j > col compares idx[col], idx[p]:
//       when col & k == 0: swap if idx[col] is padding, or idx[p] is not and
//                          x[idx[col]] > x[idx[p]]  (descending: <)
//       otherwise:         swap if idx[p] is padding, or idx[col] is not and
//                          x[idx[col]] < x[idx[p]]  (descending: >)
//     then a threadgroup barrier
//   dst[row * ncols + col] = idx[col] for col < ncols
//
// Only the strict comparisons of T decide: equal elements (-0.0 and +0.0
// among them) and NaN, which compares false, stay where the network puts
// them. The network is fixed, so the permutation is too.

#include <metal_stdlib>
using namespace metal;

// after<ASC>(a, b): a belongs after b in the order (a > b ascending).
template <bool ASC, typename T>
METAL_FUNC bool after(T a, T b) {
    return ASC ? a > b : a < b;
}

template <typename T, bool ASC>
[[kernel]] void argsort_bitonic(
    device const T *x,
    device uint32_t *dst,
    constant int64_t &ncols,
    constant int64_t &ncols_pad,
    threadgroup uint32_t *idx [[threadgroup(0)]],
    uint3 group [[threadgroup_position_in_grid]],
    uint3 lane [[thread_position_in_threadgroup]]
) {
    const int col = lane.x;
    const int row = group.y;
    if (col >= ncols_pad) {
        return;
    }
    device const T *xs = x + row * ncols;
    idx[col] = col;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (int k = 2; k <= ncols_pad; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
            const int partner = col ^ j;
            if (partner > col) {
                const uint32_t mine = idx[col];
                const uint32_t theirs = idx[partner];
                bool swap;
                if ((col & k) == 0) {
                    swap = mine >= ncols || (theirs < ncols && after<ASC>(xs[mine], xs[theirs]));
                } else {
                    swap = theirs >= ncols || (mine < ncols && after<ASC>(xs[theirs], xs[mine]));
                }
                if (swap) {
                    idx[col] = theirs;
                    idx[partner] = mine;
                }
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
    }
    if (col < ncols) {
        dst[row * ncols + col] = idx[col];
    }
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("asort_asc_f32", argsort_bitonic, float, true)
init_kernel("asort_desc_f32", argsort_bitonic, float, false)
init_kernel("asort_asc_f16", argsort_bitonic, half, true)
init_kernel("asort_desc_f16", argsort_bitonic, half, false)
init_kernel("asort_asc_u8", argsort_bitonic, uint8_t, true)
init_kernel("asort_desc_u8", argsort_bitonic, uint8_t, false)
init_kernel("asort_asc_u32", argsort_bitonic, uint32_t, true)
init_kernel("asort_desc_u32", argsort_bitonic, uint32_t, false)
#if __METAL_VERSION__ >= 220
init_kernel("asort_asc_i64", argsort_bitonic, int64_t, true)
init_kernel("asort_desc_i64", argsort_bitonic, int64_t, false)
#endif
#if defined(__HAVE_BFLOAT__)
init_kernel("asort_asc_bf16", argsort_bitonic, bfloat, true)
init_kernel("asort_desc_bf16", argsort_bitonic, bfloat, false)
#endif
