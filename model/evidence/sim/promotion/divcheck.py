"""How do JAX / PyTorch compute float division?  Compare actual quotients with
(a) correctly rounded a/b, (b) a * rn(1/b).  All div cases in the oracle with real float results."""
import collections, math, struct
from load import load, PROFILES
from promo import predict, is_scalar, INTS, FLOATS, NARROW
from fmt import rnd, parse, same, exact
from values import elems, bidx, to_dtype, scal_value
from promo import bcast
def ulps(x, y, d):
    if x == y: return 0
    # distance in units of the format: count via rounding steps (approx via f64 ulp of format)
    from fmt import FMT
    p, emin, emax = FMT[d]
    m = max(abs(x), abs(y)); e = max(math.frexp(m)[1]-1, emin)
    return abs(x-y) / 2.0**(e-p+1)
stats = collections.defaultdict(collections.Counter)
for c in load():
    if c['op'] != 'div': continue
    for p in PROFILES:
        o = c['expect'].get(p)
        if not o or 'value' not in o: continue
        R = o['value']['dtype']
        if R not in FLOATS: continue
        x64 = p.endswith('x64'); jax = p.startswith('jax')
        args = c['args']
        kind = 'scalar' if is_scalar(args[1]) else ('0dim' if args[1]['shape']==[] else 'tensor')
        if is_scalar(args[0]): kind = 'lscalar'
        vals = []
        for a in args:
            if is_scalar(a):
                sd, sv = scal_value(a)
                if jax and sd == 'f64' and not x64: sv = rnd(sv, 'f32')
                vals.append([to_dtype(sv, sd, R)])
            else:
                d = a['dtype']; e = elems(a)
                if jax and not x64 and d in NARROW: e = [to_dtype(v, d, NARROW[d]) for v in e]; d = NARROW[d]
                vals.append([to_dtype(v, d, R) for v in e])
        shapes = [a['shape'] for a in args if not is_scalar(a)]
        out = shapes[0] if len(shapes)==1 else bcast(*shapes)
        n = 1
        for s in out: n *= s
        ix = [[0]*n if is_scalar(a) else bidx(a['shape'], out) for a in args]
        act = [parse(x, R) for x in o['value']['data']]
        O = 'f32' if R in ('f16','bf16') else R
        for i in range(n):
            a = vals[0][ix[0][i]]; b = vals[1][ix[1][i]]
            if not all(math.isfinite(v) for v in (a, b)) or b == 0: continue
            t = rnd(exact('div', a, b, O), R)
            r = rnd(exact('mul', a, exact('div', 1.0, b, O), O), R)
            y = act[i]
            if same(t, y) and same(r, y): k = 'both'
            elif same(t, y): k = 'true'
            elif same(r, y): k = 'recip'
            else: k = 'other(%.1fulp)' % ulps(t, y, R)
            stats[(p, R if R in ('f32','f64') else 'f16/bf16', kind)][k] += 1
for key in sorted(stats): print(key, dict(stats[key]))
