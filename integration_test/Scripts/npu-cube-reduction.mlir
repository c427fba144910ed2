// @npu_cube_reduction on ascend-910b (test/Scripts/npu-cube-reduction.mlir
// checks the decisions and IR): the result runs on the CPU like the input.
//
// RUN: %python %utils/exec-check.py %test_src/Scripts/Inputs/npu-cube.mlir --opt hwsched-opt --expect-changed -- \
// RUN:   --hwsched-target=ascend-910b \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/npu.mlir,%test_src/Scripts/Inputs/npu-drivers.mlir \
// RUN:   --transform-interpreter=entry-point=cube_8x32 --mlir-print-op-on-diagnostic=false \
// RUN:   | FileCheck %s --check-prefix=EXEC
// EXEC: EXEC-CHECK: PASS (35 output lines identical)
