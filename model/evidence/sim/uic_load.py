import json, os
ORACLE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../corpus/oracle')  # the repository's copy of the recorded outcomes
FILES=[os.path.join(ORACLE_DIR, f) for f in ('real-frameworks.jsonl','real-frameworks-2.jsonl')]
PROFILES=['pytorch/cpu','pytorch/cuda','numpy','jax/cpu-x32','jax/cpu-x64','jax/gpu-x32','jax/gpu-x64']
def cases():
    for f in FILES:
        for l in open(f):
            yield json.loads(l)
def short(o):
    if 'value' in o:
        v=o['value']; return f"{v['dtype']}{v['shape']} {v['data']}"
    if 'error' in o: return f"ERR {o['error']['class']}: {o['error']['message'][:160]}"
    return json.dumps(o)[:200]
def show(c):
    print('==',c['id'],c.get('group'),c['op'],json.dumps(c.get('attrs',{})))
    for a in c['args']:
        if 'scalar' in a: print('   arg scalar',a)
        else: print('   arg',a['dtype'],a['shape'],a['data'])
    outs={}
    for p,o in c['expect'].items():
        outs.setdefault(short(o),[]).append(p)
    for s,ps in outs.items():
        print('   ',','.join(ps),'->',s)
