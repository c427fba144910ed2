// transform.smem.eliminate_redundant_copies, executed: every chunk of
// test/Copies/eliminate-redundant-copies.mlir (its IR checks) with a @main
// runs on the CPU before and after the transform (utils/exec-check-split.py;
// chunks marked `exec-check: expect-changed` there must be changed by it).
//
// RUN: %python %utils/exec-check-split.py %test_src/Copies/eliminate-redundant-copies.mlir --erase-memory-spaces -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Copies/Inputs/eliminate-library.mlir \
// RUN:   --transform-interpreter | FileCheck %s --check-prefix=EXEC
//
// EXEC: chunk 0 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 1 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 2 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 3 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 4 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 5 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 6 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 7 (line {{[0-9]+}}): EXEC-CHECK: PASS
// EXEC: chunk 8 (line {{[0-9]+}}): EXEC-CHECK: PASS
