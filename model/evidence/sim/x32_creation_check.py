#!/usr/bin/env python3
"""Check the JAX x32 creation rule (i64->i32 wrap, u64->u32 wrap, f64->f32 RNE, c128->c64) on
non-cast ops whose result is a plain function of the narrowed inputs (same-dtype add/sub/mul,
bitwise ops, neg/abs/bitwise_not, index_select, max/min without dim)."""
import json, math
import casts_sim as S

def narrowed(p, t):
    return S.decode(p, t)

ok = bad = 0; badl = []
for f in S.ORACLE:
    for line in open(f):
        c = json.loads(line)
        op = c['op']
        args = c['args']
        if not any(a.get('dtype') in ('i64', 'u64', 'f64', 'c128') for a in args):
            continue
        for p in ('jax/cpu-x32', 'jax/gpu-x32'):
            o = c['expect'].get(p)
            if not o or 'value' not in o:
                continue
            v = o['value']
            dec = [narrowed(p, a) if 'dtype' in a else None for a in args]
            exp = None
            if op in ('add', 'sub', 'mul', 'bitwise_and', 'bitwise_or', 'bitwise_xor') and len(args) == 2 \
                    and all(d is not None for d in dec) and dec[0][0] == dec[1][0] and dec[0][0] in S.INT_BITS \
                    and args[0]['shape'] == args[1]['shape']:
                dt = dec[0][0]
                fn = {'add': lambda x, y: x + y, 'sub': lambda x, y: x - y, 'mul': lambda x, y: x * y,
                      'bitwise_and': lambda x, y: x & y, 'bitwise_or': lambda x, y: x | y,
                      'bitwise_xor': lambda x, y: x ^ y}[op]
                exp = (dt, [S.wrap(fn(x, y), dt) for x, y in zip(dec[0][1], dec[1][1])])
            elif op in ('neg', 'abs', 'bitwise_not') and dec[0][0] in S.INT_BITS:
                dt = dec[0][0]
                fn = {'neg': lambda x: -x, 'abs': abs, 'bitwise_not': lambda x: ~x}[op]
                exp = (dt, [S.wrap(fn(x), dt) for x in dec[0][1]])
            elif op in ('neg', 'abs') and dec[0][0] in S.FLT:
                dt = dec[0][0]
                exp = (dt, [(-x if op == 'neg' else abs(x)) for x in dec[0][1]])
            elif op in ('max', 'min') and 'dim' not in c.get('attrs', {}) and dec[0][1] and dec[0][0] in S.INT_BITS:
                dt = dec[0][0]
                exp = (dt, [(max if op == 'max' else min)(dec[0][1])])
            if exp is None:
                continue
            dt, vals = exp
            good = v['dtype'] == dt and len(vals) == len(v['data']) and all(
                S.elem_match(dt, g, e) for g, e in zip(vals, v['data']))
            if good: ok += 1
            else:
                bad += 1; badl.append((c['id'], p, op, v['dtype'], dt))
print('x32 creation rule: %d outcomes checked, %d match, %d differ' % (ok + bad, ok, bad))
for b in badl[:20]: print('DIFF', b)
