#!/bin/sh
# Packs the shared-memory allocations of input.mlir with the named sequence
# @hwsched_merge_smem of transform-scripts/smem.mlir, printing the packed IR
# (stdout) and the op's explain remarks (stderr, merged into stdout here).
#
# usage: examples/smem-merge/run.sh [extra hwsched-opt args]
#   e.g. run.sh --hwsched-target=nvidia-rtx4090
# $HWSCHED_OPT names the tool (default: hwsched-opt on PATH, else build/bin/).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../find-hwsched-opt.sh"
# Run from the example directory so locations in remarks read "input.mlir".
cd "$here"
exec "$opt" input.mlir \
  --transform-preload-library=transform-library-paths=../../transform-scripts/smem.mlir \
  --transform-interpreter=entry-point=hwsched_merge_smem \
  --mlir-print-op-on-diagnostic=false "$@" 2>&1
