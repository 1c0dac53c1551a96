from load import *
import sys
cs=load()
AB={'bool':'b','u8':'u1','i8':'i1','u16':'u2','i16':'i2','u32':'u4','i32':'i4','u64':'u8','i64':'i8','f16':'f2','bf16':'bf','f32':'f4','f64':'f8','c64':'c4','c128':'c8'}
def res(o):
    if 'value' in o: return AB[o['value']['dtype']]
    if 'error' in o:
        m=o['error']['message']
        if 'Promotion for' in m: return 'PE'
        if 'not implemented' in m: return 'NI'
        return 'E?'
    return '??'
g=sys.argv[1]
for p in PROFILES:
    t={}
    for d in cs:
        if d['group']==g and p in d['expect']:
            t[(d['args'][0]['dtype'],d['args'][1]['dtype'])]=res(d['expect'][p])
    print(g,p)
    print('      '+' '.join('%2s'%AB[b] for b in DT))
    for a in DT:
        print('  %3s '%AB[a]+' '.join('%2s'%t.get((a,b),'..') for b in DT))
