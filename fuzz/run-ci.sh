#!/usr/bin/env bash
# Short fixed-seed libFuzzer run of the spec-loader target, for CI: builds
# fuzz/spec_loader_fuzzer with clang (fuzz/build.sh), runs
# ${HWSCHED_FUZZ_RUNS:-30000} executions from the committed corpus with
# -seed=1 (new corpus entries go to a temporary directory), and fails on any
# crash, leak, timeout or sanitizer report, printing the reproducer. Without
# clang the step is skipped (the corpus is still replayed by the lit test
# Reliability/spec-loader-corpus.test). Last line:
#   "libfuzzer: N executions, N crashes" or "libfuzzer: skipped (...)".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${HWSCHED_FUZZ_RUNS:-30000}
if ! command -v clang++-14 >/dev/null && ! command -v clang++ >/dev/null; then
  echo "libfuzzer: skipped (no clang++; apt-get install clang-14)"
  exit 0
fi
bin=$("$root/fuzz/build.sh" | tail -1) || { echo "libfuzzer: build failed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
start=$(date +%s)
status=0
"$bin" -seed=1 -runs="$runs" -max_len=16384 -timeout=10 -rss_limit_mb=4096 \
  -dict="$root/fuzz/spec-loader.dict" -artifact_prefix="$work/artifacts/" \
  -print_final_stats=1 "$work/corpus" "$root/fuzz/corpus/spec-loader" \
  "$root/fuzz/regressions/spec-loader" >"$work/log" 2>&1 || status=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
crashes=$(ls "$work/artifacts" | wc -l)
if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
  tail -40 "$work/log"
  for f in "$work/artifacts"/*; do
    [ -f "$f" ] || continue
    echo "libfuzzer: reproducer $(basename "$f") (base64; save it under fuzz/regressions/spec-loader/):"
    base64 "$f"
  done
  echo "libfuzzer: ${execs:-0} executions, $((crashes > 0 ? crashes : 1)) crashes, $(( $(date +%s) - start )) s"
  exit 1
fi
echo "libfuzzer: ${execs:-0} executions, 0 crashes, $(( $(date +%s) - start )) s"
