import json, os
ORACLE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../corpus/oracle')  # the repository's copy of the recorded outcomes
PROFILES = ['pytorch/cpu','pytorch/cuda','numpy','jax/cpu-x32','jax/cpu-x64','jax/gpu-x32','jax/gpu-x64']
OPS = 'add sub mul div floor_div trunc_div rem fmod pow maximum minimum bitwise_and bitwise_or bitwise_xor'.split()
GROUPS = 'grid div0 minneg1 fgrid scalar fscalar rand2_binary rand2_scalar bcast weak'.split()
def load(all_=False):
    out = []
    for f in ['real-frameworks.jsonl', 'real-frameworks-2.jsonl']:
        for l in open(os.path.join(ORACLE_DIR, f)):
            d = json.loads(l)
            if all_ or (d['op'] in OPS and d.get('group') in GROUPS):
                out.append(d)
    return out
def form(o):
    return [k for k in o if k not in ('warnings', 'rules')][0]
