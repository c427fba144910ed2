#!/usr/bin/env bash
# Regenerates the merged libFuzzer corpora, fuzz/corpus/spec-loader/ and
# fuzz/corpus/op-fuzzer/, from the committed seeds and regressions: a fixed
# number of executions with a fixed libFuzzer seed (address-space
# randomisation off), then `-merge=1` keeps the inputs that add coverage.
# The corpus is an artifact (ignored by git): fuzz/run-ci.sh starts from it
# when present, fuzz/run-long.sh creates it when missing and merges new
# coverage into it. Usage:
#   fuzz/make-corpus.sh [spec-loader-runs] [op-runs] [seed]
# (defaults 100000, 6000 and 7: about 2 and 6 minutes on 2 shared cores).
# Prints one line per target; fuzz/corpus/<dir>.stamp records how it was made.
# A crash stops the run, saves the input under fuzz/regressions/<dir>/ and
# fails.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
spec_runs=${1:-100000}
op_runs=${2:-6000}
seed=${3:-7}
bins=$("$fuzz_root/fuzz/build.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for name in $FUZZ_TARGETS; do
  bin=$(fuzz_binary "$name" "$bins")
  runs=$spec_runs
  [ "$name" = ops ] && runs=$op_runs
  seeds=$(fuzz_seeds "$name" "$work")
  regressions=$(fuzz_regressions "$name")
  out=$(fuzz_corpus "$name")
  start=$(date +%s)
  mkdir -p "$work/$name/new" "$regressions"
  # shellcheck disable=SC2046  # the flags are words
  if ! "${fuzz_norand[@]}" "$bin" -seed="$seed" -runs="$runs" -timeout=20 \
      -rss_limit_mb=4096 -artifact_prefix="$regressions/" $(fuzz_flags "$name") \
      "$work/$name/new" "$seeds" "$regressions" >"$work/$name/log" 2>&1; then
    tail -40 "$work/$name/log"
    echo "make-corpus: $name crashed; the input is under ${regressions#"$fuzz_root"/}/ (commit it)"
    exit 1
  fi
  rm -rf "$out.tmp"
  mkdir -p "$out.tmp"
  # shellcheck disable=SC2046
  "${fuzz_norand[@]}" "$bin" -merge=1 $(fuzz_flags "$name") "$out.tmp" \
    "$work/$name/new" "$seeds" "$regressions" >"$work/$name/merge" 2>&1 || {
    tail -20 "$work/$name/merge"; exit 1; }
  rm -rf "$out"
  mv "$out.tmp" "$out"
  edges=$(sed -n 's/.*MERGE-OUTER: .* \([0-9]*\) new coverage edges.*/\1/p' "$work/$name/merge" | tail -1)
  echo "fuzz/make-corpus.sh $spec_runs $op_runs $seed at $(git -C "$fuzz_root" rev-parse --short HEAD 2>/dev/null || echo '?')" >"$out.stamp"
  echo "make-corpus: $name: $(find "$out" -type f | wc -l) inputs, ${edges:-?} coverage edges" \
    "($runs executions, seed $seed, $(( $(date +%s) - start )) s) -> ${out#"$fuzz_root"/}/"
done
