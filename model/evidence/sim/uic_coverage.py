"""Kernel coverage of PyTorch CPU / CUDA over both oracle files.
For every case the dispatch ('computation') dtype K is derived: binary ops -> torch.result_type
(true div of ints -> f32); unary ops -> input dtype (exp/sqrt of ints/bool -> f32); reductions,
cumsum -> input dtype; index_select -> source dtype (index dtype checked separately).
Then the rule below predicts ok / NotImplementedError(kernel name) and is compared with the oracle."""
import re, collections, sys
import uic_load as L, uic_torchpromo as T

BB = {'u16', 'u32', 'u64'}
FL = {'f16', 'bf16', 'f32', 'f64'}
CX = {'c64', 'c128'}
BINARY = ['add', 'sub', 'mul', 'div', 'floor_div', 'trunc_div', 'rem', 'fmod', 'maximum', 'minimum', 'pow',
          'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'bitwise_and', 'bitwise_or', 'bitwise_xor']
UNARY = ['neg', 'abs', 'sign', 'sqrt', 'exp', 'floor', 'ceil', 'round', 'trunc', 'square', 'bitwise_not']
RED = ['sum', 'prod', 'mean', 'max', 'min', 'argmax', 'argmin', 'cumsum']

def kdtype(c):
    op = c['op']
    if op in BINARY:
        k = T.result_type(c['args'])
        if op == 'div' and k not in FL | CX: k = 'f32'
        return k
    if op in UNARY:
        d = c['args'][0]['dtype']
        if op in ('exp', 'sqrt') and d not in FL | CX: return 'f32'
        return d
    if op in ('sum', 'prod', 'cumsum'):
        d = c['args'][0]['dtype']
        return 'i64' if d not in FL | CX else d      # integral and bool inputs accumulate in i64
    if op in RED or op == 'index_select':
        return c['args'][0]['dtype']
    return None

# ---- the rule ------------------------------------------------------------------------------
# kernel name per (op, device) used in the NotImplementedError message
def kname(op, dev, k):
    cuda = dev == 'cuda'
    n = {'add': ('add_stub', 'ufunc_add_CUDA'), 'sub': ('add_stub', 'ufunc_add_CUDA'),
         'mul': (None, 'mul_cuda'),
         'floor_div': ('div_floor_cpu', 'div_floor_cuda'), 'trunc_div': ('div_trunc_cpu', 'div_trunc_cuda'),
         'rem': ('remainder_cpu', 'remainder_cuda'), 'fmod': ('fmod_cpu', 'fmod_cuda'),
         'maximum': ('maximum_cpu', 'max_elementwise_cuda'), 'minimum': ('minimum_cpu', 'minimum_cuda'),
         'pow': ('pow', 'pow_cuda'), 'square': ('pow', 'pow_cuda'),
         'lt': ('lt_cpu', 'compare_cuda'), 'le': ('le_cpu', 'compare_cuda'),
         'gt': ('gt_cpu', 'compare_cuda'), 'ge': ('ge_cpu', 'compare_cuda'),
         'bitwise_and': ('bitwise_and_cpu', 'bitwise_and_cuda'), 'bitwise_or': ('bitwise_or_cpu', 'bitwise_or_cuda'),
         'bitwise_xor': ('bitwise_xor_cpu', 'bitwise_xor_cuda'), 'bitwise_not': ('bitwise_not_cpu', 'bitwise_not_cuda'),
         'neg': ('neg_cpu', 'neg_cuda'), 'abs': ('abs_cpu', 'abs_cuda'), 'sign': ('sign_cpu', 'sign_cuda'),
         'trunc': ('trunc_vml_cpu', 'trunc_cuda'), 'floor': ('floor_vml_cpu', 'floor_cuda'),
         'ceil': ('ceil_vml_cpu', 'ceil_cuda'), 'round': ('round_vml_cpu', 'round_cuda'),
         'argmax': ('argmax_cpu', 'argmax_cuda'), 'argmin': ('argmin_cpu', 'argmin_cuda'),
         }[op]
    return n[1] if cuda else n[0]

def predict(op, dev, k, c):
    """None = kernel exists; else the kernel name that raises NotImplementedError for dtype k."""
    cuda = dev == 'cuda'
    if op in ('bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_not'):
        if k in FL | CX: return kname(op, dev, k)          # no float bitwise kernels anywhere
        if k in BB and (cuda or op == 'bitwise_not'): return kname(op, dev, k)
        return None
    if op in ('floor', 'ceil', 'round', 'trunc'):
        return kname(op, dev, k) if k == 'bool' else None   # ints (not bool) are copied, no kernel
    if op in ('trunc_div', 'pow', 'square') and k == 'bool':
        return {'trunc_div': 'div_trunc_cuda' if cuda else 'div_trunc_cpu',
                'pow': 'pow_cuda' if cuda else 'pow', 'square': 'pow_cuda' if cuda else 'pow'}[op]
    if op == 'mean': return None                        # mean's own dtype check, not kernel coverage
    if k not in BB: return None
    if op == 'pow' and len(c['args']) == 2 and 'scalar' in c['args'][1] and \
            c['args'][1]['scalar'].lower() in ('0', '1', '0.0', '1.0', 'true', 'false'):
        return None   # pow(t, 0|1|False|True): out.fill_(1) / out.copy_(base), no kernel
    if op in ('argmax', 'argmin'):
        a = c['args'][0]; dim = c.get('attrs', {}).get('dim')
        if 0 in a['shape']: return 'EMPTY'              # emptiness error is raised before dispatch
        if dim is not None and a['shape'] and a['shape'][dim] == 1: return None  # result.fill_(0)
    # barebones unsigned u16/u32/u64
    if op in ('add', 'sub', 'floor_div', 'trunc_div', 'rem', 'fmod', 'maximum', 'minimum', 'pow', 'square',
              'neg', 'abs', 'sign', 'argmax', 'argmin', 'lt', 'le', 'gt', 'ge'):
        return kname(op, dev, k)
    if op == 'mul': return kname(op, dev, k) if cuda else None
    if op in ('eq', 'ne', 'div', 'sqrt', 'exp', 'floor', 'ceil', 'round', 'trunc', 'cast', 'index_select'):
        return None
    if op in ('max', 'min'):   # see notes: full reduction -> max_all / min_all; with dim -> max_values / min_values
        a = c['args'][0]; dim = c.get('attrs', {}).get('dim')
        if a['shape'] and 0 in a['shape']: return 'EMPTY'
        if dim is None:
            if op == 'max': return 'max_all_cuda' if cuda else 'max_all'
            return 'min_all_cuda' if cuda else 'min_all'
        return f"{op}_values_cuda" if cuda else f"{op}_values_cpu"
    return 'UNKNOWN'

def observed(o):
    if o is None: return None
    if 'value' in o: return ('ok',)
    if 'error' in o:
        m = o['error']['message']
        k = re.search(r'"(\w+)" not implemented for \'(\w+)\'', m)
        if k: return ('NI', k.group(1), k.group(2))
        return ('E', o['error']['class'], m[:90])
    return (list(o)[0],)

def main():
    table = collections.defaultdict(collections.Counter)
    match = collections.Counter(); misses = []
    for c in L.cases():
        if c['op'] not in BINARY + UNARY + RED + ['index_select']: continue
        try: k = kdtype(c)
        except T.PromotionError: k = 'PROMO_ERR'
        for prof in ('pytorch/cpu', 'pytorch/cuda'):
            ob = observed(c['expect'].get(prof))
            if ob is None: continue
            dev = prof.split('/')[1]
            table[(c['op'], dev)][(k, ob[0] if ob[0] != 'NI' else 'NI:' + ob[1])] += 1
            if k == 'PROMO_ERR':
                continue
            if c['op'] == 'index_select':
                continue  # index dtype rule handled in uic_index.py
            if ob[0] == 'NI':
                pred = predict(c['op'], dev, k, c)
                good = pred == ob[1] and T.NAME[k] == ob[2]
                match['NI', good] += 1
                if not good: misses.append((c['id'], prof, k, pred, ob))
            elif ob[0] == 'ok':
                pred = predict(c['op'], dev, k, c)
                match['ok', pred is None] += 1
                if pred is not None: misses.append((c['id'], prof, k, pred, ob))
            else:
                pred = predict(c['op'], dev, k, c)
                # other errors (ZeroDivision, empty reductions, bool sub, mean dtype...) are not kernel coverage
                match['other', pred in (None, 'EMPTY')] += 1
                if pred not in (None, 'EMPTY'): misses.append((c['id'], prof, k, pred, ob))
    return table, match, misses

if __name__ == '__main__':
    table, match, misses = main()
    print('match counts (kind, predicted correctly):', dict(match))
    for m in misses: print('MISS', m)
    if '-m' in sys.argv:
        DT = ['bool', 'u8', 'i8', 'i16', 'i32', 'i64', 'u16', 'u32', 'u64', 'f16', 'bf16', 'f32', 'f64', 'c64', 'c128', 'PROMO_ERR']
        print('cell = cpu|cuda; o: ok, N: NotImplementedError, E: other error, -: no case')
        print('op'.ljust(12) + ' '.join(d[:5].rjust(5) for d in DT))
        ops = sorted({k[0] for k in table}, key=lambda o: (BINARY + UNARY + RED + ['index_select']).index(o))
        for op in ops:
            row = op.ljust(12)
            for d in DT:
                cell = ''
                for dev in ('cpu', 'cuda'):
                    st = {s for (kk, s), n in table[(op, dev)].items() if kk == d}
                    ch = '-' if not st else ''.join(sorted({'o' if x == 'ok' else 'N' if x.startswith('NI') else 'E' for x in st}))
                    cell += ch + ('|' if dev == 'cpu' else '')
                row += cell.rjust(6)
            print(row)
    if '-v' in sys.argv:
        for key in sorted(table):
            print(key, dict(table[key]))
