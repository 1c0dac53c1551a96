#!/usr/bin/env bash
# The offline MSL check: Debian's clang parses every impls/metal/kernels/*.metal
# as C++ against a stub <metal_stdlib> (impls/metal/testdata/mslstub) and
# instantiates every kernel, and the kernels it instantiates must be the ones
# the simulator and candle's kernel list are compared with. Weak evidence (no
# Metal compiler, no values), but it catches template, overload and name
# errors without a Mac. Fails when clang is missing; scripts/mac-check.sh is
# the real compile, on a Mac.
#
# usage: scripts/msl-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TFUZZ_MSL_CHECK=required go test -count=1 -run '^(TestKernelsParseWithClang|TestClangCheckCanFail|TestTwinsBindKernelsParameters)$' -v ./impls/metal |
  grep -E '^(---|ok|FAIL|PASS)|mslcheck_test'
