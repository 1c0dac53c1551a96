"""Element-value simulation of arithmetic binary ops for the 7 oracle profiles.
Run: python3 arith.py [-v] [--op OP] [--prof PROFILE] [--id ID]
It recomputes every case of the groups grid div0 minneg1 fgrid scalar fscalar rand2_binary
rand2_scalar bcast weak whose op is an arithmetic/bitwise binary op, and compares with the oracle.
"""
import sys, math, json, struct, collections
from fractions import Fraction
import arith_cases as cases, arith_fl as fl
from arith_dtypes import *

PROFILES = cases.PROFILES
VERB = '-v' in sys.argv
VARIANT = set(sys.argv[sys.argv.index('--variant') + 1].split(',')) if '--variant' in sys.argv else set()


def argval(flag):
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else None


HITS = collections.defaultdict(set)   # rule tag -> {(case id, profile)}
CUR = {}


def hit(tag):
    HITS[tag].add((CUR.get('id'), CUR.get('prof')))


class Outcome(Exception):
    def __init__(self, o):
        self.o = o


def err(cls, msg):
    raise Outcome({'error': {'class': cls, 'message': msg}})


# ------------------------------------------------------------------ operands
def decode(a):
    """tensor dict -> (dtype, shape, values); floats are python floats rounded to dtype."""
    d = a['dtype']
    vals = []
    for x in a['data']:
        if d == 'bool': vals.append(bool(x))
        elif is_int(d): vals.append(int(x))
        else: vals.append(fl.rnd(d, fl.parse(x)))
    return d, list(a['shape']), vals


def convert(v, src, dst):
    """value conversion between dtypes (as an ordinary C cast / astype, in-range cases)."""
    if dst == 'bool':
        return bool(v)
    if is_int(dst):
        if src == 'bool': return int(v)
        if is_int(src): return wrap(v, dst)
        # float -> int: only used for in-range values in this area
        if math.isnan(v) or math.isinf(v): return None
        return wrap(int(v), dst)
    # dst float
    if src == 'bool': return 1.0 if v else 0.0
    if is_int(src): return fl.rnd_exact(dst, Fraction(v)) if v != 0 else 0.0
    return fl.rnd(dst, v)


def fw_of(p):
    return 'torch' if p.startswith('pytorch') else ('numpy' if p == 'numpy' else 'jax')


# ------------------------------------------------------------------ broadcasting
def bshape(shapes, fw):
    nd = max(len(s) for s in shapes)
    out = []
    for i in range(nd):
        dims = [s[len(s) - nd + i] if len(s) - nd + i >= 0 else 1 for s in shapes]
        ds = set(x for x in dims if x != 1)
        if len(ds) > 1:
            raise Outcome({'error': {'class': 'ShapeMismatch', 'message': 'broadcast %s' % shapes}})
        out.append(ds.pop() if ds else 1)
    return out


def bindex(shape, oshape, flat):
    # flat index in oshape -> flat index into (broadcast) shape
    idx = []
    for d in reversed(oshape):
        idx.append(flat % d); flat //= d
    idx = idx[::-1]
    off = len(oshape) - len(shape)
    f = 0
    for i, d in enumerate(shape):
        f = f * d + (0 if d == 1 else idx[off + i])
    return f


# ------------------------------------------------------------------ float helpers
def isnan(x): return isinstance(x, float) and math.isnan(x)
def sgnbit(x): return math.copysign(1.0, x) < 0


def fdiv(a, b):
    """IEEE a/b in f64 semantic (python raises on /0)."""
    if b == 0:
        if a == 0 or math.isnan(a): return math.nan
        return math.copysign(math.inf, a) * (1 if not sgnbit(b) else -1)
    if math.isinf(a) and math.isinf(b): return math.nan
    return a / b


def fmul(a, b):
    if (math.isinf(a) and b == 0) or (math.isinf(b) and a == 0): return math.nan
    return a * b


def fadd(a, b):
    if math.isinf(a) and math.isinf(b) and (a > 0) != (b > 0): return math.nan
    return a + b


def exact_op(op, a, b, dt):
    """correctly-rounded result of a op b in dtype dt (a, b are python floats)."""
    if op == 'add': r = fadd(a, b)
    elif op == 'sub': r = fadd(a, -b)
    elif op == 'mul': r = fmul(a, b)
    elif op == 'div': r = fdiv(a, b)
    if math.isnan(r) or math.isinf(r) or r == 0:
        return r   # IEEE specials and signed zeros from the f64 op are exact
    if dt == 'f64':
        return r   # python float op = correctly rounded binary64 (inf on overflow handled by python? see below)
    # exact rational for finite nonzero results, rounded once to dt
    A, B = Fraction(a), Fraction(b)
    q = {'add': A + B, 'sub': A - B, 'mul': A * B, 'div': A / B if b != 0 else None}[op]
    return fl.rnd_exact(dt, q)


def c_fmod(a, b):
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0: return math.nan
    if math.isinf(b): return a
    return math.fmod(a, b)


def pyfloor(x): return float(math.floor(x)) if not (math.isinf(x) or math.isnan(x)) else x


# ------------------------------------------------------------------ integer kernels
def ipow_torch(a, b, dt):
    if b < 0:
        if a == 1: return 1
        if a == -1: return -1 if ((-b) % 2) else 1
        return 0
    r = 1
    while b:
        if b & 1: r = wrap(r * a, dt)
        b >>= 1
        a = wrap(a * a, dt)
    return r


def ipow_jax(a, b, dt):
    # jnp.power integer path: 6 iterations of square-and-multiply over the low 6 bits of b
    acc = 0 if (a == 0 and b != 0) else 1
    bb = b % (1 << bits(dt))
    for _ in range(6):
        if bb & 1: acc = wrap(acc * a, dt)
        a = wrap(a * a, dt)
        bb >>= 1
    return acc


def ipow_np(a, b, dt):
    r = 1
    while b:
        if b & 1: r = wrap(r * a, dt)
        b >>= 1
        a = wrap(a * a, dt)
    return r


def tdiv(a, b):  # truncating division of python ints
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def cuda_idiv0(a, dt):
    """PyTorch CUDA integer x/0 and x%0 (observed): quotient and remainder are all-ones in the
    32-bit register the kernel computes in; for 64-bit operands nvcc takes a 32-bit unsigned
    fast path when both operands fit in 32 unsigned bits (quotient/remainder 0xFFFFFFFF,
    zero-extended), else the 64-bit routine (all ones = -1)."""
    if bits(dt) == 64:
        if 0 <= a % (1 << 64) < (1 << 32):
            return wrap(0xFFFFFFFF, dt), wrap(0xFFFFFFFF, dt)
        return wrap(-1, dt), wrap(-1, dt)
    return wrap(-1, dt), wrap(-1, dt)


# ------------------------------------------------------------------ the model
def predict(case, prof):
    try:
        return _predict(case, prof)
    except Outcome as e:
        return e.o


def _predict(case, prof):
    CUR['id'] = case['id']; CUR['prof'] = prof
    op = case['op']
    fw = fw_of(prof)
    cuda = prof == 'pytorch/cuda'
    gpu = 'gpu' in prof
    x64 = prof.endswith('x64')
    rules = []
    if op == 'trunc_div' and fw != 'torch':
        raise Outcome({'unsupported': {'message': 'no truncating integer division in this API'}})

    # --- operands
    opers = []   # per arg: dict(kind='tensor'|'scalar', dtype, shape, vals, skind, stext)
    for a in case['args']:
        if 'scalar' in a:
            k = a['kind']; t = a['scalar']
            if k == 'int': v = int(t)
            elif k == 'bool': v = (t == 'true')
            else: v = fl.parse(t)
            opers.append(dict(kind='scalar', skind=k, v=v, text=t))
        else:
            d, s, vals = decode(a)
            if fw == 'jax' and not x64 and d in ('i64', 'u64', 'f64'):
                nd = jax_canon(d, False)
                vals = [convert(v, d, nd) for v in vals]
                d = nd
            opers.append(dict(kind='tensor', dtype=d, shape=s, vals=vals))

    # --- result dtype
    desc = [('tensor', o['dtype'], len(o['shape'])) if o['kind'] == 'tensor' else ('scalar', o['skind']) for o in opers]
    if fw == 'torch':
        try:
            rt = torch_result_type(desc)
        except PromoErr as e:
            err('UnsupportedDType', 'RuntimeError: ' + str(e))
    elif fw == 'numpy':
        rt = np_result_type(desc)
        if op == 'pow' and rt == 'bool': rt = 'i8'     # np.power has no bool loop: ?? -> int8
    else:
        rt = jax_result_type(desc, x64)
        if op == 'pow' and rt == 'bool': rt = 'i32'    # jnp.power(bool, bool) -> int32 (observed, x64 too)

    # --- scalar range checks
    for o in opers:
        if o['kind'] == 'scalar' and o['skind'] == 'int':
            v = o['v']
            if fw == 'jax':
                lo, hi = (-(1 << 63), (1 << 63) - 1) if x64 else (-(1 << 31), (1 << 31) - 1)
                if not lo <= v <= hi:
                    err('OutOfRange', 'OverflowError: An overflow was encountered while parsing an argument to a jitted computation')
            if fw == 'numpy' and is_int(rt) and op != 'div':
                if not imin(rt) <= v <= imax(rt):
                    err('OutOfRange', 'OverflowError: Python integer %d out of bounds for %s' % (v, rt))

    # --- shape
    shapes = [o['shape'] for o in opers if o['kind'] == 'tensor']
    oshape = bshape(shapes, fw)
    n = 1
    for d in oshape: n *= d

    # compute dtype: the dtype both operands are converted to
    ct = rt
    if op == 'div' and not is_float(rt):
        # true division of integers/bools
        if fw == 'torch': ct = 'f32'
        elif fw == 'numpy': ct = 'f64'
        else:
            # jnp.true_divide: promote, then to_inexact: i8/u8/i16/u16/i32/u32/bool -> f32 (x64 too!), i64/u64 -> f64
            ct = 'f64' if (x64 and rt in ('i64', 'u64')) else 'f32'
        rules.append('div.int_to_float:%s' % ct)
    out_dt = ct if op == 'div' else rt
    if op in ('bitwise_and', 'bitwise_or', 'bitwise_xor') and is_float(ct):
        if fw == 'torch':
            err('UnsupportedDType', 'NotImplementedError: "%s_%s" not implemented for \'%s\'' % (op, 'cuda' if cuda else 'cpu', TORCH_NAME[ct]))
        if fw == 'numpy':
            err('UnsupportedDType', "TypeError: ufunc '%s' not supported for the input types" % op)
        err('UnsupportedDType', 'TypeError: %s does not accept dtype %s' % (op.split('_')[1], ct))

    # --- PyTorch kernel coverage
    if fw == 'torch':
        torch_kernel_check(op, ct, cuda, opers)

    # --- convert operand values to compute dtype
    # (scalar conversion is profile specific)
    cvals = []
    scal_opmath = {}
    for i, o in enumerate(opers):
        if o['kind'] == 'tensor':
            if 'exactdiv' in VARIANT and op == 'div' and is_int(o['dtype']):
                cvals.append([('X', v) for v in o['vals']])
                continue
            cvals.append([convert(v, o['dtype'], ct) for v in o['vals']])
        else:
            v = o['v']; k = o['skind']
            src = {'float': 'f64', 'int': None, 'bool': 'bool'}[k]
            if k == 'int':
                if is_int(ct): cv = wrap(v, ct)
                elif ct == 'bool': cv = bool(v)
                else: cv = fl.rnd_exact(ct, Fraction(v)) if v != 0 else 0.0
            else:
                cv = convert(v, src, ct)
            cvals.append([cv])
            # PyTorch: reduced-float kernels take the scalar in opmath (f32) instead of f16/bf16
            if fw == 'torch' and ct in ('f16', 'bf16') and k != 'bool' and 'noopmath' not in VARIANT:
                scal_opmath[i] = fl.rnd('f32', float(v))
    shapes_all = [o['shape'] if o['kind'] == 'tensor' else [] for o in opers]

    # numpy: negative integer exponent check (whole op)
    if op == 'pow' and fw == 'numpy' and is_int(ct):
        if any(v < 0 for v in cvals[1]):
            err('Other', 'ValueError: Integers to negative integer powers are not allowed.')

    # PyTorch CPU integer division by zero / MIN/-1 crash: checked over all elements
    res = []
    ctx = dict(op=op, fw=fw, prof=prof, cuda=cuda, gpu=gpu, x64=x64, ct=ct, rt=rt, opers=opers,
               scal_opmath=scal_opmath, rules=rules)
    for k in range(n):
        a = cvals[0][bindex(shapes_all[0], oshape, k)]
        b = cvals[1][bindex(shapes_all[1], oshape, k)]
        ctx['k'] = k
        res.append(elem(ctx, a, b))
    # PyTorch pow(int tensor, 2/3 scalar) etc. produce ints; div produces float
    data = [enc_val(v, out_dt) for v in res]
    out = {'value': {'dtype': out_dt, 'shape': oshape, 'data': data}}
    return out


def enc_val(v, dt):
    if dt == 'bool': return bool(v)
    if is_int(dt): return v
    return fl.enc(v)


TORCH_KNAME = {
    'add': ('add_stub', 'ufunc_add_CUDA'), 'sub': ('add_stub', 'ufunc_add_CUDA'), 'mul': ('mul_cpu', 'mul_cuda'),
    'floor_div': ('div_floor_cpu', 'div_floor_cuda'), 'trunc_div': ('div_trunc_cpu', 'div_trunc_cuda'),
    'rem': ('remainder_cpu', 'remainder_cuda'), 'fmod': ('fmod_cpu', 'fmod_cuda'),
    'maximum': ('maximum_cpu', 'max_elementwise_cuda'), 'minimum': ('minimum_cpu', 'minimum_cuda'),
    'pow': ('pow', 'pow_cuda'), 'bitwise_and': ('bitwise_and_cpu', 'bitwise_and_cuda'),
    'bitwise_or': ('bitwise_or_cpu', 'bitwise_or_cuda'), 'bitwise_xor': ('bitwise_xor_cpu', 'bitwise_xor_cuda'),
    'div': ('div_true_cpu', 'div_true_cuda'),
}


def torch_kernel_check(op, ct, cuda, opers):
    big_u = ct in ('u16', 'u32', 'u64')
    bad = False
    if op == 'sub' and any((o['kind'] == 'tensor' and o['dtype'] == 'bool') or (o['kind'] == 'scalar' and o['skind'] == 'bool') for o in opers):
        err('UnsupportedDType', 'RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. '
            'If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')
    if big_u:
        # barebones unsigned types: CPU has mul and bitwise kernels, CUDA has none of these
        if op in ('mul', 'bitwise_and', 'bitwise_or', 'bitwise_xor'):
            bad = cuda
        elif op == 'pow' and opers[1]['kind'] == 'scalar' and opers[1]['v'] in (0, 1, True, False):
            bad = False   # pow(t, 0) -> fill 1, pow(t, 1) -> copy: no kernel runs
        elif op == 'div':
            bad = False
        else:
            bad = True
    if ct == 'bool' and op in ('trunc_div', 'pow'):
        bad = True
        if op == 'pow' and opers[1]['kind'] == 'scalar' and opers[1]['v'] in (0, 1, True, False):
            bad = False
    if bad:
        name = TORCH_KNAME[op][1 if cuda else 0]
        err('UnsupportedDType', 'NotImplementedError: "%s" not implemented for \'%s\'' % (name, TORCH_NAME[ct]))


# ------------------------------------------------------------------ element semantics
def elem(ctx, a, b):
    op, fw, ct = ctx['op'], ctx['fw'], ctx['ct']
    if ct == 'bool':
        return elem_bool(ctx, a, b)
    if is_int(ct):
        return elem_int(ctx, a, b)
    return elem_float(ctx, a, b)


def elem_bool(ctx, a, b):
    op = ctx['op']
    if op in ('add', 'bitwise_or', 'maximum'): return a or b
    if op in ('mul', 'bitwise_and', 'minimum'): return a and b
    if op == 'bitwise_xor': return a != b
    if op == 'sub':  # numpy: TypeError; jax: ?
        if ctx['fw'] == 'numpy':
            err('Other', 'TypeError: numpy boolean subtract, the `-` operator, is not supported')
        return a != b
    if op == 'pow':
        return (not b) or a
    raise NotImplementedError(op)


def elem_int(ctx, a, b):
    op, fw, dt = ctx['op'], ctx['fw'], ctx['ct']
    cuda = ctx['cuda']
    s = signed(dt)
    if op == 'add': return wrap(a + b, dt)
    if op == 'sub': return wrap(a - b, dt)
    if op == 'mul': return wrap(a * b, dt)
    if op == 'maximum': return max(a, b)
    if op == 'minimum': return min(a, b)
    if op == 'bitwise_and': return wrap(a & b, dt)
    if op == 'bitwise_or': return wrap(a | b, dt)
    if op == 'bitwise_xor': return wrap(a ^ b, dt)
    if op == 'pow':
        if b < 0: hit('%s.ipow.negexp' % fw)
        elif b >= 64 and fw == 'jax': hit('jax.ipow.exp>=64')
        if fw == 'torch': return ipow_torch(a, b, dt)
        if fw == 'numpy': return ipow_np(a, b, dt)
        return ipow_jax(a, b, dt)
    # ---- division family
    if fw == 'torch':
        if b == 0:
            if not cuda:
                hit('torch.cpu.int_div0.%s' % op)
                err('ZeroDivision', 'RuntimeError: ZeroDivisionError')
            hit('torch.cuda.int_div0.%s.%s%s' % (op, dt, '.fast32' if bits(dt) == 64 and 0 <= a % (1 << 64) < (1 << 32) else ''))
            q, r = cuda_idiv0(a, dt)
            if op == 'trunc_div': return q
            if op == 'fmod': return r
            if op == 'rem':
                # r = a % b; if (r != 0 && signs_differ(r, b)) r += b   (b == 0)
                return r
            if op == 'floor_div':
                # div_floor_integer: if signs_differ(a,b): q = a/b; r = a%b; return r ? q-1 : q
                if (a < 0) != (b < 0):
                    return wrap(q - 1, dt) if r else q
                return q
        if s and a == imin(dt) and b == -1:
            hit('torch.minneg1.%s.%s.%s' % ('cuda' if cuda else 'cpu', op, dt))
            if op == 'trunc_div' and not cuda and bits(dt) >= 32:
                raise Outcome({'crash': {'signal': 'SIGFPE'}})
            if op in ('trunc_div', 'floor_div'): return imin(dt)
            if op in ('rem', 'fmod'): return 0
        if op == 'trunc_div': return wrap(tdiv(a, b), dt)
        if op == 'floor_div': return wrap(a // b, dt)
        if op == 'rem': return a % b
        if op == 'fmod': return a - tdiv(a, b) * b
    if fw == 'numpy':
        if b == 0:
            hit('numpy.int_div0.%s' % op)
            return 0
        if s and a == imin(dt) and b == -1:
            hit('numpy.minneg1.%s' % op)
            return imin(dt) if op == 'floor_div' else 0
        if op == 'floor_div': return a // b
        if op == 'rem': return a % b
        if op == 'fmod': return a - tdiv(a, b) * b
    if fw == 'jax':
        # XLA: x/0 = -1 (all ones), x%0 = x; MIN/-1 = MIN, MIN%-1 = 0
        def xdiv(x, y):
            if y == 0: return wrap(-1, dt)
            return wrap(tdiv(x, y), dt)

        def xrem(x, y):
            if y == 0: return x
            return wrap(x - tdiv(x, y) * y, dt)
        if op == 'floor_div':
            q = xdiv(a, b)
            if b == 0: hit('jax.int.floor_div0')
            if not s: return q
            sg = lambda v: (v > 0) - (v < 0)
            if sg(a) != sg(b) and xrem(a, b) != 0: return wrap(q - 1, dt)
            return q
        if op in ('rem', 'fmod'):
            if b == 0: hit('jax.int.%s0' % op)
            bb = 1 if b == 0 else b       # jnp.remainder / jnp.fmod replace a zero divisor by 1
            r = xrem(a, bb)
            if op == 'fmod': return r
            if r != 0 and ((r < 0) != (bb < 0)): r = wrap(r + bb, dt)
            return r
    raise NotImplementedError((fw, op))


def elem_float(ctx, a, b):
    op, fw, dt, prof = ctx['op'], ctx['fw'], ctx['ct'], ctx['prof']
    if isinstance(a, tuple) or isinstance(b, tuple):   # variant exactdiv: round(a/b) from exact ints
        A = Fraction(a[1]) if isinstance(a, tuple) else Fraction(a)
        B = Fraction(b[1]) if isinstance(b, tuple) else Fraction(b)
        if B == 0:
            return fdiv(float(A), 0.0)
        return fl.rnd_exact(dt, A / B)
    so = ctx['scal_opmath']
    cuda = ctx['cuda']
    opers = ctx['opers']
    if op in ('add', 'sub', 'mul', 'div'):
        if fw == 'torch' and so:
            # reduced-float tensor (f16/bf16) with a Python scalar: compute in f32 with the scalar
            # taken in f32 (not first rounded to f16/bf16), round once.
            if 1 in so: b = so[1]
            if 0 in so: a = so[0]
            if op == 'div' and 1 in so and cuda:
                r = fmul(a, fl.rnd('f32', fdiv(1.0, b)))
                return fl.rnd(dt, fl.rnd('f32', r))
            return fl.rnd(dt, exact_op(op, a, b, 'f32'))
        if op == 'div' and fw == 'jax':
            odt = 'f64' if dt == 'f64' else 'f32'    # XLA computes f16/bf16 elementwise in f32
            if ('nojaxrcp' not in VARIANT and ctx['gpu'] and odt == 'f32') or ('nojaxrcp' not in VARIANT and not ctx['gpu'] and opers[1]['kind'] == 'scalar'):
                # a * (1/b): XLA GPU f32 division, and XLA CPU division by a (broadcast) scalar
                ctx['rules'].append('jax.div_as_mul_reciprocal')
                r = fl.rnd(odt, fdiv(1.0, b))
                return fl.rnd(dt, exact_op('mul', a, r, odt))
            return fl.rnd(dt, exact_op(op, a, b, odt))
        if op == 'div' and opers[1]['kind'] == 'scalar' and fw == 'torch' and cuda and 'notorchrcp' not in VARIANT:
            # division by a CPU scalar = multiplication by its reciprocal (computed in dt)
            r = fdiv(1.0, b) if dt == 'f64' else fl.rnd(dt, fdiv(1.0, b))
            return exact_op('mul', a, r, dt)
        if op == 'div' and fw == 'torch' and opers[0]['kind'] == 'scalar' and 'nordiv' not in VARIANT:
            # `s / t` is t.reciprocal() * s
            r = fl.rnd(dt, fdiv(1.0, b))
            return exact_op('mul', r, a, dt)
        return exact_op(op, a, b, dt)
    if op in ('maximum', 'minimum'):
        if isnan(a) or isnan(b): return math.nan
        if a == b == 0: hit('%s.%s.zeros.%s' % (prof, op, dt))
        if a == b == 0 and fw == 'numpy' and dt == 'f16':
            return a     # numpy float16 scalar loop: (a >= b || isnan(a)) ? a : b  -> first operand
        if a == b == 0 and (prof == 'pytorch/cpu' or fw == 'numpy'):
            return b     # x86 maxps/minps: equal operands (+0 vs -0) -> second operand
        if a == b == 0:
            # -0 vs +0
            if op == 'maximum': return a if not sgnbit(a) else b
            return a if sgnbit(a) else b
        return max(a, b) if op == 'maximum' else min(a, b)
    if op == 'fmod':
        return fl.rnd(dt, c_fmod(a, b))
    if op == 'rem':
        return float_rem(ctx, a, b)
    if op in ('floor_div', 'trunc_div'):
        return float_floordiv(ctx, a, b) if op == 'floor_div' else float_truncdiv(ctx, a, b)
    if op == 'pow':
        return float_pow(ctx, a, b)
    raise NotImplementedError(op)


def float_rem(ctx, a, b):
    fw, dt = ctx['fw'], ctx['ct']
    mod = c_fmod(a, b)
    if fw == 'torch':
        if mod != 0 and not isnan(mod) and ((b < 0) != (mod < 0)):
            mod = fl.rnd(dt, mod + b)
        return mod
    if fw == 'numpy':
        if b == 0: return mod
        if isnan(mod): return mod
        if mod != 0:
            if (b < 0) != (mod < 0): mod = fl.rnd(dt, mod + b)
        else:
            mod = math.copysign(0.0, b)
        return mod
    # jax remainder: trunc_mod = rem(x, y); do_plus = (trunc_mod<0) != (y<0) and trunc_mod != 0
    if not isnan(mod) and mod != 0 and ((mod < 0) != (b < 0)):
        return fl.rnd(dt, fadd(mod, b))
    return mod


def float_floordiv(ctx, a, b):
    fw, dt = ctx['fw'], ctx['ct']
    R = lambda x: fl.rnd(dt, x)
    if 'opmathfd' in VARIANT and dt in ('f16', 'bf16'):
        c2 = dict(ctx); c2['ct'] = 'f32'
        return R(float_floordiv(c2, a, b))
    if fw in ('torch', 'numpy'):
        if b == 0:
            return fdiv(a, b)
        mod = c_fmod(a, b)
        div = R(fdiv(R(fadd(a, -mod)), b))
        if mod != 0 and not isnan(mod) and ((b < 0) != (mod < 0)):
            div = R(div - 1.0)
        if div != 0 and not isnan(div):
            fd = pyfloor(div)
            if not math.isinf(div) and div - fd > 0.5: fd += 1.0
            return R(fd)
        if isnan(div): return div
        return math.copysign(0.0, fdiv(a, b))
    # jax _float_divmod: mod = rem(x1,x2); x1c = where(x2 == 0, x1, x1 - mod); div = x1c/x2;
    # ind = mod != 0 & sign(x2) != sign(mod); div = select(ind, div - 1, div); round(div)
    mod = c_fmod(a, b)
    div = R(fdiv(a if b == 0 else R(fadd(a, -mod)), b))
    sg = lambda v: math.nan if isnan(v) else float((v > 0) - (v < 0))
    if mod != 0 and sg(b) != sg(mod) and not isnan(mod):
        div = R(div - 1.0)
    # lax.round (half away from zero)
    if isnan(div) or math.isinf(div): return div
    r = math.floor(abs(div) + 0.5)
    r = math.copysign(float(r), div)
    return R(r)


def float_truncdiv(ctx, a, b):
    dt = ctx['ct']
    q = exact_op('div', a, b, dt)
    if isnan(q) or math.isinf(q): return q
    return math.copysign(float(math.trunc(q)), q)


def float_pow(ctx, a, b):
    dt = ctx['ct']
    try:
        r = math.pow(a, b)
    except OverflowError:
        r = math.inf if (a > 0 or float(b).is_integer() and int(b) % 2 == 0) else -math.inf
    except ValueError:
        if a == 0 and b < 0:
            r = math.inf if not (sgnbit(a) and float(b).is_integer() and int(b) % 2 == 1) else -math.inf
        else:
            r = math.nan
    return fl.rnd(dt, r)


# ------------------------------------------------------------------ comparison
def ulps(x, y, dt):
    """distance in units of the last place of dt (finite values)."""
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y): return 10**9
    p, emin, emax = fl.FMT[dt]
    m = max(abs(x), abs(y))
    e = max(math.frexp(m)[1] - 1, emin) if m else emin
    return abs(Fraction(x) - Fraction(y)) / Fraction(2) ** (e - p + 1)


TOL = {}   # (case id, profile) -> max ulps needed, filled by compare


def compare(pred, real, key=None):
    fp, fr = cases.form(pred), cases.form(real)
    if fp != fr: return False, 'form %s vs %s' % (fp, fr)
    if fp == 'error':
        return pred['error']['class'] == real['error']['class'], 'class %s vs %s' % (pred['error']['class'], real['error']['class'])
    if fp in ('crash',):
        return pred['crash'] == real['crash'], ''
    if fp == 'unsupported':
        return True, ''
    pv, rv = pred['value'], real['value']
    if pv['dtype'] != rv['dtype']: return False, 'dtype %s vs %s' % (pv['dtype'], rv['dtype'])
    if pv['shape'] != rv['shape']: return False, 'shape %s vs %s' % (pv['shape'], rv['shape'])
    bad = []
    for i, (x, y) in enumerate(zip(pv['data'], rv['data'])):
        if y == '?': continue
        if is_float(pv['dtype']):
            ok = fl.feq(fl.parse(x), fl.parse(y))
            if not ok and key is not None:
                TOL[key] = max(TOL.get(key, 0), ulps(fl.parse(x), fl.parse(y), pv['dtype']))
        else:
            ok = x == y
        if not ok: bad.append(i)
    if bad:
        return False, 'elements %d/%d differ: %s' % (len(bad), len(rv['data']),
                                                     '; '.join('[%d] %s vs %s' % (i, pv['data'][i], rv['data'][i]) for i in bad[:6]))
    return True, ''


def main():
    want_op = argval('--op'); want_prof = argval('--prof'); want_id = argval('--id'); want_grp = argval('--group')
    tot = collections.Counter(); ok = collections.Counter(); tolok = collections.Counter()
    misses = []
    for c in cases.load():
        if want_op and c['op'] != want_op: continue
        if want_id and c['id'] != want_id: continue
        if want_grp and c.get('group') != want_grp: continue
        for p in PROFILES:
            if want_prof and p != want_prof: continue
            if p not in c['expect']: continue
            try:
                pred = predict(c, p)
            except Exception as e:
                pred = {'error': {'class': 'SIMFAIL', 'message': repr(e)}}
            good, why = compare(pred, c['expect'][p], (c['id'], p))
            if not good and '--tol' in sys.argv and (c['id'], p) in TOL and why.startswith('elements'):
                # documented tolerances: float pow everywhere <= 1 ulp (libm/SVML/CUDA pow);
                # JAX GPU f16/bf16/f32 true division <= 2 ulp (approximate reciprocal)
                lim = 1 if c['op'] == 'pow' else (2 if (c['op'] == 'div' and 'gpu' in p) else 0)
                if TOL[(c['id'], p)] <= lim:
                    good = True; tolok[p] += 1
            if not good and (c['id'], p) in TOL: why += ' (max %.2f ulp)' % float(TOL[(c['id'], p)])
            tot[p] += 1
            if good: ok[p] += 1
            else: misses.append((c['id'], c['op'], c.get('group'), p, why, c))
    if '--hits' in sys.argv:
        for t in sorted(HITS):
            print('HIT', t, len(HITS[t]), sorted(HITS[t])[:4])
    for p in PROFILES:
        if tot[p]: print('%-12s %4d/%4d%s' % (p, ok[p], tot[p], ('  (%d of them only within tolerance)' % tolok[p]) if tolok[p] else ''))
    print('total %d/%d' % (sum(ok.values()), sum(tot.values())))
    if VERB:
        for m in misses:
            c = m[5]
            args = ' '.join(('%s%s' % (a['dtype'], a['shape'])) if 'dtype' in a else 'S(%s %s)' % (a['kind'], a['scalar']) for a in c['args'])
            print('%s %s %s %s [%s]: %s' % (m[0], m[1], m[2], m[3], args, m[4]))


if __name__ == '__main__':
    main()
