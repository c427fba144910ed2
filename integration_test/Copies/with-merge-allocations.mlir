// Copy elimination, then allocation merging
// (test/Copies/with-merge-allocations.mlir checks the IR): the result
// computes the same values on the CPU.
//
// RUN: %python %utils/exec-check.py %test_src/Copies/with-merge-allocations.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Copies/Inputs/copies-then-merge.mlir \
// RUN:   --transform-interpreter=entry-point=eliminate_then_merge | FileCheck %s --check-prefix=EXEC
//
// EXEC: EXEC-CHECK: PASS
