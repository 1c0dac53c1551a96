"""Generate the dtype tables of promotion.md from the model (promo.py) and count oracle-verified cells."""
from promo import *
from load import load
AB = {'bool':'b','u8':'u1','i8':'i1','u16':'u2','i16':'i2','u32':'u4','i32':'i4','u64':'u8','i64':'i8',
      'f16':'f2','bf16':'bf','f32':'f4','f64':'f8','c64':'c4','c128':'c8','c32':'C2'}
def T(shape_r=[2]):
    return lambda p, a, b: predict(p, {'op':'add','args':[{'dtype':a,'shape':[2],'data':[0,0]},{'dtype':b,'shape':shape_r,'data':[0]*(1 if shape_r==[] else 2)}]})
def cell(r):
    if r[0] == 'value': return AB[r[1]]
    if r[0] == 'error':
        return 'PE' if 'Promotion' in r[2] else 'NI' if 'not implemented' in r[2] else 'E'
    return 'C2'
def table(profile, f, title):
    out = ['**%s** (row = left dtype, column = right dtype)' % title, '', '```',
           '      ' + ' '.join('%2s' % AB[b] for b in DT)]
    for a in DT:
        row = []
        for b in DT:
            row.append('%2s' % cell(f(profile, a, b)))
        out.append('  %2s  ' % AB[a] + ' '.join(row))
    out.append('```'); return '\n'.join(out)
def torch_promote_cell(a, b):
    try: return AB[torch_promote(a, b)]
    except PromoErr: return 'PE'
if __name__ == '__main__':
    import sys
    # promoteTypes table (pure, no kernel check)
    print('```'); print('      ' + ' '.join('%2s' % AB[b] for b in DT))
    for a in DT: print('  %2s  ' % AB[a] + ' '.join('%2s' % torch_promote_cell(a, b) for b in DT))
    print('```')
    print(table('pytorch/cpu', T([]), 'PyTorch: dim tensor (row) + 0-dim tensor (column), result dtype; add kernel errors shown as NI'))
    print(table('numpy', T(), 'NumPy 2 + ml_dtypes (0-dim = same)'))
    print(table('jax/cpu-x64', T(), 'JAX x64 (0-dim = same)'))
    print(table('jax/cpu-x32', T(), 'JAX x32, after narrowing the inputs (0-dim = same)'))

def torch_rt_cell(a, b, zero):
    try:
        r = torch_result_type([('dim', a), ('zero' if zero else 'dim', b)])
        return AB[r]
    except PromoErr: return 'PE'
def scalar_table(ops=('add',)):
    profs = ['pytorch/cpu','numpy','jax/cpu-x64','jax/cpu-x32']
    lines = ['```', 'tensor  | ' + ' | '.join('%-22s' % p for p in profs),
             '        | ' + ' | '.join('%-22s' % 'bool  int   float' for p in profs)]
    for d in DT:
        cells = []
        for p in profs:
            row = []
            for k, v in (('bool','true'), ('int','1'), ('float','0.5')):
                r = predict(p, {'op':'add','args':[{'dtype':d,'shape':[2],'data':[0,0]},{'scalar':v,'kind':k}]})
                row.append('%-5s' % (AB[r[1]] if r[0]=='value' else 'NI' if 'not impl' in r[2] else 'E'))
            cells.append(' '.join(row) + ' ' * 5)
        lines.append('%-7s | ' % d + ' | '.join(cells))
    lines.append('```')
    return '\n'.join(lines)
if __name__ == '__main__' and '--more' in sys.argv:
    print('PyTorch result_type dim+0dim')
    print('```'); print('      ' + ' '.join('%2s' % AB[b] for b in DT))
    for a in DT: print('  %2s  ' % AB[a] + ' '.join('%2s' % torch_rt_cell(a, b, True) for b in DT))
    print('```')
    print(scalar_table())
