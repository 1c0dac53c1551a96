#!/usr/bin/env python3
"""tfuzz reference adapter: runs case-format cases through real PyTorch, NumPy and JAX.

The protocol is described in ../PROTOCOL.md. In short: at start the adapter
prints one handshake line (its framework versions and the profiles it serves);
then, for every line it reads on standard input (one case in case format v1,
with an added top-level "profile"; views and format 2 programs included, as
its handshake's "features" say), it prints exactly one line on standard
output: the outcome, in case format v1.

Only the standard library is required; the profiles served are those whose
framework imports:

  numpy, numpy/cpu-arm64         numpy on the host CPU (by the host's architecture;
                                 bf16 through ml_dtypes when it imports)
  pytorch/cpu, pytorch/cpu-arm64 torch on the host CPU (by the host's architecture)
  pytorch/cuda, pytorch/mps      torch on CUDA / Apple MPS, when available
  jax/cpu-x32, jax/cpu-x64       jax on CPU, jax_enable_x64 off / on
  jax/gpu-x32, jax/gpu-x64       jax on a GPU, when one is visible

Each op is spelled as the oracle's runs spelled it (corpus/oracle/README.md):
operators for the arithmetic, comparison and bitwise ops (a Python scalar
operand is a Python float/int/bool on its side), torch.div(rounding_mode="trunc"),
fmod/maximum/minimum functions, .to(dtype)/.astype(dtype), reductions over all
elements or along dim with keepdim (torch.amax/amin with a dim), cumsum along
dim (0 when absent), index_select / take(axis=dim), torch.tensor/np.array/jnp.array
of a literal, arange(start, end).

Environment:
  TFUZZ_ADAPTER_FRAMEWORKS  comma list of numpy,torch,jax to try (default: all three)
  TFUZZ_ADAPTER_PROFILES    comma list restricting the profiles served
"""

import ast
import contextlib
import json
import math
import operator
import os
import platform
import struct
import sys
import warnings

PROTOCOL = 1

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


def scalar_value(s):
    kind, text = s["kind"], s["scalar"]
    if kind == "bool":
        return text == "true"
    if kind == "int":
        return int(text)
    return parse_float(text)


def parse_literal(text):
    """A literal's text: JSON ("[true, 1.0]") or Python ("[True, 1.0]")."""
    try:
        return json.loads(text)
    except ValueError:
        return ast.literal_eval(text)


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


# --- error classes --------------------------------------------------------------------------

# (substring of "Type: message", class), first match wins; the classes are
# those the oracle's runner chose for these messages.
ERROR_RULES = (
    ("ZeroDivisionError", "ZeroDivision"),
    ("Promotion for uint16, uint32, uint64 types is not supported", "UnsupportedDType"),
    ("not implemented for", "UnsupportedDType"),
    ("does not support bool input", "UnsupportedDType"),
    ("could not infer output dtype", "UnsupportedDType"),
    ("with a bool tensor is not supported", "UnsupportedDType"),
    ("with two bool tensors is not supported", "UnsupportedDType"),
    ("on a bool tensor is not supported", "UnsupportedDType"),
    ("boolean negative, the `-` operator, is not supported", "UnsupportedDType"),
    ("boolean subtract, the `-` operator, is not supported", "UnsupportedDType"),
    ("doesn't support float64", "UnsupportedDType"),
    ("not supported for the input types", "UnsupportedDType"),
    ("did not contain a loop with signature", "UnsupportedDType"),
    ("does not accept dtype", "UnsupportedDType"),
    ("Expected reduction dim to be specified for input.numel() == 0. Specify", "EmptyTensor"),
    ("zero-size array to reduction operation", "EmptyTensor"),
    ("attempt to get argmax of an empty sequence", "EmptyTensor"),
    ("attempt to get argmin of an empty sequence", "EmptyTensor"),
    ("Expected dtype int32 or int64 for index", "IndexDType"),
    ("Expected dtype int64 or int32 for index", "IndexDType"),
    ("indices must have an integer type", "IndexDType"),
    ("INDICES element is out of DATA bounds", "IndexOutOfRange"),
    # CUDA kernels assert on the device only for bad indices in this catalog.
    ("device-side assert triggered", "IndexOutOfRange"),
    ("index out of range in self", "IndexOutOfRange"),
    ("self indexing axis dim should be positive", "IndexOutOfRange"),
    ("is out of bounds for axis", "IndexOutOfRange"),
    ("must match the size of tensor", "ShapeMismatch"),
    ("could not be broadcast together", "ShapeMismatch"),
    ("incompatible shapes for broadcasting", "ShapeMismatch"),
    ("Incompatible shapes for broadcasting", "ShapeMismatch"),
    ("is invalid for input of size", "ShapeMismatch"),
    ("cannot reshape array", "ShapeMismatch"),
    ("out of bounds for array of dimension", "OutOfRange"),
    ("An overflow was encountered while parsing an argument", "OutOfRange"),
    ("Overflow when unpacking long", "OutOfRange"),
    ("cannot be converted to type", "OutOfRange"),  # "... uint8_t without overflow"
    ("out of bounds for", "OutOfRange"),
    ("Integers to negative integer powers are not allowed", "Other"),
)
TYPE_RULES = (
    ("ZeroDivisionError", "ZeroDivision"),
    ("IndexError", "IndexOutOfRange"),
    ("OverflowError", "OutOfRange"),
    ("NotImplementedError", "UnsupportedDType"),
)


def error_text(exc):
    lines = str(exc).strip().splitlines()
    first = lines[0] if lines else ""
    return ("%s: %s" % (type(exc).__name__, first))[:500]


def classify(exc, text):
    # numpy's "Cannot cast array data from dtype('float64') to dtype('int64')"
    # is only raised by take() for its indices in this catalog.
    if "Cannot cast array data from dtype" in text:
        return "IndexDType"
    for needle, cls in ERROR_RULES:
        if needle in text:
            return cls
    for name, cls in TYPE_RULES:
        if any(k.__name__ == name for k in type(exc).__mro__):
            return cls
    return "Other"


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

    def cumsum(self, a, dim):
        return self.ns.cumsum(a, axis=dim)

    def index_select(self, a, idx, dim):
        return self.ns.take(a, idx, axis=dim)

    def reduce(self, op, a, dim, keepdim):
        # Without dim: over all elements, as a.sum() (which takes no keepdim).
        fn = getattr(self.ns, op)
        if dim is None:
            return fn(a)
        return fn(a, axis=dim, keepdims=bool(keepdim))

    def literal(self, lit):
        return self.ns.array(lit)

    def arange(self, start, end):
        return self.ns.arange(start, end)

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

    def cumsum(self, a, dim):
        return self.torch.cumsum(a, dim=dim)

    def index_select(self, a, idx, dim):
        return a.index_select(dim, idx)

    def reduce(self, op, a, dim, keepdim):
        torch = self.torch
        if dim is None:  # over all elements: a.sum(), a.max() (keepdim needs a dim)
            return getattr(a, op)()
        k = bool(keepdim)
        if op == "max":
            return torch.amax(a, dim=dim, keepdim=k)
        if op == "min":
            return torch.amin(a, dim=dim, keepdim=k)
        return getattr(a, op)(dim=dim, keepdim=k)

    def literal(self, lit):
        return self.torch.tensor(lit, device=self.device)

    def arange(self, start, end):
        return self.torch.arange(start, end, device=self.device)

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


# --- evaluating a case ----------------------------------------------------------------------

def slices(spec):
    """A view's slices ([start, stop, step] per dim) as an index."""
    return tuple(slice(a, b, c) for a, b, c in spec)


def arg_value(fw, a):
    """An input: a host scalar, a tensor, or a view (its storage, then its steps)."""
    if "scalar" in a:
        return scalar_value(a)
    v = a.get("view")
    if v is None:
        return fw.make(a)
    storage = dict(a, shape=v["base"])
    del storage["view"]
    return fw.view(fw.make(storage), v)


def run_op(fw, case):
    if case.get("format") == 2:
        return run_program(fw, case)
    vals = [arg_value(fw, a) for a in case.get("args", [])]
    return apply_op(fw, case["op"], vals, case.get("attrs", {}) or {})


def run_program(fw, case):
    """A program: each step on the program's inputs ({"arg": i}), earlier results
    ({"step": j}, kept as framework tensors) or literals; the first exception ends it."""
    inputs = [arg_value(fw, a) for a in case.get("args", [])]
    results = []
    for step in case["steps"]:
        vals = []
        for a in step.get("args", []):
            if set(a) == {"arg"}:
                vals.append(inputs[a["arg"]])
            elif set(a) == {"step"}:
                vals.append(results[a["step"]])
            else:
                vals.append(arg_value(fw, a))
        results.append(apply_op(fw, step["op"], vals, step.get("attrs", {}) or {}))
    return results[-1]


def apply_op(fw, op, vals, attrs):
    if op in BINARY_OPERATORS or op in ("trunc_div", "fmod", "maximum", "minimum"):
        return fw.binary(op, vals[0], vals[1])
    if op == "neg" or op == "bitwise_not" or op in UNARY_FUNCTIONS:
        return fw.unary(op, vals[0])
    if op == "cast":
        if attrs.get("mode", "cast") == "convert":
            raise Unsupported("%s has no checked convert (mode=convert); only an explicit cast" % fw.name)
        return fw.cast(vals[0], attrs["to"])
    if op in REDUCTIONS:
        return fw.reduce(op, vals[0], attrs.get("dim"), attrs.get("keepdim"))
    if op == "cumsum":
        return fw.cumsum(vals[0], attrs.get("dim", 0))
    if op == "index_select":
        return fw.index_select(vals[0], vals[1], attrs.get("dim", 0))
    if op == "from_literal":
        return fw.literal(parse_literal(attrs["literal"]))
    if op == "arange":
        return fw.arange(parse_literal(attrs.get("start", "0")), parse_literal(attrs["end"]))
    if op == "zeros":
        return fw.zeros(attrs["shape"], attrs.get("dtype"))
    if op == "from_vec":
        return fw.reshape(vals[0], attrs["shape"])
    if op == "to_host":
        return HostValues(fw.tolist(vals[0]), attrs["dtype"], vals[0].shape)
    raise Unsupported("%s has no %s" % (fw.name, op))


class HostValues:
    """t.tolist() read back as a host element type (the to_host op)."""

    def __init__(self, nested, dtype, shape):
        self.nested, self.dtype, self.shape = nested, dtype, [int(d) for d in shape]


def flatten(x):
    if not isinstance(x, list):
        return [x]
    flat = []
    for item in x:
        flat.extend(flatten(item))
    return flat


def round_float(x, d):
    if d == "f64" or math.isnan(x) or math.isinf(x):
        return x
    fmt = {"f32": "f", "f16": "e"}.get(d)
    if fmt is not None:
        try:
            return struct.unpack(fmt, struct.pack(fmt, x))[0]
        except (OverflowError, struct.error):
            return math.copysign(math.inf, x)
    # bf16: round the f32 value to 8 significant bits, ties to even
    f = round_float(x, "f32")
    if math.isinf(f):
        return f
    bits = struct.unpack("<I", struct.pack("<f", f))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def host_convert(v, d):
    """v (a Python object from tolist) read as host type d, exactly, or OverflowError."""
    if isinstance(v, complex) or d in COMPLEX:
        if d not in COMPLEX:
            raise OverflowError("complex element %r is not representable as %s" % (v, d))
        c = complex(v)
        comp = "f32" if d == "c64" else "f64"
        out = complex(round_float(c.real, comp), round_float(c.imag, comp))
        if not (same_float(out.real, c.real) and same_float(out.imag, c.imag)):
            raise OverflowError("element %r is not representable as %s" % (v, d))
        return out
    if isinstance(v, float):
        if d not in FLOATS:
            raise OverflowError("float element %r is not representable as %s" % (v, d))
        out = round_float(v, d)
        if not same_float(out, v):
            raise OverflowError("element %r is not representable as %s" % (v, d))
        return out
    x = int(v)
    if d in FLOATS:
        out = round_float(float(x), d) if abs(x) < 2 ** 1024 else math.inf
        if math.isinf(out) or int(out) != x:
            raise OverflowError("element %d is not representable as %s" % (x, d))
        return out
    if d == "bool":
        lo, hi = 0, 1
    elif d.startswith("u"):
        lo, hi = 0, 2 ** INT_BITS[d] - 1
    else:
        lo, hi = -2 ** (INT_BITS[d] - 1), 2 ** (INT_BITS[d] - 1) - 1
    if not lo <= x <= hi:
        raise OverflowError("element %d is not representable as %s" % (x, d))
    return bool(x) if d == "bool" else x


def same_float(a, b):
    return (math.isnan(a) and math.isnan(b)) or struct.pack("<d", a) == struct.pack("<d", b)


def outcome_of(fw, case):
    """Runs the case and returns its outcome object."""
    caught = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with fw.context():
                r = run_op(fw, case)
                if isinstance(r, HostValues):
                    flat = flatten(r.nested)
                    value = encode_tensor(r.dtype, r.shape, [host_convert(v, r.dtype) for v in flat])
                else:
                    value = fw.result(r)
        out = {"value": value}
    except Unsupported as e:
        out = {"unsupported": {"message": str(e)}}
    except Exception as e:  # noqa: BLE001 - every framework exception is an outcome
        text = error_text(e)
        out = {"error": {"class": classify(e, text), "message": text}}
        if "CUDA error" in text or "device-side assert" in text:
            # A CUDA error is sticky: every later CUDA call of this process
            # fails. Answer, then end, so that tfuzz starts a fresh process.
            out["restart"] = "the CUDA context is unusable after: " + text
    ws = sorted({"%s: %s" % (w.category.__name__, w.message) for w in caught})
    if ws:
        out["warnings"] = ws
    return out


def main():
    # The protocol owns the original standard output; anything a framework
    # prints (to Python's sys.stdout or to fd 1 from C) goes to stderr instead.
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        import faulthandler
        faulthandler.enable()  # a fatal signal prints a traceback to stderr, then kills as before
    except Exception:  # noqa: BLE001
        pass

    fws, versions, notes = load_frameworks()
    hello = {"tfuzz_adapter": PROTOCOL, "adapter": "tfuzz_adapter.py", "frameworks": versions,
             "profiles": sorted(fws), "notes": notes, "features": ["views", "programs"]}
    proto.write(json.dumps(hello) + "\n")
    proto.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            case = json.loads(line)
            profile = case.get("profile", "")
            fw = fws.get(profile)
            if fw is None:
                out = {"unsupported": {"message": "this adapter does not serve profile %r" % profile}}
            else:
                out = outcome_of(fw, case)
        except Exception as e:  # noqa: BLE001 - a malformed request still gets one answer
            out = {"panic": {"message": "tfuzz_adapter: bad request: %s" % error_text(e)}}
        proto.write(json.dumps(out, allow_nan=False) + "\n")
        proto.flush()
        if "restart" in out:
            os._exit(0)


if __name__ == "__main__":
    main()
