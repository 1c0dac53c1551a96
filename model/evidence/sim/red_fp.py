"""Exact dtype helpers for the reduction simulation (evidence, not product code).

Floats are carried as Python floats (binary64).  A value of a narrower float dtype is a
binary64 that is exactly representable in that dtype.  One arithmetic step "in dtype T" is
the binary64 result rounded to T, which equals the correctly rounded T result for + - * /
because binary64 has more than 2p+2 bits for p = 24 (f32), 11 (f16), 8 (bf16).
"""
import math
from fractions import Fraction

INF = float('inf')
NAN = float('nan')

# fraction bits, min normal exponent, max exponent
FMT = {'f16': (10, -14, 15), 'bf16': (7, -126, 127), 'f32': (23, -126, 127), 'f64': (52, -1022, 1023)}
FLOATS = ('f16', 'bf16', 'f32', 'f64')
INTS = {'u8': (8, False), 'i8': (8, True), 'u16': (16, False), 'i16': (16, True),
        'u32': (32, False), 'i32': (32, True), 'u64': (64, False), 'i64': (64, True)}


def rnd(x, dt):
    """Round binary64 x to float dtype dt, ties to even, overflow to +-inf."""
    if dt == 'f64' or x != x or x in (INF, -INF) or x == 0:
        return x
    m, emin, emax = FMT[dt]
    a = Fraction(abs(x))
    _, e = math.frexp(abs(x))
    e -= 1
    if e < emin:
        e = emin
    q = Fraction(2) ** (e - m)
    r = round(a / q)          # Fraction.__round__ is half-to-even
    v = r * q
    if v >= Fraction(2) ** (emax + 1):
        return math.copysign(INF, x)
    return math.copysign(float(v), x)


def wrap(v, dt):
    """Wrap an exact integer into integer dtype dt (two's complement)."""
    if dt == 'bool':
        return bool(v)
    bits, signed = INTS[dt]
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def parse_elem(x, dt):
    if dt == 'bool':
        return bool(x)
    if dt in INTS:
        return int(x)
    return rnd(float(x), dt)


def fmt_elem(v, dt):
    if dt == 'bool':
        return bool(v)
    if dt in INTS:
        return int(v)
    if v != v:
        return 'nan'
    if v == INF:
        return 'inf'
    if v == -INF:
        return '-inf'
    return repr(float(v))


def elem_eq(a, b, dt):
    """Case-format comparison of two encoded elements."""
    if a == '?' or b == '?':
        return True
    if dt in FLOATS:
        fa, fb = float(a), float(b)
        if fa != fa and fb != fb:
            return True
        if fa == 0 and fb == 0:
            return math.copysign(1, fa) == math.copysign(1, fb)
        return fa == fb
    return a == b


def outcome_eq(a, b):
    ka, kb = next(iter(k for k in a if k in ('value', 'error', 'panic', 'crash', 'unsupported'))), \
        next(iter(k for k in b if k in ('value', 'error', 'panic', 'crash', 'unsupported')))
    if ka != kb:
        return False
    if ka == 'error':
        return a['error']['class'] == b['error']['class']
    if ka == 'crash':
        return a['crash']['signal'] == b['crash']['signal']
    if ka != 'value':
        return True
    va, vb = a['value'], b['value']
    if va['dtype'] != vb['dtype'] or list(va['shape']) != list(vb['shape']):
        return False
    if len(va['data']) != len(vb['data']):
        return False
    return all(elem_eq(x, y, va['dtype']) for x, y in zip(va['data'], vb['data']))


def last_pow2(n):
    p = 1
    while p * 2 <= n:
        p *= 2
    return p
