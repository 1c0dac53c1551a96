"""Exact float helpers: rounding of exact rationals to f16/bf16/f32/f64 (RNE), bit patterns, ulp distance."""
import struct, math
from fractions import Fraction
from decimal import Decimal, getcontext
getcontext().prec = 90

FMT = {  # precision p (incl. hidden bit), emin, emax, total bits
    'f16': (11, -14, 15, 16), 'bf16': (8, -126, 127, 16),
    'f32': (24, -126, 127, 32), 'f64': (53, -1022, 1023, 64)}

def parse(s):
    if isinstance(s, (int, bool)): return float(s)
    return float(s)  # handles nan/inf/-0.0/hex? (hex via float.fromhex)

def round_frac(q, dt):
    """Round exact Fraction q (finite) to dtype dt, RNE; returns python float (exact value of the dt element)."""
    p, emin, emax, _ = FMT[dt]
    if q == 0: return 0.0
    sign = -1 if q < 0 else 1
    a = abs(q)
    # exponent e such that 2^e <= a < 2^(e+1)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a: e -= 1
    elif Fraction(2) ** (e + 1) <= a: e += 1
    e = max(e, emin)
    scale = Fraction(2) ** (e - (p - 1))  # ulp
    m = a / scale
    n = m.numerator // m.denominator
    r = m - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1): n += 1
    v = n * scale
    maxv = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if v > maxv: return sign * math.inf
    return sign * float(v)  # exact: v is representable in f64 for all our formats

def round_float(x, dt):
    if math.isnan(x) or math.isinf(x): return x
    if x == 0: return x
    return round_frac(Fraction(x), dt)

def round_int(n, dt):
    return round_frac(Fraction(n), dt) if n != 0 else 0.0

def bits(x, dt):
    if dt == 'f64': return struct.unpack('<Q', struct.pack('<d', x))[0]
    if dt == 'f32': return struct.unpack('<I', struct.pack('<f', x))[0]
    if dt == 'f16': return struct.unpack('<H', struct.pack('<e', x))[0]
    if dt == 'bf16': return struct.unpack('<I', struct.pack('<f', x))[0] >> 16

def ordered(x, dt):
    b = bits(x, dt); nb = FMT[dt][3]
    if b >> (nb - 1): return -(b & ((1 << (nb - 1)) - 1))
    return b

def ulpdiff(obs, ref, dt):
    if math.isnan(obs) and math.isnan(ref): return 0
    if math.isnan(obs) or math.isnan(ref): return 'nan-mismatch'
    return ordered(obs, dt) - ordered(ref, dt)

def exact_exp(x, dt):
    """correctly rounded exp(x) in dt, x a float (exact value)."""
    if math.isnan(x): return x
    if x == math.inf: return math.inf
    if x == -math.inf: return 0.0
    if x == 0: return 1.0
    if x > 12000: return math.inf
    if x < -12000: return 0.0
    d = Decimal(x).exp()
    return round_frac(Fraction(d), dt)

def exact_sqrt(x, dt):
    if math.isnan(x) or x < 0: return math.nan
    if x == 0 or x == math.inf: return x  # keeps -0.0
    d = Decimal(x).sqrt()
    return round_frac(Fraction(d), dt)
