"""PyTorch kernel coverage observed in the oracle: (op, computation dtype, device) -> outcomes."""
import collections
from load import load
from promo import predict, torch_result_type, PromoErr, is_scalar, SCALAR_DT, BINOPS, cat
res = collections.defaultdict(lambda: collections.defaultdict(list))
for c in load():
    if c['op'] not in BINOPS or len(c['args']) != 2: continue
    ops = []
    for a in c['args']:
        if is_scalar(a): ops.append(('wrapped', SCALAR_DT[a['kind']]))
        else: ops.append(('dim' if a['shape'] else 'zero', a['dtype']))
    try: common = torch_result_type(ops)
    except PromoErr: continue
    comp = 'f32' if (c['op'] == 'div' and cat(common) <= 1) else common
    if comp not in ('u16','u32','u64','bool','f16','bf16','c64','c128','f32','f64'): continue
    for dev in ('cpu','cuda'):
        o = c['expect'].get('pytorch/'+dev)
        if not o: continue
        if 'value' in o: k = 'ok'
        elif 'error' in o: k = o['error']['message'].split(':')[0] + ':' + o['error']['message'].split(':',1)[1][:45]
        else: k = list(o)[0]
        res[(c['op'], comp)][dev + ' ' + k].append(c['id'])
for key in sorted(res):
    print(key, {k: (len(v), v[0]) for k, v in res[key].items()})
