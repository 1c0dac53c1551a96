"""Times the NumPy side of scripts/bench-vs-numpy.sh: one thread, 2^24
elements (a 256 x 256 matmul), preallocated outputs where NumPy takes one,
median of 7 runs. Prints one line per op: NAME SIZE MILLISECONDS, SIZE the
n of the Go benchmark it is compared with."""
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
half64 = rng.integers(-(1 << 62), 1 << 62, N // 2, dtype=np.int64)
rows64 = rng.integers(-(1 << 62), 1 << 62, (N // 128, 64), dtype=np.int64)
o64rows = np.empty((N // 128, 128), np.int64)
halfx32, halfy32 = x32[: N // 2], y32[N // 2 :]
cond = rng.integers(0, 2, N, dtype=np.uint8).astype(bool)
sq32 = x32.reshape(4096, 4096)
row32 = y32[:4096].copy()
o32sq = np.empty((4096, 4096), np.float32)
m32a = rng.standard_normal((256, 256), dtype=np.float32)
m32b = rng.standard_normal((256, 256), dtype=np.float32)
m32o = np.empty((256, 256), np.float32)

ops = {
    "AddI64": lambda: np.add(a64, b64, out=o64),
    "FloorDivI64": lambda: np.floor_divide(a64, d64, out=o64),
    "AddF32": lambda: np.add(x32, y32, out=o32),
    "CastF32ToF16": lambda: np.copyto(h16, x32, casting="unsafe"),
    "SumI32": lambda: np.sum(i32),  # accumulates in int64
    "SumU8": lambda: np.sum(u8),  # accumulates in uint64
    # the ops added 2026-12 (issue 16)
    "CatI64": lambda: np.concatenate((half64, half64), out=o64),
    "CatF32": lambda: np.concatenate((halfx32, halfy32), out=o32),  # 4 bytes an element (the engine moves 8)
    "CatRowsI64": lambda: np.concatenate((rows64, rows64), axis=1, out=o64rows),
    "WhereU8F32": lambda: np.where(cond, x32, y32),  # allocates its result, as the engine does
    "BroadcastAddF32": lambda: np.add(sq32, row32, out=o32sq),
    "WhereF32": lambda: np.where(cond, x32, y32),  # the Python families' select (BenchmarkWhereF32)
    "ClampF32": lambda: np.clip(x32, -0.5, 0.5, out=o32),
}
# the Go benchmarks of whole ops (BenchmarkWhereF32Op, ...) are compared
# with the same measurement as their kernel's row
whole = {"WhereF32Op": "WhereF32", "ClampF32Op": "ClampF32", "BroadcastAddF32Op": "BroadcastAddF32", "CatF32Op": "CatF32"}
ms = {}
for name, f in ops.items():
    ms[name] = median_ms(f)
    print(name, N, "%.3f" % ms[name])
for name, base in whole.items():
    print(name, N, "%.3f" % ms[base])
print("MatmulF32", 256, "%.3f" % median_ms(lambda: np.matmul(m32a, m32b, out=m32o)))
