// Execution checks of coarsened NPU flags (ascend-910b): loops whose flags
// need more than the 8 event ids of a pipe pair (Inputs/npu-coarsen-exec.mlir:
// a chain with six stages requested; the ~100-op random body is refused)
// print what the originals print, with dynamic trip counts 0, 1, 2, 3, 8
// and a lower bound above 0, and --hwsched-emulate-npu-sync
// (exec-check --emulate-npu-sync) aborts on a wait without a set, a flag
// set twice or a flag left set.
//
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/npu-coarsen-exec.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-coarsen-lib.mlir --transform-interpreter=entry-point=coarsen | FileCheck %s
// CHECK: EXEC-CHECK: PASS

// The chain really is coarsened, in 5 stages: at 6 the cube -> vector
// plans within the budget rotate events the hardware order does not
// protect (see npu-flags-coarsen.mlir).
// RUN: hwsched-opt %test_src/Pipeline/Inputs/npu-coarsen-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-coarsen-lib.mlir \
// RUN:   --transform-interpreter=entry-point=coarsen_explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: npu-coarsen-exec.mlir:[[CHAIN:[0-9]+]]:{{.*}} remark: stages 5 of limit 5
// REMARK: npu-coarsen-exec.mlir:[[CHAIN]]:{{.*}} remark: requested 6 stages reduced to 5
// REMARK: npu-coarsen-exec.mlir:[[CHAIN]]:{{.*}} remark: npu flags mte2 -> vector coarsened: 3 channels need 13 event ids, the hardware has 8; now 2 channels with 8 event ids

// The ~100-op random body used to run in 2 stages with 11 mte2 -> vector
// flags sharing event ids; those shared events were only ordered in
// program order (nothing makes the vector pipe's wait come before the mte2
// pipe's next set of the same event on the hardware), so it is now refused,
// in 2 stages and in 1.
// RUN: not hwsched-opt %test_src/Pipeline/Inputs/npu-coarsen-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-coarsen-lib.mlir \
// RUN:   --transform-interpreter=entry-point=large -o /dev/null 2>&1 | FileCheck %s --check-prefix=LARGE
// LARGE: error: cannot pipeline the loop: cannot synchronise the NPU pipes: the flags from mte2 to vector need 13 event ids (12 with coarser or shared flags), the hardware has 8; 3 plans within the budget were refused: their flags could be set again before the previous set was waited for

// The stage fallback: the K loop of npu-pipes-exec.mlir with 9 stages
// requested needs 9 events per copy-in flag and runs with 8 (same trip
// counts: dynamic 0, 1, 2, 3, 8, lower bound 8 with step 16, static ones
// unrolled completely).
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/npu-pipes-exec.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-coarsen-lib.mlir --transform-interpreter=entry-point=fallback | FileCheck %s
// RUN: hwsched-opt %test_src/Pipeline/Inputs/npu-pipes-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-coarsen-lib.mlir \
// RUN:   --transform-interpreter=entry-point=fallback_explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=FALLBACK
// FALLBACK: remark: stages 8 of limit 8
// FALLBACK: remark: requested 9 stages reduced to 8: with 9 stages the flags from cube to mte2 need 9 event ids (9 with coarser or shared flags), the hardware has 8; 2 plans within the budget were refused
