// @npu_fuse_elementwise_chain (test/Scripts/npu-chain.mlir checks the IR),
// executed: the chain fused on ascend-910b, and left unfused with a 128 KiB
// UB, both compute what the input does on the CPU.
//
// RUN: %python %utils/exec-check.py %test_src/Scripts/Inputs/npu-chain.mlir --opt hwsched-opt --expect-changed -- \
// RUN:   --hwsched-target=ascend-910b \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/npu.mlir,%test_src/Scripts/Inputs/npu-drivers.mlir \
// RUN:   --transform-interpreter=entry-point=chain_16x32 --mlir-print-op-on-diagnostic=false \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: env HWSCHED_SPEC_PATH=%test_src/Scripts/Inputs/small-ub %python %utils/exec-check.py %test_src/Scripts/Inputs/npu-chain.mlir \
// RUN:   --opt hwsched-opt -- --hwsched-target=ascend-910b \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/npu.mlir,%test_src/Scripts/Inputs/npu-drivers.mlir \
// RUN:   --transform-interpreter=entry-point=chain_16x32 --mlir-print-op-on-diagnostic=false \
// RUN:   | FileCheck %s --check-prefix=EXEC
// EXEC: EXEC-CHECK: PASS (65 output lines identical)
