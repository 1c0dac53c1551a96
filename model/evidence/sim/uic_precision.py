"""Precision study: exp / sqrt / square results of every profile vs the correctly rounded value.
For each (case, profile, element): the input is converted as the framework does (JAX x32 narrows
64-bit ints by wrapping and f64 to f32; ints are converted to the result float dtype with RNE), then
ref = correctly rounded op(x) in the result dtype; dr = op rounded to f32 first then to the result
dtype (double rounding) for f16/bf16; dr64 = rounded to f64 then to f32 for f32 results."""
import sys, math, collections
import uic_load as L, uic_fp as F
from fractions import Fraction

INTS = {'bool':(0,1),'u8':(0,8),'i8':(1,8),'u16':(0,16),'i16':(1,16),'u32':(0,32),'i32':(1,32),'u64':(0,64),'i64':(1,64)}
def wrap(n, signed, bits):
    n &= (1 << bits) - 1
    if signed and n >> (bits - 1): n -= 1 << bits
    return n

def conv_input(v, d, prof, out):
    if d in INTS:
        n = int(v)
        if 'x32' in prof and d in ('i64', 'u64'):
            n = wrap(n, d == 'i64', 32)
        return F.round_int(n, out)
    x = F.round_float(F.parse(v), d)
    if 'x32' in prof and d == 'f64': x = F.round_float(x, 'f32')
    return F.round_float(x, out)

def op_exact(op, x, dt):
    if op == 'exp': return F.exact_exp(x, dt)
    if op == 'sqrt': return F.exact_sqrt(x, dt)
    if op == 'square':
        if math.isnan(x) or math.isinf(x): return x * x
        return F.round_frac(Fraction(x) ** 2, dt)

def main(verbose=True):
    stats = collections.Counter(); misses = []
    for c in L.cases():
        if c['op'] not in ('exp', 'sqrt', 'square'): continue
        a = c['args'][0]; d = a['dtype']
        for prof, o in c['expect'].items():
            if 'value' not in o: continue
            out = o['value']['dtype']
            if out not in F.FMT: continue
            for i, (v, ov) in enumerate(zip(a['data'], o['value']['data'])):
                x = conv_input(v, d, prof, out)
                obs = F.parse(ov)
                ref = op_exact(c['op'], x, out)
                u = F.ulpdiff(obs, ref, out)
                key = (c['op'], prof, out)
                if u == 0:
                    stats[key + ('exact',)] += 1; continue
                alt = None
                if out in ('f16', 'bf16'):
                    alt = F.round_float(op_exact(c['op'], x, 'f32'), out)
                elif out == 'f32':
                    alt = F.round_float(op_exact(c['op'], x, 'f64'), 'f32')
                ua = F.ulpdiff(obs, alt, out) if alt is not None else None
                stats[key + ('off',)] += 1
                misses.append((c['id'], c['op'], prof, d, out, i, v, x, ov, repr(ref), u, ua))
    return stats, misses

if __name__ == '__main__':
    stats, misses = main()
    print('# elements per (op, profile, result dtype): exact / not correctly rounded')
    keys = sorted({k[:3] for k in stats})
    for k in keys:
        print(f"{k[0]:7s} {k[1]:13s} {k[2]:5s} exact={stats[k+('exact',)]:3d} off={stats[k+('off',)]:3d}")
    print('\n# every element that is NOT correctly rounded')
    print('id | op | profile | in dtype | out | elem | input | input after conversion | observed | correctly rounded | ulp(obs-ref) | ulp vs double-rounded alt')
    for m in misses:
        print(' | '.join(str(z) for z in m))
