"""Float helpers: exact rounding to f16/bf16/f32/f64 (RNE), encoding as in case format."""
import struct, math
from fractions import Fraction

INF = float('inf'); NAN = float('nan')

def parse(s):
    if isinstance(s, (int, float)): return float(s)
    s = s.strip()
    if s.startswith(('0x', '-0x', '+0x')): return float.fromhex(s)
    return float(s)

def f32(x):
    """round float64 -> f32 (RNE), returns python float"""
    try:
        return struct.unpack('f', struct.pack('f', x))[0]
    except OverflowError:
        # struct raises on overflow; do manual RNE
        return _round_bin(x, 24, -126, 127)

def f16(x):
    try:
        return struct.unpack('e', struct.pack('e', x))[0]
    except OverflowError:
        return _round_bin(x, 11, -14, 15)

def bf16(x):
    return _round_bin(x, 8, -126, 127)

def _round_bin(x, p, emin, emax):
    """Round a float64 (exactly) to a binary format with precision p, min normal exp emin, max exp emax. RNE, overflow->inf."""
    if math.isnan(x) or math.isinf(x) or x == 0: return x
    return round_frac(Fraction(x), p, emin, emax, neg0=math.copysign(1, x) < 0)

def round_frac(q, p, emin, emax, neg0=False):
    """Round exact rational q to format; returns float."""
    if q == 0: return -0.0 if neg0 else 0.0
    sign = -1 if q < 0 else 1
    a = abs(q)
    # exponent e such that 2^e <= a < 2^(e+1)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a: e -= 1
    if Fraction(2) ** (e + 1) <= a: e += 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - p + 1)
    m = a / ulp
    n = m.numerator // m.denominator
    r = m - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1): n += 1
    v = n * ulp
    maxv = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if v > maxv: return sign * INF
    f = float(v)
    return sign * f if v != 0 else (-0.0 if sign < 0 else 0.0)

FMT = {'f16': (11, -14, 15), 'bf16': (8, -126, 127), 'f32': (24, -126, 127), 'f64': (53, -1022, 1023)}

def rnd(dt, x):
    """round python float (f64) to dtype dt"""
    if dt == 'f64': return float(x)
    if math.isnan(x) or math.isinf(x): return x
    p, emin, emax = FMT[dt]
    return _round_bin(x, p, emin, emax)

def rnd_exact(dt, q, neg0=False):
    """round exact Fraction to dtype"""
    p, emin, emax = FMT[dt]
    return round_frac(q, p, emin, emax, neg0)

def enc(x):
    if math.isnan(x): return 'nan'
    if math.isinf(x): return 'inf' if x > 0 else '-inf'
    return repr(float(x))

def feq(a, b):
    """case-format float equality: NaN==NaN, -0 != 0, bit exact"""
    if math.isnan(a) and math.isnan(b): return True
    if math.isnan(a) or math.isnan(b): return False
    if a == 0 and b == 0: return math.copysign(1, a) == math.copysign(1, b)
    return a == b

def bits32(x): return struct.unpack('I', struct.pack('f', x))[0]
def from_bits32(b): return struct.unpack('f', struct.pack('I', b & 0xffffffff))[0]
