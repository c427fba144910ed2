#!/usr/bin/env bash
# Short fixed-seed libFuzzer runs for CI: builds the two libFuzzer targets
# with clang (fuzz/build.sh) and runs each with -seed=1 from its seeds
# (fuzz/seeds/spec-loader/; the op seeds fuzz/make_op_seeds.py writes from
# test/ and examples/), its regression inputs, and the merged corpus
# fuzz/corpus/<dir>/ when fuzz/make-corpus.sh has made it (not on a fresh
# checkout; new corpus entries go to a temporary directory):
#   spec loader   ${HWSCHED_FUZZ_RUNS:-30000} executions
#   ops           ${HWSCHED_OP_FUZZ_RUNS:-1000} executions (in-process
#                 transform interpreter; the seeds (about 230 inputs) run
#                 first; about 30 s with the machine shared)
# and fails on any crash, leak, timeout, sanitizer report or invariant
# violation, printing the reproducer. Without clang the step is skipped (the
# seeds and regressions are still replayed by the lit tests
# integration_test/Reliability/spec-loader-corpus.test and op-fuzzer-corpus.test).
# One line per target, then the last line:
#   "libfuzzer: N executions, N crashes" or "libfuzzer: skipped (...)".
set -uo pipefail
source "$(dirname "$0")/lib.sh"
root=$fuzz_root
if ! command -v clang++-14 >/dev/null && ! command -v clang++ >/dev/null; then
  echo "libfuzzer: skipped (no clang++; apt-get install clang-14)"
  exit 0
fi
bins=$("$root/fuzz/build.sh") || { echo "libfuzzer: build failed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total_execs=0
total_crashes=0

# run_target NAME RUNS
run_target() {
  local name=$1 runs=$2
  local dir="$work/$name" status=0 start bin regressions corpus inputs
  bin=$(fuzz_binary "$name" "$bins")
  regressions=$(fuzz_regressions "$name")
  corpus=$(fuzz_corpus "$name")
  mkdir -p "$dir/corpus" "$dir/artifacts" "$regressions"
  inputs=("$dir/corpus" "$(fuzz_seeds "$name" "$dir")" "$regressions")
  [ -d "$corpus" ] && inputs+=("$corpus")
  start=$(date +%s)
  # shellcheck disable=SC2046  # the flags are words
  "$bin" -seed=1 -runs="$runs" -timeout=20 -rss_limit_mb=4096 \
    -artifact_prefix="$dir/artifacts/" -print_final_stats=1 $(fuzz_flags "$name") \
    "${inputs[@]}" >"$dir/log" 2>&1 || status=$?
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
  echo "libfuzzer: $name: ${execs:-0} executions, $crashes crashes, $(( $(date +%s) - start )) s" \
    "($([ -d "$corpus" ] && echo "seeds + merged corpus" || echo "seeds; no merged corpus (fuzz/make-corpus.sh)"))"
  total_execs=$((total_execs + ${execs:-0}))
  total_crashes=$((total_crashes + crashes))
}

run_target spec-loader "${HWSCHED_FUZZ_RUNS:-30000}"
run_target ops "${HWSCHED_OP_FUZZ_RUNS:-1000}"
echo "libfuzzer: $total_execs executions, $total_crashes crashes"
[ "$total_crashes" -eq 0 ]
