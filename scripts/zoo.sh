#!/usr/bin/env bash
# Runs the bug zoo: for every bug the CPU engine can plant (impls/cpu/zoo.go,
# built with -tags zoo), a campaign with that bug planted, and prints the
# table: bug, detected, time to detection, shrunk case size, and the medians.
# The test (campaign/zoo_test.go, TestZoo) fails when a bug is not found
# within the campaign time (30 s) or an elementwise bug is not shrunk to one
# element per operand (rank at most 1).
#
# Each campaign is what a plain TFUZZ_ZOO=<bug> tfuzz run does: every built-in
# backend at its production thresholds, every op, aimed cases and size tiers.
#
# usage: scripts/zoo.sh [--bug NAME] [--seed N] [--duration D] [--workers N] [--bug-ops]
#   --bug NAME     only this bug (default: every bug of the zoo)
#   --seed N       campaign seed (default: a fixed seed per bug, from its name)
#   --duration D   campaign time per bug, a Go duration (default 30s)
#   --workers N    campaign workers (default 2)
#   --bug-ops      draw only the ops the bug lives in (default: every op)
#
# To plant a bug elsewhere, build with -tags zoo and set TFUZZ_ZOO, e.g.
#   TFUZZ_ZOO=neg-zero go run -tags zoo ./cmd/tfuzz run --backend cpu --op neg
#   TFUZZ_ZOO=neg-zero scripts/libfuzzer-build.sh --tags zoo --target FuzzCPU
set -euo pipefail

args=()
bug=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bug) bug=$2; shift 2 ;;
    --seed) args+=("-tfuzz.zoo.seed=$2"); shift 2 ;;
    --duration) args+=("-tfuzz.zoo.duration=$2"); shift 2 ;;
    --workers) args+=("-tfuzz.zoo.workers=$2"); shift 2 ;;
    --bug-ops) args+=("-tfuzz.zoo.bug-ops"); shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "zoo: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
log=$(mktemp "${TMPDIR:-/tmp}/tfuzz-zoo.XXXXXX")
trap 'rm -f "$log"' EXIT
set +e
TFUZZ_ZOO=$bug go test -tags zoo -count=1 -timeout 60m -run '^TestZoo$' -v ./campaign -args "${args[@]}" >"$log" 2>&1
rc=$?
set -e
# the per-bug lines, then the table and the medians, then any failure
grep -E 'zoo_test.go:[0-9]+: [a-z0-9-]+ +(detected|not detected)' "$log" | sed -E 's/^ *zoo_test.go:[0-9]+: //' >&2 || true
sed -n -E '/^ +\| bug \|/,/bugs detected/p' "$log" | sed -E 's/^ {8}//'
grep -E -- '--- FAIL|zoo_test.go:[0-9]+: .*(not detected in|not the planted|detected after|elementwise, but)|^(FAIL|panic)' "$log" >&2 || true
if [ $rc -ne 0 ] && ! grep -q -- '--- FAIL: TestZoo' "$log"; then
  tail -30 "$log" >&2
fi
exit $rc
