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
dim, index_select / take(axis=dim), torch.tensor/np.array/jnp.array of a
literal, arange(start, end). The ops and attrs added 2026-12 as the catalog
spells them (../PROTOCOL.md has the table): broadcast_* as the plain op,
where, clamp/clip (None for a bound not given), cat/concatenate, the shift
functions, sort/argsort, t[mask], full, matmul, the dtype= argument, and
cumsum without dim as each framework does it (PyTorch: a TypeError).

Environment:
  TFUZZ_ADAPTER_FRAMEWORKS  comma list of numpy,torch,jax to try (default: all three)
  TFUZZ_ADAPTER_PROFILES    comma list restricting the profiles served
"""

import ast
import json
import math
import os
import struct
import sys
import warnings

# The frameworks and how each spells the ops: tfuzz_frameworks.py, beside this file.
from tfuzz_frameworks import (BINARY_OPERATORS, COMPLEX, FLOATS, INT_BITS, REDUCTIONS, UNARY_FUNCTIONS,
                              Unsupported, encode_tensor, error_text, load_frameworks, parse_float)

PROTOCOL = 1


# --- case-format values ---------------------------------------------------------------------

def scalar_value(s):
    kind, text = s["kind"], s["scalar"]
    if kind == "bool":
        return text == "true"
    if kind == "int":
        return int(text)
    if kind == "complex":
        return complex(text.strip())  # "1.5+2j", "-0j": Python's complex() syntax
    return parse_float(text)


def full_value(text):
    """full's fill value (literal text: "7", "0.5", "true", "nan") as a Python bool/int/float."""
    t = text.strip()
    if t in ("true", "True", "false", "False"):
        return t in ("true", "True")
    try:
        return int(t)
    except ValueError:
        return parse_float(t)


def parse_literal(text):
    """A literal's text: JSON ("[true, 1.0]") or Python ("[True, 1.0]")."""
    try:
        return json.loads(text)
    except ValueError:
        return ast.literal_eval(text)


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
# The ops added 2026-12 (case format, "Ops and attrs added 2026-12"): their
# messages, checked before ERROR_RULES for a case of the op, with the classes
# the model states for them. An AxisError of sort or cat is an index error
# (IndexOutOfRange); that of a reduction stays OutOfRange, as the oracle has it.
OP_ERROR_RULES = {
    "where": (
        ("expected condition to be a boolean tensor", "UnsupportedDType"),
    ),
    "clamp": (
        ("clamp is not supported for complex types", "UnsupportedDType"),
        ("Clip received a complex value", "UnsupportedDType"),
    ),
    "cat": (
        ("cannot be concatenated", "ShapeMismatch"),
        ("Cannot concatenate arrays", "ShapeMismatch"),
        ("except for the concatenation axis must match exactly", "ShapeMismatch"),
        ("must have same number of dimensions", "ShapeMismatch"),
        ("Sizes of tensors must match except in dimension", "ShapeMismatch"),
        ("out of bounds for array of dimension", "IndexOutOfRange"),
    ),
    "sort": (
        ("does not support complex dtypes", "UnsupportedDType"),
        ("out of bounds for array of dimension", "IndexOutOfRange"),
    ),
    "mask_select": (
        ("used as indices must be", "IndexDType"),
        ("Indexer must have integer or boolean type", "IndexDType"),
        ("boolean index did not match", "ShapeMismatch"),
        ("The shape of the mask", "ShapeMismatch"),
        ("is out of bounds for dimension", "IndexOutOfRange"),
    ),
    "matmul": (
        ("to have the same dtype", "DTypeMismatch"),
        ("to have same dtype", "DTypeMismatch"),
        ("expected scalar type", "DTypeMismatch"),
        ("Incompatible types for matmul arguments", "ShapeMismatch"),
        ("mismatch in its core dimension", "ShapeMismatch"),
        ("does not have enough dimensions", "ShapeMismatch"),
        ("must have ndim at least 1", "ShapeMismatch"),
        ("requires contracting dimensions to have the same shape", "ShapeMismatch"),
        ("need to be at least 1D", "ShapeMismatch"),
        ("shapes cannot be multiplied", "ShapeMismatch"),
        ("inconsistent tensor size", "ShapeMismatch"),
        ("Expected size for first two dimensions of batch2", "ShapeMismatch"),
    ),
    # NumPy 1.x runs a shift of a Python int beyond int64 in its object loop:
    # Python's own TypeError for a float operand
    "shift_left": (
        ("unsupported operand type(s) for", "UnsupportedDType"),
    ),
}
OP_ERROR_RULES["argsort"] = OP_ERROR_RULES["sort"]
OP_ERROR_RULES["shift_right"] = OP_ERROR_RULES["shift_left"]

TYPE_RULES = (
    ("ZeroDivisionError", "ZeroDivision"),
    ("IndexError", "IndexOutOfRange"),
    ("OverflowError", "OutOfRange"),
    ("NotImplementedError", "UnsupportedDType"),
)


def classify(exc, text, op=None):
    """The error class of exception exc (text: its error_text) raised by op."""
    for needle, cls in OP_ERROR_RULES.get(op, ()):
        if needle in text:
            return cls
    # numpy's "Cannot cast array data from dtype('float64') to dtype('int64')"
    # is only raised by take() for its indices in the older ops.
    if "Cannot cast array data from dtype" in text:
        return "IndexDType"
    for needle, cls in ERROR_RULES:
        if needle in text:
            return cls
    for name, cls in TYPE_RULES:
        if any(k.__name__ == name for k in type(exc).__mro__):
            return cls
    return "Other"


# --- evaluating a case ----------------------------------------------------------------------

def arg_value(fw, a):
    """An input: None (a clamp bound not given), a host scalar, a tensor, or
    a view (its storage, then its steps)."""
    if a is None:
        return None
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
            if a is None:
                vals.append(None)
            elif set(a) == {"arg"}:
                vals.append(inputs[a["arg"]])
            elif set(a) == {"step"}:
                vals.append(results[a["step"]])
            else:
                vals.append(arg_value(fw, a))
        results.append(apply_op(fw, step["op"], vals, step.get("attrs", {}) or {}))
    return results[-1]


def apply_op(fw, op, vals, attrs):
    CURRENT_OP[0] = op
    if op.startswith("broadcast_"):  # candle's broadcasting binaries: the plain op here
        op = op[len("broadcast_"):]
        if op not in ("add", "sub", "mul", "div", "maximum", "minimum"):
            raise Unsupported("%s has no broadcast_%s" % (fw.name, op))
    if op in BINARY_OPERATORS or op in ("trunc_div", "fmod", "maximum", "minimum"):
        return fw.binary(op, vals[0], vals[1])
    if op in ("shift_left", "shift_right"):
        return fw.shift(op, vals[0], vals[1])
    if op == "neg" or op == "bitwise_not" or op in UNARY_FUNCTIONS:
        return fw.unary(op, vals[0])
    if op == "cast":
        if attrs.get("mode", "cast") == "convert":
            raise Unsupported("%s has no checked convert (mode=convert); only an explicit cast" % fw.name)
        return fw.cast(vals[0], attrs["to"])
    if op in REDUCTIONS:
        return fw.reduce(op, vals[0], attrs.get("dim"), attrs.get("keepdim"), attrs.get("dtype"))
    if op == "cumsum":
        return fw.cumsum(vals[0], attrs.get("dim"), attrs.get("dtype"))
    if op == "index_select":
        return fw.index_select(vals[0], vals[1], attrs.get("dim", 0))
    if op == "from_literal":
        return fw.literal(parse_literal(attrs["literal"]), attrs.get("dtype"))
    if op == "arange":
        return fw.arange(parse_literal(attrs.get("start", "0")), parse_literal(attrs["end"]), attrs.get("dtype"))
    if op == "zeros":
        return fw.zeros(attrs["shape"], attrs.get("dtype"))
    if op == "from_vec":
        return fw.reshape(vals[0], attrs["shape"])
    if op == "to_host":
        return HostValues(fw.tolist(vals[0]), attrs["dtype"], vals[0].shape)
    if op == "where":
        return fw.where(vals[0], vals[1], vals[2])
    if op == "clamp":
        return fw.clamp(vals[0], vals[1], vals[2])
    if op == "cat":
        return fw.cat(vals, attrs["dim"])
    if op in ("sort", "argsort"):
        return fw.sort(op, vals[0], attrs.get("dim", -1), attrs.get("descending", False), attrs.get("stable", False))
    if op == "mask_select":
        return fw.mask_select(vals[0], vals[1])
    if op == "full":
        return fw.full(attrs["shape"], full_value(attrs["value"]), attrs.get("dtype"))
    if op == "matmul":
        return fw.matmul(vals[0], vals[1])
    raise Unsupported("%s has no %s" % (fw.name, op))


CURRENT_OP = [None]  # the op apply_op last began: the one whose exception ends the case


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
    CURRENT_OP[0] = None
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
        out = {"error": {"class": classify(e, text, CURRENT_OP[0]), "message": text}}
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
             "profiles": sorted(fws), "notes": notes,
             "features": ["views", "programs", "ops-2026-12"]}
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
