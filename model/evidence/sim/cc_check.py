#!/usr/bin/env python3
"""Compare the compiled C float->int casts (cc_g.c output) with the pytorch/cpu and numpy rules."""
import sys
import casts_sim as S
bad = n = 0
for line in open(sys.argv[1] if len(sys.argv) > 1 else 'cc_g_avx2.txt'):
    name, mode, v, r = line.split()
    x = float(v[2:]); r = int(r)
    src = 'f32' if name[0] == 'f' else 'f64'
    dst = name[2:]
    if dst == 'u8v64':            # c10: (uint8_t)(int64_t)x
        model = S.wrap(S.cvtt(x, 64), 'u8')
    elif dst == 'u8':             # plain C cast (NumPy)
        model = S.wrap(S.cvtt(x, 32), 'u8')
    else:
        model = S.f2i_pytorch_cpu(x, src, dst, pos=0, n=(16 if mode == 'vector' else 1))
    n += 1
    if model != r:
        bad += 1; print('DIFF', line.strip(), 'model', model)
print('%d compiled casts checked against the rules, %d differ' % (n, bad))
