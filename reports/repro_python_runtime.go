package reports

// pythonRuntime is the part of every Python repro program that turns a
// result into case-format JSON. It needs NumPy and a function host(x) that
// returns (numpy array, case dtype name or None), defined per framework.
const pythonRuntime = `
nan = float("nan")
inf = float("inf")

CASE_DTYPES = {
    "bool": "bool", "uint8": "u8", "int8": "i8", "uint16": "u16", "int16": "i16",
    "uint32": "u32", "int32": "i32", "uint64": "u64", "int64": "i64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "complex64": "c64", "complex128": "c128",
}


class Unsupported(Exception):
    """The framework has no spelling of the operation."""


def case_float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def case_tensor(x):
    a, name = host(x)
    name = name or CASE_DTYPES.get(str(a.dtype))
    if name is None:
        raise Unsupported("result dtype %s is not in the case format" % a.dtype)
    flat = a.reshape(-1)
    if name == "bool":
        data = [bool(v) for v in flat]
    elif name[0] in "ui":
        data = [int(v) for v in flat]
    elif name[0] == "c":
        data = [[case_float(v.real), case_float(v.imag)] for v in flat]
    else:
        data = [case_float(v) for v in flat]
    return {"dtype": name, "shape": [int(d) for d in a.shape], "data": data}


def classify(e):
    """The case format's error class of an exception, from its type and message."""
    m = "%s: %s" % (type(e).__name__, e)
    def has(*words):
        return any(w in m for w in words)
    if has("ZeroDivision", "division by zero", "divide by zero"):
        return "ZeroDivision"
    if has("is out of bounds for array of dimension", "Dimension out of range"):
        return "OutOfRange"
    if has("for index", "index must be", "indices must be", "arrays used as indices") or (
            "index_select" in OP.split(">") and has("Cannot cast array data")):
        return "IndexDType"
    if has("not implemented for", "not supported for the input types", "does not accept dtype",
           "Promotion for", "did not contain a loop", "could not infer output dtype",
           "is not supported", "does not support", "not available", "is only implemented on"):
        return "UnsupportedDType"
    if has("must match the size", "broadcast", "Incompatible shapes", "cannot reshape",
           "is invalid for input of size", "shape", "expected sequence of length"):
        return "ShapeMismatch"
    if has("zero-size array", "empty sequence", "Expected reduction dim to be specified"):
        return "EmptyTensor"
    if isinstance(e, IndexError) or has("out of bounds", "out of range", "INDICES element"):
        return "IndexOutOfRange"
    if isinstance(e, OverflowError) or has("overflow", "Overflow"):
        return "OutOfRange"
    return "Other"


def read_back(x, dtype):
    """to_host: read the elements back (tolist) as host values of dtype, exactly."""
    values = host(x)[0].tolist()
    try:
        out = np.array(values, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as e:
        raise OverflowError("the elements are not representable as %s: %s" % (np.dtype(dtype), e))
    for v, w in zip(np.asarray(values).reshape(-1).tolist(), out.reshape(-1).tolist()):
        if not (v == w or (v != v and w != w)):
            raise OverflowError("element %r is not representable as %s" % (v, out.dtype))
    return out


def run(build):
    try:
        outcome = {"value": case_tensor(build())}
    except Unsupported as e:
        outcome = {"unsupported": {"message": str(e)}}
    except Exception as e:  # a framework error is an outcome
        outcome = {"error": {"class": classify(e), "message": "%s: %s" % (type(e).__name__, e)}}
    print(json.dumps(outcome))
`
