#!/usr/bin/env python3
"""Simulation of the `cast` op (attr `to`) for the 7 oracle profiles.

Recomputes every cast case of the oracle files from RULES and compares with the recorded
outcomes.  Usage:  python3 casts_sim.py [-v] [--variant NAME=VALUE ...]

No numpy: exact arithmetic with fractions; floats are Python floats (f64) whose values are
rounded to the element dtype.
"""
import json, math, os, struct, sys
from fractions import Fraction

ORACLE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../corpus/oracle')  # the repository's copy of the recorded outcomes
ORACLE = [os.path.join(ORACLE_DIR, f) for f in ('real-frameworks.jsonl', 'real-frameworks-2.jsonl')]
PROFILES = ['pytorch/cpu', 'pytorch/cuda', 'numpy', 'jax/cpu-x32', 'jax/cpu-x64', 'jax/gpu-x32', 'jax/gpu-x64']

INT_BITS = {'u8': (8, False), 'i8': (8, True), 'u16': (16, False), 'i16': (16, True),
            'u32': (32, False), 'i32': (32, True), 'u64': (64, False), 'i64': (64, True)}
# float formats: precision p (incl. hidden bit), emin, emax
FLT = {'f16': (11, -14, 15), 'bf16': (8, -126, 127), 'f32': (24, -126, 127), 'f64': (53, -1022, 1023)}
CPLX = {'c64': 'f32', 'c128': 'f64'}

# knobs that the notes discuss; defaults are the rules the notes state
V = {
    'f64_to_half_via_f32': {'pytorch/cpu': True, 'pytorch/cuda': True},   # PyTorch: Half(float(double))
    'int_to_half_via_f32': {'pytorch/cpu': True, 'pytorch/cuda': True},   # PyTorch: Half(float(int))
}

# ---------------------------------------------------------------- float helpers
def rnd(x, fmt):
    """Round a Python float / int / Fraction to the float format fmt, nearest-even.
    Returns a Python float (exact value), or +-inf / nan."""
    if isinstance(x, float):
        if math.isnan(x):
            return math.nan
        if math.isinf(x):
            return x
        if x == 0:
            return x  # keeps -0.0
    if x == 0:
        return 0.0
    p, emin, emax = FLT[fmt]
    q = Fraction(x)
    neg = q < 0
    a = -q if neg else q
    e = a.numerator.bit_length() - a.denominator.bit_length()
    # fix e so that 2^e <= a < 2^(e+1)
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - (p - 1))
    n = a / ulp
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    r = fl * ulp
    if r >= Fraction(2) ** (emax + 1):
        v = math.inf
    else:
        v = float(r)  # exact: r is representable in f64 for all our formats
    if neg:
        v = -v
    if v == 0 and neg:
        v = -0.0
    return v

def parse_float_text(s):
    s = str(s)
    if s.lower().lstrip('+-').startswith('0x'):
        return float.fromhex(s)
    return float(s)

def same_float(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)

# ---------------------------------------------------------------- integer helpers
def wrap(v, dst):
    bits, signed = INT_BITS[dst]
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v

def trunc(x):
    return int(x)  # Python int() truncates toward zero, exact for floats

def cvtt(x, bits):
    """x86 cvttss2si / cvttsd2si with a 32- or 64-bit destination: truncate; NaN or out of
    range -> the 'integer indefinite' value INT_MIN of that width."""
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if math.isnan(x) or math.isinf(x):
        return lo
    t = trunc(x)
    return t if lo <= t <= hi else lo

def split_unsigned(x, bits, src):
    """gcc's float -> unsigned (vector u32 / scalar u64) sequence:
       if x >= 2^(bits-1): cvtt(x - 2^(bits-1)) XOR 2^(bits-1) else cvtt(x); result as unsigned."""
    half = 1 << (bits - 1)
    if not math.isnan(x) and x >= half:
        d = rnd(x - half, 'f64' if src == 'f64' else 'f32')  # subtraction in source precision
        r = cvtt(d, bits) ^ (-half)  # xor sign bit (python ints: -half == ...1000 pattern)
    else:
        r = cvtt(x, bits)
    return r & ((1 << bits) - 1)

def sat(x, dst_bits, signed, nanval):
    if math.isnan(x):
        return nanval
    lo, hi = (-(1 << (dst_bits - 1)), (1 << (dst_bits - 1)) - 1) if signed else (0, (1 << dst_bits) - 1)
    if math.isinf(x):
        return hi if x > 0 else lo
    t = trunc(x)
    return min(max(t, lo), hi)

# ---------------------------------------------------------------- float -> int per profile
# gcc -O3 auto-vectorisation block of the float->u32 loop (see notes: vector body = first
# n - n % B elements, scalar tail = last n % B elements). f16 sources are never vectorised.
U32_BLOCK = {'f32': 4, 'f64': 4, 'bf16': 8}

def f2i_pytorch_cpu(x, src, dst, numpy=False, pos=0, n=1):
    if dst == 'i32':
        return cvtt(x, 32)
    if dst == 'i64':
        return cvtt(x, 64)
    if dst in ('i8', 'i16', 'u16'):
        return wrap(cvtt(x, 32), dst)
    if dst == 'u8':
        # PyTorch c10::static_cast_with_inter_type<uint8_t>: (uint8_t)(int64_t)x ; NumPy: (npy_ubyte)x -> 32-bit cvtt
        return wrap(cvtt(x, 32 if numpy else 64), dst)
    if dst == 'u32':
        blk = U32_BLOCK.get(src)
        if blk is None or pos >= n - n % blk:
            return wrap(cvtt(x, 64), dst)      # scalar code: cvttss2si/cvttsd2si 64-bit, keep low 32 bits
        return split_unsigned(x, 32, src)      # auto-vectorized body (SSE/AVX2): 32-bit range split
    if dst == 'u64':
        return split_unsigned(x, 64, src)
    raise ValueError(dst)

def f2i_pytorch_cuda(x, src, dst):
    # cvt.rzi.{s,u}{32,64}: saturating; NaN -> 0 for f32 sources into 32-bit, else 1<<(w-1) pattern
    def conv(bits, signed):
        if bits == 32 and src != 'f64':
            nanval = 0
        else:
            nanval = -(1 << (bits - 1)) if signed else (1 << (bits - 1))
        return sat(x, bits, signed, nanval)
    if dst == 'i32':
        return conv(32, True)
    if dst == 'u32':
        return conv(32, False)
    if dst == 'i64':
        return conv(64, True)
    if dst == 'u64':
        return conv(64, False)
    if dst in ('i8', 'i16'):
        return wrap(conv(32, True), dst)
    if dst == 'u16':
        return wrap(conv(32, False), dst)
    if dst == 'u8':
        return wrap(conv(64, True), dst)     # c10 uint8 rule: through int64
    raise ValueError(dst)

def f2i_jax(x, dst):
    bits, signed = INT_BITS[dst]
    return sat(x, bits, signed, 0)

# ---------------------------------------------------------------- creation (host data -> tensor)
X32_NARROW = {'i64': 'i32', 'u64': 'u32', 'f64': 'f32', 'c128': 'c64'}

def decode(profile, t):
    dt = t['dtype']
    vals = []
    for e in t['data']:
        if dt == 'bool':
            vals.append(bool(e))
        elif dt in INT_BITS:
            vals.append(int(e))
        elif dt in FLT:
            vals.append(rnd(parse_float_text(e), dt))
        elif dt in CPLX:
            vals.append((rnd(parse_float_text(e[0]), CPLX[dt]), rnd(parse_float_text(e[1]), CPLX[dt])))
        else:
            raise ValueError(dt)
    if profile.endswith('-x32') and dt in X32_NARROW:
        nd = X32_NARROW[dt]
        # jnp.asarray(np.array(.., dtype=int64)) with x64 off: numpy astype -> wraps / rounds
        if nd in INT_BITS:
            vals = [wrap(v, nd) for v in vals]
        elif nd in FLT:
            vals = [rnd(v, nd) for v in vals]
        else:
            vals = [(rnd(a, 'f32'), rnd(b, 'f32')) for a, b in vals]
        dt = nd
    return dt, vals

def result_dtype(profile, to):
    if profile.endswith('-x32') and to in X32_NARROW:
        return X32_NARROW[to]
    return to

# ---------------------------------------------------------------- element cast
def cast_elem(profile, src, dst, v, pos=0, n=1):
    fam = profile.split('/')[0]
    # complex sources: real part only (PyTorch warns 'discards the imaginary part'; numpy ComplexWarning)
    if src in CPLX:
        if dst in CPLX:
            return (cast_elem(profile, CPLX[src], CPLX[dst], v[0]), cast_elem(profile, CPLX[src], CPLX[dst], v[1]))
        if dst == 'bool':
            return v[0] != 0 or v[1] != 0
        return cast_elem(profile, CPLX[src], dst, v[0], pos, n)
    if dst in CPLX:
        return (cast_elem(profile, src, CPLX[dst], v), 0.0)
    if src == 'bool':
        if dst == 'bool':
            return v
        return (1 if v else 0) if dst in INT_BITS else (1.0 if v else 0.0)
    if dst == 'bool':
        return v != 0  # NaN != 0 is True; -0.0 == 0
    if src in INT_BITS:
        if dst in INT_BITS:
            return wrap(v, dst)
        # int -> float
        if dst in ('f16', 'bf16') and V['int_to_half_via_f32'].get(profile):
            return rnd(rnd(v, 'f32'), dst)
        return rnd(v, dst)
    # float source
    if dst in FLT:
        if src == 'f64' and dst in ('f16', 'bf16') and V['f64_to_half_via_f32'].get(profile):
            return rnd(rnd(v, 'f32'), dst)
        return rnd(v, dst)
    # float -> int
    if profile == 'pytorch/cpu':
        return f2i_pytorch_cpu(v, src, dst, pos=pos, n=n)
    if profile == 'numpy':
        return f2i_pytorch_cpu(v, src, dst, numpy=True, pos=pos, n=n)
    if profile == 'pytorch/cuda':
        return f2i_pytorch_cuda(v, src, dst)
    if fam == 'jax':
        return f2i_jax(v, dst)
    raise ValueError(profile)

def ambiguous(profile, src, dst, v, pos, n):
    """The conservative policy of the notes: True where the model may emit "?"
    (x86 u32 scalar tail where the two sequences differ; JAX single-vs-double rounding)."""
    if profile in ('pytorch/cpu', 'numpy') and dst == 'u32' and src in U32_BLOCK and not isinstance(v, tuple):
        if pos >= n - n % U32_BLOCK[src]:
            return split_unsigned(v, 32, src) != wrap(cvtt(v, 64), 'u32')
    if profile.startswith('jax/') and dst in ('f16', 'bf16') and not isinstance(v, (tuple, bool)):
        wide_int = src in ('i32', 'u32', 'i64', 'u64') and dst == 'bf16'
        if src == 'f64' or wide_int:
            return not same_float(rnd(v, dst), rnd(rnd(v, 'f32'), dst))
    return False

def eval_case(profile, case):
    a = case['args'][0]
    src, vals = decode(profile, a)
    to = result_dtype(profile, case['attrs']['to'])
    out = [cast_elem(profile, src, to, v, i, len(vals)) for i, v in enumerate(vals)]
    return {'value': {'dtype': to, 'shape': a['shape'], 'data': out}}

def elem_match(dt, got, exp):
    if exp == '?':
        return True
    if dt == 'bool':
        return got == exp
    if dt in INT_BITS:
        return got == int(exp)
    if dt in FLT:
        return same_float(got, parse_float_text(exp))
    if dt in CPLX:
        return same_float(got[0], parse_float_text(exp[0])) and same_float(got[1], parse_float_text(exp[1]))
    raise ValueError(dt)

def compare(got, exp):
    """returns (ok, list of mismatching indices / reason)"""
    if set(exp) - {'warnings', 'rules'} != {'value'}:
        return False, ['form %s' % list(exp)]
    g, e = got['value'], exp['value']
    if g['dtype'] != e['dtype']:
        return False, ['dtype %s vs %s' % (g['dtype'], e['dtype'])]
    if list(g['shape']) != list(e['shape']):
        return False, ['shape']
    bad = [i for i, (x, y) in enumerate(zip(g['data'], e['data'])) if not elem_match(g['dtype'], x, y)]
    return not bad, bad

def main():
    verbose = '-v' in sys.argv
    for arg in sys.argv[1:]:
        if arg.startswith('--variant='):
            k, val = arg[len('--variant='):].split('=')
            for p in PROFILES:
                V.setdefault(k, {})[p] = (val == '1')
    tot = {p: [0, 0] for p in PROFILES}
    el = {p: [0, 0] for p in PROFILES}
    misses = []
    for f in ORACLE:
        for line in open(f):
            c = json.loads(line)
            if c['op'] != 'cast':
                continue
            for p in PROFILES:
                if p not in c['expect']:
                    continue
                got = eval_case(p, c)
                ok, bad = compare(got, c['expect'][p])
                tot[p][0] += ok
                tot[p][1] += 1
                n = len(c['args'][0]['data'])
                el[p][1] += n
                el[p][0] += n - (len(bad) if bad and isinstance(bad[0], int) else (0 if ok else n))
                if not ok:
                    misses.append((c['id'], p, c['args'][0]['dtype'], c['attrs']['to'], bad,
                                   [c['args'][0]['data'][i] for i in bad if isinstance(i, int)],
                                   [got['value']['data'][i] for i in bad if isinstance(i, int)],
                                   [c['expect'][p]['value']['data'][i] for i in bad if isinstance(i, int)]))
    amb = 0
    for f in ORACLE:
        for line in open(f):
            c = json.loads(line)
            if c['op'] != 'cast':
                continue
            for p in PROFILES:
                src, vals = decode(p, c['args'][0])
                to = result_dtype(p, c['attrs']['to'])
                amb += sum(ambiguous(p, src, to, v, i, len(vals)) for i, v in enumerate(vals))
    print('elements the conservative policy would mark "?":', amb)
    for p in PROFILES:
        print('%-13s cases %3d/%3d  elements %4d/%4d' % (p, tot[p][0], tot[p][1], el[p][0], el[p][1]))
    print('all          cases %d/%d' % (sum(v[0] for v in tot.values()), sum(v[1] for v in tot.values())))
    for m in misses:
        print('MISS', *m)

if __name__ == '__main__':
    main()
