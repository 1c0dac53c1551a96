#!/usr/bin/env bash
# Runs the PyTorch, JAX and NumPy repro programs that tfuzz writes and compares
# what each prints with the outcome the model states in its header. Meant for a
# machine with an NVIDIA GPU and the frameworks installed: the pytorch/cuda and
# jax/gpu-* programs run only where torch.cuda / jax see a GPU, the others
# wherever their framework imports; whatever cannot run is listed as SKIP.
#
#   scripts/run-repros-on-gpu.sh [DIR|FILE...]     default: reports/examples
#
# More programs: tfuzz report --out DIR --repro-profile pytorch/cuda \
#   --repro-profile jax/gpu-x64 CAMPAIGN_OUT   writes them for any campaign's findings.
# Environment: PYTHON (default python3), REPRO_TIMEOUT (seconds per program, 300),
# REPRO_JSON (also write the results there).
# Exit 0 when every program that ran matched the model, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-python3}"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
else
  echo "run-repros-on-gpu: no nvidia-smi here; GPU profiles will be skipped" >&2
fi
"$py" -c 'import sys; print("python", sys.version.split()[0])'
for m in numpy torch jax; do
  "$py" -c "import $m; print('$m', $m.__version__)" 2>/dev/null || echo "$m: not installed"
done
args=(--python "$py" --timeout "${REPRO_TIMEOUT:-300}")
if [[ -n "${REPRO_JSON:-}" ]]; then args+=(--json "$REPRO_JSON"); fi
exec "$py" scripts/repro_runner.py "${args[@]}" "$@"
