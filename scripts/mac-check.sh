#!/usr/bin/env bash
# The Metal check on a Mac (Apple silicon, Xcode command line tools): what
# no Linux machine can do for impls/metal.
#
#   1. compiles every impls/metal/kernels/*.metal with Metal's own compiler
#      (xcrun metal, fast math as candle compiles them) and links them into
#      a metallib: an MSL error fails here, with the compiler's message;
#   2. vets and builds the package with cgo (mtl_darwin.go, the Objective-C
#      host);
#   3. runs the GPU tests strictly: TestGPUMatchesSimulator (generated cases
#      on the GPU and on the simulator) and TestGPUTargetedCases (i64 ids
#      over u8/u32, powf of negative bases, u8 200 * 2.0, f32 -> u8 of 300,
#      -1 and NaN, u8 x / 0, f32 sums of 64 to 4,096 elements, f16 sqrt and
#      exp) with -metal.strict, so that a difference the simulator's
#      assumptions explain fails too, naming the assumption;
#   4. fails if any test skipped or did not run.
#
# usage: scripts/mac-check.sh [-rapid.checks N]   (default 2000 generated cases)
# The log of the test run is kept in mac-check.log.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)" != Darwin ]; then
  echo "mac-check: needs macOS with Metal (this is $(uname -s)); on Linux run scripts/msl-check.sh" >&2
  exit 2
fi
checks=2000
if [ "${1:-}" = "-rapid.checks" ]; then
  checks=$2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== compile every kernel with xcrun metal ($(xcrun -sdk macosx metal --version 2>&1 | head -1))"
for f in impls/metal/kernels/*.metal; do
  xcrun -sdk macosx metal -ffast-math -c "$f" -o "$work/$(basename "$f" .metal).air"
done
xcrun -sdk macosx metallib "$work"/*.air -o "$work/kernels.metallib"

echo "== build with cgo"
CGO_ENABLED=1 go vet ./impls/metal/...
CGO_ENABLED=1 go build ./impls/metal/...

echo "== GPU against the simulator, strict"
log=mac-check.log
set +e
CGO_ENABLED=1 go test -count=1 -v -run '^(TestGPUMatchesSimulator|TestGPUTargetedCases)$' ./impls/metal/ \
  -args -metal.strict -rapid.checks="$checks" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if grep -q -- '--- SKIP' "$log"; then
  echo "mac-check: a GPU test skipped:" >&2
  grep -- '--- SKIP' "$log" >&2
  exit 1
fi
for test in TestGPUMatchesSimulator TestGPUTargetedCases; do
  if ! grep -q -- "--- PASS: $test " "$log"; then
    echo "mac-check: $test did not pass (see $log)" >&2
    exit 1
  fi
done
exit "$status"
