"""torch.result_type re-implementation (c10 promoteTypes + ResultTypeState combine_categories),
used only to find the dtype a PyTorch kernel is dispatched on (the 'computation dtype')."""
BAREBONES = {'u16', 'u32', 'u64'}
INT_ORDER = ['bool', 'u8', 'i8', 'i16', 'i32', 'i64']
FLOATS = {'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64}
CPLX = {'c64': 'f32', 'c128': 'f64'}
NAME = {'bool': 'Bool', 'u8': 'Byte', 'i8': 'Char', 'i16': 'Short', 'i32': 'Int', 'i64': 'Long',
        'u16': 'UInt16', 'u32': 'UInt32', 'u64': 'UInt64', 'f16': 'Half', 'bf16': 'BFloat16',
        'f32': 'Float', 'f64': 'Double', 'c64': 'ComplexFloat', 'c128': 'ComplexDouble'}
class PromotionError(Exception): pass
def isfloat(d): return d in FLOATS
def iscplx(d): return d in CPLX
def promote(a, b):
    if a is None: return b
    if b is None: return a
    if a == b: return a
    if a in BAREBONES or b in BAREBONES:
        if isfloat(a): return a
        if isfloat(b): return b
        raise PromotionError(f"Promotion for uint16, uint32, uint64 types is not supported, attempted to promote {NAME[a]} and {NAME[b]}")
    if iscplx(a) or iscplx(b):
        if iscplx(a) and iscplx(b): return 'c128'
        c, o = (a, b) if iscplx(a) else (b, a)
        if o == 'f64': return 'c128'
        return c
    if isfloat(a) or isfloat(b):
        if isfloat(a) and isfloat(b):
            if {a, b} == {'f16', 'bf16'}: return 'f32'
            return a if FLOATS[a] >= FLOATS[b] else b
        return a if isfloat(a) else b
    if a == 'bool': return b
    if b == 'bool': return a
    if a == 'u8' or b == 'u8':
        o = b if a == 'u8' else a
        return 'i16' if o in ('i8', 'i16') else o
    return a if INT_ORDER.index(a) >= INT_ORDER.index(b) else b
def to_complex(d): return {'f16': 'c64', 'bf16': 'c64', 'f32': 'c64', 'f64': 'c128'}[d]
def combine(higher, lower):
    if higher and iscplx(higher): return higher
    if lower and iscplx(lower):
        if higher and isfloat(higher): return to_complex(higher)
        return lower
    if higher and isfloat(higher): return higher
    if higher == 'bool' or (lower and isfloat(lower)): return promote(higher, lower)
    if higher is not None: return higher
    return lower
def result_type(args):
    """args: case-format args (tensors with shape, or scalars with kind)."""
    dim = zero = wrapped = None
    for a in args:
        if 'scalar' in a:
            k = a['kind']; d = {'int': 'i64', 'float': 'f32', 'bool': 'bool', 'complex': 'c64'}[k]
            wrapped = promote(wrapped, d)
        elif len(a['shape']) > 0: dim = promote(dim, a['dtype'])
        else: zero = promote(zero, a['dtype'])
    return combine(dim, combine(zero, wrapped))
