// binary.metal: elementwise kernels of two operands of the same dtype.
//
// Arithmetic (badd bsub bmul bdiv bminimum bmaximum) writes the operand
// dtype; comparisons (eq ne le lt ge gt) write bool (one byte, 0 or 1, which
// the host reads as U8). Dtypes: f32, f16, bf16, u8, u32, i64, the coverage
// of candle's Metal backend; anything else has no kernel and fails to load.
//
// Each name comes in candle's nine layout variants, which candle's host
// picks from the operands' layouts (metal_backend/mod.rs:1948-1958): NAME
// (both contiguous) and NAME_V, where V says how each operand is read:
//
//   V          lhs       rhs         V      lhs       rhs
//   strided    strided   strided     cs     in order  element 0
//   lstrided   strided   in order    sc     element 0 in order
//   rstrided   in order  strided     lss    strided   element 0
//   scalar     element 0 element 0   rss    element 0 strided
//
// (strided: through dims and strides, a stride of 0 repeating an element).
//
// Semantics, per element (the reference loop the simulated twins follow):
//   integer + - * wrap (u8 through int promotion, cast back); integer / truncates
//   toward zero and never traps; min/max are x < y ? x : y and x > y ? x : y
//   (a NaN or a tie selects y); float + - * are the dtype's IEEE operations,
//   float / is fast-math division (not fixed to the bit).

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

// How an operand of the layout variants finds element i.
struct at_index {
    METAL_FUNC uint operator()(uint i, constant size_t &, constant size_t *, constant size_t *) const { return i; }
};
struct at_strided {
    METAL_FUNC uint operator()(uint i, constant size_t &rank, constant size_t *dims, constant size_t *strides) const {
        return strided_offset(i, rank, dims, strides);
    }
};
struct at_zero {
    METAL_FUNC uint operator()(uint, constant size_t &, constant size_t *, constant size_t *) const { return 0; }
};

// The same loop; each operand finds element i with its indexer (the layout
// variants). The host binds dims and both strides for every variant.
template <typename T, typename U, typename OP, typename LHS_AT, typename RHS_AT>
[[kernel]] void binary_indexed(
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
    LHS_AT lhs_at;
    RHS_AT rhs_at;
    const uint w = elems_per_thread<T>();
    const uint step = (n + w - 1) / w;
    for (uint i = tid; i < n; i += step) {
        const uint l = lhs_at(i, rank, dims, lhs_strides);
        const uint r = rhs_at(i, rank, dims, rhs_strides);
        out[i] = static_cast<U>(op(lhs[l], rhs[r]));
    }
}

// One line per kernel template instantiation: the host name, the template,
// its arguments.
#define init_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

// init_binary(OP, TNAME, T, U, FUNCTOR): the kernel OP_TNAME and its eight
// layout variants, reading T and writing U.
#define init_binary(op, tname, t, u, f) \
    init_kernel(#op "_" #tname, binary_contiguous, t, u, f) \
    init_kernel(#op "_" #tname "_strided", binary_indexed, t, u, f, at_strided, at_strided) \
    init_kernel(#op "_" #tname "_lstrided", binary_indexed, t, u, f, at_strided, at_index) \
    init_kernel(#op "_" #tname "_rstrided", binary_indexed, t, u, f, at_index, at_strided) \
    init_kernel(#op "_" #tname "_scalar", binary_indexed, t, u, f, at_zero, at_zero) \
    init_kernel(#op "_" #tname "_cs", binary_indexed, t, u, f, at_index, at_zero) \
    init_kernel(#op "_" #tname "_sc", binary_indexed, t, u, f, at_zero, at_index) \
    init_kernel(#op "_" #tname "_rss", binary_indexed, t, u, f, at_zero, at_strided) \
    init_kernel(#op "_" #tname "_lss", binary_indexed, t, u, f, at_strided, at_zero)

init_binary(badd, f32, float, float, op_add)
init_binary(bsub, f32, float, float, op_sub)
init_binary(bmul, f32, float, float, op_mul)
init_binary(bdiv, f32, float, float, op_div)
init_binary(bminimum, f32, float, float, op_min)
init_binary(bmaximum, f32, float, float, op_max)
init_binary(eq, f32, float, bool, op_eq)
init_binary(ne, f32, float, bool, op_ne)
init_binary(le, f32, float, bool, op_le)
init_binary(lt, f32, float, bool, op_lt)
init_binary(ge, f32, float, bool, op_ge)
init_binary(gt, f32, float, bool, op_gt)

init_binary(badd, f16, half, half, op_add)
init_binary(bsub, f16, half, half, op_sub)
init_binary(bmul, f16, half, half, op_mul)
init_binary(bdiv, f16, half, half, op_div)
init_binary(bminimum, f16, half, half, op_min)
init_binary(bmaximum, f16, half, half, op_max)
init_binary(eq, f16, half, bool, op_eq)
init_binary(ne, f16, half, bool, op_ne)
init_binary(le, f16, half, bool, op_le)
init_binary(lt, f16, half, bool, op_lt)
init_binary(ge, f16, half, bool, op_ge)
init_binary(gt, f16, half, bool, op_gt)

#if defined(__HAVE_BFLOAT__)
init_binary(badd, bf16, bfloat, bfloat, op_add)
init_binary(bsub, bf16, bfloat, bfloat, op_sub)
init_binary(bmul, bf16, bfloat, bfloat, op_mul)
init_binary(bdiv, bf16, bfloat, bfloat, op_div)
init_binary(bminimum, bf16, bfloat, bfloat, op_min)
init_binary(bmaximum, bf16, bfloat, bfloat, op_max)
init_binary(eq, bf16, bfloat, bool, op_eq)
init_binary(ne, bf16, bfloat, bool, op_ne)
init_binary(le, bf16, bfloat, bool, op_le)
init_binary(lt, bf16, bfloat, bool, op_lt)
init_binary(ge, bf16, bfloat, bool, op_ge)
init_binary(gt, bf16, bfloat, bool, op_gt)
#endif

init_binary(badd, u8, uint8_t, uint8_t, op_add)
init_binary(bsub, u8, uint8_t, uint8_t, op_sub)
init_binary(bmul, u8, uint8_t, uint8_t, op_mul)
init_binary(bdiv, u8, uint8_t, uint8_t, op_div)
init_binary(bminimum, u8, uint8_t, uint8_t, op_min)
init_binary(bmaximum, u8, uint8_t, uint8_t, op_max)
init_binary(eq, u8, uint8_t, bool, op_eq)
init_binary(ne, u8, uint8_t, bool, op_ne)
init_binary(le, u8, uint8_t, bool, op_le)
init_binary(lt, u8, uint8_t, bool, op_lt)
init_binary(ge, u8, uint8_t, bool, op_ge)
init_binary(gt, u8, uint8_t, bool, op_gt)

init_binary(badd, u32, uint32_t, uint32_t, op_add)
init_binary(bsub, u32, uint32_t, uint32_t, op_sub)
init_binary(bmul, u32, uint32_t, uint32_t, op_mul)
init_binary(bdiv, u32, uint32_t, uint32_t, op_div)
init_binary(bminimum, u32, uint32_t, uint32_t, op_min)
init_binary(bmaximum, u32, uint32_t, uint32_t, op_max)
init_binary(eq, u32, uint32_t, bool, op_eq)
init_binary(ne, u32, uint32_t, bool, op_ne)
init_binary(le, u32, uint32_t, bool, op_le)
init_binary(lt, u32, uint32_t, bool, op_lt)
init_binary(ge, u32, uint32_t, bool, op_ge)
init_binary(gt, u32, uint32_t, bool, op_gt)

init_binary(badd, i64, int64_t, int64_t, op_add)
init_binary(bsub, i64, int64_t, int64_t, op_sub)
init_binary(bmul, i64, int64_t, int64_t, op_mul)
init_binary(bdiv, i64, int64_t, int64_t, op_div)
init_binary(bminimum, i64, int64_t, int64_t, op_min)
init_binary(bmaximum, i64, int64_t, int64_t, op_max)
init_binary(eq, i64, int64_t, bool, op_eq)
init_binary(ne, i64, int64_t, bool, op_ne)
init_binary(le, i64, int64_t, bool, op_le)
init_binary(lt, i64, int64_t, bool, op_lt)
init_binary(ge, i64, int64_t, bool, op_ge)
init_binary(gt, i64, int64_t, bool, op_gt)
