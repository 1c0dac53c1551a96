"""Exact float formats: values are Python floats (every format here fits in f64)."""
from fractions import Fraction
import math
FMT = {'f16':(11,-14,15), 'bf16':(8,-126,127), 'f32':(24,-126,127), 'f64':(53,-1022,1023)}
def rnd_frac(q, d):
    """Round a Fraction to dtype d (RNE, overflow -> inf). Returns a Python float (zero: +0.0)."""
    p, emin, emax = FMT[d]
    if q == 0: return 0.0
    neg = q < 0; q = -q if neg else q
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2)**e > q: e -= 1
    if Fraction(2)**(e+1) <= q: e += 1
    e = max(e, emin)
    ulp = Fraction(2)**(e - p + 1)
    m = q / ulp
    n = m.numerator // m.denominator; r = m - n
    if r > Fraction(1,2) or (r == Fraction(1,2) and n % 2 == 1): n += 1
    v = n * ulp
    if v >= Fraction(2)**(emax+1): f = math.inf
    else: f = float(v)
    return -f if neg else f
def rnd(x, d):
    """Round a Python float / int to dtype d."""
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x): return x
        if x == 0: return x
        if d == 'f64': return x
        return rnd_frac(Fraction(x), d)
    return rnd_frac(Fraction(x), d)
def parse(s, d):
    return rnd(float(s), d)
def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b): return True
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b and type(a) == type(b)
def exact(op, a, b, d):
    """IEEE op on floats a, b, correctly rounded to d."""
    if op == 'div':
        if b == 0:
            if a == 0 or math.isnan(a): return math.nan
            if math.isnan(b): return math.nan
            s = math.copysign(1, a) * math.copysign(1, b)
            return math.copysign(math.inf, s)
    if any(math.isnan(v) or math.isinf(v) for v in (a, b)):
        try:
            r = {'add': lambda: a + b, 'sub': lambda: a - b, 'mul': lambda: a * b, 'div': lambda: a / b}[op]()
        except ZeroDivisionError:
            r = math.nan
        return r
    fa, fb = Fraction(a), Fraction(b)
    q = {'add': lambda: fa + fb, 'sub': lambda: fa - fb, 'mul': lambda: fa * fb, 'div': lambda: fa / fb}[op]()
    if q == 0:
        if op == 'add': return -0.0 if (math.copysign(1,a) < 0 and math.copysign(1,b) < 0) else 0.0
        if op == 'sub': return -0.0 if (math.copysign(1,a) < 0 and math.copysign(1,b) > 0) else 0.0
        return math.copysign(0.0, math.copysign(1,a) * math.copysign(1,b))
    return rnd_frac(q, d)
