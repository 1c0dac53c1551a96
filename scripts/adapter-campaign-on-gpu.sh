#!/usr/bin/env bash
# Runs the reference adapter (impls/adapter/python/tfuzz_adapter.py) against
# the frameworks installed on this machine -- on a GPU machine PyTorch 2.11
# (CPU and CUDA), JAX 0.11 (CPU and GPU, x64 off and on) and NumPy 2.5 -- on a
# campaign of generated cases per profile, and prints how often each agrees
# with the model. Findings (shrunk cases where the framework departs from the
# model) land in $OUT/<profile>/findings.
#
#   scripts/adapter-campaign-on-gpu.sh              # every profile the adapter serves
#   PROFILES="numpy jax/gpu-x64" CASES=500 scripts/adapter-campaign-on-gpu.sh
#
# Environment: PYTHON (python3), CASES per profile (600), DURATION cap per
# profile (45s), SEED (1), OUT (tfuzz-out/adapter-gpu), TFUZZ (a tfuzz binary;
# default ./tfuzz if present, else built with go), TFUZZ_ADAPTER_PROCS (4).
# It runs anywhere; without a GPU it covers the CPU profiles only.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
CASES=${CASES:-600}
DURATION=${DURATION:-45s}
SEED=${SEED:-1}
OUT=${OUT:-tfuzz-out/adapter-gpu}
export TFUZZ_ADAPTER_PROCS=${TFUZZ_ADAPTER_PROCS:-4}
ADAPTER="impls/adapter/python/tfuzz_adapter.py"

if [ -z "${TFUZZ:-}" ]; then
  if [ -x ./tfuzz ]; then
    TFUZZ=./tfuzz
  elif command -v go >/dev/null; then
    go build -o ./tfuzz ./cmd/tfuzz
    TFUZZ=./tfuzz
  else
    echo "adapter-campaign: no tfuzz binary and no go to build one (build ./tfuzz elsewhere and bring it)" >&2
    exit 2
  fi
fi
mkdir -p "$OUT"

# The handshake says what this machine has: an adapter with no input prints it and ends.
hello=$("$PYTHON" "$ADAPTER" </dev/null | head -n 1)
echo "adapter: $hello"
if [ -z "${PROFILES:-}" ]; then
  PROFILES=$(printf '%s' "$hello" | "$PYTHON" -c 'import json, sys; print(" ".join(json.load(sys.stdin)["profiles"]))')
fi
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
fi

summary="$OUT/summary.txt"
{
  echo "# tfuzz adapter campaign, seed $SEED, up to $CASES cases or $DURATION per profile"
  echo "# $hello"
  printf '%-14s %7s %8s %9s %7s %9s\n' profile cases checked diverged agree findings
} >"$summary"

status=0
for p in $PROFILES; do
  dir="$OUT/${p//\//_}"
  rm -rf "$dir"
  log="$dir.log"
  echo "== $p" >&2
  set +e
  "$TFUZZ" run --backend "exec:$PYTHON $ADAPTER" --profile "$p" --seed "$SEED" \
    --max-cases "$CASES" --duration "$DURATION" --workers "$TFUZZ_ADAPTER_PROCS" --out "$dir" >"$log" 2>&1
  code=$?
  set -e
  # "seed S: N cases in T (R/s), C checked, D diverged; F new findings, G signatures in DIR"
  line=$(grep -E '^seed [0-9]+: ' "$log" | tail -n 1 || true)
  if [ "$code" -gt 1 ] || [ -z "$line" ]; then
    echo "$p: tfuzz run failed (exit $code); see $log" >&2
    tail -n 20 "$log" >&2
    printf '%-14s %s\n' "$p" "failed (exit $code, $log)" >>"$summary"
    status=1
    continue
  fi
  cases=$(sed -E 's/^seed [0-9]+: ([0-9]+) cases.*/\1/' <<<"$line")
  checked=$(sed -E 's/.* ([0-9]+) checked.*/\1/' <<<"$line")
  diverged=$(sed -E 's/.* ([0-9]+) diverged.*/\1/' <<<"$line")
  findings=$(sed -E 's/.* ([0-9]+) signatures in .*/\1/' <<<"$line")
  agree=$(awk -v c="$checked" -v d="$diverged" 'BEGIN { if (c > 0) printf "%.2f%%", 100 * (c - d) / c; else print "-" }')
  printf '%-14s %7s %8s %9s %7s %9s\n' "$p" "$cases" "$checked" "$diverged" "$agree" "$findings" >>"$summary"
done

cat "$summary"
echo "findings: $OUT/<profile>/findings (tfuzz repro FILE replays one)"
exit "$status"
