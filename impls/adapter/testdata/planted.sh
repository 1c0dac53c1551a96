#!/bin/sh
# A test adapter for the protocol (PROTOCOL.md) with planted failures.
# It answers every case with an i64 value holding its own process id, so a
# test can tell when tfuzz restarted it, except on these ops:
#   floor_div     kills itself with SIGFPE (as x86 idiv traps on INT_MIN / -1)
#   index_select  kills itself with SIGSEGV
#   cumsum        loops forever (a hang)
#   prod          exits with status 3 while it holds the case
#   trunc_div     answers unsupported
#   zeros         answers a line that is not an outcome (a protocol violation)
#   sum           answers an error with "restart" (as after a poisoned CUDA
#                 context), then exits with status 0
# With PLANTED_NO_HANDSHAKE=1 it exits at once; with PLANTED_BAD_HANDSHAKE=1
# it greets with a line that is not a handshake.
if [ -n "$PLANTED_NO_HANDSHAKE" ]; then exit 4; fi
if [ -n "$PLANTED_BAD_HANDSHAKE" ]; then echo 'hello'; exec cat >/dev/null; fi
echo '{"tfuzz_adapter": 1, "adapter": "planted.sh", "frameworks": {"sh": "posix"}, "profiles": ["numpy", "pytorch/cpu"]}'
while IFS= read -r line; do
  case "$line" in
    *'"op": "floor_div"'*) kill -s FPE $$ ;;
    *'"op": "index_select"'*) kill -s SEGV $$ ;;
    *'"op": "cumsum"'*) while :; do :; done ;;
    *'"op": "prod"'*) echo "planted: exiting with status 3" >&2; exit 3 ;;
    *'"op": "trunc_div"'*) echo '{"unsupported": {"message": "planted: no truncating division"}}' ;;
    *'"op": "zeros"'*) echo 'planted: not an outcome' ;;
    *'"op": "sum"'*) echo '{"error": {"class": "IndexOutOfRange", "message": "RuntimeError: CUDA error: device-side assert triggered"}, "restart": "planted"}'; exit 0 ;;
    *) echo '{"value": {"dtype": "i64", "shape": [1], "data": ['$$']}, "warnings": ["planted"]}' ;;
  esac
done
