// eliminate_redundant_copies on memory-space-changing copies, executed:
// every chunk of test/Copies/memory-spaces.mlir (its IR checks) runs on the
// CPU before and after the transform (utils/exec-check-split.py).
//
// RUN: %python %utils/exec-check-split.py %test_src/Copies/memory-spaces.mlir --erase-memory-spaces -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Copies/Inputs/eliminate-by-target.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=EXEC
//
// EXEC: chunk 0 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 1 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 2 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 3 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 4 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 5 (line {{[0-9]+}}): EXEC-CHECK: PASS
