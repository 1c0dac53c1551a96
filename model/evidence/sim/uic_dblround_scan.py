"""For every finite f16 / bf16 input x: does round_dt(round_f32(exp(x))) differ from round_dt(exp(x))?
(The same for sqrt is impossible: double rounding is innocuous for sqrt when 24 >= 2p+2.)"""
import struct, math, uic_fp as F
from decimal import getcontext
getcontext().prec = 40
for dt in ('f16', 'bf16'):
    bad = []; n = 0
    for b in range(1 << 16):
        if dt == 'f16': x = struct.unpack('<e', struct.pack('<H', b))[0]
        else: x = struct.unpack('<f', struct.pack('<I', b << 16))[0]
        if math.isnan(x) or math.isinf(x): continue
        if x > 100 or x < -110: continue  # exp over/underflows f32 there: both give the same inf/0
        n += 1
        r = F.exact_exp(x, dt); a = F.round_float(F.exact_exp(x, 'f32'), dt)
        if F.ulpdiff(r, a, dt) != 0: bad.append((x, r, a))
    print(dt, 'inputs checked', n, 'double-rounding differs for', len(bad), bad[:8])
