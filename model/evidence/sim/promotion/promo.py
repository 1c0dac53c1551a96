"""Result-dtype / promotion model for binary ops, 7 oracle profiles.

Evidence script for model/evidence/promotion.md.  Pure Python, no numpy.
predict(profile, case) -> ('value', dtype, shape) | ('error', cls, msg) | ('unsupported', msg)
Only dtype/shape/error-class level; values are checked separately in values.py.
"""
DT = ['bool','u8','i8','u16','i16','u32','i32','u64','i64','f16','bf16','f32','f64','c64','c128']
UINT = ['u8','u16','u32','u64']; SINT = ['i8','i16','i32','i64']
INTS = UINT + SINT
FLOATS = ['f16','bf16','f32','f64']; CPLX = ['c64','c128']
BITS = {'bool':1,'u8':8,'i8':8,'u16':16,'i16':16,'u32':32,'i32':32,'u64':64,'i64':64,
        'f16':16,'bf16':16,'f32':32,'f64':64,'c64':64,'c128':128}
def cat(d):
    return 0 if d=='bool' else 1 if d in INTS else 2 if d in FLOATS else 3

BINOPS = ['add','sub','mul','div','floor_div','trunc_div','rem','fmod','maximum','minimum','pow',
          'eq','ne','lt','le','gt','ge','bitwise_and','bitwise_or','bitwise_xor']
CMP = ['eq','ne','lt','le','gt','ge']
BITW = ['bitwise_and','bitwise_or','bitwise_xor']

# ---------------------------------------------------------------- PyTorch
TNAME = {'bool':'Bool','u8':'Byte','i8':'Char','i16':'Short','i32':'Int','i64':'Long','f16':'Half',
         'bf16':'BFloat16','f32':'Float','f64':'Double','c64':'ComplexFloat','c128':'ComplexDouble',
         'u16':'UInt16','u32':'UInt32','u64':'UInt64'}
class PromoErr(Exception): pass

def _int_join(a, b):
    """join of two of bool,u8,i8,i16,i32,i64 in the classic table (u8+i8 -> i16)."""
    if a == 'bool': return b
    if b == 'bool': return a
    if a == b: return a
    if 'u8' in (a, b):
        o = b if a == 'u8' else a          # a signed int
        return 'i16' if o == 'i8' else o
    return a if BITS[a] >= BITS[b] else b

def _float_join(a, b):
    if a == b: return a
    if {a, b} == {'f16','bf16'}: return 'f32'
    return a if BITS[a] > BITS[b] else b

def torch_promote(a, b):
    """c10::promoteTypes(a, b)."""
    if a == b: return a
    if a in ('u16','u32','u64') or b in ('u16','u32','u64'):
        if a in FLOATS: return a
        if b in FLOATS: return b
        raise PromoErr('Promotion for uint16, uint32, uint64 types is not supported, '
                       'attempted to promote %s and %s' % (TNAME[a], TNAME[b]))
    ca, cb = cat(a), cat(b)
    if ca <= 1 and cb <= 1: return _int_join(a, b)
    if ca == 3 or cb == 3:
        # complex with anything: complex whose component is wide enough
        comp = lambda d: 'f32' if d=='c64' else 'f64' if d=='c128' else d
        x, y = comp(a), comp(b)
        xs = x if x in FLOATS else None; ys = y if y in FLOATS else None
        fl = [f for f in (xs, ys) if f]
        f = fl[0] if len(fl)==1 else _float_join(*fl)
        return 'c128' if f == 'f64' else 'c64'   # f16 / bf16 / f32 -> c64 (c32 only for c32 inputs)
    if ca == 2 and cb == 2: return _float_join(a, b)
    return a if ca == 2 else b                   # int/bool with float -> the float

def to_complex(f):
    return {'f16':'c32','bf16':'c64','f32':'c64','f64':'c128'}[f]

def combine_categories(higher, lower):
    """at::native combine_categories (ATen/native/TypeProperties.cpp)."""
    if higher is None: return lower
    if lower is None: return higher
    if higher in CPLX: return higher
    if lower in CPLX:
        if higher in FLOATS: return to_complex(higher)
        return lower
    if higher in FLOATS: return higher
    if higher == 'bool' or lower in FLOATS:
        return torch_promote(higher, lower)
    return higher

def torch_result_type(ops):
    """ops: list of ('dim'|'zero'|'wrapped', dtype). wrapped dtype = i64 / f64 / bool as created."""
    st = {'dim':None,'zero':None,'wrapped':None}
    for kind, d in ops:
        if kind == 'wrapped':
            if d in CPLX: d = 'c64'          # default complex dtype
            elif d in FLOATS: d = 'f32'      # default dtype
        st[kind] = d if st[kind] is None else torch_promote(st[kind], d)
    return combine_categories(st['dim'], combine_categories(st['zero'], st['wrapped']))

# ---------------------------------------------------------------- NumPy 2 (+ ml_dtypes bf16)
def np_promote(a, b):
    if a == b: return a
    if a == 'bool': return b
    if b == 'bool': return a
    if 'bf16' in (a, b):
        o = b if a == 'bf16' else a
        # ml_dtypes bfloat16 promotion table
        return {'u8':'bf16','i8':'bf16','u16':'f32','i16':'f32','u32':'f64','i32':'f64',
                'u64':'f64','i64':'f64','f16':'f32','f32':'f32','f64':'f64',
                'c64':'c64','c128':'c128'}[o]
    ca, cb = cat(a), cat(b)
    if ca == 1 and cb == 1:
        ua, ub = a in UINT, b in UINT
        if ua == ub: return a if BITS[a] >= BITS[b] else b
        u, s = (a, b) if ua else (b, a)
        if u == 'u64': return 'f64'
        w = max(BITS[s], 2*BITS[u])
        return 'i%d' % w
    # float / complex: smallest inexact type that holds both
    def need(d):   # (is_complex, mantissa-size class)
        if d in INTS:
            return {8:'f16',16:'f32',32:'f64',64:'f64'}[BITS[d]]
        return d
    x, y = need(a), need(b)
    cx = x in CPLX or y in CPLX
    comp = lambda d: {'c64':'f32','c128':'f64'}.get(d, d)
    f = _float_join(comp(x), comp(y))
    if cx: return 'c128' if f == 'f64' else 'c64'
    return f

# ---------------------------------------------------------------- JAX
# lattice edges (jax._src.dtypes._type_promotion_lattice, 'standard' mode)
JLAT = {'bool':['i*'], 'i*':['u8','i8'], 'u8':['u16','i16'], 'u16':['u32','i32'],
        'u32':['u64','i64'], 'u64':['f*'], 'i8':['i16'], 'i16':['i32'], 'i32':['i64'],
        'i64':['f*'], 'f*':['bf16','f16','c*'], 'bf16':['f32'], 'f16':['f32'],
        'f32':['f64','c64'], 'f64':['c128'], 'c*':['c64'], 'c64':['c128'], 'c128':[]}
def _ub(n):
    s = {n}; todo = [n]
    while todo:
        x = todo.pop()
        for y in JLAT[x]:
            if y not in s: s.add(y); todo.append(y)
    return s
_UB = {n: _ub(n) for n in JLAT}
def jax_join(a, b):
    common = _UB[a] & _UB[b]
    # least upper bound: the common element all others are above
    for c in common:
        if all(o in _UB[c] for o in common): return c
    raise AssertionError((a, b))
NARROW = {'i64':'i32','u64':'u32','f64':'f32','c128':'c64'}
def jax_canon(d, x64):
    if d == 'i*': d = 'i64'
    elif d == 'f*': d = 'f64'
    elif d == 'c*': d = 'c128'
    return d if x64 else NARROW.get(d, d)

# ---------------------------------------------------------------- shapes
def bcast(s1, s2):
    n = max(len(s1), len(s2)); a = [1]*(n-len(s1)) + list(s1); b = [1]*(n-len(s2)) + list(s2)
    out = []
    for x, y in zip(a, b):
        if x == y or y == 1: out.append(x)
        elif x == 1: out.append(y)
        else: return None
    return out

def is_scalar(a): return 'scalar' in a
SCALAR_DT = {'int':'i64', 'float':'f64', 'bool':'bool'}

# ---------------------------------------------------------------- PyTorch kernel coverage
# name of the dispatch stub per (op, device); None = no kernel issue for this dtype class
def torch_kernel(op, d, dev):
    """Return NotImplementedError text or None. d = common (computation) dtype."""
    cpu = dev == 'cpu'
    stub = {
        'add': ('add_stub', 'ufunc_add_CUDA'), 'sub': ('add_stub', 'ufunc_add_CUDA'),
        'mul': (None, 'mul_cuda'),
        'floor_div': ('div_floor_cpu', 'div_floor_cuda'), 'trunc_div': ('div_trunc_cpu', 'div_trunc_cuda'),
        'rem': ('remainder_cpu', 'remainder_cuda'), 'fmod': ('fmod_cpu', 'fmod_cuda'),
        'maximum': ('maximum_cpu', 'max_elementwise_cuda'), 'minimum': ('minimum_cpu', 'minimum_cuda'),
        'pow': ('pow', 'pow_cuda'),
        'lt': ('lt_cpu', 'compare_cuda'), 'le': ('le_cpu', 'compare_cuda'),
        'gt': ('gt_cpu', 'compare_cuda'), 'ge': ('ge_cpu', 'compare_cuda'),
        'eq': (None, None), 'ne': (None, None),
        'bitwise_and': (None, 'bitwise_and_cuda'), 'bitwise_or': (None, 'bitwise_or_cuda'),
        'bitwise_xor': (None, 'bitwise_xor_cuda'),
    }
    ni = lambda s: '"%s" not implemented for \'%s\'' % (s, TNAME[d])
    if d in ('u16','u32','u64'):
        s = stub.get(op, (None, None))[0 if cpu else 1]
        return ni(s) if s else None
    if op in BITW and d in FLOATS + CPLX:
        return ni('%s_%s' % (op, 'cpu' if cpu else 'cuda'))
    if d == 'bool' and op in ('pow', 'trunc_div', 'floor_div', 'rem', 'fmod'):
        s = stub[op][0 if cpu else 1]
        return ni(s)
    return None

def predict(profile, case):
    op = case['op']; args = case['args']
    fw = profile.split('/')[0]
    assert len(args) == 2
    # ---- shapes
    if op == 'trunc_div' and fw != 'pytorch':
        return ('unsupported', 'no truncating integer division in this API')
    shapes = [a['shape'] for a in args if not is_scalar(a)]
    shp = shapes[0] if len(shapes) == 1 else bcast(shapes[0], shapes[1])
    if shp is None:
        return ('error', 'ShapeMismatch', 'broadcast')
    if fw == 'pytorch':
        return predict_torch(profile, op, args, shp)
    if fw == 'numpy':
        return predict_numpy(op, args, shp)
    return predict_jax(profile, op, args, shp)

def predict_torch(profile, op, args, shp):
    dev = profile.split('/')[1]
    ops = []
    for a in args:
        if is_scalar(a): ops.append(('wrapped', SCALAR_DT[a['kind']]))
        else: ops.append(('dim' if len(a['shape']) > 0 else 'zero', a['dtype']))
    # sub with bool operand (checked before promotion: sub_check)
    if op == 'sub':
        dts = [d for _, d in ops]
        if dts[0] == 'bool' and dts[1] == 'bool':
            return ('error', 'UnsupportedDType', 'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.')
        if 'bool' in dts:
            return ('error', 'UnsupportedDType', 'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')
    try:
        common = torch_result_type(ops)
    except PromoErr as e:
        return ('error', 'UnsupportedDType', 'RuntimeError: ' + str(e))
    if common == 'c32':
        return ('unsupported', 'result dtype complex32 (ComplexHalf) is outside the case-format dtypes')
    comp = common
    if op == 'div' and cat(common) <= 1:
        comp = 'f32'                              # true division of integral/bool -> default float
    if op == 'pow':
        # pow(Tensor, Scalar): exponent 0/False -> fill_(1), 1/True -> copy_(base): no kernel dispatch
        if is_scalar(args[1]) and args[1]['scalar'] in ('0','1','0.0','1.0','true','false'):
            return ('value', comp, shp)
        # pow(Scalar, Tensor): base 1 -> fill_(1)
        if is_scalar(args[0]) and args[0]['scalar'] in ('1','1.0','true'):
            return ('value', comp, shp)
    ni = torch_kernel(op, comp, dev)
    if ni:
        return ('error', 'UnsupportedDType', 'NotImplementedError: ' + ni)
    if dev == 'cpu' and op in ('floor_div','trunc_div','rem','fmod') and comp in INTS + ['bool']:
        n = 1
        for x in shp: n *= x
        if n > 0 and any(v == 0 for v in divisor_values(args[1], comp)):   # no element computed -> no check
            return ('error', 'ZeroDivision', 'RuntimeError: ZeroDivisionError')
    if dev == 'cpu' and op == 'trunc_div' and comp in ('i32','i64') and not any(is_scalar(a) for a in args):
        mn = -2**(BITS[comp]-1)
        A = [int(x) for x in args[0]['data']]; B = [int(x) for x in args[1]['data']]
        # elementwise over the broadcast (oracle cases: same shape or size-1)
        n = max(len(A), len(B))
        if any(A[i % len(A)] == mn and B[i % len(B)] == -1 for i in range(n)):
            return ('crash', 'SIGFPE')     # x86 idiv traps on MIN / -1 (no check in div_trunc_cpu)
    out = 'bool' if op in CMP else comp
    return ('value', out, shp)

def wrap_int(v, d):
    b = BITS[d]; v &= (1 << b) - 1
    if d in SINT and v >= 1 << (b-1): v -= 1 << b
    return v

def divisor_values(a, d):
    """integer values of the right operand after conversion to integral dtype d (wrapping)"""
    if is_scalar(a):
        t = a['scalar']; vals = [1 if t == 'true' else 0 if t == 'false' else int(float(t)) if a['kind']=='float' else int(t)]
    else:
        vals = [int(x) if not isinstance(x, str) else int(float(x)) for x in a['data']]
    return [wrap_int(int(v), d) if d != 'bool' else int(bool(v)) for v in vals]

def predict_numpy(op, args, shp):
    if op == 'trunc_div':
        return ('unsupported', 'numpy has no trunc_div')
    ts = [a for a in args if not is_scalar(a)]
    sc = [a for a in args if is_scalar(a)]
    if len(ts) == 2:
        common = np_promote(ts[0]['dtype'], ts[1]['dtype'])
    else:
        t = ts[0]['dtype']; s = sc[0]
        common = np_weak(t, s['kind'])
        if s['kind'] == 'int' and common in INTS and op not in CMP + ['div']:
            v = int(s['scalar'])
            lo, hi = int_range(common)
            if not (lo <= v <= hi):
                return ('error', 'OutOfRange', 'OverflowError: Python integer %d out of bounds for %s' % (v, NPNAME[common]))
    if op in BITW and common in FLOATS + CPLX:
        return ('error', 'UnsupportedDType', "TypeError: ufunc '%s' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''" % op)
    if op == 'sub' and common == 'bool':
        return ('error', 'UnsupportedDType', 'TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.')
    if op in ('floor_div','rem','fmod','pow') and common == 'bool':
        common = 'i8'                                  # no bool loop: first loop bool casts to safely
    if op == 'div' and cat(common) <= 1:
        common = 'f64'
    if op == 'pow' and common in INTS:
        ex = args[1]
        vals = [int(ex['scalar']) if ex['kind']=='int' else 0] if is_scalar(ex) else ([int(v) for v in ex['data']] if ex['dtype'] in INTS else [])
        if any(v < 0 for v in vals):
            return ('error', 'Other', 'ValueError: Integers to negative integer powers are not allowed.')
    out = 'bool' if op in CMP else common
    return ('value', out, shp)

NPNAME = {'u8':'uint8','i8':'int8','u16':'uint16','i16':'int16','u32':'uint32','i32':'int32','u64':'uint64','i64':'int64'}
def int_range(d):
    b = BITS[d]
    return (0, 2**b - 1) if d in UINT else (-2**(b-1), 2**(b-1) - 1)

def np_weak(t, kind):
    """NEP 50: array dtype t with a weak Python scalar of kind."""
    if kind == 'bool': return t                    # bool is the bottom; np.bool_ scalar
    if kind == 'int':
        return 'i64' if t == 'bool' else t         # default int for bool arrays
    if kind == 'float':
        if t in ('f16','f32','f64') or t in CPLX: return t
        if t == 'bf16': return 'f32'               # ml_dtypes bf16 + Python float -> float32 (oracle-00834)
        return 'f64'                               # bool / int arrays -> default float
    raise ValueError(kind)

def predict_jax(profile, op, args, shp):
    x64 = profile.endswith('x64')
    if op == 'trunc_div':
        return ('unsupported', 'jax has no trunc_div')
    # jnp.power(x, python int/bool): lax.integer_pow on x alone (exponent not promoted, not parsed
    # as a jit argument): dtype = to_numeric(x)  (source: jax/_src/numpy/ufuncs.py power)
    if op == 'pow' and is_scalar(args[1]) and args[1]['kind'] in ('int', 'bool') and not is_scalar(args[0]):
        d = args[0]['dtype']; d = d if x64 else NARROW.get(d, d)
        d = 'i32' if d == 'bool' else d
        if args[1]['kind'] == 'int' and int(args[1]['scalar']) < 0 and d in INTS:
            return ('error', 'UnsupportedDType', 'TypeError: Integers cannot be raised to negative powers, got integer_pow(x, %s)' % args[1]['scalar'])
        return ('value', d, shp)
    nodes = []
    for i, a in enumerate(args):
        if is_scalar(a):
            k = a['kind']
            if k == 'int':
                v = int(a['scalar']); lim = 63 if x64 else 31
                if not (-2**lim <= v < 2**lim):
                    return ('error', 'OutOfRange', 'OverflowError: An overflow was encountered while parsing an argument to a jitted computation, whose argument path is %s. Got <class \'int\'> with value %d' % (jax_argname(op, i), v))
                nodes.append('i*')
            elif k == 'float': nodes.append('f*')
            else: nodes.append('bool')
        else:
            d = a['dtype']
            nodes.append(d if x64 else NARROW.get(d, d))
    j = jax_join(nodes[0], nodes[1])
    common = jax_canon(j, x64)
    if op in BITW and common in FLOATS + CPLX:
        return ('error', 'UnsupportedDType', 'TypeError: %s does not accept dtype %s at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.' % (op.split('_')[1], JNAME[common]))
    if op == 'div' and cat(common) <= 1:
        # dtypes.to_inexact_dtype: bool/8/16/32-bit ints -> f32, 64-bit ints -> f64 (then canonicalized)
        common = 'f64' if (common in ('i64','u64') and x64) else 'f32'
    if op in ('floor_div','rem','fmod','pow') and common == 'bool':
        common = 'i32'                                 # promote_args_numeric: to_numeric_dtype(bool) = int32
    if op == 'sub' and common == 'bool':
        return ('error', 'UnsupportedDType', 'TypeError: sub does not accept dtype bool at position 0. Accepted dtypes at position 0 are subtypes of integer, floating, complexfloating.')
    out = 'bool' if op in CMP else common
    return ('value', out, shp)

JNAME = {'f16':'float16','bf16':'bfloat16','f32':'float32','f64':'float64','c64':'complex64','c128':'complex128'}
def jax_argname(op, i):
    # jnp ufunc parameter names: add/sub/mul/... use (x, y)?  observed: add -> y, floor_divide/remainder/power -> x1/x2
    names = {'add':('x','y')}
    return names.get(op, ('x1','x2'))[i]
