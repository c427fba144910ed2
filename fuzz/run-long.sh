#!/usr/bin/env bash
# Long fuzzing run for developers. Usage:
#   fuzz/run-long.sh [seconds-for-the-spec-loader] [op-iterations-per-target] [seed]
# (defaults 600, 500 and the current time).
# 1. libFuzzer on the spec loader (clang build, ASan + UBSan): new corpus
#    entries are merged into fuzz/corpus/spec-loader/, crashing inputs are
#    written to fuzz/regressions/spec-loader/ (commit both: CI replays them).
# 2. fuzz/op_fuzz.py on every op target against the sanitized hwsched-opt
#    when build-asan/ exists (else build/): findings are saved under
#    fuzz/regressions/ops/ (CI replays them).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-600}
iters=${2:-500}
seed=${3:-$(date +%s)}
status=0

if command -v clang++-14 >/dev/null || command -v clang++ >/dev/null; then
  bin=$("$root/fuzz/build.sh" | tail -1)
  work=$(mktemp -d)
  "$bin" -seed="$seed" -max_total_time="$secs" -max_len=16384 -timeout=10 \
    -dict="$root/fuzz/spec-loader.dict" \
    -artifact_prefix="$root/fuzz/regressions/spec-loader/" \
    -print_final_stats=1 "$work" "$root/fuzz/corpus/spec-loader" \
    2>&1 | tail -15 || status=1
  # Keep only inputs that add coverage.
  "$bin" -merge=1 "$root/fuzz/corpus/spec-loader" "$work" 2>&1 | tail -2
  rm -rf "$work"
else
  echo "run-long: no clang++, skipping the libFuzzer target" >&2
fi

opt="$root/build-asan/bin/hwsched-opt"
[ -x "$opt" ] || opt="$root/build/bin/hwsched-opt"
python3 "$root/fuzz/op_fuzz.py" --hwsched-opt "$opt" --target all \
  --seed "$seed" --iterations "$iters" || status=1
exit $status
