#!/usr/bin/env bash
# Runs NumPy and tfuzz's CPU engine side by side on 2^24 elements (a 256 x 256
# f32 matmul), in one run, and prints Go / NumPy time ratios (medians of 7).
# NumPy runs on one thread (its BLAS too); the engine runs at its default
# worker count and on one worker (serial). CatF32 is timed against the same
# Go benchmark as CatI64: the engine's storage is one 8-byte word an element.
# The rows time kernels on typed slices (WhereU8F32: candle's where_cond,
# which selects the words themselves), except the *Op rows: the whole op
# through Engine.Eval on tensor.Tensor operands (decode and encode passes,
# the result's allocation), against the same NumPy call as the row without
# Op.
# Installs Debian's python3-numpy when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
if ! $PY -c 'import numpy' 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-numpy >/dev/null
fi
ops='AddI64|FloorDivI64|AddF32|CastF32ToF16|SumI32|SumU8|CatI64|CatRowsI64|WhereU8F32|BroadcastAddF32|MatmulF32'
ops+='|WhereF32|ClampF32' # issue 16: the Python families' where and clip
ops+='|WhereF32Op|ClampF32Op|BroadcastAddF32Op|CatF32Op' # the same ops through Engine.Eval
# OPENBLAS_* slow a current NumPy on some processors (see the env notes); elementwise
# loops and reductions do not use BLAS, but unset them for this command alone.
numpy=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $PY scripts/bench_numpy.py)
gobench=$(go test ./impls/cpu -run '^$' -bench "^Benchmark($ops)\$/^n=(16777216|256)\$" -count 7 -benchtime 5x)
echo "numpy $($PY -c 'import numpy; print(numpy.__version__)'), go $(go env GOVERSION), $(nproc) cores"
printf '%-16s %10s %10s %8s %12s %8s\n' op numpy_ms go_ms ratio go_serial_ms ratio
while read -r name size np_ms; do
  gname=$name
  [ "$name" = CatF32 ] && gname=CatI64
  med() { # median ns/op of the matching benchmark lines, in ms
    grep -E "^Benchmark${gname}/n=${size}$1-[0-9]+ " <<<"$gobench" | awk '{print $3}' | sort -n |
      awk '{v[NR]=$1} END {if (NR) printf "%.3f", v[int((NR+1)/2)]/1e6}'
  }
  par=$(med '') ser=$(med '/serial')
  awk -v n="$name" -v np="$np_ms" -v p="$par" -v s="$ser" \
    'BEGIN {printf "%-16s %10.3f %10.3f %8.2f %12.3f %8.2f\n", n, np, p, p/np, s, s/np}'
done <<<"$numpy"
