#!/usr/bin/env bash
# examples/cpu-matmul/run.sh: schedules input.mlir with the CPU matmul script
# (tiles from the spec, default x86-avx512), runs it and the unscheduled
# program with mlir-runner, checks the results against expected-output.txt
# and prints the time per call of both.
#
#   HWSCHED_OPT=build/bin/hwsched-opt examples/cpu-matmul/run.sh [--target NAME] [--keep DIR] [--no-baseline]
#
# --no-baseline skips the unscheduled program (about 20 s here), as the lit
# test test/Scripts/example-cpu-matmul.test does.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=x86-avx512
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
llvm=/usr/lib/llvm-22
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

# The lowering of utils/exec-check.py, for both programs.
pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},convert-linalg-to-loops,convert-vector-to-scf,lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-vector-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"
libs="$llvm/lib/libmlir_c_runner_utils.so,$llvm/lib/libmlir_runner_utils.so"

echo "== schedule (spec $target): the decisions"
"$opt" "$here/input.mlir" --hwsched-target="$target" \
  --transform-preload-library=transform-library-paths="$root/transform-scripts/matmul-frontend.mlir,$root/transform-scripts/cpu-matmul.mlir" \
  --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
  -o "$work/scheduled.mlir" 2> "$work/remarks.txt" ||
  { cat "$work/remarks.txt" >&2; exit 1; }  # the errors, not only the remarks
sed -n 's/.*remark: //p' "$work/remarks.txt"

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
