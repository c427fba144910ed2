// transform.fusion.epilogue_in_place, then bufferization
// (test/Fusion/epilogue-in-place.mlir checks the IR): the values are
// unchanged on the CPU.
//
// RUN: %python %utils/exec-check.py %test_src/Fusion/Inputs/matmul-bias-relu.mlir --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Fusion/Inputs/in-place-and-bufferize.mlir \
// RUN:   --transform-interpreter=entry-point=in_place_and_bufferize | FileCheck %s --check-prefix=EXEC
//
// EXEC: EXEC-CHECK: PASS
