"""jax.numpy of the stand-in: NumPy's functions; asarray narrows 64-bit data
to 32 bits while jax_enable_x64 is off, as JAX does."""

import numpy as _np
from numpy import *  # noqa: F401,F403

import jax as _jax

_NARROW = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}


def asarray(a, dtype=None):
    if _jax.current_device is None:
        raise RuntimeError("fake jax: an array was made outside jax.default_device")
    arr = _np.asarray(a, dtype=dtype)
    if not _jax.config.values["jax_enable_x64"] and arr.dtype.name in _NARROW:
        arr = arr.astype(_NARROW[arr.dtype.name])
    return arr
