#!/usr/bin/env bash
# Long fuzzing run for developers. Usage:
#   fuzz/run-long.sh [seconds-per-libfuzzer-target] [op-iterations-per-target] [seed]
# (defaults 600, 500 and the current time).
# 1. libFuzzer on the spec loader and on the ops (clang build, ASan + UBSan),
#    starting from the merged corpus fuzz/corpus/<dir>/ (made first by
#    fuzz/make-corpus.sh when missing), the seeds and the regressions: new
#    coverage is merged into fuzz/corpus/<dir>/ (an artifact, not committed),
#    crashing inputs are written to fuzz/regressions/spec-loader/ and
#    fuzz/regressions/op-fuzzer/ (commit them: CI replays them). Replay one:
#    HWSCHED_FUZZ_VERBOSE=1 build/bin/hwsched-fuzz-ops-replay <file>
# 2. fuzz/op_fuzz.py (the ops through the hwsched-opt driver) on every op
#    target against a sanitized hwsched-opt (build-fuzz/ after fuzz/build.sh
#    --all, else build-asan/, else build/): findings are saved under fuzz/regressions/ops/ (CI replays them).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
root=$fuzz_root
secs=${1:-600}
iters=${2:-500}
seed=${3:-$(date +%s)}
status=0

# long_run NAME
long_run() {
  local name=$1 work bin regressions corpus
  work=$(mktemp -d)
  bin=$(fuzz_binary "$name" "$bins")
  regressions=$(fuzz_regressions "$name")
  corpus=$(fuzz_corpus "$name")
  mkdir -p "$regressions" "$work/new" "$corpus"
  echo "run-long: libFuzzer $name for $secs s, seed $seed" >&2
  # shellcheck disable=SC2046  # the flags are words
  "$bin" -seed="$seed" -max_total_time="$secs" -timeout=20 \
    -artifact_prefix="$regressions/" -print_final_stats=1 $(fuzz_flags "$name") \
    "$work/new" "$corpus" "$(fuzz_seeds "$name" "$work")" "$regressions" \
    2>&1 | tail -15 || status=1
  # Keep only inputs that add coverage.
  # shellcheck disable=SC2046
  "$bin" -merge=1 $(fuzz_flags "$name") "$corpus" "$work/new" 2>&1 | tail -2
  rm -rf "$work"
}

if command -v clang++-14 >/dev/null || command -v clang++ >/dev/null; then
  bins=$("$root/fuzz/build.sh")
  for name in $FUZZ_TARGETS; do
    if [ ! -d "$(fuzz_corpus "$name")" ]; then
      "$root/fuzz/make-corpus.sh" || status=1
      break
    fi
  done
  for name in $FUZZ_TARGETS; do
    long_run "$name"
  done
else
  echo "run-long: no clang++, skipping the libFuzzer targets" >&2
fi

opt="$root/build-fuzz/bin/hwsched-opt"
[ -x "$opt" ] || opt="$root/build-asan/bin/hwsched-opt"
[ -x "$opt" ] || opt="$root/build/bin/hwsched-opt"
python3 "$root/fuzz/op_fuzz.py" --hwsched-opt "$opt" --target all \
  --seed "$seed" --iterations "$iters" || status=1
exit $status
