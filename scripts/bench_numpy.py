"""Times the NumPy side of scripts/bench-vs-numpy.sh: one thread, 2^24
elements, preallocated outputs, median of 7 runs. Prints one line per op:
NAME MILLISECONDS."""
import statistics
import time

import numpy as np

N = 1 << 24
rng = np.random.default_rng(1)


def median_ms(f, runs=7):
    f()  # warm up: page in the buffers
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


a64 = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int64)
b64 = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int64)
d64 = rng.integers(1, 1000, N, dtype=np.int64) * rng.choice(np.array([-1, 1], dtype=np.int64), N)
o64 = np.empty(N, np.int64)
x32 = rng.standard_normal(N, dtype=np.float32)
y32 = rng.standard_normal(N, dtype=np.float32)
o32 = np.empty(N, np.float32)
h16 = np.empty(N, np.float16)
i32 = rng.integers(-(1 << 31), 1 << 31, N, dtype=np.int32)
u8 = rng.integers(0, 256, N, dtype=np.uint8)
cond = rng.integers(0, 2, N).astype(np.bool_)
m32 = x32.reshape(N >> 12, 4096)  # [4096, 4096]
row32 = y32[:4096].copy()

ops = {
    "AddI64": lambda: np.add(a64, b64, out=o64),
    "FloorDivI64": lambda: np.floor_divide(a64, d64, out=o64),
    "AddF32": lambda: np.add(x32, y32, out=o32),
    "CastF32ToF16": lambda: np.copyto(h16, x32, casting="unsafe"),
    "SumI32": lambda: np.sum(i32),  # accumulates in int64
    "SumU8": lambda: np.sum(u8),  # accumulates in uint64
    "WhereF32": lambda: np.where(cond, x32, y32),  # allocates its output
    "ClampF32": lambda: np.clip(x32, -0.5, 0.5, out=o32),
    "BroadcastAddF32": lambda: np.add(m32, row32, out=o32.reshape(N >> 12, 4096)),
}
for name, f in ops.items():
    print(name, "%.3f" % median_ms(f))
