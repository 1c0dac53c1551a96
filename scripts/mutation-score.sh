#!/usr/bin/env bash
# Measures tfuzz's power: changes one operator or integer constant of the CPU
# engine at a time (a mutant, as a kernel author's slip would look), builds
# tfuzz with that change (go build -overlay: the tree is never touched), runs
# a plain 10-second campaign of the CPU engine, and counts the mutants the
# campaign finds (exit 1: a finding). Prints each mutant's outcome, the
# score and every survivor with the reason recorded in
# scripts/mutants-equivalent.txt (an equivalent mutant, or one only a
# malformed case could reach), or "no reason recorded".
#
# usage: scripts/mutation-score.sh [--sample N] [--seed S] [--duration D] [--classify] [--out FILE] [--only ID]...
#   --sample N     mutants drawn from every site of impls/cpu (default 100; 0: all, about 5,000)
#   --seed S       the sample's seed (default 1); each campaign's seed derives from it and the mutant
#   --duration D   each campaign's duration (default 10s)
#   --classify     also run go test ./impls/cpu ./props on each survivor: a survivor the
#                  package tests kill changes behaviour, and the campaign missed it
#   --out FILE     append each result to FILE (JSON Lines); a rerun skips the mutants in it
#   --only ID      only this mutant (repeatable); --list prints the sample and exits
#   --run ARGS     tfuzz's arguments (default "run --backend cpu")
#
# A mutant costs a build (about 8 s) and the campaign; 100 mutants take about
# 30 minutes on 2 cores. Run it on an otherwise idle machine: a campaign that
# shares its cores checks fewer cases.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./scripts/mutate "$@"
