"""Rule simulation for from_literal and arange."""
import json, math, collections
import uic_load as L, uic_fp as F

DEF = {  # profile -> (default int, default float)
    'pytorch/cpu': ('i64', 'f32'), 'pytorch/cuda': ('i64', 'f32'), 'numpy': ('i64', 'f64'),
    'jax/cpu-x32': ('i32', 'f32'), 'jax/gpu-x32': ('i32', 'f32'), 'jax/cpu-x64': ('i64', 'f64'), 'jax/gpu-x64': ('i64', 'f64')}
RANGE = {'i32': (-2**31, 2**31 - 1), 'i64': (-2**63, 2**63 - 1)}

def parse_lit(text):
    """literal text -> (nested python values, shape). true/false are bools; a '.' or 'e' makes a float."""
    v = json.loads(text.replace('True', 'true').replace('False', 'false'))
    def flat(x):
        return [y for e in x for y in flat(e)] if isinstance(x, list) else [x]
    def shp(x):
        return [len(x)] + shp(x[0]) if isinstance(x, list) and x else ([0] if isinstance(x, list) else [])
    return flat(v), shp(v)

def kind(vals, text):
    if all(isinstance(x, bool) for x in vals) and vals: return 'bool'
    if any(isinstance(x, float) for x in vals): return 'float'
    return 'int'

def predict_literal(text, prof):
    vals, shape = parse_lit(text)
    k = kind(vals, text)
    di, df = DEF[prof]
    if k == 'bool': return ('value', 'bool', shape, vals)
    if k == 'float': return ('value', df, shape, [F.round_float(float(x), df) for x in vals])
    lo, hi = RANGE[di]
    for x in vals:
        if not lo <= x <= hi:
            return ('error', 'OutOfRange', f'OverflowError: Python integer {x} out of bounds for {"int32" if di == "i32" else "int64"}')
    return ('value', di, shape, [int(x) for x in vals])

def predict_arange(start, end, prof):
    di, df = DEF[prof]
    isf = any(('.' in s or 'e' in s.lower()) for s in (start, end))
    a, b = (float(start), float(end)) if isf else (int(start), int(end))
    n = max(0, math.ceil(b - a))
    vals = [a + i for i in range(n)]
    if isf: return ('value', df, [n], [F.round_float(float(x), df) for x in vals])
    return ('value', di, [n], vals)

def same(o, p):
    if p[0] == 'error': return 'error' in o and o['error']['class'] == p[1]
    v = o.get('value')
    if not v or v['dtype'] != p[1] or v['shape'] != p[2]: return False
    for x, y in zip(v['data'], p[3]):
        if p[1] in F.FMT:
            if F.bits(F.parse(x), p[1]) != F.bits(y, p[1]): return False
        elif x != y: return False
    return True

if __name__ == '__main__':
    res = collections.Counter(); miss = []
    for c in L.cases():
        if c['op'] not in ('from_literal', 'arange'): continue
        for prof, o in c['expect'].items():
            p = predict_literal(c['attrs']['literal'], prof) if c['op'] == 'from_literal' else \
                predict_arange(c['attrs']['start'], c['attrs']['end'], prof)
            ok = same(o, p); res[ok] += 1
            if not ok: miss.append((c['id'], prof, p, L.short(o)))
    print('creation outcomes matched:', res[True], '/', res[True] + res[False])
    for m in miss: print('MISS', m)
