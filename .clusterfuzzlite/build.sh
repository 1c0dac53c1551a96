#!/bin/bash -eu
# Builds every go test -fuzz target of fuzz/ for ClusterFuzzLite (and
# OSS-Fuzz): compile_native_go_fuzzer turns each into a libFuzzer binary in
# $OUT, and each gets <target>_seed_corpus.zip (every case of corpus/ and
# 2000 cases of the campaign generators, framed
# as go-118-fuzz-build hands a []byte argument to the target), a dictionary
# of the case format and an options file. scripts/libfuzzer-build.sh does the
# same without Docker and runs the binaries; a crash input from either
# becomes a finding with: tfuzz import-crash CRASH.
cd "$SRC/tfuzz"

# The version of go-118-fuzz-build's testing package the rewritten targets
# import; the same as scripts/libfuzzer-build.sh pins.
G118_VERSION=v0.0.0-20250520111509-a70c2aa677fa
go get "github.com/AdamKorcz/go-118-fuzz-build/testing@$G118_VERSION"

targets=$(go test ./fuzz -list '^Fuzz' | grep '^Fuzz')
zips=()
for t in $targets; do
  zips+=(-zip "$OUT/${t}_seed_corpus.zip")
done
go run ./fuzz/internal/seedcorpus -corpus corpus -generated 2000 -dict "$OUT/tfuzz.dict" "${zips[@]}"

for t in $targets; do
  compile_native_go_fuzzer github.com/tfuzz/tfuzz/fuzz "$t" "$t"
  cp "$OUT/tfuzz.dict" "$OUT/$t.dict"
  printf '[libfuzzer]\nmax_len = 8192\n' >"$OUT/$t.options"
done
rm -f "$OUT/tfuzz.dict"
