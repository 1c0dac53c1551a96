#!/bin/sh
# A test adapter (impls/adapter/PROTOCOL.md) that hangs on a case, with a
# child process of its own (a sleep) that must die with it: tfuzz kills an
# adapter's whole process group. With HANG_AFTER=N it first answers N cases
# with a value no model gives (so a campaign finds a divergence and shrinks
# it: the shrinking then hangs). It appends "adapter PID" and "child PID"
# lines to the file $HANG_PIDS when it hangs.
echo '{"tfuzz_adapter": 1, "adapter": "hang.sh", "frameworks": {"sh": "posix"}, "profiles": ["numpy"]}'
n=0
while IFS= read -r line; do
  n=$((n + 1))
  if [ "$n" -le "${HANG_AFTER:-0}" ]; then
    echo '{"value": {"dtype": "u64", "shape": [7], "data": [1, 2, 3, 4, 5, 6, 7]}}'
    continue
  fi
  sleep 300 &
  echo "adapter $$" >> "$HANG_PIDS"
  echo "child $!" >> "$HANG_PIDS"
  wait
done
