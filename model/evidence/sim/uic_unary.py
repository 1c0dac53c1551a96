"""Rule simulation for the unary ops (groups unary, funary, rand2_unary and any other case of these ops).
Recomputes every profile's outcome from rules and compares with the oracle.
Run: python3 uic_unary.py [--strict]   (--strict: no '?' anywhere; exp/sqrt always correctly rounded)"""
import math, sys, collections
from fractions import Fraction
import uic_load as L, uic_fp as F

UNARY = ['neg', 'abs', 'sign', 'sqrt', 'exp', 'floor', 'ceil', 'round', 'trunc', 'square', 'bitwise_not']
INTS = {'u8': (False, 8), 'i8': (True, 8), 'u16': (False, 16), 'i16': (True, 16), 'u32': (False, 32),
        'i32': (True, 32), 'u64': (False, 64), 'i64': (True, 64)}
FL = ('f16', 'bf16', 'f32', 'f64')
TORCHNAME = {'bool': 'Bool', 'u8': 'Byte', 'i8': 'Char', 'i16': 'Short', 'i32': 'Int', 'i64': 'Long',
             'u16': 'UInt16', 'u32': 'UInt32', 'u64': 'UInt64', 'f16': 'Half', 'bf16': 'BFloat16',
             'f32': 'Float', 'f64': 'Double'}
STRICT = '--strict' in sys.argv

def wrap(n, dt):
    s, b = INTS[dt]; n &= (1 << b) - 1
    return n - (1 << b) if s and n >> (b - 1) else n

def narrow(dt, prof):
    """JAX with x64 off stores 64-bit host data as 32-bit (ints wrap, f64 rounds to f32)."""
    if 'x32' in prof: return {'i64': 'i32', 'u64': 'u32', 'f64': 'f32'}.get(dt, dt)
    return dt

def float_result_dtype(d, prof):
    """dtype of exp/sqrt of an integer/bool input."""
    fw = prof.split('/')[0]
    if fw == 'pytorch': return 'f32'                                   # default dtype
    if fw == 'numpy': return {'bool': 'f16', 'u8': 'f16', 'i8': 'f16', 'u16': 'f32', 'i16': 'f32'}.get(d, 'f64')
    return 'f64' if d in ('i64', 'u64') else 'f32'                     # jax (after x32 narrowing)

def error_for(op, d, prof):
    """(class, message) when the profile has no such (op, dtype), else None."""
    fw, dev = prof.split('/')[0], prof.split('/')[-1]
    if fw == 'pytorch':
        sfx = 'cuda' if dev == 'cuda' else 'cpu'
        if d in ('u16', 'u32', 'u64') and op in ('neg', 'abs', 'sign', 'bitwise_not', 'square'):
            k = ('pow_cuda' if sfx == 'cuda' else 'pow') if op == 'square' else f'{op}_{sfx}'
            return 'UnsupportedDType', f'NotImplementedError: "{k}" not implemented for \'{TORCHNAME[d]}\''
        if d in FL and op == 'bitwise_not':
            return 'UnsupportedDType', f'NotImplementedError: "bitwise_not_{sfx}" not implemented for \'{TORCHNAME[d]}\''
        if d == 'bool' and op in ('floor', 'ceil', 'round', 'trunc'):
            k = f'{op}_cuda' if sfx == 'cuda' else f'{op}_vml_cpu'
            return 'UnsupportedDType', f'NotImplementedError: "{k}" not implemented for \'Bool\''
        if d == 'bool' and op == 'neg':
            return 'UnsupportedDType', 'RuntimeError: Negation, the `-` operator, on a bool tensor is not supported.'
        return None
    if fw == 'numpy':
        if d == 'bool' and op == 'sign':
            return 'UnsupportedDType', "UFuncTypeError: ufunc 'sign' did not contain a loop with signature matching types"
        if d in FL and op == 'bitwise_not':
            return 'UnsupportedDType', "TypeError: ufunc 'invert' not supported for the input types"
        return None
    if d == 'bool' and op == 'sign':
        return 'UnsupportedDType', 'TypeError: sign does not accept dtype bool.'
    if d in FL and op == 'bitwise_not':
        return 'UnsupportedDType', f'TypeError: not does not accept dtype {d}.'
    return None

# --- precision policy: which (op, profile, result dtype) are correctly rounded ---------------
def cr_guaranteed(op, prof, out):
    if out in ('f16', 'bf16'): return True            # computed in f32, then rounded (see notes)
    if op == 'sqrt':
        if prof.startswith('jax/gpu') and out == 'f32': return False   # approximate f32 sqrt
        if prof == 'pytorch/cpu' and out == 'f64': return False        # MKL VML vdSqrt (HA)
        return True
    return False                                        # exp in f32/f64: not correctly rounded anywhere

def exp_determined(x, out):
    """exp results that every implementation gets exactly: nan, +-inf, +-0 input, far overflow/underflow."""
    if math.isnan(x) or math.isinf(x) or x == 0: return True
    lim = {'f32': (89.0, -104.0), 'f64': (710.0, -746.0), 'f16': (12.0, -18.0), 'bf16': (89.0, -135.0)}[out]
    return x > lim[0] or x < lim[1]

def near_midpoint(exact_frac, out, slack_f32_ulps=4):
    """True when the exact value lies within slack f32-ulps of an out-dtype rounding midpoint
    (then an f32 intermediate that is not correctly rounded can flip the final rounding)."""
    lo = F.round_frac(exact_frac, out)
    if math.isinf(lo): return False
    # midpoints around the rounded value
    p = F.FMT[out][0]
    m, e = math.frexp(abs(lo)) if lo != 0 else (0.5, F.FMT[out][1] + 1)
    ulp = Fraction(2) ** (e - p)
    ulp32 = Fraction(2) ** (e - 24)
    a = abs(exact_frac)
    for mid in (Fraction(abs(lo)) + ulp / 2, Fraction(abs(lo)) - ulp / 2):
        if abs(a - mid) <= slack_f32_ulps * ulp32: return True
    return False

def value(op, v, d, prof):
    """one element; returns (python value, out dtype) or '?'."""
    fw = prof.split('/')[0]
    dd = narrow(d, prof)
    if op in ('exp', 'sqrt'):
        out = dd if dd in FL else float_result_dtype(dd, prof)
        if dd == 'bool': x = 1.0 if v else 0.0
        elif dd in INTS: x = F.round_int(wrap(int(v), dd), out)
        else: x = F.round_float(F.round_float(F.parse(v), d), out)
        if op == 'sqrt': r = F.exact_sqrt(x, out)
        else: r = F.exact_exp(x, out)
        if STRICT: return r
        if op == 'exp' and exp_determined(x, out): return r
        if op == 'sqrt' and (math.isnan(x) or x <= 0 or math.isinf(x)): return r
        if not cr_guaranteed(op, prof, out): return '?'
        if out in ('f16', 'bf16') and not math.isnan(r) and not math.isinf(r) and r != 0:
            ex = Fraction(__import__('decimal').Decimal(x).exp()) if op == 'exp' else Fraction(__import__('decimal').Decimal(x).sqrt())
            slack = 4 if (op == 'exp' or prof.startswith('jax/gpu')) else 0
            if slack and near_midpoint(ex, out, slack): return '?'
        return r
    if dd == 'bool':
        b = bool(v)
        if op == 'bitwise_not': return not b
        if op == 'sign': return b                      # pytorch only (others error)
        return b                                       # floor/ceil/round/trunc identity (numpy/jax)
    if dd in INTS:
        n = wrap(int(v), dd)
        if op == 'neg': return wrap(-n, dd)
        if op == 'abs': return wrap(abs(n), dd)
        if op == 'sign': return (n > 0) - (n < 0)
        if op in ('floor', 'ceil', 'round', 'trunc'): return n
        if op == 'square': return wrap(n * n, dd)
        if op == 'bitwise_not': return wrap(~n, dd)
    x = F.round_float(F.round_float(F.parse(v), d), dd)
    if op == 'neg': return -x
    if op == 'abs': return abs(x)
    if op == 'square':
        if math.isnan(x) or math.isinf(x): return x * x
        return F.round_frac(Fraction(x) ** 2, dd)
    if op == 'sign':
        if math.isnan(x): return 0.0 if fw == 'pytorch' else x
        if x > 0: return 1.0
        if x < 0: return -1.0
        if fw == 'pytorch': return 0.0
        if fw == 'numpy': return x if dd == 'bf16' else 0.0     # ml_dtypes bf16 keeps -0.0
        return x                                                 # jax keeps the zero's sign
    if math.isnan(x) or math.isinf(x): return x
    if op == 'floor': r = math.floor(x)
    elif op == 'ceil': r = math.ceil(x)
    elif op == 'trunc': r = math.trunc(x)
    elif op == 'round': r = round(x)                             # Python: half to even
    return math.copysign(float(r), x) if r == 0 else float(r)

def out_dtype(op, d, prof):
    dd = narrow(d, prof)
    if op in ('exp', 'sqrt') and dd not in FL: return float_result_dtype(dd, prof)
    return dd

def same(obs, pred, dt):
    if pred == '?': return True
    if dt == 'bool': return obs == pred
    if dt in INTS: return int(obs) == pred
    o = F.parse(obs)
    if math.isnan(o) and math.isnan(pred): return True
    return F.bits(o, dt) == F.bits(pred, dt)

def main():
    res = collections.Counter(); misses = []; qmarks = collections.Counter()
    for c in L.cases():
        if c['op'] not in UNARY: continue
        a = c['args'][0]; d = a['dtype']
        for prof, o in c['expect'].items():
            err = error_for(c['op'], d, prof)
            if err:
                ok = 'error' in o and o['error']['class'] == err[0]
            elif 'value' not in o:
                ok = False
            else:
                od = out_dtype(c['op'], d, prof)
                v = o['value']
                ok = v['dtype'] == od and v['shape'] == a['shape']
                if ok:
                    for i, (x, y) in enumerate(zip(a['data'], v['data'])):
                        p = value(c['op'], x, d, prof)
                        if p == '?': qmarks[prof] += 1
                        if not same(y, p, od):
                            ok = False; misses.append((c['id'], prof, i, x, y, p)); break
            res[prof, ok] += 1
            if not ok and not misses or (not ok and misses[-1][0] != c['id']):
                misses.append((c['id'], prof, 'outcome', err, L.short(o)))
    return res, misses, qmarks

if __name__ == '__main__':
    res, misses, q = main()
    tot = sum(res.values()); good = sum(v for (p, ok), v in res.items() if ok)
    print(f"{'STRICT ' if STRICT else ''}unary outcomes matched: {good}/{tot}")
    for p in L.PROFILES:
        print(f"  {p:13s} {res[p, True]}/{res[p, True] + res[p, False]}   elements matched only via '?': {q[p]}")
    for m in misses: print('MISS', m)
