"""Differential check of the numpy rules in reductions_sim.py against a local NumPy
(Debian's 1.24; the oracle used 2.5).  Run with a python that has numpy: /usr/bin/python3."""
import random, warnings, json, sys
import numpy as np
import reductions_sim as S
from red_fp import outcome_eq, fmt_elem

warnings.simplefilter('ignore')
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
NP = {'f16': np.float16, 'f32': np.float32, 'f64': np.float64, 'i8': np.int8, 'u8': np.uint8,
      'i16': np.int16, 'u16': np.uint16, 'i32': np.int32, 'u32': np.uint32, 'i64': np.int64,
      'u64': np.uint64, 'bool': np.bool_}
REV = {np.dtype(v): k for k, v in NP.items()}

def rand_val(dt):
    if dt == 'bool':
        return rng.random() < 0.5
    if dt in S.INTS:
        bits, signed = S.INTS[dt]
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        return rng.choice([lo, hi, 0, 1, -1 if signed else 2, rng.randint(lo, hi), rng.randint(-100, 100) if signed else rng.randint(0, 200)])
    base = rng.choice([1.0, 3.0, 0.1, 1e-3, 2048.0, 65504.0 if dt == 'f16' else 16777216.0, 1e30 if dt != 'f16' else 60000.0, 5e-8])
    v = base * rng.uniform(-2, 2)
    r = rng.random()
    if r < 0.03: v = float('nan')
    elif r < 0.05: v = float('inf') * rng.choice([1, -1])
    elif r < 0.08: v = -0.0
    return v

def enc(v, dt):
    if dt in ('f16', 'f32', 'f64'):
        return fmt_elem(S.rnd(float(v), dt), dt)
    return v

n_ok = n_all = 0
for trial in range(4000):
    op = rng.choice(S.OPS)
    dt = rng.choice(list(NP))
    kind = rng.random()
    if kind < 0.4:
        shape = [rng.choice([0, 1, 2, 3, 5, 7, 8, 9, 16, 17, 31, 64, 100, 129, 300, 1000])]
    elif kind < 0.9:
        shape = [rng.randint(0, 40), rng.randint(0, 40)]
    else:
        shape = []
    n = 1
    for s in shape: n *= s
    data = [enc(rand_val(dt), dt) for _ in range(n)]
    dim = None if (op != 'cumsum' and rng.random() < 0.3) else rng.randrange(max(len(shape), 1))
    if op == 'cumsum' and dim is None: dim = 0
    keep = rng.random() < 0.5
    attrs = {} if dim is None else {'dim': dim, 'keepdim': keep}
    case = {'op': op, 'args': [{'dtype': dt, 'shape': shape, 'data': data}], 'attrs': attrs}
    arr = np.array([float(x) if dt in ('f16','f32','f64') else x for x in data], dtype=NP[dt]).reshape(shape)
    fn = {'sum': np.sum, 'prod': np.prod, 'mean': np.mean, 'max': np.max, 'min': np.min,
          'argmax': np.argmax, 'argmin': np.argmin, 'cumsum': np.cumsum}[op]
    try:
        if op in ('argmax', 'argmin', 'cumsum'):
            r = fn(arr, axis=dim)
            if op != 'cumsum' and keep and dim is not None and arr.ndim:
                r = np.expand_dims(r, dim)
        elif dim is None:
            r = fn(arr)
        else:
            r = fn(arr, axis=dim, keepdims=keep)
        r = np.asarray(r)
        rdt = REV[r.dtype]
        exp = {'value': {'dtype': rdt, 'shape': list(r.shape),
                         'data': [enc(x, rdt) if rdt in ('f16','f32','f64') else (bool(x) if rdt == 'bool' else int(x)) for x in r.reshape(-1).tolist()]}}
    except Exception as e:
        exp = {'error': {'class': 'EmptyTensor' if 'zero-size' in str(e) or 'empty' in str(e) else 'OutOfRange', 'message': str(e)}}
    got = S.predict('numpy', case)
    n_all += 1
    if outcome_eq(got, exp):
        n_ok += 1
    else:
        print('MISS', op, dt, shape, attrs, json.dumps(got)[:200], json.dumps(exp)[:200])
print('numpy-1.24 differential: %d/%d' % (n_ok, n_all))
