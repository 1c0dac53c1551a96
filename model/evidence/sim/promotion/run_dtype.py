import sys, json, collections
from load import load, PROFILES, short, show
from promo import predict, BINOPS
GROUPS = ['promote','promote0d','promote_val','weak','bcast','rand2_binary','scalar','fscalar','rand2_scalar']
def actual(o):
    if 'value' in o: return ('value', o['value']['dtype'], o['value']['shape'])
    if 'error' in o: return ('error', o['error']['class'])
    if 'unsupported' in o: return ('unsupported',)
    if 'crash' in o: return ('crash',)
    return ('?',)
def key(p):
    if p[0] == 'value': return p
    return p[:2] if p[0]=='error' else p[:1]
ALL = '--all' in sys.argv
cs = [c for c in load() if (c['group'] in GROUPS) or (ALL and c['op'] in BINOPS and len(c['args'])==2)]
tot = collections.Counter(); ok = collections.Counter(); miss = collections.defaultdict(list)
for c in cs:
    for p in PROFILES:
        if p not in c['expect']: continue
        a = actual(c['expect'][p]); pr = predict(p, c)
        tot[p] += 1
        if key(pr) == a: ok[p] += 1
        else: miss[p].append((c['id'], c['op'], a, pr))
for p in PROFILES:
    print('%-13s %d/%d' % (p, ok[p], tot[p]))
if '-v' in sys.argv:
    for p in PROFILES:
        for m in miss[p]: print(p, m)
