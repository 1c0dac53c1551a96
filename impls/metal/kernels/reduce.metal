// reduce.metal: reductions of the trailing dims, one threadgroup per output.
//
// fast_sum, fast_mul, fast_max, fast_min write the element dtype;
// fast_argmax and fast_argmin write u32 indices. Dtypes: f32, f16, bf16, u8,
// u32, i64. The host lays the input out as (kept dims, reduced dims) and
// launches `out` threadgroups of `block` threads (a power of two, at most
// MAX_BLOCK); threadgroup g reduces elements [g * per_group, (g + 1) *
// per_group) of that order, in candle's order (its block_reducer,
// reduce.metal:504-538 at 2a13b0f3):
//
//  1. thread t folds acc = op(acc, x[i]) for i = start + t, start + t + block, ...
//     starting from op's identity: 0 (sum), 1 (mul), the dtype's lowest
//     (max) or largest (min) finite value, {0, lowest/largest} for argmax/argmin;
//  2. with 64 threads or more, threadgroup memory: for s = block/2, ..., 64,
//     shared[t] = op(shared[t], shared[t + s]) for t < s; then thread t < 32
//     takes op(shared[t], shared[t + 32]);
//  3. the 32 lanes (or all threads, under 64) finish as a SIMD-group: with
//     Metal's own simd_sum / simd_product / simd_max / simd_min for f32, f16,
//     u8 and u32 values, whose order of combination is the hardware's; with
//     the shuffle-down tree (lane t takes op(v[t], v[t + s]) for s = 16, ...,
//     1) for i64, bf16 and the arg reductions, which continues step 2's order;
//  4. thread 0 stores the result (its index for the arg reductions).
//
// Integers wrap. Float max/min use fast::max/fast::min (max/min for half;
// NaN unspecified). Arg reductions compare values with > / < and break ties
// toward the lower index; an element's index is its position modulo
// dims[rank - 1], the last dim the host passes (for the contiguous kernels
// candle passes the tensor's own last dim, which is not the reduced dim
// when trailing dims of size 1 follow it). candle separates the levels of
// step 2 with mem_flags::mem_none barriers; these kernels use
// mem_threadgroup, which orders the threadgroup memory the next level reads.

#include <metal_stdlib>
#include <metal_limits>
using namespace metal;

constant constexpr uint MAX_BLOCK = 1024;

METAL_FUNC uint strided_offset(uint i, uint rank, constant uint *dims, constant uint *strides) {
    uint offset = 0;
    for (uint k = 0; k < rank; k++) {
        const uint d = rank - 1 - k;
        offset += (i % dims[d]) * strides[d];
        i /= dims[d];
    }
    return offset;
}

METAL_FUNC float max_of(float a, float b) { return fast::max(a, b); }
METAL_FUNC float min_of(float a, float b) { return fast::min(a, b); }
METAL_FUNC half max_of(half a, half b) { return max(a, b); }
METAL_FUNC half min_of(half a, half b) { return min(a, b); }
#if defined(__HAVE_BFLOAT__)
METAL_FUNC bfloat max_of(bfloat a, bfloat b) {
    return static_cast<bfloat>(fast::max(static_cast<float>(a), static_cast<float>(b)));
}
METAL_FUNC bfloat min_of(bfloat a, bfloat b) {
    return static_cast<bfloat>(fast::min(static_cast<float>(a), static_cast<float>(b)));
}
#endif
template <typename T> METAL_FUNC T max_of(T a, T b) { return max(a, b); }
template <typename T> METAL_FUNC T min_of(T a, T b) { return min(a, b); }

template <typename T> struct r_sum {
    static METAL_FUNC T init() { return static_cast<T>(0); }
    METAL_FUNC T operator()(T a, T b) const { return static_cast<T>(a + b); }
};
template <typename T> struct r_mul {
    static METAL_FUNC T init() { return static_cast<T>(1); }
    METAL_FUNC T operator()(T a, T b) const { return static_cast<T>(a * b); }
};
template <typename T> struct r_max {
    static METAL_FUNC T init() { return numeric_limits<T>::lowest(); }
    METAL_FUNC T operator()(T a, T b) const { return max_of(a, b); }
};
template <typename T> struct r_min {
    static METAL_FUNC T init() { return numeric_limits<T>::max(); }
    METAL_FUNC T operator()(T a, T b) const { return min_of(a, b); }
};

// A value and the index it was found at.
template <typename T> struct indexed {
    uint i;
    T val;

    // threadgroup arrays of it need a default constructor in that space
    constexpr indexed() threadgroup = default;
};

template <typename T> struct r_argmax {
    static METAL_FUNC indexed<T> init() { return indexed<T>{0, numeric_limits<T>::lowest()}; }
    METAL_FUNC indexed<T> operator()(indexed<T> a, indexed<T> b) const {
        return (a.val > b.val || (a.val == b.val && a.i < b.i)) ? a : b;
    }
};
template <typename T> struct r_argmin {
    static METAL_FUNC indexed<T> init() { return indexed<T>{0, numeric_limits<T>::max()}; }
    METAL_FUNC indexed<T> operator()(indexed<T> a, indexed<T> b) const {
        return (a.val < b.val || (a.val == b.val && a.i < b.i)) ? a : b;
    }
};

// Lanes of a SIMD-group exchange values with simd_shuffle_down; Metal has
// it for 32-bit and smaller scalars, so a 64-bit integer and a bfloat go
// through their bits, and an indexed value field by field.
#if __METAL_VERSION__ >= 220
METAL_FUNC int64_t simd_shuffle_down(int64_t v, ushort delta) {
    return as_type<int64_t>(simd_shuffle_down(as_type<uint2>(v), delta));
}
#endif
#if defined(__HAVE_BFLOAT__)
METAL_FUNC bfloat simd_shuffle_down(bfloat v, ushort delta) {
    return as_type<bfloat>(simd_shuffle_down(as_type<ushort>(v), delta));
}
#endif
template <typename T>
METAL_FUNC indexed<T> simd_shuffle_down(indexed<T> v, ushort delta) {
    return indexed<T>{simd_shuffle_down(v.i, delta), simd_shuffle_down(v.val, delta)};
}

// Step 3 for one SIMD-group of `block` (at most 32) active lanes: the
// shuffle-down tree, unless Metal has the reduction built in (below).
template <typename R, typename OP>
struct simd_reducer {
    METAL_FUNC R operator()(R v, uint block) const {
        OP op;
        for (ushort delta = 16; delta > 0; delta >>= 1) {
            if (block >= 2 * delta) {
                v = op(v, simd_shuffle_down(v, delta));
            }
        }
        return v;
    }
};

#define builtin_simd(T, OP, fn) \
    template <> struct simd_reducer<T, OP<T>> { \
        METAL_FUNC T operator()(T v, uint) const { return fn(v); } \
    };
#define builtin_simd_all(T)            \
    builtin_simd(T, r_sum, simd_sum)     \
    builtin_simd(T, r_mul, simd_product) \
    builtin_simd(T, r_max, simd_max)     \
    builtin_simd(T, r_min, simd_min)

builtin_simd_all(float)
builtin_simd_all(half)
builtin_simd_all(uint32_t)
builtin_simd_all(uint8_t)

// Steps 2 and 3; every thread returns, thread 0 with the result.
template <typename R, typename OP>
METAL_FUNC R block_reduce(threadgroup R *shared, R v, uint tid, uint block) {
    OP op;
    if (block >= 64) {
        shared[tid] = v;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint s = block / 2; s >= 64; s >>= 1) {
            if (tid < s) {
                shared[tid] = op(shared[tid], shared[tid + s]);
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (tid < 32) {
            v = op(shared[tid], shared[tid + 32]);
        }
    }
    if (tid < 32) {
        simd_reducer<R, OP> simd_reduce;
        v = simd_reduce(v, min(block, 32u));
    }
    return v;
}

template <typename T, typename OP, bool STRIDED>
METAL_FUNC void reduce_values(
    uint numel, uint rank, constant uint *dims, constant uint *strides, uint per_group,
    device const T *src, device T *dst, threadgroup T *shared,
    uint tid, uint gid, uint block
) {
    OP op;
    T acc = OP::init();
    const uint start = gid * per_group;
    const uint stop = min(start + per_group, numel);
    for (uint i = start + tid; i < stop; i += block) {
        acc = op(acc, src[STRIDED ? strided_offset(i, rank, dims, strides) : i]);
    }
    const T result = block_reduce<T, OP>(shared, acc, tid, block);
    if (tid == 0) {
        dst[gid] = result;
    }
}

template <typename T, typename OP, bool STRIDED>
METAL_FUNC void reduce_indices(
    uint numel, uint rank, constant uint *dims, constant uint *strides, uint per_group,
    device const T *src, device uint *dst, threadgroup indexed<T> *shared,
    uint tid, uint gid, uint block
) {
    OP op;
    indexed<T> acc = OP::init();
    const uint row = dims[rank - 1];
    const uint start = gid * per_group;
    const uint stop = min(start + per_group, numel);
    for (uint i = start + tid; i < stop; i += block) {
        const T x = src[STRIDED ? strided_offset(i, rank, dims, strides) : i];
        acc = op(acc, indexed<T>{i % row, x});
    }
    const indexed<T> result = block_reduce<indexed<T>, OP>(shared, acc, tid, block);
    if (tid == 0) {
        dst[gid] = result.i;
    }
}

template <typename T, typename OP>
[[kernel]] void reduce_contiguous(
    constant uint &numel,
    constant uint &rank,
    constant uint *dims,
    constant uint &per_group,
    device const T *src,
    device T *dst,
    uint tid [[thread_index_in_threadgroup]],
    uint gid [[threadgroup_position_in_grid]],
    uint block [[threads_per_threadgroup]]
) {
    threadgroup T shared[MAX_BLOCK];
    reduce_values<T, OP, false>(numel, rank, dims, dims, per_group, src, dst, shared, tid, gid, block);
}

template <typename T, typename OP>
[[kernel]] void reduce_strided(
    constant uint &numel,
    constant uint &rank,
    constant uint *dims,
    constant uint *strides,
    constant uint &per_group,
    device const T *src,
    device T *dst,
    uint tid [[thread_index_in_threadgroup]],
    uint gid [[threadgroup_position_in_grid]],
    uint block [[threads_per_threadgroup]]
) {
    threadgroup T shared[MAX_BLOCK];
    reduce_values<T, OP, true>(numel, rank, dims, strides, per_group, src, dst, shared, tid, gid, block);
}

template <typename T, typename OP>
[[kernel]] void arg_reduce_contiguous(
    constant uint &numel,
    constant uint &rank,
    constant uint *dims,
    constant uint &per_group,
    device const T *src,
    device uint *dst,
    uint tid [[thread_index_in_threadgroup]],
    uint gid [[threadgroup_position_in_grid]],
    uint block [[threads_per_threadgroup]]
) {
    threadgroup indexed<T> shared[MAX_BLOCK];
    reduce_indices<T, OP, false>(numel, rank, dims, dims, per_group, src, dst, shared, tid, gid, block);
}

template <typename T, typename OP>
[[kernel]] void arg_reduce_strided(
    constant uint &numel,
    constant uint &rank,
    constant uint *dims,
    constant uint *strides,
    constant uint &per_group,
    device const T *src,
    device uint *dst,
    uint tid [[thread_index_in_threadgroup]],
    uint gid [[threadgroup_position_in_grid]],
    uint block [[threads_per_threadgroup]]
) {
    threadgroup indexed<T> shared[MAX_BLOCK];
    reduce_indices<T, OP, true>(numel, rank, dims, strides, per_group, src, dst, shared, tid, gid, block);
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

init_kernel("fast_sum_f32", reduce_contiguous, float, r_sum<float>)
init_kernel("fast_sum_f32_strided", reduce_strided, float, r_sum<float>)
init_kernel("fast_mul_f32", reduce_contiguous, float, r_mul<float>)
init_kernel("fast_mul_f32_strided", reduce_strided, float, r_mul<float>)
init_kernel("fast_max_f32", reduce_contiguous, float, r_max<float>)
init_kernel("fast_max_f32_strided", reduce_strided, float, r_max<float>)
init_kernel("fast_min_f32", reduce_contiguous, float, r_min<float>)
init_kernel("fast_min_f32_strided", reduce_strided, float, r_min<float>)
init_kernel("fast_argmax_f32", arg_reduce_contiguous, float, r_argmax<float>)
init_kernel("fast_argmax_f32_strided", arg_reduce_strided, float, r_argmax<float>)
init_kernel("fast_argmin_f32", arg_reduce_contiguous, float, r_argmin<float>)
init_kernel("fast_argmin_f32_strided", arg_reduce_strided, float, r_argmin<float>)

init_kernel("fast_sum_f16", reduce_contiguous, half, r_sum<half>)
init_kernel("fast_sum_f16_strided", reduce_strided, half, r_sum<half>)
init_kernel("fast_mul_f16", reduce_contiguous, half, r_mul<half>)
init_kernel("fast_mul_f16_strided", reduce_strided, half, r_mul<half>)
init_kernel("fast_max_f16", reduce_contiguous, half, r_max<half>)
init_kernel("fast_max_f16_strided", reduce_strided, half, r_max<half>)
init_kernel("fast_min_f16", reduce_contiguous, half, r_min<half>)
init_kernel("fast_min_f16_strided", reduce_strided, half, r_min<half>)
init_kernel("fast_argmax_f16", arg_reduce_contiguous, half, r_argmax<half>)
init_kernel("fast_argmax_f16_strided", arg_reduce_strided, half, r_argmax<half>)
init_kernel("fast_argmin_f16", arg_reduce_contiguous, half, r_argmin<half>)
init_kernel("fast_argmin_f16_strided", arg_reduce_strided, half, r_argmin<half>)

init_kernel("fast_sum_u8", reduce_contiguous, uint8_t, r_sum<uint8_t>)
init_kernel("fast_sum_u8_strided", reduce_strided, uint8_t, r_sum<uint8_t>)
init_kernel("fast_mul_u8", reduce_contiguous, uint8_t, r_mul<uint8_t>)
init_kernel("fast_mul_u8_strided", reduce_strided, uint8_t, r_mul<uint8_t>)
init_kernel("fast_max_u8", reduce_contiguous, uint8_t, r_max<uint8_t>)
init_kernel("fast_max_u8_strided", reduce_strided, uint8_t, r_max<uint8_t>)
init_kernel("fast_min_u8", reduce_contiguous, uint8_t, r_min<uint8_t>)
init_kernel("fast_min_u8_strided", reduce_strided, uint8_t, r_min<uint8_t>)
init_kernel("fast_argmax_u8", arg_reduce_contiguous, uint8_t, r_argmax<uint8_t>)
init_kernel("fast_argmax_u8_strided", arg_reduce_strided, uint8_t, r_argmax<uint8_t>)
init_kernel("fast_argmin_u8", arg_reduce_contiguous, uint8_t, r_argmin<uint8_t>)
init_kernel("fast_argmin_u8_strided", arg_reduce_strided, uint8_t, r_argmin<uint8_t>)

init_kernel("fast_sum_u32", reduce_contiguous, uint32_t, r_sum<uint32_t>)
init_kernel("fast_sum_u32_strided", reduce_strided, uint32_t, r_sum<uint32_t>)
init_kernel("fast_mul_u32", reduce_contiguous, uint32_t, r_mul<uint32_t>)
init_kernel("fast_mul_u32_strided", reduce_strided, uint32_t, r_mul<uint32_t>)
init_kernel("fast_max_u32", reduce_contiguous, uint32_t, r_max<uint32_t>)
init_kernel("fast_max_u32_strided", reduce_strided, uint32_t, r_max<uint32_t>)
init_kernel("fast_min_u32", reduce_contiguous, uint32_t, r_min<uint32_t>)
init_kernel("fast_min_u32_strided", reduce_strided, uint32_t, r_min<uint32_t>)
init_kernel("fast_argmax_u32", arg_reduce_contiguous, uint32_t, r_argmax<uint32_t>)
init_kernel("fast_argmax_u32_strided", arg_reduce_strided, uint32_t, r_argmax<uint32_t>)
init_kernel("fast_argmin_u32", arg_reduce_contiguous, uint32_t, r_argmin<uint32_t>)
init_kernel("fast_argmin_u32_strided", arg_reduce_strided, uint32_t, r_argmin<uint32_t>)

init_kernel("fast_sum_i64", reduce_contiguous, int64_t, r_sum<int64_t>)
init_kernel("fast_sum_i64_strided", reduce_strided, int64_t, r_sum<int64_t>)
init_kernel("fast_mul_i64", reduce_contiguous, int64_t, r_mul<int64_t>)
init_kernel("fast_mul_i64_strided", reduce_strided, int64_t, r_mul<int64_t>)
init_kernel("fast_max_i64", reduce_contiguous, int64_t, r_max<int64_t>)
init_kernel("fast_max_i64_strided", reduce_strided, int64_t, r_max<int64_t>)
init_kernel("fast_min_i64", reduce_contiguous, int64_t, r_min<int64_t>)
init_kernel("fast_min_i64_strided", reduce_strided, int64_t, r_min<int64_t>)
init_kernel("fast_argmax_i64", arg_reduce_contiguous, int64_t, r_argmax<int64_t>)
init_kernel("fast_argmax_i64_strided", arg_reduce_strided, int64_t, r_argmax<int64_t>)
init_kernel("fast_argmin_i64", arg_reduce_contiguous, int64_t, r_argmin<int64_t>)
init_kernel("fast_argmin_i64_strided", arg_reduce_strided, int64_t, r_argmin<int64_t>)

#if defined(__HAVE_BFLOAT__)
init_kernel("fast_sum_bf16", reduce_contiguous, bfloat, r_sum<bfloat>)
init_kernel("fast_sum_bf16_strided", reduce_strided, bfloat, r_sum<bfloat>)
init_kernel("fast_mul_bf16", reduce_contiguous, bfloat, r_mul<bfloat>)
init_kernel("fast_mul_bf16_strided", reduce_strided, bfloat, r_mul<bfloat>)
init_kernel("fast_max_bf16", reduce_contiguous, bfloat, r_max<bfloat>)
init_kernel("fast_max_bf16_strided", reduce_strided, bfloat, r_max<bfloat>)
init_kernel("fast_min_bf16", reduce_contiguous, bfloat, r_min<bfloat>)
init_kernel("fast_min_bf16_strided", reduce_strided, bfloat, r_min<bfloat>)
init_kernel("fast_argmax_bf16", arg_reduce_contiguous, bfloat, r_argmax<bfloat>)
init_kernel("fast_argmax_bf16_strided", arg_reduce_strided, bfloat, r_argmax<bfloat>)
init_kernel("fast_argmin_bf16", arg_reduce_contiguous, bfloat, r_argmin<bfloat>)
init_kernel("fast_argmin_bf16_strided", arg_reduce_strided, bfloat, r_argmin<bfloat>)
#endif
