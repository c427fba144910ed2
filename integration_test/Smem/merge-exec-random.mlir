// Execution checks on generated kernels (Inputs/gen-random-kernels.py):
// random nests of scf.for / scf.if, buffers of random sizes allocated at
// random depths, read-modify-write across loop iterations, later uses
// through subviews and casts made early, buffers carried out of scf.if.
// Each kernel runs with three branch settings and prints its output; the
// merged IR must print the same. These seeds do fail with a liveness that
// ignores aliases, and with one that does not extend uses inside a loop to
// the whole loop (both tried by mutating the analysis).
//
// RUN: %python %test_src/Smem/Inputs/gen-random-kernels.py 1 6 > %t.1.mlir
// RUN: %python %utils/exec-check.py %t.1.mlir --erase-memory-spaces \
// RUN:   --erase-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet | FileCheck %s
// RUN: %python %test_src/Smem/Inputs/gen-random-kernels.py 7 6 > %t.7.mlir
// RUN: %python %utils/exec-check.py %t.7.mlir --erase-memory-spaces \
// RUN:   --erase-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet | FileCheck %s
// RUN: %python %test_src/Smem/Inputs/gen-random-kernels.py 13 6 > %t.13.mlir
// RUN: %python %utils/exec-check.py %t.13.mlir --erase-memory-spaces \
// RUN:   --erase-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet | FileCheck %s
// CHECK: EXEC-CHECK: PASS (36 output lines identical)

// CPU target on the same kind of kernels, memory spaces erased first.
// RUN: hwsched-opt %t.7.mlir --hwsched-erase-memory-spaces -o %t.7.cpu.mlir
// RUN: %python %utils/exec-check.py %t.7.cpu.mlir --expect-changed -- \
// RUN:   --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet | FileCheck %s
