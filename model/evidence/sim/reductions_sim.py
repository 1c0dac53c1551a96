"""Simulation of sum prod mean max min argmax argmin cumsum for the 7 oracle profiles.

Run:  python3 reductions_sim.py [--avx2] [-v]
It recomputes every reduction case of corpus/oracle/real-frameworks*.jsonl from the rules
written in model/evidence/reductions.md and reports matches per profile and op.
Evidence only: this is not product code.
"""
import json
import math
import os
import sys
from red_fp import (INF, NAN, FLOATS, INTS, rnd, wrap, parse_elem, fmt_elem, outcome_eq, last_pow2)

PROFILES = ['pytorch/cpu', 'pytorch/cuda', 'numpy', 'jax/cpu-x32', 'jax/cpu-x64', 'jax/gpu-x32', 'jax/gpu-x64']
OPS = ('sum', 'prod', 'mean', 'max', 'min', 'argmax', 'argmin', 'cumsum')
TORCH_NAME = {'bool': 'Bool', 'u8': 'Byte', 'i8': 'Char', 'i16': 'Short', 'i32': 'Int', 'i64': 'Long',
              'u16': 'UInt16', 'u32': 'UInt32', 'u64': 'UInt64', 'f16': 'Half', 'bf16': 'BFloat16',
              'f32': 'Float', 'f64': 'Double'}
WIDE_UNSIGNED = ('u16', 'u32', 'u64')

# x86-64 ATen CPU capability: vector lengths (elements) of Vectorized<T>
AVX2 = {'f64': 4, 'f32': 8, 'f16': 16, 'bf16': 16}
AVX512 = {'f64': 8, 'f32': 16, 'f16': 32, 'bf16': 32}
VEC = AVX512   # the H200 host CPU has AVX-512; --avx2 switches


def err(cls, msg):
    return {'error': {'class': cls, 'message': msg}}


def val(dt, shape, data):
    return {'value': {'dtype': dt, 'shape': list(shape), 'data': [fmt_elem(v, dt) for v in data]}}


def is_float(dt):
    return dt in FLOATS


def is_int(dt):
    return dt in INTS


# ---------------------------------------------------------------- geometry

class Geo:
    """Which input elements feed which output element, in index order."""

    def __init__(self, shape, dim):
        self.shape = list(shape)
        n = 1
        for s in shape:
            n *= s
        self.numel = n
        if dim is None:
            self.groups = [list(range(n))]
            self.out_shape = []
            self.keep_shape = [1] * len(shape)
            self.inner = True
            self.red_size = n
            return
        nd = len(shape)
        strides = [1] * nd
        for k in range(nd - 2, -1, -1):
            strides[k] = strides[k + 1] * shape[k + 1]
        other = [k for k in range(nd) if k != dim]
        self.out_shape = [shape[k] for k in other]
        self.keep_shape = [1 if k == dim else shape[k] for k in range(nd)]
        self.red_size = shape[dim]
        outs = [[]]
        for k in other:
            outs = [o + [i] for o in outs for i in range(shape[k])]
        self.groups = []
        for o in outs:
            base = sum(i * strides[k] for i, k in zip(o, other))
            self.groups.append([base + j * strides[dim] for j in range(shape[dim])])
        # reduced dim is the innermost one once size-1 dims are dropped
        self.inner = all(shape[k] == 1 for k in range(dim + 1, nd))


# ---------------------------------------------------------------- orders

def seq(xs, init, op, R):
    acc = init
    for x in xs:
        acc = R(op(acc, x))
    return acc


def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def ceil_log2(x):
    if x <= 1:
        return 0
    return (x - 1).bit_length()


def multi_row_sum(rows, nrows, R):
    """ATen SumKernel.cpp multi_row_sum: rows is a list of nrows-tuples."""
    size = len(rows)
    num_levels = 4
    level_power = max(4, ceil_log2(size) // num_levels)
    level_step = 1 << level_power
    level_mask = level_step - 1
    acc = [[0.0] * nrows for _ in range(num_levels)]
    i = 0
    while i + level_step <= size:
        for _ in range(level_step):
            for k in range(nrows):
                acc[0][k] = R(acc[0][k] + rows[i][k])
            i += 1
        for j in range(1, num_levels):
            for k in range(nrows):
                acc[j][k] = R(acc[j][k] + acc[j - 1][k])
                acc[j - 1][k] = 0.0
            mask = level_mask << (j * level_power)
            if i & mask:
                break
    while i < size:
        for k in range(nrows):
            acc[0][k] = R(acc[0][k] + rows[i][k])
        i += 1
    for j in range(1, num_levels):
        for k in range(nrows):
            acc[0][k] = R(acc[0][k] + acc[j][k])
    return acc[0]


def row_sum(xs, R):
    """ATen row_sum: ilp_factor 4 interleaved partial sums, then tail, then combine."""
    n = len(xs)
    size_ilp = n // 4
    rows = [tuple(xs[4 * i:4 * i + 4]) for i in range(size_ilp)]
    p = multi_row_sum(rows, 4, R)
    for i in range(size_ilp * 4, n):
        p[0] = R(p[0] + xs[i])
    for k in range(1, 4):
        p[0] = R(p[0] + p[k])
    return p[0]


def torch_cpu_sum_inner(xs, dt, R):
    """cascade_sum for a reduction that is contiguous in memory (xs already in acc dtype)."""
    n = len(xs)
    vlen = VEC[dt]
    if n < vlen:
        return row_sum(xs, R)
    # vectorized_inner_sum; lanes of the accumulator vector
    if dt in ('f16', 'bf16'):
        lanes = vlen // 2

        def load(v):
            if dt == 'bf16':
                return [R(v[i] + v[i + lanes]) for i in range(lanes)]
            return [R(R(0.0 + v[2 * i]) + v[2 * i + 1]) for i in range(lanes)]
    else:
        lanes = vlen

        def load(v):
            return list(v)
    vec_size = n // vlen
    vecs = [load(xs[v * vlen:(v + 1) * vlen]) for v in range(vec_size)]
    # row_sum over vectors, lane-wise
    lane_tot = [row_sum([vecs[v][l] for v in range(vec_size)], R) for l in range(lanes)]
    final = 0.0
    for k in range(vec_size * vlen, n):
        final = R(final + xs[k])
    for l in range(lanes):
        final = R(final + lane_tot[l])
    return final


def torch_cpu_sum_group(xs, geo, col, ncols, dt, R):
    """cascade_sum path choice; xs already converted to the accumulator dtype."""
    if geo.inner:
        return torch_cpu_sum_inner(xs, dt, R)
    # outer reduction (reduced dim strided, kept dim contiguous): column col of ncols
    lanes = VEC['f32'] if dt in ('f16', 'bf16') else VEC[dt]      # Vectorized<acc_t>::size()
    if ncols >= VEC[dt]:                                            # vectorized_outer_sum
        if col < (ncols // (4 * lanes)) * 4 * lanes:
            return multi_row_sum([(x,) for x in xs], 1, R)[0]       # 4 vector rows at once
        return row_sum(xs, R)
    if col < (ncols // 4) * 4:                                      # scalar_outer_sum
        return multi_row_sum([(x,) for x in xs], 1, R)[0]
    return row_sum(xs, R)


def cuda_row_reduce(xs, ident, op, R):
    """PyTorch Reduce.cuh, reduction along the fastest dim, non-vectorized path (n <= 128)."""
    n = len(xs)
    if n == 0:
        return ident
    bw = min(last_pow2(n), 512)
    vals = []
    for t in range(bw):
        vl = [ident] * 4
        idx, i = t, 0
        while idx + 3 * bw < n:
            for j in range(4):
                vl[j] = R(op(vl[j], xs[idx + j * bw]))
            idx += 4 * bw
        j = 0
        while j < 4 and idx < n:
            vl[j] = R(op(vl[j], xs[idx]))
            idx += bw
            j += 1
        v = vl[0]
        for j in range(1, 4):
            v = R(op(v, vl[j]))
        vals.append(v)
    dim_x = bw
    if dim_x > 32:
        off = dim_x // 2
        while off >= 32:
            for t in range(off):
                vals[t] = R(op(vals[t], vals[t + off]))
            off //= 2
        dim_x = 32
    off = 1
    while off < dim_x:
        for t in range(0, dim_x, 2 * off):
            if t + off < dim_x:
                vals[t] = R(op(vals[t], vals[t + off]))
        off *= 2
    return vals[0]


def cuda_col_reduce(xs, ident, op, R):
    """One thread per output, all inputs, vt0 = 4 accumulators, stride 1."""
    vl = [ident] * 4
    idx, n = 0, len(xs)
    while idx + 3 < n:
        for j in range(4):
            vl[j] = R(op(vl[j], xs[idx + j]))
        idx += 4
    j = 0
    while idx < n:
        vl[j] = R(op(vl[j], xs[idx]))
        idx += 1
        j += 1
    v = vl[0]
    for j in range(1, 4):
        v = R(op(v, vl[j]))
    return v


def np_pairwise(xs, R):
    """numpy loops_utils.h.src pairwise_sum (res starts at -0.0 for n < 8)."""
    n = len(xs)
    if n < 8:
        res = -0.0
        for x in xs:
            res = R(res + x)
        return res
    if n <= 128:
        r = list(xs[:8])
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] = R(r[j] + xs[i + j])
            i += 8
        res = R(R(R(r[0] + r[1]) + R(r[2] + r[3])) + R(R(r[4] + r[5]) + R(r[6] + r[7])))
        while i < n:
            res = R(res + xs[i])
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return R(np_pairwise(xs[:n2], R) + np_pairwise(xs[n2:], R))


def xla_gpu_reduce(xs, inner, ident, op, R):
    """XLA GPU emitter choice (IsUnnestedReductionFasterThanElemental) and its order.

    row reduction of n: n < 32 and 32 % n != 0 -> elemental loop (sequential from init);
                        n in {1,2,4,8,16,32}   -> multi-row emitter, one element per thread
                                                  (vector size 1 for a single row), shuffle
                                                  tree with offsets n/2 .. 1;
                        n > 32                 -> row emitter, 32 threads, thread t sums
                                                  t, t+32, ... then shuffle 16 .. 1 (unverified).
    column reduction of R rows: R < 32 -> elemental (sequential); else 32 lanes strided by 32,
                        then shuffle 16 .. 1 (unverified).
    """
    n = len(xs)
    if inner:
        if n < 32 and 32 % max(n, 1) != 0:
            return seq(xs, ident, op, R)
        if n <= 32:
            lanes = [R(op(ident, x)) for x in xs]
            off = n // 2
            while off >= 1:
                for t in range(off):
                    lanes[t] = R(op(lanes[t], lanes[t + off]))
                off //= 2
            return lanes[0] if lanes else ident
    elif n < 32:
        return seq(xs, ident, op, R)
    lanes = [ident] * 32
    for i, x in enumerate(xs):
        lanes[i % 32] = R(op(lanes[i % 32], x))
    off = 16
    while off >= 1:
        for t in range(off):
            lanes[t] = R(op(lanes[t], lanes[t + off]))
        off //= 2
    return lanes[0]


# ---------------------------------------------------------------- dtype rules

def sum_dtype(fw, dt, x64):
    if is_float(dt):
        return dt
    if fw == 'torch':
        return 'i64'
    if fw == 'numpy':
        if dt == 'bool':
            return 'i64'
        return 'u64' if dt.startswith('u') else 'i64'
    # jax
    if dt == 'bool':
        return 'i64' if x64 else 'i32'
    bits = INTS[dt][0]
    if x64:
        return 'u64' if dt.startswith('u') else 'i64'
    return ('u32' if dt.startswith('u') else 'i32') if bits < 32 else dt


def jax_inexact(dt, x64):
    if is_float(dt):
        return dt
    if dt in ('i64', 'u64'):
        return 'f64' if x64 else 'f32'
    return 'f32'


def x32_narrow(dt):
    return {'i64': 'i32', 'u64': 'u32', 'f64': 'f32'}.get(dt, dt)


# ---------------------------------------------------------------- main evaluator

def predict(profile, case):
    op = case['op']
    a = case['args'][0]
    dt = a['dtype']
    shape = list(a['shape'])
    data = [parse_elem(x, dt) for x in a['data']]
    attrs = case.get('attrs', {})
    dim = attrs.get('dim')
    keepdim = bool(attrs.get('keepdim', False))
    if op == 'cumsum' and dim is None:
        dim = 0
    fw = 'torch' if profile.startswith('pytorch') else ('numpy' if profile == 'numpy' else 'jax')
    cuda = profile == 'pytorch/cuda'
    gpu = profile.startswith('jax/gpu')
    x64 = profile.endswith('x64')
    nd = len(shape)

    # ---- host data handed to the framework (JAX x32 narrows 64-bit data)
    if fw == 'jax' and not x64 and dt in ('i64', 'u64', 'f64'):
        ndt = x32_narrow(dt)
        data = [wrap(v, ndt) if is_int(dt) else rnd(v, 'f32') for v in data]
        dt = ndt

    # ---- dim checks
    zero_d_dim = False
    if dim is not None:
        if fw == 'torch':
            lo, hi = (-1, 0) if nd == 0 else (-nd, nd - 1)
            if not lo <= dim <= hi:
                return err('IndexOutOfRange', 'IndexError: Dimension out of range (expected to be in range of '
                                              '[%d, %d], but got %d)' % (lo, hi, dim))
            if nd == 0:
                zero_d_dim = True
            else:
                dim %= nd
        elif fw == 'numpy':
            if nd == 0:
                if dim in (0, -1) and op != 'mean':
                    zero_d_dim = True
                else:
                    return err('OutOfRange', 'AxisError: axis %d is out of bounds for array of dimension 0' % dim)
            elif not -nd <= dim < nd:
                return err('OutOfRange', 'AxisError: axis %d is out of bounds for array of dimension %d' % (dim, nd))
            else:
                dim %= nd
        else:
            if not -nd <= dim < nd or nd == 0:
                return err('OutOfRange', 'ValueError: axis %d is out of bounds for array of dimension %d' % (dim, nd))
            dim %= nd

    # 0-dim input with dim 0/-1: torch and numpy reduce the single element
    if zero_d_dim:
        if op == 'cumsum':
            if fw == 'numpy':
                shape = [1]
                dim = 0
                nd = 1
            else:
                dim = None
        else:
            dim = None
    geo = Geo(shape, dim)
    out_shape = geo.keep_shape if (keepdim and dim is not None) else geo.out_shape
    if zero_d_dim and op != 'cumsum':
        out_shape = []

    # ---- op-specific checks
    if fw == 'torch':
        if op == 'mean' and not is_float(dt):
            return err('UnsupportedDType', "RuntimeError: mean(): could not infer output dtype. Input dtype must be "
                                           "either a floating point or complex dtype. Got: %s" % TORCH_NAME[dt])
        if op in ('argmax', 'argmin') and dt == 'bool':
            return err('UnsupportedDType', 'RuntimeError: %s(): does not support bool input' % op)
        if op in ('max', 'min'):
            if attrs.get('dim') is None:
                if geo.numel == 0:
                    return err('EmptyTensor', "RuntimeError: %s(): Expected reduction dim to be specified for "
                                              "input.numel() == 0. Specify the reduction dim with the 'dim' "
                                              "argument." % op)
                if dt in WIDE_UNSIGNED:
                    return err('UnsupportedDType', 'NotImplementedError: "%s_all%s" not implemented for \'%s\''
                               % (op, '_cuda' if cuda else '', TORCH_NAME[dt]))
            else:
                name = 'amax' if op == 'max' else 'amin'
                if geo.numel == 0 and not zero_d_dim and geo.red_size == 0:
                    return err('IndexOutOfRange', 'IndexError: %s(): Expected reduction dim %d to have non-zero '
                                                  'size.' % (name, dim))
                if dt in WIDE_UNSIGNED and geo.numel != 0:
                    return err('UnsupportedDType', 'NotImplementedError: "%s_values_%s" not implemented for \'%s\''
                               % (op, 'cuda' if cuda else 'cpu', TORCH_NAME[dt]))
        if op in ('argmax', 'argmin'):
            if attrs.get('dim') is None:
                if geo.numel == 0:
                    return err('IndexOutOfRange', 'IndexError: %s(): Expected reduction dim to be specified for '
                                                  'input.numel() == 0.' % op)
            else:
                if not zero_d_dim and geo.red_size == 0:
                    return err('IndexOutOfRange', 'IndexError: %s(): Expected reduction dim %d to have non-zero '
                                                  'size.' % (op, dim))
                if zero_d_dim or geo.red_size == 1:
                    return val('i64', out_shape, [0] * len(geo.groups))
            if geo.numel == 0:
                return val('i64', out_shape, [])
            if dt in WIDE_UNSIGNED:
                return err('UnsupportedDType', 'NotImplementedError: "%s_%s" not implemented for \'%s\''
                           % (op, 'cuda' if cuda else 'cpu', TORCH_NAME[dt]))
    else:
        if op in ('max', 'min') and geo.red_size == 0:
            name = {'numpy': {'max': 'maximum', 'min': 'minimum'}, 'jax': {'max': 'max', 'min': 'min'}}[fw][op]
            return err('EmptyTensor', 'ValueError: zero-size array to reduction operation %s which has no '
                                      'identity' % name)
        if op in ('argmax', 'argmin') and geo.red_size == 0:
            return err('EmptyTensor', 'ValueError: attempt to get %s of an empty sequence' % op)

    # ---- values
    if op in ('max', 'min'):
        outv = []
        for g in geo.groups:
            xs = [data[i] for i in g]
            if is_float(dt) and any(x != x for x in xs):
                outv.append(NAN)
            else:
                outv.append(max(xs) if op == 'max' else min(xs))
        return val(dt, out_shape, outv)

    if op in ('argmax', 'argmin'):
        idt = 'i64' if (fw != 'jax' or x64) else 'i32'
        outv = []
        for g in geo.groups:
            xs = [data[i] for i in g]
            nan_at = [k for k, x in enumerate(xs) if is_float(dt) and x != x]
            if nan_at:
                outv.append(nan_at[0])
                continue
            best = 0
            for k, x in enumerate(xs):
                if (x > xs[best]) if op == 'argmax' else (x < xs[best]):
                    best = k
            outv.append(best)
        return val(idt, out_shape, outv)

    if op in ('sum', 'prod'):
        rdt = sum_dtype(fw, dt, x64)
        ident = 0 if op == 'sum' else 1
        if not is_float(rdt):
            outv = []
            for g in geo.groups:
                acc = ident
                for i in g:
                    x = int(data[i])
                    if fw == 'torch':
                        x = wrap(x, 'i64')     # .to(kLong) first: u64 above 2^63 turns negative
                    acc = acc + x if op == 'sum' else acc * x
                outv.append(wrap(acc, rdt))
            return val(rdt, out_shape, outv)
        outv = []
        ncols = len(geo.groups)
        for col, g in enumerate(geo.groups):
            xs = [data[i] for i in g]
            outv.append(float_sum_prod(fw, profile, op, dt, xs, geo, col, ncols))
        return val(rdt, out_shape, outv)

    if op == 'mean':
        return mean(fw, profile, dt, data, geo, out_shape, x64)

    if op == 'cumsum':
        return cumsum(fw, profile, dt, data, geo, shape, x64)
    raise ValueError(op)


def float_sum_prod(fw, profile, op, dt, xs, geo, col, ncols):
    R_dt = lambda v: rnd(v, dt)
    f = add if op == 'sum' else mul
    ident = 0.0 if op == 'sum' else 1.0
    if fw == 'torch':
        if op == 'prod':
            if profile == 'pytorch/cuda':
                acc = 'f64' if dt == 'f64' else 'f32'
                R = lambda v: rnd(v, acc)
                r = cuda_row_reduce(xs, 1.0, mul, R) if geo.inner else cuda_col_reduce(xs, 1.0, mul, R)
                return R_dt(r)
            return seq(xs, 1.0, mul, R_dt)             # binary_kernel_reduce_vec, scalar_t, n < 4*Vec
        acc = 'f64' if dt == 'f64' else 'f32'
        R = lambda v: rnd(v, acc)
        if profile == 'pytorch/cuda':
            r = cuda_row_reduce(xs, 0.0, add, R) if geo.inner else cuda_col_reduce(xs, 0.0, add, R)
            return R_dt(r)
        r = torch_cpu_sum_group(xs, geo, col, ncols, dt, R)
        return R_dt(0.0 + r)                            # output zero-filled, then +=
    if fw == 'numpy':
        if dt == 'bf16':
            return seq(xs, ident, f, R_dt)
        if geo.inner:
            if op == 'sum':
                R = (lambda v: rnd(v, 'f32')) if dt == 'f16' else R_dt
                return R_dt(ident + np_pairwise(xs, R))
            R = (lambda v: rnd(v, 'f32')) if dt == 'f16' else R_dt
            return R_dt(seq(xs, ident, mul, R))
        return seq(xs, ident, f, R_dt)
    # jax
    c = 'f32' if dt in ('f16', 'bf16') else dt
    R = lambda v: rnd(v, c)
    gpu = profile.startswith('jax/gpu')
    if gpu:
        r = xla_gpu_reduce(xs, geo.inner, ident, f, R)
    else:
        r = seq(xs, ident, f, R)
    return R_dt(r)


def mean(fw, profile, dt, data, geo, out_shape, x64):
    N = geo.red_size
    outv = []
    ncols = len(geo.groups)
    if fw == 'torch':
        rdt = dt
        acc = 'f64' if dt == 'f64' else 'f32'
        R = lambda v: rnd(v, acc)
        for col, g in enumerate(geo.groups):
            xs = [data[i] for i in g]
            if N == 0:
                outv.append(NAN)
                continue
            if profile == 'pytorch/cuda':
                s = cuda_row_reduce(xs, 0.0, add, R) if geo.inner else cuda_col_reduce(xs, 0.0, add, R)
                factor = R(1.0 / N)
                outv.append(rnd(R(s * factor), rdt))
            else:
                sdt = 'f32' if dt in ('f16', 'bf16') else dt    # sum_out in f32 for half types
                s = R(0.0 + torch_cpu_sum_group(xs, geo, col, ncols, sdt, R))
                outv.append(rnd(R(s / N), rdt))
        return val(rdt, out_shape, outv)
    if fw == 'numpy':
        if is_float(dt):
            rdt = dt
            c = 'f32' if dt == 'f16' else dt
        else:
            rdt = c = 'f64'
        R = lambda v: rnd(v, c)
        for g in geo.groups:
            xs = [float(data[i]) for i in g]
            if N == 0:
                outv.append(NAN)
                continue
            if c == 'bf16':
                s = seq(xs, 0.0, add, R)
            elif geo.inner:
                s = R(0.0 + np_pairwise(xs, R))
            else:
                s = seq(xs, 0.0, add, R)
            q = s / N                                  # f64 division (intp count is a strong type)
            if dt == 'f16' and out_shape != []:
                q = rnd(q, 'f32')                      # true_divide(..., out=ret f32) then f16
            outv.append(rnd(q, rdt))
        return val(rdt, out_shape, outv)
    rdt = jax_inexact(dt, x64)
    c = 'f32' if rdt in ('f16', 'bf16') else rdt
    R = lambda v: rnd(v, c)
    gpu = profile.startswith('jax/gpu')
    for g in geo.groups:
        xs = [R(float(data[i])) for i in g]
        if gpu:
            s = xla_gpu_reduce(xs, geo.inner, 0.0, add, R)
        else:
            s = seq(xs, 0.0, add, R)
        # lax.div(sum, N); XLA's algebraic simplifier turns x / const into x * (1 / const)
        q = R(s * R(1.0 / N)) if N else NAN
        outv.append(rnd(q, rdt))
    return val(rdt, out_shape, outv)


def cumsum(fw, profile, dt, data, geo, shape, x64):
    if fw == 'torch':
        rdt = 'i64' if not is_float(dt) else dt
    elif fw == 'numpy':
        rdt = sum_dtype('numpy', dt, x64)
    else:
        rdt = sum_dtype('jax', dt, x64) if dt == 'bool' else dt
    out = [None] * geo.numel
    for g in geo.groups:
        xs = [data[i] for i in g]
        if not is_float(rdt):
            acc = 0
            for k, i in enumerate(g):
                x = int(xs[k])
                if fw == 'torch':
                    x = wrap(x, 'i64')
                acc = wrap(acc + x, rdt)
                out[i] = acc
            continue
        if fw == 'torch' and profile == 'pytorch/cpu':
            acc_t = 'f64' if rdt in ('f32', 'f64') else 'f32'   # at::acc_type<T, /*is_cuda=*/false>
            acc = 0.0
            for k, i in enumerate(g):
                acc = rnd(acc + xs[k], acc_t)
                out[i] = rnd(acc, rdt)
            continue
        acc = None if fw == 'numpy' else 0.0
        for k, i in enumerate(g):
            acc = xs[k] if acc is None else rnd(acc + xs[k], rdt)
            out[i] = acc
    return val(rdt, shape, out)


# ---------------------------------------------------------------- driver

def load_cases():
    cases = []
    for f in ('real-frameworks.jsonl', 'real-frameworks-2.jsonl'):
        for line in open(os.path.join(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../corpus/oracle'), f)):
            d = json.loads(line)
            if d['op'] in OPS:
                cases.append(d)
    return cases


def main():
    global VEC
    verbose = '-v' in sys.argv
    if '--avx2' in sys.argv:
        VEC = AVX2
    cases = load_cases()
    from collections import Counter, defaultdict
    tot, ok = Counter(), Counter()
    per_op = defaultdict(Counter)
    misses = []
    for c in cases:
        for p in PROFILES:
            if p not in c['expect']:
                continue
            exp = c['expect'][p]
            got = predict(p, c)
            tot[p] += 1
            per_op[c['op']]['n'] += 1
            if outcome_eq(got, exp):
                ok[p] += 1
                per_op[c['op']]['ok'] += 1
            else:
                misses.append((c['id'], p, c['op'], got, exp))
    print('cases:', len(cases), ' outcomes:', sum(tot.values()), ' matched:', sum(ok.values()))
    for p in PROFILES:
        print('  %-13s %d/%d' % (p, ok[p], tot[p]))
    for o in OPS:
        print('  %-7s %d/%d' % (o, per_op[o]['ok'], per_op[o]['n']))
    for m in misses:
        print('MISS', m[0], m[1], m[2])
        if verbose:
            print('   got ', json.dumps(m[3])[:300])
            print('   want', json.dumps(m[4])[:300])


if __name__ == '__main__':
    main()
