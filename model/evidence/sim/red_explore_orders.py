"""Brute force: which summation trees reproduce the recorded JAX float sums/means."""
import json, sys
from red_fp import rnd, parse_elem, outcome_eq
import reductions_sim as S

def trees(items):
    # items: list of (label, value-fn) ; enumerate all unordered full binary trees
    if len(items) == 1:
        yield items[0]
        return
    n = len(items)
    # pick the pair to merge first among all pairs -> generates each tree multiple times; dedupe by label
    seen = set()
    for i in range(n):
        for j in range(i+1, n):
            merged = ('(%s+%s)' % (items[i][0], items[j][0]), (items[i], items[j]))
            rest = [items[k] for k in range(n) if k not in (i, j)] + [merged]
            for t in trees(rest):
                yield t

def canon(t):
    if isinstance(t[1], tuple):
        a, b = canon(t[1][0]), canon(t[1][1])
        return '(' + ' + '.join(sorted([a, b])) + ')'
    return t[0]

def evaluate(t, R):
    if isinstance(t[1], tuple):
        return R(evaluate(t[1][0], R) + evaluate(t[1][1], R))
    return t[1]

def all_trees(xs, R):
    out = {}
    items = [('a%d' % i, x) for i, x in enumerate(xs)]
    for t in trees(items):
        c = canon(t)
        if c not in out:
            out[c] = evaluate(t, R)
    return out

if __name__ == '__main__':
    prof_filter = sys.argv[1]
    for c in S.load_cases():
        if c['op'] not in ('sum', 'mean'):
            continue
        for p in S.PROFILES:
            if not p.startswith(prof_filter) or p not in c['expect']:
                continue
            exp = c['expect'][p]
            if 'value' not in exp or exp['value']['dtype'] not in ('f16','bf16','f32','f64'):
                continue
            a = c['args'][0]; dt = a['dtype']
            x64 = p.endswith('x64')
            data = [parse_elem(x, dt) for x in a['data']]
            if not x64 and dt in ('i64','u64','f64'):
                ndt = S.x32_narrow(dt)
                data = [S.wrap(v, ndt) if dt in S.INTS else rnd(v,'f32') for v in data]; dt = ndt
            if c['op'] == 'mean':
                rdt = S.jax_inexact(dt, x64)
            else:
                rdt = dt
            cdt = 'f32' if rdt in ('f16','bf16') else rdt
            R = lambda v: rnd(v, cdt)
            geo = S.Geo(a['shape'], c['attrs'].get('dim') % max(1,len(a['shape'])) if c['attrs'].get('dim') is not None else None)
            for gi, g in enumerate(geo.groups):
                xs = [R(float(data[i])) for i in g]
                if len(xs) < 3 or len(xs) > 6: continue
                want = float(exp['value']['data'][gi])
                res = all_trees(xs, R)
                N = len(xs)
                def fin(s):
                    if c['op']=='mean': s = R(s / N)
                    return rnd(s, rdt)
                vals = set(fin(v) for v in res.values())
                if len(vals) <= 1: continue
                good = sorted(k for k, v in res.items() if fin(v) == want or (fin(v)!=fin(v) and want!=want))
                print(c['id'], p, c['op'], dt, a['shape'], c['attrs'], 'n=%d' % N, 'matching %d/%d' % (len(good), len(res)))
                for k in good[:40]: print('     ', k)
