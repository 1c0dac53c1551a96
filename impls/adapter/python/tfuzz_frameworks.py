"""How the reference adapter (tfuzz_adapter.py) builds inputs and spells each
op of the case-format catalog in PyTorch, NumPy and JAX, and which frameworks
it loads. One Framework subclass per framework; tfuzz_adapter.py reads the
requests, runs the cases and writes the outcomes. Standard library only: the
frameworks are imported in load_frameworks."""

import contextlib
import operator
import os
import platform

DTYPES = ("bool", "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64",
          "f16", "bf16", "f32", "f64", "c64", "c128")
INT_BITS = {"u8": 8, "i8": 8, "u16": 16, "i16": 16, "u32": 32, "i32": 32, "u64": 64, "i64": 64}
FLOATS = ("f16", "bf16", "f32", "f64")
COMPLEX = ("c64", "c128")
NUMPY_NAMES = {"bool": "bool", "u8": "uint8", "i8": "int8", "u16": "uint16", "i16": "int16",
               "u32": "uint32", "i32": "int32", "u64": "uint64", "i64": "int64",
               "f16": "float16", "f32": "float32", "f64": "float64",
               "c64": "complex64", "c128": "complex128"}

BINARY_OPERATORS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
    "floor_div": operator.floordiv, "rem": operator.mod, "pow": operator.pow,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_, "bitwise_xor": operator.xor,
}
UNARY_FUNCTIONS = ("abs", "sign", "sqrt", "exp", "floor", "ceil", "round", "trunc", "square")
REDUCTIONS = ("sum", "prod", "mean", "max", "min", "argmax", "argmin")


class Unsupported(Exception):
    """The framework (or this installation of it) has no such operation or dtype."""


# --- case-format values ---------------------------------------------------------------------

def parse_float(text):
    t = text.strip().lower()
    if t.lstrip("+-").startswith("0x"):
        return float.fromhex(t)
    return float(t)


def host_elements(t):
    """The flat host list of a case-format tensor, as Python bool/int/float/complex."""
    d, data = t["dtype"], t["data"]
    if d == "bool":
        return [bool(x) for x in data]
    if d in INT_BITS:
        return [int(x) for x in data]
    if d in FLOATS:
        return [parse_float(x) for x in data]
    return [complex(parse_float(x[0]), parse_float(x[1])) for x in data]


def format_float(x):
    return repr(float(x))


def encode_tensor(dtype, shape, flat):
    if dtype == "bool":
        data = [bool(x) for x in flat]
    elif dtype in INT_BITS:
        data = [int(x) for x in flat]
    elif dtype in FLOATS:
        data = [format_float(x) for x in flat]
    else:
        data = [[format_float(complex(x).real), format_float(complex(x).imag)] for x in flat]
    return {"dtype": dtype, "shape": [int(s) for s in shape], "data": data}


def error_text(exc):
    """An exception as the protocol writes it: "Type: first line of the message"."""
    lines = str(exc).strip().splitlines()
    first = lines[0] if lines else ""
    return ("%s: %s" % (type(exc).__name__, first))[:500]


def slices(spec):
    """A view's slices ([start, stop, step] per dim) as an index."""
    return tuple(slice(a, b, c) for a, b, c in spec)


# --- frameworks -----------------------------------------------------------------------------

class Framework:
    """One framework on one device; subclasses spell the ops."""

    name = ""

    def __init__(self, profile):
        self.profile = profile

    def context(self):
        """A context manager that sets the framework up for a case of this profile."""
        return contextlib.nullcontext()

    def make(self, t):
        raise NotImplementedError

    def binary(self, op, a, b):
        if op == "trunc_div":
            raise Unsupported("no truncating integer division in this API")
        if op in BINARY_OPERATORS:
            return BINARY_OPERATORS[op](a, b)
        return getattr(self.ns, op)(a, b)  # fmod, maximum, minimum

    def unary(self, op, a):
        if op == "neg":
            return -a
        if op == "bitwise_not":
            return ~a
        return getattr(self.ns, op)(a)

    def dtype_kw(self, dtype):
        """The dtype= keyword argument of a case's dtype attr: {} when absent."""
        return {} if dtype is None else {"dtype": self.dtype(dtype)}

    def cumsum(self, a, dim, dtype):
        # Without dim: axis=None, over the flattened array.
        return self.ns.cumsum(a, axis=dim, **self.dtype_kw(dtype))

    def index_select(self, a, idx, dim):
        return self.ns.take(a, idx, axis=dim)

    def reduce(self, op, a, dim, keepdim, dtype):
        # Without dim: over all elements, as a.sum() (which takes no keepdim).
        fn, kw = getattr(self.ns, op), self.dtype_kw(dtype)
        if dim is None:
            return fn(a, **kw)
        return fn(a, axis=dim, keepdims=bool(keepdim), **kw)

    def literal(self, lit, dtype):
        return self.ns.array(lit, **self.dtype_kw(dtype))

    def arange(self, start, end, dtype):
        return self.ns.arange(start, end, **self.dtype_kw(dtype))

    def zeros(self, shape, dtype):
        if dtype is None:
            return self.ns.zeros(tuple(shape))
        return self.ns.zeros(tuple(shape), dtype=self.dtype(dtype))

    def reshape(self, a, shape):
        return a.reshape(tuple(shape))

    def tolist(self, a):
        return a.tolist()

    def cast(self, a, to):
        return a.astype(self.dtype(to))

    # the ops added 2026-12

    def shift(self, op, a, b):
        return getattr(self.ns, {"shift_left": "left_shift", "shift_right": "right_shift"}[op])(a, b)

    def where(self, cond, a, b):
        return self.ns.where(cond, a, b)

    def clamp(self, a, lo, hi):
        return self.ns.clip(a, lo, hi)  # None for a bound not given

    def cat(self, ts, dim):
        return self.ns.concatenate(ts, axis=dim)

    def sort(self, op, a, dim, descending, stable):
        # NumPy: stable= from 2.0, descending= from 2.5; each is passed only
        # when set, so that an installation without it answers (TypeError) only then.
        kw = {}
        if stable:
            kw["stable"] = True
        if descending:
            kw["descending"] = True
        return getattr(self.ns, op)(a, axis=dim, **kw)  # sort, argsort

    def mask_select(self, a, mask):
        return a[mask]

    def full(self, shape, value, dtype):
        return self.ns.full(tuple(shape), value, **self.dtype_kw(dtype))

    def matmul(self, a, b):
        return self.ns.matmul(a, b)

    def view(self, x, v):
        """The view's steps on its storage x, with the framework's own view ops."""
        perm = v.get("permute")
        if perm:
            x = self.ns.transpose(x, tuple(perm))
        if v.get("slice"):
            x = x[slices(v["slice"])]
        if v.get("expand") is not None:
            x = self.ns.broadcast_to(x, tuple(v["expand"]))
        return x


class NumPy(Framework):
    name = "numpy"

    def __init__(self, profile, np, ml_dtypes):
        super().__init__(profile)
        self.np = self.ns = np
        self.ml_dtypes = ml_dtypes
        self.version = "numpy " + np.__version__

    def dtype(self, d):
        if d == "bf16":
            if self.ml_dtypes is None:
                raise Unsupported("%s has no bfloat16 (ml_dtypes is not installed)" % self.version)
            return self.ml_dtypes.bfloat16
        return self.np.dtype(NUMPY_NAMES[d])

    def make(self, t):
        return self.np.array(host_elements(t), dtype=self.dtype(t["dtype"])).reshape(tuple(t["shape"]))

    def result(self, r):
        return numpy_result(self.np, self.np.asarray(r))


def numpy_result(np, r):
    name = r.dtype.name
    if name == "bfloat16":
        return encode_tensor("bf16", r.shape, r.astype(np.float32).ravel().tolist())
    for d, n in NUMPY_NAMES.items():
        if n == name:
            return encode_tensor(d, r.shape, r.ravel().tolist())
    raise Unsupported("result dtype %s is not in the case format" % name)


class Torch(Framework):
    name = "torch"

    def __init__(self, profile, torch, np, device):
        super().__init__(profile)
        self.torch = self.ns = torch
        self.np = np
        self.device = device
        self.version = "torch " + torch.__version__
        self.dtypes = {"bool": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16,
                       "i32": torch.int32, "i64": torch.int64, "f16": torch.float16,
                       "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
                       "c64": torch.complex64, "c128": torch.complex128}
        for d, n in (("u16", "uint16"), ("u32", "uint32"), ("u64", "uint64")):
            if hasattr(torch, n):
                self.dtypes[d] = getattr(torch, n)
        self.names = {v: k for k, v in self.dtypes.items()}

    def dtype(self, d):
        if d not in self.dtypes:
            raise Unsupported("%s has no %s dtype" % (self.version, NUMPY_NAMES.get(d, d)))
        return self.dtypes[d]

    def make(self, t):
        d, shape = t["dtype"], tuple(t["shape"])
        dt = self.dtype(d)
        if d in ("u16", "u32", "u64"):  # torch.tensor takes no such host lists; the oracle used from_numpy
            if self.np is None:
                raise Unsupported("%s without numpy cannot build %s tensors" % (self.version, d))
            arr = self.np.array(host_elements(t), dtype=NUMPY_NAMES[d]).reshape(shape)
            return self.torch.from_numpy(arr).to(self.device)
        return self.torch.tensor(host_elements(t), dtype=dt, device=self.device).reshape(shape)

    def binary(self, op, a, b):
        if op == "trunc_div":
            return self.torch.div(a, b, rounding_mode="trunc")
        return Framework.binary(self, op, a, b)

    def cumsum(self, a, dim, dtype):
        kw = self.dtype_kw(dtype)
        if dim is None:  # torch.cumsum requires dim: TypeError, as a program without one gets
            return self.torch.cumsum(a, **kw)
        return self.torch.cumsum(a, dim=dim, **kw)

    def index_select(self, a, idx, dim):
        return a.index_select(dim, idx)

    def reduce(self, op, a, dim, keepdim, dtype):
        torch, kw = self.torch, self.dtype_kw(dtype)  # dtype: sum, prod, mean only
        if dim is None:  # over all elements: a.sum(), a.max() (keepdim needs a dim)
            return getattr(a, op)(**kw)
        k = bool(keepdim)
        if op == "max":
            return torch.amax(a, dim=dim, keepdim=k)
        if op == "min":
            return torch.amin(a, dim=dim, keepdim=k)
        return getattr(a, op)(dim=dim, keepdim=k, **kw)

    def literal(self, lit, dtype):
        return self.torch.tensor(lit, device=self.device, **self.dtype_kw(dtype))

    def arange(self, start, end, dtype):
        return self.torch.arange(start, end, device=self.device, **self.dtype_kw(dtype))

    def shift(self, op, a, b):
        fn = {"shift_left": self.torch.bitwise_left_shift, "shift_right": self.torch.bitwise_right_shift}[op]
        return fn(a, b)

    def clamp(self, a, lo, hi):
        return self.torch.clamp(a, lo, hi)

    def cat(self, ts, dim):
        return self.torch.cat(list(ts), dim=dim)

    def sort(self, op, a, dim, descending, stable):
        r = self.torch.sort(a, dim=dim, descending=bool(descending), stable=bool(stable))
        return r.values if op == "sort" else r.indices

    def full(self, shape, value, dtype):
        return self.torch.full(tuple(shape), value, device=self.device, **self.dtype_kw(dtype))

    def zeros(self, shape, dtype):
        if dtype is None:
            return self.torch.zeros(tuple(shape), device=self.device)
        return self.torch.zeros(tuple(shape), dtype=self.dtype(dtype), device=self.device)

    def cast(self, a, to):
        return a.to(self.dtype(to))

    def view(self, x, v):
        perm = v.get("permute")
        if perm:
            x = x.permute(*perm)
        if v.get("slice"):
            x = x[slices(v["slice"])]
        if v.get("expand") is not None:
            x = x.expand(*v["expand"])
        return x

    def tolist(self, a):
        if self.names.get(a.dtype) in ("u16", "u32", "u64"):
            return self.result(a)["data"]  # flat; HostValues keeps the shape
        return a.tolist()

    def result(self, r):
        torch = self.torch
        if not isinstance(r, torch.Tensor):
            raise Unsupported("result of type %s is not a tensor" % type(r).__name__)
        r = r.detach().cpu()
        d = self.names.get(r.dtype)
        if d is None:
            raise Unsupported("result dtype %s is not in the case format" % r.dtype)
        shape = tuple(r.shape)
        flat = r.reshape(-1)
        if d in ("f16", "bf16"):
            values = flat.to(torch.float32).tolist()
        elif d in ("u16", "u32", "u64"):
            # read the bits as the signed type of the same width (no kernel
            # needed for the "shell" unsigned dtypes of PyTorch 2.x)
            signed = {"u16": torch.int16, "u32": torch.int32, "u64": torch.int64}[d]
            mask = (1 << INT_BITS[d]) - 1
            values = [v & mask for v in flat.view(signed).tolist()]
        else:
            values = flat.tolist()
        return encode_tensor(d, shape, values)


class Jax(Framework):
    name = "jax"

    def __init__(self, profile, jax, jnp, np, device, x64):
        super().__init__(profile)
        self.jax, self.ns, self.np = jax, jnp, np
        self.device, self.x64 = device, x64
        self.version = "jax " + jax.__version__

    x64_now = None  # the jax_enable_x64 this process last set (tfuzz keeps one profile per process)

    def context(self):
        if Jax.x64_now != self.x64:
            self.jax.config.update("jax_enable_x64", self.x64)
            Jax.x64_now = self.x64
        default_device = getattr(self.jax, "default_device", None)
        if default_device is not None:
            return default_device(self.device)
        self.jax.config.update("jax_default_device", self.device)
        return contextlib.nullcontext()

    def dtype(self, d):
        if d == "bf16":
            return self.ns.bfloat16
        return self.np.dtype(NUMPY_NAMES[d])

    def make(self, t):
        arr = self.np.array(host_elements(t), dtype=self.dtype(t["dtype"])).reshape(tuple(t["shape"]))
        return self.ns.asarray(arr)

    def sort(self, op, a, dim, descending, stable):
        # jnp.sort / jnp.argsort take both; stable defaults to True there
        return getattr(self.ns, op)(a, axis=dim, stable=bool(stable), descending=bool(descending))

    def result(self, r):
        return numpy_result(self.np, self.np.asarray(r))


def load_frameworks():
    """Imports what it can; returns ({profile: Framework}, {name: version}, notes)."""
    wanted = os.environ.get("TFUZZ_ADAPTER_FRAMEWORKS", "numpy,torch,jax").split(",")
    wanted = [w.strip() for w in wanted if w.strip()]
    fws, versions, notes = {}, {"python": platform.python_version()}, []
    np = None
    try:
        import numpy as np
        versions["numpy"] = np.__version__
    except Exception as e:  # noqa: BLE001 - any import failure means "not installed"
        notes.append("numpy: not available (%s)" % error_text(e))
    ml_dtypes = None
    try:
        import ml_dtypes
        versions["ml_dtypes"] = getattr(ml_dtypes, "__version__", "?")
    except Exception:  # noqa: BLE001
        pass
    if np is not None and "numpy" in wanted:
        arm = platform.machine().lower() in ("arm64", "aarch64")
        name = "numpy/cpu-arm64" if arm else "numpy"
        fws[name] = NumPy(name, np, ml_dtypes)
        if ml_dtypes is None:
            notes.append("numpy: no bfloat16 (ml_dtypes is not installed)")
    if "torch" in wanted:
        try:
            import torch
            versions["torch"] = torch.__version__
            torch.set_num_threads(1)
            arm = platform.machine().lower() in ("arm64", "aarch64")
            cpu = "pytorch/cpu-arm64" if arm else "pytorch/cpu"
            fws[cpu] = Torch(cpu, torch, np, "cpu")
            if torch.cuda.is_available():
                fws["pytorch/cuda"] = Torch("pytorch/cuda", torch, np, "cuda")
                versions["cuda-device"] = torch.cuda.get_device_name(0)
            mps = getattr(torch.backends, "mps", None)
            if mps is not None and mps.is_available():
                fws["pytorch/mps"] = Torch("pytorch/mps", torch, np, "mps")
        except Exception as e:  # noqa: BLE001
            notes.append("torch: not available (%s)" % error_text(e))
    if "jax" in wanted and np is not None:
        try:
            import jax
            import jax.numpy as jnp
            versions["jax"] = jax.__version__
            try:
                import jaxlib
                versions["jaxlib"] = jaxlib.__version__
            except Exception:  # noqa: BLE001
                pass
            cpu = jax.devices("cpu")[0]
            for x64 in (False, True):
                p = "jax/cpu-x%d" % (64 if x64 else 32)
                fws[p] = Jax(p, jax, jnp, np, cpu, x64)
            try:
                gpu = jax.devices("gpu")[0]
                for x64 in (False, True):
                    p = "jax/gpu-x%d" % (64 if x64 else 32)
                    fws[p] = Jax(p, jax, jnp, np, gpu, x64)
            except Exception:  # noqa: BLE001 - no GPU backend
                pass
        except Exception as e:  # noqa: BLE001
            notes.append("jax: not available (%s)" % error_text(e))
    only = os.environ.get("TFUZZ_ADAPTER_PROFILES", "")
    if only.strip():
        keep = {p.strip() for p in only.split(",")}
        fws = {p: f for p, f in fws.items() if p in keep}
    return fws, versions, notes
