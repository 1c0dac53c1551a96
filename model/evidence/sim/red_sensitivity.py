"""Which rules does the oracle actually pin down?  Swap one rule for a plausible alternative
and count how many recorded outcomes stop matching (0 = the oracle does not discriminate)."""
import importlib
from red_fp import outcome_eq, rnd
import reductions_sim as S

def run(label, patch):
    importlib.reload(S)
    patch(S)
    cases = S.load_cases()
    miss = []
    for c in cases:
        for p in S.PROFILES:
            if p in c['expect'] and not outcome_eq(S.predict(p, c), c['expect'][p]):
                miss.append('%s@%s' % (c['id'], p))
    print('%-70s misses=%d %s' % (label, len(miss), ' '.join(miss[:6])))

def p_torch_cpu_seq(S):
    S.torch_cpu_sum_group = lambda xs, geo, col, ncols, dt, R: S.seq(xs, 0.0, S.add, R)
def p_torch_half_acc_dtype(S):
    orig = S.float_sum_prod
    def f(fw, profile, op, dt, xs, geo, col, ncols):
        if fw == 'torch' and op == 'sum' and dt in ('f16', 'bf16'):
            return S.seq(xs, 0.0, S.add, lambda v: rnd(v, dt))
        return orig(fw, profile, op, dt, xs, geo, col, ncols)
    S.float_sum_prod = f
def p_torch_prod_f32acc(S):
    orig = S.float_sum_prod
    def f(fw, profile, op, dt, xs, geo, col, ncols):
        if fw == 'torch' and op == 'prod' and dt in ('f16', 'bf16') and profile == 'pytorch/cpu':
            return rnd(S.seq(xs, 1.0, S.mul, lambda v: rnd(v, 'f32')), dt)
        return orig(fw, profile, op, dt, xs, geo, col, ncols)
    S.float_sum_prod = f
def p_cuda_seq(S):
    S.cuda_row_reduce = lambda xs, ident, op, R: S.seq(xs, ident, op, R)
def p_cuda_mean_div(S):
    orig_mean = S.mean
    def m(fw, profile, dt, data, geo, out_shape, x64):
        if profile == 'pytorch/cuda':
            return orig_mean(fw, 'pytorch/cpu', dt, data, geo, out_shape, x64)
        return orig_mean(fw, profile, dt, data, geo, out_shape, x64)
    S.mean = m
def p_cumsum_cpu_f32acc(S):
    orig = S.cumsum
    def c(fw, profile, dt, data, geo, shape, x64):
        if profile == 'pytorch/cpu':
            profile = 'pytorch/cuda'
        return orig(fw, profile, dt, data, geo, shape, x64)
    S.cumsum = c
def p_cumsum_cuda_f64acc(S):
    orig = S.cumsum
    def c(fw, profile, dt, data, geo, shape, x64):
        if profile == 'pytorch/cuda':
            profile = 'pytorch/cpu'
        return orig(fw, profile, dt, data, geo, shape, x64)
    S.cumsum = c
def p_np_seq(S):
    S.np_pairwise = lambda xs, R: S.seq(xs, -0.0, S.add, R)
def p_np_f16_stepwise(S):
    orig = S.float_sum_prod
    def f(fw, profile, op, dt, xs, geo, col, ncols):
        if fw == 'numpy' and dt == 'f16':
            return S.seq(xs, 0.0 if op == 'sum' else 1.0, S.add if op == 'sum' else S.mul, lambda v: rnd(v, dt))
        return orig(fw, profile, op, dt, xs, geo, col, ncols)
    S.float_sum_prod = f
def p_np_bf16_f32acc(S):
    orig = S.float_sum_prod
    def f(fw, profile, op, dt, xs, geo, col, ncols):
        if fw == 'numpy' and dt == 'bf16':
            return rnd(S.seq(xs, 0.0 if op == 'sum' else 1.0, S.add if op == 'sum' else S.mul, lambda v: rnd(v, 'f32')), dt)
        return orig(fw, profile, op, dt, xs, geo, col, ncols)
    S.float_sum_prod = f
def p_jax_gpu_seq(S):
    S.xla_gpu_reduce = lambda xs, inner, ident, op, R: S.seq(xs, ident, op, R)
def p_jax_gpu_always_tree(S):
    def t(xs, inner, ident, op, R):
        lanes = [ident] * 32
        for i, x in enumerate(xs):
            lanes[i % 32] = R(op(lanes[i % 32], x))
        off = 16
        while off >= 1:
            for l in range(off):
                lanes[l] = R(op(lanes[l], lanes[l + off]))
            off //= 2
        return lanes[0]
    S.xla_gpu_reduce = t
def p_jax_mean_div(S):
    src_mean = S.mean
    def m(fw, profile, dt, data, geo, out_shape, x64):
        if fw != 'jax':
            return src_mean(fw, profile, dt, data, geo, out_shape, x64)
        rdt = S.jax_inexact(dt, x64); c = 'f32' if rdt in ('f16', 'bf16') else rdt
        R = lambda v: rnd(v, c); N = geo.red_size; outv = []
        for g in geo.groups:
            xs = [R(float(data[i])) for i in g]
            s = S.xla_gpu_reduce(xs, geo.inner, 0.0, S.add, R) if profile.startswith('jax/gpu') else S.seq(xs, 0.0, S.add, R)
            outv.append(rnd(R(s / N), rdt) if N else S.NAN)
        return S.val(rdt, out_shape, outv)
    S.mean = m
def p_jax_half_stepwise(S):
    orig = S.float_sum_prod
    def f(fw, profile, op, dt, xs, geo, col, ncols):
        if fw == 'jax' and dt in ('f16', 'bf16'):
            return S.seq(xs, 0.0 if op == 'sum' else 1.0, S.add if op == 'sum' else S.mul, lambda v: rnd(v, dt))
        return orig(fw, profile, op, dt, xs, geo, col, ncols)
    S.float_sum_prod = f
def p_jax_cumsum_f32(S):
    orig = S.cumsum
    def c(fw, profile, dt, data, geo, shape, x64):
        if fw == 'jax' and dt in ('f16', 'bf16'):
            out = [None] * geo.numel
            for g in geo.groups:
                acc = 0.0
                for i in g:
                    acc = rnd(acc + data[i], 'f32'); out[i] = rnd(acc, dt)
            return S.val(dt, shape, out)
        return orig(fw, profile, dt, data, geo, shape, x64)
    S.cumsum = c

run('baseline (rules as written)', lambda S: None)
run('baseline with AVX2 vector lengths', lambda S: setattr(S, 'VEC', S.AVX2))
run('pytorch/cpu float sum: plain sequential', p_torch_cpu_seq)
run('pytorch f16/bf16 sum: accumulate in the dtype', p_torch_half_acc_dtype)
run('pytorch/cpu f16/bf16 prod: accumulate in f32', p_torch_prod_f32acc)
run('pytorch/cuda sum: sequential', p_cuda_seq)
run('pytorch/cuda mean: sum / N (as CPU)', p_cuda_mean_div)
run('pytorch/cpu cumsum: accumulate in the dtype', p_cumsum_cpu_f32acc)
run('pytorch/cuda cumsum: accumulate wide (as CPU)', p_cumsum_cuda_f64acc)
run('numpy: sequential instead of pairwise', p_np_seq)
run('numpy f16 sum/prod: rounding every step', p_np_f16_stepwise)
run('numpy bf16 sum/prod: f32 accumulator', p_np_bf16_f32acc)
run('jax/gpu: always sequential', p_jax_gpu_seq)
run('jax/gpu: always 32-lane shuffle tree', p_jax_gpu_always_tree)
run('jax mean: sum / N instead of sum * (1/N)', p_jax_mean_div)
run('jax f16/bf16 sum/prod: in the dtype (no f32 upcast)', p_jax_half_stepwise)
run('jax f16/bf16 cumsum: f32 accumulator', p_jax_cumsum_f32)
