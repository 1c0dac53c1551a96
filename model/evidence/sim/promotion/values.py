"""Value-level check of the computation-dtype rules (add sub mul div, comparisons, maximum/minimum)
for the promotion groups.  Uses promo.predict for the result dtype."""
import sys, math, collections
from load import load, PROFILES, show
from promo import predict, is_scalar, INTS, SINT, UINT, FLOATS, CPLX, CMP, BITS, NARROW, wrap_int
from fmt import rnd, parse, same, exact
GROUPS = ['promote','promote0d','promote_val','weak','bcast','rand2_binary','scalar','fscalar','rand2_scalar']
VOPS = ['add','sub','mul','div'] + CMP + ['maximum','minimum']
REDUCED = ('f16','bf16')

def elems(a):
    d = a['dtype']
    if d == 'bool': return [1 if x else 0 for x in a['data']]
    if d in INTS: return [int(x) for x in a['data']]
    return [parse(x, d) for x in a['data']]

def bidx(shape, out):
    """flat index map for broadcasting shape -> out"""
    n = len(out); s = [1]*(n-len(shape)) + list(shape)
    idx = []
    total = 1
    for x in out: total *= x
    for flat in range(total):
        rem = flat; coords = []
        for dim in reversed(out):
            coords.append(rem % dim); rem //= dim
        coords.reverse()
        k = 0
        for c, dim in zip(coords, s):
            k = k*dim + (c if dim > 1 else 0)
        idx.append(k)
    return idx

def to_dtype(v, src, dst, via_f32=False):
    if dst == 'bool': return 1 if v else 0
    if dst in INTS:
        return wrap_int(int(v), dst)
    if src in FLOATS or isinstance(v, float):
        return rnd(float(v) if not isinstance(v, float) else v, dst)
    # integer -> float
    if via_f32 and dst in REDUCED:
        return rnd(rnd(int(v), 'f32'), dst)
    return rnd(int(v), dst)

def scal_value(a):
    t = a['scalar']; k = a['kind']
    if k == 'bool': return ('bool', 1 if t == 'true' else 0)
    if k == 'int': return ('i64', int(t))
    return ('f64', float(t))

def fop(op, a, b, C, O):
    """float op computed in O, rounded to C"""
    if op in ('add','sub','mul','div'):
        r = exact(op, a, b, O)
        return rnd(r, C) if O != C else r
    raise ValueError(op)

def intop(op, A, B, C):
    if C == 'bool':
        return {'add': A | B, 'mul': A & B}[op]          # bool + bool = or, bool * bool = and
    return wrap_int({'add':A+B,'sub':A-B,'mul':A*B}[op], C)

def cmp(op, a, b):
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        return op == 'ne'
    return {'eq':a==b,'ne':a!=b,'lt':a<b,'le':a<=b,'gt':a>b,'ge':a>=b}[op]

def mx(op, a, b, prof, f16=False):
    if isinstance(a, float) and (math.isnan(a) or math.isnan(b)): return math.nan
    if a == b:
        if isinstance(a, float) and a == 0:
            # signed-zero ties (fgrid evidence oracle-00178/00188/00189/00198):
            # pytorch/cpu and numpy return the second operand; pytorch/cuda and jax order -0 < +0
            if prof == 'pytorch/cpu' or (prof == 'numpy' and not f16): return b
            if prof == 'numpy': return a          # numpy f16 loop (not SIMD) keeps the first operand
            sa, sb = math.copysign(1, a), math.copysign(1, b)
            if op == 'maximum': return 0.0 if (sa > 0 or sb > 0) else -0.0
            return -0.0 if (sa < 0 or sb < 0) else 0.0
        return a
    return max(a, b) if op == 'maximum' else min(a, b)

def compute(profile, case, R):
    """Return list of expected elements (Python values in dtype R) or None if not modelled."""
    op = case['op']; args = case['args']; fw = profile.split('/')[0]; dev = (profile.split('/')+[''])[1]
    x64 = profile.endswith('x64')
    # common (computation) dtype before comparison/div adjustments
    if op in CMP:
        # recompute common dtype by asking the model for 'add' semantics? use eq-specific: C = dtype both converted to
        fake = dict(case); fake['op'] = 'maximum'
        p = predict(profile, fake)
        if p[0] != 'value': return None
        C = p[1]
    else:
        C = R
    if C in CPLX or R in CPLX: return None
    out_shape = None
    vals = []; kinds = []
    for a in args:
        if is_scalar(a):
            sd, sv = scal_value(a); vals.append((sd, [sv])); kinds.append('scalar')
        else:
            d = a['dtype']; e = elems(a)
            if fw == 'jax' and not x64 and d in NARROW:
                nd = NARROW[d]
                e = [to_dtype(v, d, nd) for v in e]; d = nd
            vals.append((d, e)); kinds.append('tensor')
    shapes = [a['shape'] for a in args if not is_scalar(a)]
    from promo import bcast
    out_shape = shapes[0] if len(shapes) == 1 else bcast(shapes[0], shapes[1])
    n = 1
    for x in out_shape: n *= x
    idxs = []
    for a in args:
        idxs.append([0]*n if is_scalar(a) else bidx(a['shape'], out_shape))
    # ---- per-framework operand conversion and opmath
    div_int = (op == 'div' and C in FLOATS and all((v[0] in INTS or v[0] == 'bool') for v in vals))
    res = []
    for i in range(n):
        (da, ea), (db, eb) = vals
        a = ea[idxs[0][i]]; b = eb[idxs[1][i]]
        sa, sb = kinds[0] == 'scalar', kinds[1] == 'scalar'
        if fw == 'pytorch':
            O = 'f32' if C in REDUCED else C
            if op == 'div' and sa:                   # __rtruediv__ = reciprocal(t) * s
                t = to_dtype(b, db, R, via_f32=True)
                if C in FLOATS:
                    rec = fop('div', 1.0, t, R, 'f32' if R in REDUCED else R)
                else:
                    rec = fop('div', 1.0, t, R, R)
                if dev == 'cpu' and R not in REDUCED:
                    s = to_dtype(a, da, R)
                else:
                    s = to_dtype(a, da, 'f32' if R in REDUCED else R)
                res.append(fop('mul', rec, s, R, 'f32' if R in REDUCED else R)); continue
            # operand values
            def conv(v, d, is_s, pos):
                if C in FLOATS and is_s:
                    # CPU: mul/div (and floor/trunc div) read a right-hand CPU scalar with
                    #      original_scalar_value<opmath_t> when C is f16/bf16; add/sub (ufunc codegen) narrow it to C.
                    # CUDA: add/sub/mul/div read any CPU scalar with scalar_value<opmath_t> from the
                    #      un-cast wrapped number (f64/i64) -> opmath precision; comparisons use scalar_t (narrowed).
                    if dev == 'cpu':
                        special = pos == 1 and C in REDUCED and op in ('mul', 'div')
                    else:
                        special = op in ('add', 'sub', 'mul', 'div')
                    if special:
                        return to_dtype(v, d, O, via_f32=True)
                return to_dtype(v, d, C, via_f32=True)
            A = conv(a, da, sa, 0); B = conv(b, db, sb, 1)
            if op in CMP: res.append(cmp(op, A, B)); continue
            if op in ('maximum','minimum'): res.append(mx(op, A, B, profile, C == 'f16')); continue
            if C in FLOATS:
                if op == 'div' and dev == 'cuda' and sb:
                    inv = fop('div', 1.0, B, O, O)
                    res.append(fop('mul', A, inv, C, O)); continue
                res.append(fop(op, A, B, C, O)); continue
            res.append(intop(op, A, B, C)); continue
        if fw == 'numpy':
            A = to_dtype(a, da, C); B = to_dtype(b, db, C)
            if op in CMP: res.append(cmp(op, A, B)); continue
            if op in ('maximum','minimum'): res.append(mx(op, A, B, profile, C == 'f16')); continue
            if C in FLOATS: res.append(fop(op, A, B, C, C)); continue
            res.append(intop(op, A, B, C)); continue
        # jax
        def jconv(v, d, is_s):
            if is_s and d == 'f64' and not x64:
                v = rnd(v, 'f32'); d = 'f32'          # weak float parsed as f32 under x32
            return to_dtype(v, d, C)
        A = jconv(a, da, sa); B = jconv(b, db, sb)
        if op in CMP: res.append(cmp(op, A, B)); continue
        if op in ('maximum','minimum'): res.append(mx(op, A, B, profile, C == 'f16')); continue
        if C in FLOATS:
            O = 'f32' if C in REDUCED else C
            # division: jax/cpu rewrites x / python-scalar as x * (1/s); jax/gpu computes every f32
            # (and f16/bf16, upcast to f32) quotient approximately: modelled as x * rn(1/y)
            if op == 'div' and ((dev.startswith('cpu') and sb) or (dev.startswith('gpu') and O == 'f32')):
                inv = fop('div', 1.0, B, O, O)
                res.append(fop('mul', A, inv, C, O)); continue
            res.append(fop(op, A, B, C, O)); continue
        res.append(intop(op, A, B, C)); continue
    return res

def vals_dbg(a, k):
    if is_scalar(a): return a['scalar']
    d = a['data']; return d[k % len(d)] if d else None

def actual_elems(v):
    d = v['dtype']
    if d == 'bool': return [bool(x) for x in v['data']]
    if d in INTS: return [int(x) for x in v['data']]
    if d in CPLX: return None
    return [parse(x, d) if x != '?' else None for x in v['data']]

if __name__ == '__main__':
    ALL = '--all' in sys.argv
    cs = [c for c in load() if (ALL or c['group'] in GROUPS) and c['op'] in VOPS and len(c['args']) == 2]
    tot = collections.Counter(); ok = collections.Counter(); skipped = collections.Counter(); miss = collections.defaultdict(list)
    for c in cs:
        for p in PROFILES:
            o = c['expect'].get(p)
            if not o or 'value' not in o: continue
            pr = predict(p, c)
            if pr[0] != 'value' or pr[1] != o['value']['dtype']: continue   # dtype layer mismatch reported elsewhere
            exp = compute(p, c, pr[1]); act = actual_elems(o['value'])
            if exp is None or act is None: skipped[p] += 1; continue
            tot[p] += 1
            if c['op'] in CMP:
                good = all(bool(x) == y for x, y in zip(exp, act)) and len(exp) == len(act)
            elif pr[1] in FLOATS:
                good = len(exp) == len(act) and all(y is None or same(float(x), y) for x, y in zip(exp, act))
            elif pr[1] == 'bool':
                good = [bool(x) for x in exp] == act
            else:
                good = exp == act
            if good: ok[p] += 1
            else:
                miss[p].append(c['id'])
                if '-vv' in sys.argv:
                    print(p, c['id'], c['op'], [a.get('dtype', a.get('scalar')) for a in c['args']])
                    for k,(x,y) in enumerate(zip(exp, act)):
                        if not (same(float(x), y) if isinstance(y, float) else bool(x)==y if isinstance(y,bool) else x==y):
                            print('   elem', k, 'in', [ (vals_dbg(a, k)) for a in c['args']], 'exp', repr(x), 'act', repr(y))
    for p in PROFILES:
        print('%-13s values %d/%d (complex skipped %d)' % (p, ok[p], tot[p], skipped[p]))
    if '-v' in sys.argv:
        for p in PROFILES: print(p, miss[p])
