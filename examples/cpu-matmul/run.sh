#!/usr/bin/env bash
# examples/cpu-matmul/run.sh: schedules input.mlir with the CPU matmul script
# (tiles and threads from the spec: by default `host`, this machine as
# detected), prints the machine and the decisions, runs the scheduled and
# the unscheduled program with mlir-runner, checks the results against
# expected-output.txt and prints the time per call of both.
#
#   HWSCHED_OPT=build/bin/hwsched-opt examples/cpu-matmul/run.sh [--target NAME] [--keep DIR] [--no-baseline]
#
# --no-baseline skips the unscheduled program (about 20 s here), as the lit
# test integration_test/Scripts/example-cpu-matmul.test does.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=
keep=
variants="scheduled unscheduled"
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --no-baseline) variants=scheduled; shift ;;
    *) echo "usage: $0 [--target NAME] [--keep DIR] [--no-baseline]" >&2; exit 2 ;;
  esac
done
opt=${HWSCHED_OPT:-$root/build/bin/hwsched-opt}
[ -x "$opt" ] || opt=$(command -v hwsched-opt || true)
[ -n "$opt" ] && [ -x "$opt" ] || { echo "run.sh: set HWSCHED_OPT to hwsched-opt" >&2; exit 2; }
# The toolchain and the one CPU lowering pipeline (utils/exec-check.py's,
# the benches') from the project's Python package, not copies of them.
tools() { PYTHONPATH="$root/utils${PYTHONPATH:+:$PYTHONPATH}" python3 -c "$1"; }
llvm=$(tools 'from hwsched_tools import toolchain; print(toolchain.llvm_dir())')
pipeline=$(tools 'from hwsched_tools.lowering import cpu_lowering_pipeline; print(cpu_lowering_pipeline())')
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

libs="$llvm/lib/libmlir_c_runner_utils.so,$llvm/lib/libmlir_runner_utils.so"
target_flag=()
[ -z "$target" ] || target_flag=(--hwsched-target="$target")

# The machine (or the named spec) and where each figure came from.
echo "== target ${target:-host (detected: no --target)}: what the schedule reads"
"$opt" "$here/input.mlir" "${target_flag[@]}" \
  --transform-preload-library=transform-library-paths="$root/transform-scripts/target.mlir" \
  --transform-interpreter=entry-point=hwsched_describe_cpu_target \
  -o /dev/null 2> "$work/target.txt" || { cat "$work/target.txt" >&2; exit 1; }
sed -n "s/.*remark: spec '[^']*' \([^ ]*\) = \([^ ]*\)\( : [a-z0-9]*\)\{0,1\} (source: \(.*\))$/\1 = \2   [\4]/p" "$work/target.txt"

echo "== schedule: the decisions"
"$opt" "$here/input.mlir" "${target_flag[@]}" \
  --transform-preload-library=transform-library-paths="$root/transform-scripts/matmul-frontend.mlir,$root/transform-scripts/cpu-matmul.mlir" \
  --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
  -o "$work/scheduled.mlir" 2> "$work/remarks.txt" ||
  { cat "$work/remarks.txt" >&2; exit 1; }  # the errors, not only the remarks
sed -n 's/.*remark: //p' "$work/remarks.txt"
# convert-scf-to-openmp writes `%n = llvm.mlir.constant(T : i32)` and
# `omp.parallel num_threads(%n : i32)`.
threads=
var=$(sed -n 's/.*omp.parallel num_threads(\(%[^ ]*\) : .*/\1/p' "$work/scheduled.mlir" | head -1)
[ -z "$var" ] || threads=$(sed -n "s/^ *$var = llvm.mlir.constant(\([0-9]*\) : i32).*/\1/p" "$work/scheduled.mlir" | head -1)
if [ -n "$threads" ]; then
  echo "threads: $threads (column panels on OpenMP threads, cpu.cores)"
  libs="$libs,$llvm/lib/libomp.so"
else
  echo "threads: 1 (cpu.cores = 1: no OpenMP)"
fi

status=0
for variant in $variants; do
  if [ $variant = scheduled ]; then in="$work/scheduled.mlir"; else in="$here/input.mlir"; fi
  "$llvm/bin/mlir-opt" "$in" --pass-pipeline="$pipeline" -o "$work/$variant.llvm.mlir"
  "$llvm/bin/mlir-runner" -O3 "$work/$variant.llvm.mlir" -e main \
    -entry-point-result=void -shared-libs="$libs" > "$work/$variant.out"
  # Addresses and timing change from run to run; the rest is the result.
  grep -v '^seconds per call' "$work/$variant.out" | sed 's/base@ = 0x[0-9a-f]*/base@ = <addr>/' \
    > "$work/$variant.result"
  if diff -u "$here/expected-output.txt" "$work/$variant.result" > "$work/$variant.diff"; then
    verdict="result OK"
  else
    verdict="RESULT DIFFERS from expected-output.txt:"; status=1
  fi
  secs=$(sed -n 's/^seconds per call: *//p' "$work/$variant.out")
  gflops=$(awk -v s="$secs" 'BEGIN { printf "%.1f", 2 * 512 ^ 3 / s / 1e9 }')
  echo "== $variant: $verdict; ${secs} s per call = $gflops GFLOP/s (wall clock)"
  [ $status = 0 ] || cat "$work/$variant.diff"
done
echo "== result"
cat "$work/scheduled.result"
exit $status
