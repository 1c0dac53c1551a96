#!/usr/bin/env bash
# Lists the Metal kernels that candle's .metal sources define at one commit,
# the data impls/metal/kernellist_test.go compares tfuzz's kernels with.
#
# Each of the files tfuzz mirrors (affine, binary, cast, gemv, indexing,
# mlx_gemm, reduce, sort, ternary, unary) is read from candle's git history, run through the C
# preprocessor (clang -E, or cpp where clang is missing) with an empty <metal_stdlib> and
# the macros of a current Apple GPU (__HAVE_BFLOAT__, __METAL_VERSION__ 310),
# and every kernel it then defines is printed as "FILE NAME": the host_name
# of each template instantiation, and each plain `kernel void NAME(`.
#
# usage: scripts/candle-kernel-list.sh CANDLE_GIT_DIR COMMIT > impls/metal/testdata/candle-kernels.txt
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 CANDLE_GIT_DIR COMMIT" >&2
  exit 2
fi
gitdir=$1
commit=$(git --git-dir="$gitdir" rev-parse --verify "$2^{commit}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/include"
: >"$work/include/metal_stdlib"
: >"$work/include/metal_limits"
: >"$work/include/metal_math"
: >"$work/include/metal_simdgroup"
: >"$work/include/metal_simdgroup_matrix"
if command -v clang >/dev/null; then
  pp=(clang -E -P -x c++ -nostdinc)
else
  pp=(cpp -P -x c++ -nostdinc)
fi
echo "# candle's Metal kernels at huggingface/candle ${commit}"
echo "# made by scripts/candle-kernel-list.sh: each candle-metal-kernels/src/metal_src/FILE.metal"
echo "# preprocessed by ${pp[0]} -E with an empty <metal_stdlib> and -D__HAVE_BFLOAT__"
echo "# -D__METAL_VERSION__=310; one kernel per line: FILE NAME (host_name of every"
echo "# template instantiation, its adjacent string literals joined, and every plain kernel function)"
for f in affine binary cast gemv indexing mlx_gemm reduce sort ternary unary; do
  git --git-dir="$gitdir" show "${commit}:candle-metal-kernels/src/metal_src/${f}.metal" >"$work/${f}.metal"
  "${pp[@]}" -I"$work/include" -D__HAVE_BFLOAT__ -D__METAL_VERSION__=310 "$work/${f}.metal" |
    tr ';{}' '\n\n\n' |
    sed -n -E \
      -e 's/.*host_name\(([" A-Za-z0-9_]+)\).*/\1/p' \
      -e 's/^[[:space:]]*kernel[[:space:]]+void[[:space:]]+([A-Za-z0-9_]+)[[:space:]]*\(.*/\1/p' |
    tr -d '" ' |
    sort -u | sed "s/^/${f} /"
done
