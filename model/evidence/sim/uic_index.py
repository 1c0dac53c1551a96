"""Rule simulation for index_select (PyTorch index_select(dim, idx); NumPy / JAX take(a, idx, axis=dim))."""
import math, collections
import uic_load as L, uic_fp as F
from uic_unary import INTS, wrap, narrow, TORCHNAME, FL

def strides(shape):
    s = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1): s[i] = s[i + 1] * shape[i + 1]
    return s

def gather(data, shape, dim, idxs):
    """plain take along dim of row-major data; idxs already normalized to [0, n)."""
    if not shape:
        return [data[0] for _ in idxs], []
    outer = math.prod(shape[:dim]); n = shape[dim]; inner = math.prod(shape[dim + 1:])
    out = []
    for o in range(outer):
        for i in idxs:
            base = (o * n + i) * inner
            out.extend(data[base:base + inner])
    return out, shape[:dim] + [len(idxs)] + shape[dim + 1:]

def fill_value(dt):
    if dt in FL: return 'nan'
    if dt == 'bool': return True
    s, b = INTS[dt]
    return -(1 << (b - 1)) if s else (1 << b) - 1

def predict(c, prof):
    src, idx = c['args']; dim = c['attrs'].get('dim', 0)
    fw, dev = prof.split('/')[0], prof.split('/')[-1]
    shape = src['shape']; nd = max(len(shape), 1)
    if not -nd <= dim < nd: return ('error', 'IndexOutOfRange', 'Dimension out of range')
    dim %= nd
    n = shape[dim] if shape else 1
    raw = [int(F.parse(v)) if idx['dtype'] in FL else int(v) for v in idx['data']]
    if fw == 'pytorch':
        if idx['dtype'] not in ('i32', 'i64'):
            if dev == 'cuda':
                return ('error', 'UnsupportedDType',
                        f'NotImplementedError: "index_select_out_cuda_impl" not implemented for \'{TORCHNAME[idx["dtype"]]}\'')
            return ('error', 'IndexDType', 'RuntimeError: index_select(): Expected dtype int32 or int64 for index')
        if len(shape) > 1 and (len(raw) == 0 or math.prod(shape) == 0):
            pass  # returns the (empty) result without looking at the indices
        else:
            bad = [i for i in raw if not 0 <= i < n]
            if bad:
                if dev == 'cuda': return ('no-entry',)   # device-side assert: not recorded in the oracle
                if len(shape) > 1 and dim == 1:
                    return ('error', 'IndexOutOfRange', f'RuntimeError: INDICES element is out of DATA bounds, id={bad[0]} axis_dim={n}')
                return ('error', 'IndexOutOfRange', 'IndexError: index out of range in self')
        norm = raw
        outdt = src['dtype']
        data = src['data']
        filled = None
    else:
        if idx['dtype'] in FL:
            if fw == 'numpy':
                return ('error', 'IndexDType', f"TypeError: Cannot cast array data from dtype('{idx['dtype']}') to dtype('int64') according to the rule 'same_kind'")
            return ('error', 'IndexDType', 'ValueError: indices must have an integer type')
        idt = narrow(idx['dtype'], prof)
        if idt in INTS: raw = [wrap(i, idt) for i in raw]
        outdt = narrow(src['dtype'], prof)
        data = src['data']
        if outdt != src['dtype'] and outdt in INTS: data = [wrap(int(v), outdt) for v in data]
        norm = []; filled = set()
        for j, i in enumerate(raw):
            if -n <= i < n: norm.append(i % n)
            elif fw == 'numpy':
                return ('error', 'IndexOutOfRange', f'IndexError: index {i} is out of bounds for axis {dim} with size {n}')
            else:
                norm.append(0); filled.add(j)
    out, oshape = gather(data, shape, dim, norm)
    if filled:   # JAX fill mode
        inner = math.prod(shape[dim + 1:]); outer = math.prod(shape[:dim]); k = len(norm)
        fv = fill_value(outdt)
        for o in range(outer):
            for j in filled:
                for t in range(inner): out[(o * k + j) * inner + t] = fv
    return ('value', outdt, oshape, out)

def same_elem(a, b, dt):
    if dt in FL:
        x, y = F.round_float(F.parse(a), dt), F.round_float(F.parse(b), dt)
        if math.isnan(x) and math.isnan(y): return True
        return F.bits(x, dt) == F.bits(y, dt)
    if dt == 'bool': return bool(a) == bool(b)
    return int(a) == int(b)

def main():
    res = collections.Counter(); misses = []
    for c in L.cases():
        if c['op'] != 'index_select': continue
        for prof in L.PROFILES:
            o = c['expect'].get(prof); p = predict(c, prof)
            if o is None:
                # the runner skipped every index_oob case on CUDA (device-side assert poisons the process)
                res[prof, 'absent' + ('' if p[0] == 'no-entry' else ' (rule: ' + p[1] + ')')] += 1
                continue
            elif p[0] == 'error': ok = 'error' in o and o['error']['class'] == p[1]
            elif p[0] == 'value':
                v = o.get('value')
                ok = bool(v) and v['dtype'] == p[1] and v['shape'] == p[2] and len(v['data']) == len(p[3]) and \
                    all(same_elem(a, b, p[1]) for a, b in zip(v['data'], p[3]))
            else: ok = False
            res[prof, ok] += 1
            if not ok: misses.append((c['id'], prof, p, o and L.short(o)))
    return res, misses

if __name__ == '__main__':
    res, misses = main()
    tot = sum(v for (p, ok), v in res.items() if ok in (True, False)); good = sum(v for (p, ok), v in res.items() if ok is True)
    print(f'index_select outcomes matched: {good}/{tot}')
    for p in L.PROFILES: print(f'  {p:13s} {res[p, True]}/{res[p, True] + res[p, False]}')
    for (p, k), v in res.items():
        if isinstance(k, str): print(f'  {p}: {v} case(s) without an entry: {k}')
    for m in misses: print('MISS', m)
