#!/usr/bin/env python3
"""Ablations: swap one rule for an alternative and count how many oracle cases/elements stop matching.
Shows which rules the oracle actually pins down."""
import json, math, sys
import casts_sim as S

def run(label, profiles=S.PROFILES):
    miss_cases = 0; miss_el = 0; ex = []
    for f in S.ORACLE:
        for line in open(f):
            c = json.loads(line)
            if c['op'] != 'cast': continue
            for p in profiles:
                if p not in c['expect']: continue
                ok, bad = S.compare(S.eval_case(p, c), c['expect'][p])
                if not ok:
                    miss_cases += 1; miss_el += len(bad)
                    if len(ex) < 4: ex.append((c['id'], p, c['args'][0]['dtype'], c['attrs']['to'], bad[:6]))
    print('%-70s missed cases %3d elements %4d  e.g. %s' % (label, miss_cases, miss_el, ex[:3]))

orig = {k: getattr(S, k) for k in ['f2i_pytorch_cpu', 'f2i_pytorch_cuda', 'f2i_jax', 'cvtt', 'split_unsigned', 'decode']}
def restore():
    for k, v in orig.items(): setattr(S, k, v)

run('baseline')

# 1. pytorch/cpu u8 through 32-bit instead of 64-bit
def alt(x, src, dst, numpy=False, **kw):
    if dst == 'u8': return S.wrap(S.cvtt(x, 32), dst)
    return orig['f2i_pytorch_cpu'](x, src, dst, numpy, **kw)
S.f2i_pytorch_cpu = alt; run('pytorch/cpu: u8 via cvtt32', ['pytorch/cpu']); restore()
def alt(x, src, dst, numpy=False, **kw):
    if dst == 'u8': return S.wrap(S.cvtt(x, 64), dst)
    return orig['f2i_pytorch_cpu'](x, src, dst, numpy, **kw)
S.f2i_pytorch_cpu = alt; run('numpy: u8 via cvtt64', ['numpy']); restore()
# 2. narrow via 64-bit
for d in ['i8', 'i16', 'u16']:
    def alt(x, src, dst, numpy=False, d=d, **kw):
        if dst == d: return S.wrap(S.cvtt(x, 64), dst)
        return orig['f2i_pytorch_cpu'](x, src, dst, numpy, **kw)
    S.f2i_pytorch_cpu = alt; run('pytorch/cpu+numpy: %s via cvtt64' % d, ['pytorch/cpu', 'numpy']); restore()
# 3. u32 alternatives
def alt(x, src, dst, numpy=False, **kw):
    if dst == 'u32': return S.wrap(S.cvtt(x, 64), dst)
    return orig['f2i_pytorch_cpu'](x, src, dst, numpy, **kw)
S.f2i_pytorch_cpu = alt; run('cpu/numpy: u32 = low32(cvtt64) for all sources', ['pytorch/cpu', 'numpy']); restore()
def alt(x, src, dst, numpy=False, **kw):
    if dst == 'u32': return S.split_unsigned(x, 32, src)
    return orig['f2i_pytorch_cpu'](x, src, dst, numpy, **kw)
S.f2i_pytorch_cpu = alt; run('cpu/numpy: u32 = split32 for all sources (incl f16)', ['pytorch/cpu', 'numpy']); restore()
def alt(x, src, dst, numpy=False, **kw):
    if dst == 'u32':
        r = S.cvtt(x, 64)
        return 0 if r < 0 and r == -(1 << 63) else S.wrap(r, dst)
    return orig['f2i_pytorch_cpu'](x, src, dst, numpy, **kw)
# 4. u64: plain cvtt64 (no split)
def alt(x, src, dst, numpy=False, **kw):
    if dst == 'u64': return S.wrap(S.cvtt(x, 64), dst)
    return orig['f2i_pytorch_cpu'](x, src, dst, numpy, **kw)
S.f2i_pytorch_cpu = alt; run('cpu/numpy: u64 = cvtt64 (no split)', ['pytorch/cpu', 'numpy']); restore()

# CUDA alternatives
def alt(x, src, dst):
    if S.math.isnan(x) and dst in ('i32', 'u32'): return 0
    return orig['f2i_pytorch_cuda'](x, src, dst)
S.f2i_pytorch_cuda = alt; run('cuda: NaN -> 0 also for f64 into 32-bit', ['pytorch/cuda']); restore()
def alt(x, src, dst):
    if S.math.isnan(x) and dst in ('i64', 'u64'): return 0
    return orig['f2i_pytorch_cuda'](x, src, dst)
S.f2i_pytorch_cuda = alt; run('cuda: NaN -> 0 for 64-bit', ['pytorch/cuda']); restore()
def alt(x, src, dst):
    if dst in ('i8', 'i16', 'u8', 'u16'):
        b, s = S.INT_BITS[dst]; return S.sat(x, b, s, 0)
    return orig['f2i_pytorch_cuda'](x, src, dst)
S.f2i_pytorch_cuda = alt; run('cuda: narrow saturate to destination', ['pytorch/cuda']); restore()
def alt(x, src, dst):
    if dst == 'u8': return S.wrap(S.sat(x, 32, True, 0), dst)
    return orig['f2i_pytorch_cuda'](x, src, dst)
S.f2i_pytorch_cuda = alt; run('cuda: u8 via s32', ['pytorch/cuda']); restore()
def alt(x, src, dst):
    if dst == 'u16': return S.wrap(S.sat(x, 32, True, 0), dst)
    return orig['f2i_pytorch_cuda'](x, src, dst)
S.f2i_pytorch_cuda = alt; run('cuda: u16 via s32', ['pytorch/cuda']); restore()

# rounding knobs
for k in ['f64_to_half_via_f32', 'int_to_half_via_f32']:
    for val in (True, False):
        old = dict(S.V[k])
        for p in S.PROFILES: S.V[k][p] = val
        run('%s=%s for all profiles' % (k, val))
        S.V[k] = old
