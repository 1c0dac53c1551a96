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


# jnp.sort and jnp.argsort take keyword-only stable (default True) and
# descending (jax/_src/numpy/sorting.py), which NumPy 1.24's sort lacks:
# the stand-in takes them as JAX does, with NumPy's sort underneath (a
# descending sort reversing the ascending one, as JAX's lax.rev does).
def sort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    out = _np.sort(a, axis=axis, kind="stable" if stable else None)
    return _np.flip(out, axis=axis) if descending else out


def argsort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    out = _np.argsort(a, axis=axis, kind="stable" if stable else None)
    return _np.flip(out, axis=axis) if descending else out
