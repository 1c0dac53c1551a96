// gemv.metal: matmul where one side is a vector (m = 1 or n = 1), as
// candle's Metal matmul runs it (MLX's gemv in candle's gemv.metal at
// 2a13b0f3).
//
// gemv_T_bmBM_bnBN_smSM_snSN_tmTM_tnTN_nc0_axpby0 computes out = mat vec,
// mat [out_size, in_size] with rows ld apart; gemv_t_... computes out =
// vec mat, mat [in_size, out_size] with rows ld apart. T is float32,
// float16 or bfloat16; the blocks are candle's twelve (seven gemv, five
// gemv_t). Batch item z (threadgroup_position_in_grid.z) reads the vector
// vector_batch_stride[0] z and the matrix matrix_batch_stride[0] z
// elements on, and writes out_size z on. Accumulation is in float, from
// +0, in this order:
//
//   gemv: threadgroups of BM x BN simdgroups, each SM x SN threads; a
//   thread owns TM output rows and TN of every BN SN TN consecutive k:
//   it adds x[k] * v[k] for its k in increasing order (the last, partial
//   stretch zero past in_size); the SN threads of a row add their sums
//   with simd_shuffle_down by SN/2, ..., 1 (a halving tree); with BN > 1
//   the first simdgroup of a row adds the other BN - 1 simdgroups' sums
//   in order, through threadgroup memory. A block of rows past out_size
//   is moved back to end at out_size (its rows are computed twice, the
//   same way).
//   gemv_t: a thread owns TN output columns and TM of every SM TM
//   consecutive k, adds v[k] * x[k] for them in order (the partial
//   stretch stops at in_size), and the SM threads of a column add their
//   sums with simd_shuffle_down by SN SM/2, ..., SN.
//
// out = T(sum). candle instantiates nc (a batch of several dims) and
// axpby (alpha out + beta bias) variants too and dispatches only nc0
// axpby0, with nothing bound at buffer 2 (the bias): these kernels are
// those, taking mat, vec and out at indices 0 to 2 and candle's constants
// after them in its order. candle's reduction across simdgroups runs
// behind a threadgroup_barrier(mem_none) inside a branch, which threads
// past the output skip; here every thread reaches a mem_threadgroup
// barrier (assumption barrier-visibility).

#include <metal_simdgroup>
#include <metal_stdlib>
using namespace metal;

template <typename T, int BM, int BN, int SM, int SN, int TM, int TN>
[[kernel]] void gemv(
    device const T *mat,
    device const T *vec,
    device T *out,
    constant int &in_size,
    constant int &out_size,
    constant int &ld,
    constant float &alpha,
    constant float &beta,
    constant int &batch_ndim,
    constant int *batch_shape,
    constant int64_t *vector_batch_stride,
    constant int64_t *matrix_batch_stride,
    constant int64_t *bias_batch_stride,
    constant int &bias_stride,
    uint3 group [[threadgroup_position_in_grid]],
    uint sg [[simdgroup_index_in_threadgroup]],
    uint lane [[thread_index_in_simdgroup]]
) {
    static_assert(SM * SN == 32, "a simdgroup is 32 threads");
    constexpr int BLOCK_M = BM * SM * TM;
    constexpr int BLOCK_N = BN * SN * TN;
    constexpr int SLOT = BLOCK_M + TM; // one simdgroup column's sums in threadgroup memory
    threadgroup float sums[BN > 1 ? BN * SLOT : 1];

    vec += group.z * vector_batch_stride[0];
    mat += group.z * matrix_batch_stride[0];
    out += size_t(group.z) * out_size;

    const int lane_m = SN == 32 ? 0 : int(lane) / SN;
    const int lane_n = SN == 32 ? int(lane) : int(lane) % SN;
    const int sg_n = BN > 1 ? int(sg) % BN : 0;
    const int sg_m = BN > 1 ? int(sg) / BN : int(sg);
    const int block_row = (SM * sg_m + lane_m) * TM;
    int row = int(group.x) * BLOCK_M + block_row;
    const bool active = row < out_size;
    row = row + TM <= out_size ? row : out_size - TM;

    float acc[TM];
    for (int tm = 0; tm < TM; tm++) {
        acc[tm] = 0.0f;
    }
    if (active) {
        int k = (SN * sg_n + lane_n) * TN;
        const int full = in_size / BLOCK_N;
        for (int it = 0; it < full; it++, k += BLOCK_N) {
            float v[TN];
            for (int tn = 0; tn < TN; tn++) {
                v[tn] = static_cast<float>(vec[k + tn]);
            }
            for (int tm = 0; tm < TM; tm++) {
                for (int tn = 0; tn < TN; tn++) {
                    acc[tm] += static_cast<float>(mat[size_t(row + tm) * ld + k + tn]) * v[tn];
                }
            }
        }
        if (in_size - full * BLOCK_N > 0) {
            float v[TN];
            for (int tn = 0; tn < TN; tn++) {
                v[tn] = k + tn < in_size ? static_cast<float>(vec[k + tn]) : 0.0f;
            }
            for (int tm = 0; tm < TM; tm++) {
                for (int tn = 0; tn < TN; tn++) {
                    const float x = k + tn < in_size ? static_cast<float>(mat[size_t(row + tm) * ld + k + tn]) : 0.0f;
                    acc[tm] += x * v[tn];
                }
            }
        }
    }
    for (int tm = 0; tm < TM; tm++) {
        for (ushort d = SN / 2; d >= 1; d >>= 1) {
            acc[tm] += simd_shuffle_down(acc[tm], d);
        }
    }
    if (BN > 1) {
        if (active && lane_n == 0) {
            for (int tm = 0; tm < TM; tm++) {
                sums[sg_n * SLOT + block_row + tm] = acc[tm];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (active && lane_n == 0 && sg_n == 0) {
            for (int s = 1; s < BN; s++) {
                for (int tm = 0; tm < TM; tm++) {
                    acc[tm] += sums[s * SLOT + block_row + tm];
                }
            }
        }
    }
    if (active && sg_n == 0 && lane_n == 0) {
        for (int tm = 0; tm < TM; tm++) {
            out[row + tm] = static_cast<T>(acc[tm]);
        }
    }
}

template <typename T, int BM, int BN, int SM, int SN, int TM, int TN>
[[kernel]] void gemv_t(
    device const T *mat,
    device const T *vec,
    device T *out,
    constant int &in_size,
    constant int &out_size,
    constant int &ld,
    constant float &alpha,
    constant float &beta,
    constant int &batch_ndim,
    constant int *batch_shape,
    constant int64_t *vector_batch_stride,
    constant int64_t *matrix_batch_stride,
    constant int64_t *bias_batch_stride,
    constant int &bias_stride,
    uint3 group [[threadgroup_position_in_grid]],
    uint sg [[simdgroup_index_in_threadgroup]],
    uint lane [[thread_index_in_simdgroup]]
) {
    static_assert(SM * SN == 32, "a simdgroup is 32 threads");
    static_assert(BM == 1, "candle's gemv_t blocks have one simdgroup along k");
    constexpr int BLOCK_M = BM * SM * TM;
    constexpr int BLOCK_N = BN * SN * TN;

    vec += group.z * vector_batch_stride[0];
    mat += group.z * matrix_batch_stride[0];
    out += size_t(group.z) * out_size;

    const int lane_m = SN == 32 ? 0 : int(lane) / SN;
    const int lane_n = SN == 32 ? int(lane) : int(lane) % SN;
    const int sg_m = BN > 1 ? int(sg) / BN : int(sg);
    const int sg_n = BN > 1 ? int(sg) % BN : 0;
    const int cm = SM * sg_m + lane_m;
    int col = int(group.x) * BLOCK_N + (SN * sg_n + lane_n) * TN;

    float acc[TN];
    for (int tn = 0; tn < TN; tn++) {
        acc[tn] = 0.0f;
    }
    if (col < out_size) {
        col = col + TN <= out_size ? col : out_size - TN;
        int k = cm * TM;
        const int full = in_size / BLOCK_M;
        for (int it = 0; it < full; it++, k += BLOCK_M) {
            for (int tm = 0; tm < TM; tm++) {
                const float v = static_cast<float>(vec[k + tm]);
                for (int tn = 0; tn < TN; tn++) {
                    acc[tn] += v * static_cast<float>(mat[size_t(k + tm) * ld + col + tn]);
                }
            }
        }
        for (int tm = 0; tm < TM && k + tm < in_size; tm++) {
            const float v = static_cast<float>(vec[k + tm]);
            for (int tn = 0; tn < TN; tn++) {
                acc[tn] += v * static_cast<float>(mat[size_t(k + tm) * ld + col + tn]);
            }
        }
    }
    for (int tn = 0; tn < TN; tn++) {
        for (ushort d = SM / 2; d >= 1; d >>= 1) {
            acc[tn] += simd_shuffle_down(acc[tn], ushort(SN * d));
        }
    }
    if (cm == 0 && col < out_size) {
        for (int tn = 0; tn < TN; tn++) {
            out[col + tn] = static_cast<T>(acc[tn]);
        }
    }
}

#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

#define init_gemv(func, tname, t, bm, bn, sm, sn, tm, tn) \
    init_kernel(#func "_" #tname "_bm" #bm "_bn" #bn "_sm" #sm "_sn" #sn "_tm" #tm "_tn" #tn "_nc0_axpby0", func, t, bm, bn, sm, sn, tm, tn)

// candle's blocks (gemv.metal:503-527), each for float32, float16 and bfloat16
init_gemv(gemv, float32, float, 1, 8, 1, 32, 4, 4)
init_gemv(gemv, float32, float, 1, 8, 1, 32, 1, 4)
init_gemv(gemv, float32, float, 1, 1, 8, 4, 4, 4)
init_gemv(gemv, float32, float, 1, 1, 8, 4, 1, 4)
init_gemv(gemv, float32, float, 4, 1, 1, 32, 1, 4)
init_gemv(gemv, float32, float, 4, 1, 1, 32, 4, 4)
init_gemv(gemv, float32, float, 8, 1, 1, 32, 4, 4)
init_gemv(gemv_t, float32, float, 1, 2, 8, 4, 4, 1)
init_gemv(gemv_t, float32, float, 1, 2, 8, 4, 4, 4)
init_gemv(gemv_t, float32, float, 1, 4, 8, 4, 4, 4)
init_gemv(gemv_t, float32, float, 1, 16, 8, 4, 4, 4)
init_gemv(gemv_t, float32, float, 1, 16, 4, 8, 4, 4)

init_gemv(gemv, float16, half, 1, 8, 1, 32, 4, 4)
init_gemv(gemv, float16, half, 1, 8, 1, 32, 1, 4)
init_gemv(gemv, float16, half, 1, 1, 8, 4, 4, 4)
init_gemv(gemv, float16, half, 1, 1, 8, 4, 1, 4)
init_gemv(gemv, float16, half, 4, 1, 1, 32, 1, 4)
init_gemv(gemv, float16, half, 4, 1, 1, 32, 4, 4)
init_gemv(gemv, float16, half, 8, 1, 1, 32, 4, 4)
init_gemv(gemv_t, float16, half, 1, 2, 8, 4, 4, 1)
init_gemv(gemv_t, float16, half, 1, 2, 8, 4, 4, 4)
init_gemv(gemv_t, float16, half, 1, 4, 8, 4, 4, 4)
init_gemv(gemv_t, float16, half, 1, 16, 8, 4, 4, 4)
init_gemv(gemv_t, float16, half, 1, 16, 4, 8, 4, 4)

init_gemv(gemv, bfloat16, bfloat, 1, 8, 1, 32, 4, 4)
init_gemv(gemv, bfloat16, bfloat, 1, 8, 1, 32, 1, 4)
init_gemv(gemv, bfloat16, bfloat, 1, 1, 8, 4, 4, 4)
init_gemv(gemv, bfloat16, bfloat, 1, 1, 8, 4, 1, 4)
init_gemv(gemv, bfloat16, bfloat, 4, 1, 1, 32, 1, 4)
init_gemv(gemv, bfloat16, bfloat, 4, 1, 1, 32, 4, 4)
init_gemv(gemv, bfloat16, bfloat, 8, 1, 1, 32, 4, 4)
init_gemv(gemv_t, bfloat16, bfloat, 1, 2, 8, 4, 4, 1)
init_gemv(gemv_t, bfloat16, bfloat, 1, 2, 8, 4, 4, 4)
init_gemv(gemv_t, bfloat16, bfloat, 1, 4, 8, 4, 4, 4)
init_gemv(gemv_t, bfloat16, bfloat, 1, 16, 8, 4, 4, 4)
init_gemv(gemv_t, bfloat16, bfloat, 1, 16, 4, 8, 4, 4)
