#!/usr/bin/env bash
# Long fuzzing run for developers. Usage:
#   fuzz/run-long.sh [seconds-per-libfuzzer-target] [op-iterations-per-target] [seed]
# (defaults 600, 500 and the current time).
# 1. libFuzzer on the spec loader and on the ops (clang build, ASan + UBSan):
#    new corpus entries are merged into fuzz/corpus/spec-loader/ and
#    fuzz/corpus/op-fuzzer/, crashing inputs are written to
#    fuzz/regressions/spec-loader/ and fuzz/regressions/op-fuzzer/ (commit
#    them: CI replays them). Replay one:
#    HWSCHED_FUZZ_VERBOSE=1 build/bin/hwsched-fuzz-ops-replay <file>
# 2. fuzz/op_fuzz.py (the ops through the hwsched-opt driver) on every op
#    target against the sanitized hwsched-opt when build-asan/ exists (else
#    build/): findings are saved under fuzz/regressions/ops/ (CI replays them).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-600}
iters=${2:-500}
seed=${3:-$(date +%s)}
status=0

# long_run NAME BINARY CORPUS REGRESSIONS [libFuzzer flags...]
long_run() {
  local name=$1 bin=$2 corpus=$3 regressions=$4
  shift 4
  local work
  work=$(mktemp -d)
  mkdir -p "$regressions"
  echo "run-long: libFuzzer $name for $secs s, seed $seed" >&2
  "$bin" -seed="$seed" -max_total_time="$secs" -timeout=20 \
    -artifact_prefix="$regressions/" -print_final_stats=1 "$@" "$work" "$corpus" \
    2>&1 | tail -15 || status=1
  # Keep only inputs that add coverage.
  "$bin" -merge=1 "$@" "$corpus" "$work" 2>&1 | tail -2
  rm -rf "$work"
}

if command -v clang++-14 >/dev/null || command -v clang++ >/dev/null; then
  bins=$("$root/fuzz/build.sh")
  long_run spec-loader "$(echo "$bins" | sed -n 1p)" "$root/fuzz/corpus/spec-loader" \
    "$root/fuzz/regressions/spec-loader" -max_len=16384 \
    -dict="$root/fuzz/spec-loader.dict"
  long_run ops "$(echo "$bins" | sed -n 2p)" "$root/fuzz/corpus/op-fuzzer" \
    "$root/fuzz/regressions/op-fuzzer" -max_len=8192 \
    -dict="$root/fuzz/op-fuzzer.dict"
else
  echo "run-long: no clang++, skipping the libFuzzer targets" >&2
fi

opt="$root/build-asan/bin/hwsched-opt"
[ -x "$opt" ] || opt="$root/build/bin/hwsched-opt"
python3 "$root/fuzz/op_fuzz.py" --hwsched-opt "$opt" --target all \
  --seed "$seed" --iterations "$iters" || status=1
exit $status
