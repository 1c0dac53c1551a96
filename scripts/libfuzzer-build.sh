#!/usr/bin/env bash
# Builds every go test -fuzz target of fuzz/ as a libFuzzer binary the way
# the OSS-Fuzz base image (and so ClusterFuzzLite) does it, without Docker,
# and runs each one for a while on its seed corpus:
#
#   go-118-fuzz-build (pinned, from the Go module proxy) compiles the target
#   and everything it imports, with libFuzzer coverage instrumentation, into
#   a C archive (go-118-fuzz-build -tags gofuzz -func TARGET DIR, as the
#   image's compile_native_go_fuzzer calls it); Debian's clang++ links it
#   with libFuzzer (libclang-rt-14-dev), as $CXX $LIB_FUZZING_ENGINE does;
#   the binary runs on the seed corpus made from corpus/ by
#   fuzz/internal/seedcorpus, with the case-format dictionary.
#
# usage: scripts/libfuzzer-build.sh [--seconds N] [--out DIR] [--tags TAGS]
#                                   [--target NAME]... [--sanitizer none|address]
#                                   [--generated N] [--keep-going]
#   --seconds N    run each binary N seconds (default 30; 0: build only)
#   --out DIR      binaries, seeds, corpora, logs, crashes (default libfuzzer-out)
#   --tags TAGS    extra build tags, e.g. zoo (then TFUZZ_ZOO=<bug> in the
#                  environment plants a bug: the binaries inherit it)
#   --target NAME  only this target (repeatable; default every Fuzz* of fuzz/)
#   --sanitizer    address links with -fsanitize=address,fuzzer as
#                  ClusterFuzzLite's address builds do (default none)
#   --generated N  seed with N generated cases besides corpus/ (default 2000,
#                  as .clusterfuzzlite/build.sh does)
#   --keep-going   run libFuzzer in fork mode and go on after a crash
#                  (-fork=1 -ignore_crashes=1), collecting every crash input
#
# The build works on a copy of the working tree (go-118-fuzz-build moves the
# target's _test.go file aside while it builds, and go get edits go.mod), so
# the checkout is never modified, even if the script is killed.
# Exit status: 0 when every target built and ran without a crash, 1 when a
# target crashed (the inputs are in OUT/crashes; tfuzz import-crash turns
# them into findings), 2 on a build failure or bad usage.
set -euo pipefail

G118_VERSION=v0.0.0-20250520111509-a70c2aa677fa # go-118-fuzz-build, main of 2025-05-20
seconds=30 out=libfuzzer-out tags="" sanitizer=none generated=2000
mode=()
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --tags) tags=$2; shift 2 ;;
    --target) targets+=("$2"); shift 2 ;;
    --sanitizer) sanitizer=$2; shift 2 ;;
    --generated) generated=$2; shift 2 ;;
    --keep-going) mode=(-fork=1 -ignore_crashes=1); shift ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "libfuzzer-build: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$sanitizer" in none) lflags=(-fsanitize=fuzzer) ;; address) lflags=(-fsanitize=fuzzer,address) ;;
  *) echo "libfuzzer-build: --sanitizer none|address" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tfuzz-libfuzzer.XXXXXX")
trap 'rm -rf "$work"' EXIT
log() { printf 'libfuzzer-build: %s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# 1. clang with libFuzzer, from Debian.
t0=$(now)
fuzzer_rt() { ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; }
if ! command -v clang >/dev/null || ! fuzzer_rt; then
  if [ "$(id -u)" != 0 ]; then log "need clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev)"; exit 2; fi
  log "installing clang and libclang-rt-14-dev"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
fi
log "clang: $(clang --version | head -1) ($(since "$t0") s)"

# 2. go-118-fuzz-build, pinned, from the Go module proxy.
t0=$(now)
gobin=${TFUZZ_TOOLS:-$HOME/.cache/tfuzz-tools}/go-118-fuzz-build@$G118_VERSION
if [ ! -x "$gobin/go-118-fuzz-build" ]; then
  GOFLAGS= GOBIN="$gobin" go install "github.com/AdamKorcz/go-118-fuzz-build@$G118_VERSION"
fi
log "go-118-fuzz-build $G118_VERSION ($(since "$t0") s)"

# 3. The source, copied as the base image's COPY does, plus the tool's
# testing package in go.mod as compile_native_go_fuzzer needs.
t0=$(now)
src=$work/src
mkdir -p "$src"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$root" && git ls-files -z -co --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -xf - -C "$src"
else
  (cd "$root" && tar --exclude=./.git --exclude="./$(basename "$out")" -cf - .) | tar -xf - -C "$src"
fi
cd "$src"
GOFLAGS=-mod=mod go get "github.com/AdamKorcz/go-118-fuzz-build/testing@$G118_VERSION" 2>/dev/null
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(go test ./fuzz -list '^Fuzz' | grep '^Fuzz')
fi
rm -rf "$out/seeds" && go run ./fuzz/internal/seedcorpus -corpus corpus -generated "$generated" -dir "$out/seeds" -dict "$out/tfuzz.dict" >&2
log "source copied, ${#targets[@]} targets: ${targets[*]} ($(since "$t0") s)"

# 4. Build, link and run each target.
status=0
summary=$out/summary.txt
printf '%-12s %8s %8s %8s %10s %8s %8s %s\n' target build_s link_s run_s runs execs/s corpus result >"$summary"
for t in "${targets[@]}"; do
  tb=$(now)
  # As the base image's compile_native_go_fuzzer (build_native_go_fuzzer_legacy)
  # runs it: tag gofuzz, the package's absolute folder, then $CXX with libFuzzer.
  if ! "$gobin/go-118-fuzz-build" -tags "gofuzz${tags:+,$tags}" -o "$work/$t.a" -func "$t" "$src/fuzz" >"$out/$t.build.log" 2>&1; then
    log "$t: go-118-fuzz-build failed:"; cat "$out/$t.build.log" >&2; status=2; continue
  fi
  build_s=$(since "$tb")
  tl=$(now)
  if ! clang++ "${lflags[@]}" "$work/$t.a" -o "$out/$t" >>"$out/$t.build.log" 2>&1; then
    log "$t: clang link failed:"; cat "$out/$t.build.log" >&2; status=2; continue
  fi
  link_s=$(since "$tl")
  log "$t: built in $build_s s, linked in $link_s s: $out/$t"
  if [ "$seconds" = 0 ]; then
    printf '%-12s %8s %8s %8s %10s %8s %8s %s\n' "$t" "$build_s" "$link_s" - - - - built >>"$summary"
    continue
  fi
  rm -rf "$out/corpus/$t" "$out/crashes/$t-"* && mkdir -p "$out/corpus/$t" "$out/crashes"
  tr=$(now)
  set +e
  (cd "$out" && "$out/$t" "${mode[@]}" -max_total_time="$seconds" -print_final_stats=1 -timeout=25 -rss_limit_mb=4096 \
    -dict="$out/tfuzz.dict" -artifact_prefix="$out/crashes/$t-" "$out/corpus/$t" "$out/seeds") >"$out/$t.log" 2>&1
  rc=$?
  set -e
  run_s=$(since "$tr")
  stat() { sed -n "s/^stat::$1: *//p" "$out/$t.log" | tail -1 || true; }
  runs=$(stat number_of_executed_units) eps=$(stat average_exec_per_sec)
  if [ -z "$runs" ]; then # fork mode prints no final stats: the last status line
    last=$(grep -E '^#[0-9]+: ' "$out/$t.log" | tail -1 || true)
    runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
    eps=$(awk -v r="${runs:-0}" -v s="$run_s" 'BEGIN { if (s > 0) printf "%d", r / s }')
  fi
  units=$(ls "$out/corpus/$t" | wc -l)
  ncrash=$(find "$out/crashes" -name "$t-*" | wc -l)
  if [ $rc -eq 0 ] && [ "$ncrash" -eq 0 ]; then
    result=ok
  else
    result="CRASH (exit $rc, $ncrash crash inputs): $(find "$out/crashes" -name "$t-*" | sort | head -1)"
    status=1
    # t.Fatal prints the target's error just before the panic it raises.
    grep -m1 -B8 -E '^(panic|fatal error|==[0-9]+== ERROR)' "$out/$t.log" >&2 || tail -20 "$out/$t.log" >&2
  fi
  printf '%-12s %8s %8s %8s %10s %8s %8s %s\n' "$t" "$build_s" "$link_s" "$run_s" "${runs:-?}" "${eps:-?}" "$units" "$result" >>"$summary"
  log "$t: $result; ${runs:-?} runs, ${eps:-?} execs/s in $run_s s, corpus $units inputs (log $out/$t.log)"
done
cat "$summary"
if [ $status -eq 1 ]; then
  log "crash inputs in $out/crashes; turn them into findings with: go run ./cmd/tfuzz import-crash $out/crashes/*"
fi
exit $status
