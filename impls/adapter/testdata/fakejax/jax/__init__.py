"""A stand-in for jax, built on NumPy, that exercises tfuzz_adapter.py's JAX
plumbing where no JAX is installed (Debian packages none): devices, the
jax_enable_x64 switch and jax.default_device. Its arithmetic is NumPy's; only
the x32 narrowing of 64-bit inputs is imitated, so that a test can see which
x64 setting a case ran under."""

import contextlib

__version__ = "0.0+fake"


class _Config:
    def __init__(self):
        self.values = {"jax_enable_x64": False}

    def update(self, name, value):
        self.values[name] = value


config = _Config()


class _Device:
    def __init__(self, platform):
        self.platform = platform

    def __repr__(self):
        return "FakeDevice(%s)" % self.platform


_CPU = _Device("cpu")
current_device = None


def devices(backend=None):
    if backend in (None, "cpu"):
        return [_CPU]
    raise RuntimeError("Unknown backend: '%s' requested, but no platforms that are instances of %s are present" % (backend, backend))


@contextlib.contextmanager
def default_device(device):
    global current_device
    old, current_device = current_device, device
    try:
        yield
    finally:
        current_device = old


from . import numpy  # noqa: E402,F401
