"""Run arith.py's model on the non-complex add cases of promote/promote0d/promote_val (dtype check)."""
import collections
import arith_cases as cases, arith
tot = collections.Counter(); ok = collections.Counter()
for d in cases.load(True):
    if d.get('group') not in ('promote', 'promote0d', 'promote_val') or d['op'] not in cases.OPS: continue
    if any(a.get('dtype', '').startswith('c') for a in d['args']): continue
    for p in cases.PROFILES:
        g, why = arith.compare(arith.predict(d, p), d['expect'][p])
        tot[p] += 1; ok[p] += g
        if not g: print(d['id'], p, why)
print(sum(ok.values()), '/', sum(tot.values()))
