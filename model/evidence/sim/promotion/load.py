import json, os
ORA=os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../corpus/oracle') + '/'  # the repository's copy
PROFILES=['pytorch/cpu','pytorch/cuda','numpy','jax/cpu-x32','jax/cpu-x64','jax/gpu-x32','jax/gpu-x64']
DT=['bool','u8','i8','u16','i16','u32','i32','u64','i64','f16','bf16','f32','f64','c64','c128']
def load():
    out=[]
    for f in ['real-frameworks.jsonl','real-frameworks-2.jsonl']:
        for l in open(ORA+f):
            out.append(json.loads(l))
    return out
def short(o):
  if 'value' in o:
    v=o['value']; return 'V:%s%s %s'%(v['dtype'],v['shape'],str(v['data'])[:70])
  if 'error' in o: return 'E:%s %s'%(o['error']['class'],o['error']['message'][:200])
  return str(o)[:200]
def sa(a):
  if 'scalar' in a: return 'S(%s,%s)'%(a['scalar'],a['kind'])
  return '%s%s %s'%(a['dtype'],a['shape'],str(a['data'])[:60])
def show(d):
  print(d['id'],d['group'],d['op'],' | '.join(sa(a) for a in d['args']))
  for p,o in d['expect'].items(): print('   %-13s'%p,short(o))
