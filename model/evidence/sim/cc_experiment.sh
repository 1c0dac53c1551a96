#!/bin/sh
# Reproduces the compiler experiment cited in ../casts.md (gcc 12.2, Debian bookworm).
# 1. cc_g.c: every float->int C cast, scalar (n=1) and auto-vectorised (n=16) loops, compared with
#    the rules of casts_sim.py by cc_check.py.
# 2. cc_tail.c: where the vector body ends for the float->u32 loop (V = vector rule, s = scalar).
# 3. cc_f16.c: f16 (via _cvtsh_ss, as c10::Half does with AVX2) -> u32 loop stays scalar.
set -e
cd "$(dirname "$0")"
T=${TMPDIR:-/tmp}/cc_casts; mkdir -p $T
gcc -O3 -mavx2 -mfma -mf16c cc_g.c -o $T/g -lm && $T/g > cc_g_avx2.txt
gcc -O3 -march=x86-64-v4 cc_g.c -o $T/g4 -lm && $T/g4 > cc_g_avx512.txt || true
python3 cc_check.py cc_g_avx2.txt
for A in "-O3 -mavx2 -mfma -mf16c" "-O3 -msse4.2" "-O2 -mavx2"; do
  gcc $A cc_tail.c -o $T/t -lm
  for k in d f b; do echo "$A src=$k: $($T/t $k | sed -n '1,9p;21p' | tr '\n' ' ')"; done
done
gcc -O3 -mavx2 -mfma -mf16c cc_f16.c -o $T/h && $T/h
