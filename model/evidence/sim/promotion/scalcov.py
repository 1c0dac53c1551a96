"""Which (tensor dtype, scalar kind) -> result dtype combinations the oracle shows, per profile."""
import collections, sys
from load import load, PROFILES
from promo import BINOPS, is_scalar, CMP
res = collections.defaultdict(lambda: collections.defaultdict(list))
for c in load():
    if c['op'] in BINOPS and c['op'] not in CMP and c['op'] != 'div' and len(c['args']) == 2 and any(is_scalar(a) for a in c['args']):
        t = [a for a in c['args'] if not is_scalar(a)][0]; s = [a for a in c['args'] if is_scalar(a)][0]
        for p in PROFILES:
            o = c['expect'].get(p)
            if not o: continue
            r = o['value']['dtype'] if 'value' in o else list(o)[0] + ':' + o.get('error', {}).get('class', '')
            res[p][(t['dtype'], s['kind'], r)].append(c['id'])
for p in sys.argv[1:] or PROFILES:
    print(p)
    for k in sorted(res[p]): print('   ', k, len(res[p][k]), res[p][k][0])
