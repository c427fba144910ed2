#!/bin/sh
# Schedules the two NPU kernels of input.mlir with transform-scripts/npu.mlir
# (@npu_fuse_elementwise_chain, @npu_cube_reduction), printing the scheduled
# IR (stdout) and the fusion decisions (remarks on stderr, merged into stdout
# here).
#
# usage: examples/npu-fusion/run.sh [extra hwsched-opt args]
# The target is $HWSCHED_TARGET (default ascend-910b); $HWSCHED_SPEC_PATH
# can point at a directory with another spec of that name, e.g.
#   HWSCHED_SPEC_PATH=test/Scripts/Inputs/small-ub examples/npu-fusion/run.sh
# $HWSCHED_OPT names the tool (default: hwsched-opt on PATH, else build/bin/).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../find-hwsched-opt.sh"
# A relative spec path must survive the cd below too.
if [ -n "${HWSCHED_SPEC_PATH:-}" ]; then
  case "$HWSCHED_SPEC_PATH" in
    /*) ;;
    *) HWSCHED_SPEC_PATH="$(pwd)/$HWSCHED_SPEC_PATH" ;;
  esac
  export HWSCHED_SPEC_PATH
fi
HWSCHED_TARGET=${HWSCHED_TARGET:-ascend-910b}
export HWSCHED_TARGET
# Run from the example directory so locations in remarks read "input.mlir".
cd "$here"
exec "$opt" input.mlir \
  --transform-preload-library=transform-library-paths=../../transform-scripts/npu.mlir,schedule.mlir \
  --transform-interpreter=entry-point=npu_fusion_main \
  --mlir-print-op-on-diagnostic=false "$@" 2>&1
