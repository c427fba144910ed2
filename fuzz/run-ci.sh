#!/usr/bin/env bash
# Short fixed-seed libFuzzer runs for CI: builds the two libFuzzer targets
# with clang (fuzz/build.sh) and runs each from its committed corpus and
# regression inputs with -seed=1 (new corpus entries go to a temporary
# directory):
#   spec loader   ${HWSCHED_FUZZ_RUNS:-30000} executions
#   ops           ${HWSCHED_OP_FUZZ_RUNS:-1000} executions (in-process
#                 transform interpreter; the corpus (about 520 inputs) runs
#                 first; about 45 s with the machine shared)
# and fails on any crash, leak, timeout, sanitizer report or invariant
# violation, printing the reproducer. Without clang the step is skipped (the
# corpora and regressions are still replayed by the lit tests
# Reliability/spec-loader-corpus.test and Reliability/op-fuzzer-corpus.test).
# One line per target, then the last line:
#   "libfuzzer: N executions, N crashes" or "libfuzzer: skipped (...)".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v clang++-14 >/dev/null && ! command -v clang++ >/dev/null; then
  echo "libfuzzer: skipped (no clang++; apt-get install clang-14)"
  exit 0
fi
bins=$("$root/fuzz/build.sh") || { echo "libfuzzer: build failed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total_execs=0
total_crashes=0

# run_target NAME BINARY RUNS CORPUS REGRESSIONS [libFuzzer flags...]
run_target() {
  local name=$1 bin=$2 runs=$3 corpus=$4 regressions=$5
  shift 5
  local dir="$work/$name" status=0 start
  mkdir -p "$dir/corpus" "$dir/artifacts" "$regressions"
  start=$(date +%s)
  "$bin" -seed=1 -runs="$runs" -timeout=20 -rss_limit_mb=4096 \
    -artifact_prefix="$dir/artifacts/" -print_final_stats=1 "$@" \
    "$dir/corpus" "$corpus" "$regressions" >"$dir/log" 2>&1 || status=$?
  local execs crashes
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  crashes=$(ls "$dir/artifacts" | wc -l)
  if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    tail -60 "$dir/log"
    for f in "$dir/artifacts"/*; do
      [ -f "$f" ] || continue
      echo "libfuzzer: $name reproducer $(basename "$f") (base64; save it under ${regressions#"$root"/}/):"
      base64 "$f"
    done
    crashes=$((crashes > 0 ? crashes : 1))
  fi
  echo "libfuzzer: $name: ${execs:-0} executions, $crashes crashes, $(( $(date +%s) - start )) s"
  total_execs=$((total_execs + ${execs:-0}))
  total_crashes=$((total_crashes + crashes))
}

run_target spec-loader "$(echo "$bins" | sed -n 1p)" "${HWSCHED_FUZZ_RUNS:-30000}" \
  "$root/fuzz/corpus/spec-loader" "$root/fuzz/regressions/spec-loader" \
  -max_len=16384 -dict="$root/fuzz/spec-loader.dict"
run_target ops "$(echo "$bins" | sed -n 2p)" "${HWSCHED_OP_FUZZ_RUNS:-1000}" \
  "$root/fuzz/corpus/op-fuzzer" "$root/fuzz/regressions/op-fuzzer" \
  -max_len=8192 -dict="$root/fuzz/op-fuzzer.dict"
echo "libfuzzer: $total_execs executions, $total_crashes crashes"
[ "$total_crashes" -eq 0 ]
