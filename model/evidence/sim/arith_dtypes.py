"""dtype tables, wrapping, and promotion for pytorch / numpy(+ml_dtypes) / jax.
Promotion is NOT the subject of arith.md; it is implemented here only so the arithmetic
simulation can predict a result dtype (and errors) without reading it from the oracle.
"""
INTS = {'u8': (8, False), 'i8': (8, True), 'u16': (16, False), 'i16': (16, True),
        'u32': (32, False), 'i32': (32, True), 'u64': (64, False), 'i64': (64, True)}
FLOATS = ['f16', 'bf16', 'f32', 'f64']
ALL = ['bool'] + list(INTS) + FLOATS


def is_int(d): return d in INTS
def is_float(d): return d in FLOATS
def bits(d): return INTS[d][0]
def signed(d): return INTS[d][1]


def wrap(v, d):
    b, s = INTS[d]
    v %= 1 << b
    if s and v >= 1 << (b - 1):
        v -= 1 << b
    return v


def imin(d):
    b, s = INTS[d]
    return -(1 << (b - 1)) if s else 0


def imax(d):
    b, s = INTS[d]
    return (1 << (b - 1)) - 1 if s else (1 << b) - 1


TORCH_NAME = {'bool': 'Bool', 'u8': 'Byte', 'i8': 'Char', 'i16': 'Short', 'i32': 'Int', 'i64': 'Long',
              'u16': 'UInt16', 'u32': 'UInt32', 'u64': 'UInt64', 'f16': 'Half', 'bf16': 'BFloat16',
              'f32': 'Float', 'f64': 'Double'}

# ---------------- PyTorch ----------------
class PromoErr(Exception):
    pass


def torch_promote(a, b):
    if a == b: return a
    if a == 'bool': return b
    if b == 'bool': return a
    if is_float(a) or is_float(b):
        if is_float(a) and is_float(b):
            if {a, b} == {'f16', 'bf16'}: return 'f32'
            return max(a, b, key=FLOATS.index)
        return a if is_float(a) else b
    big_u = ('u16', 'u32', 'u64')
    if a in big_u or b in big_u:
        raise PromoErr('Promotion for uint16, uint32, uint64 types is not supported, attempted to promote %s and %s'
                       % (TORCH_NAME[a], TORCH_NAME[b]))
    # u8, i8, i16, i32, i64
    if a == 'u8' or b == 'u8':
        o = b if a == 'u8' else a
        return 'i16' if o == 'i8' else o
    order = ['i8', 'i16', 'i32', 'i64']
    return max(a, b, key=order.index)


def _cat(d):
    return 0 if d == 'bool' else (1 if is_int(d) else 2)


def torch_result_type(operands):
    """operands: list of ('tensor', dtype, ndim) or ('scalar', kind)."""
    dim = zero = wrapped = None

    def upd(cur, d):
        return d if cur is None else torch_promote(cur, d)
    for o in operands:
        if o[0] == 'scalar':
            d = {'float': 'f32', 'int': 'i64', 'bool': 'bool'}[o[1]]
            wrapped = upd(wrapped, d)
        elif o[2] == 0:
            zero = upd(zero, o[1])
        else:
            dim = upd(dim, o[1])

    def combine(higher, lower):
        if higher is None: return lower
        if lower is None: return higher
        if is_float(higher): return higher
        if higher == 'bool' or is_float(lower):
            return torch_promote(higher, lower)
        return higher
    return combine(dim, combine(zero, wrapped))


# ---------------- NumPy 2 (+ ml_dtypes bfloat16) ----------------
def np_promote(a, b):
    if a == b: return a
    if a == 'bool': return b
    if b == 'bool': return a
    if 'bf16' in (a, b):
        o = b if a == 'bf16' else a
        if o in ('u8', 'i8'): return 'bf16'
        if o in ('u16', 'i16', 'f16', 'f32'): return 'f32'
        return 'f64'  # 32/64-bit ints, f64
    if is_float(a) and is_float(b):
        return max(a, b, key=['f16', 'f32', 'f64'].index)
    if is_float(a) or is_float(b):
        f, i = (a, b) if is_float(a) else (b, a)
        ib = bits(i)
        need = {8: 'f16', 16: 'f32', 32: 'f64', 64: 'f64'}[ib]
        return max(f, need, key=['f16', 'f32', 'f64'].index)
    (ba, sa), (bb, sb) = INTS[a], INTS[b]
    if sa == sb:
        return a if ba >= bb else b
    u, s = (a, b) if not sa else (b, a)
    bu, bs = bits(u), bits(s)
    if bs > bu: return s
    if bu == 64: return 'f64'
    return 'i%d' % (2 * bu)


def np_result_type(operands):
    """NEP 50: python scalars are weak."""
    arrs = [o[1] for o in operands if o[0] == 'tensor']
    r = None
    for d in arrs:
        r = d if r is None else np_promote(r, d)
    for o in operands:
        if o[0] == 'scalar':
            k = o[1]
            if r is None:
                r = {'float': 'f64', 'int': 'i64', 'bool': 'bool'}[k]
            elif k == 'bool':
                pass
            elif k == 'int':
                if r == 'bool': r = 'i64'
            elif k == 'float':
                if r == 'bf16': r = 'f32'    # observed: ml_dtypes bf16 + python float -> f32 (oracle-00834)
                elif not is_float(r): r = 'f64'
    return r


# ---------------- JAX ----------------
def jax_canon(d, x64):
    if x64: return d
    return {'i64': 'i32', 'u64': 'u32', 'f64': 'f32'}.get(d, d)


def jax_promote(a, b):
    """JAX lattice for strong types (x64 semantics; canonicalize afterwards)."""
    if a == b: return a
    if a == 'bool': return b
    if b == 'bool': return a
    if is_float(a) and is_float(b):
        if {a, b} == {'f16', 'bf16'}: return 'f32'
        return max(a, b, key=FLOATS.index)
    if is_float(a) or is_float(b):
        return a if is_float(a) else b
    (ba, sa), (bb, sb) = INTS[a], INTS[b]
    if sa == sb: return a if ba >= bb else b
    u, s = (a, b) if not sa else (b, a)
    if bits(s) > bits(u): return s
    if bits(u) == 64: return 'f64'   # u64 + signed -> float (canonicalized)
    return 'i%d' % (2 * bits(u))


def jax_result_type(operands, x64):
    r = None
    for o in operands:
        if o[0] == 'tensor':
            d = jax_canon(o[1], x64)
            r = d if r is None else jax_canon(jax_promote(r, d), x64)
    dint = 'i64' if x64 else 'i32'
    dfl = 'f64' if x64 else 'f32'
    for o in operands:
        if o[0] == 'scalar':
            k = o[1]
            if r is None:
                r = {'float': dfl, 'int': dint, 'bool': 'bool'}[k]
            elif k == 'int':
                if r == 'bool': r = dint
            elif k == 'float':
                if not is_float(r): r = dfl
    return r
