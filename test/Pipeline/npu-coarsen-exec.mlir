// Execution checks of coarsened NPU flags (ascend-910b): loops whose flags
// need more than the 8 event ids of a pipe pair (Inputs/npu-coarsen-exec.mlir:
// a six-stage chain and a ~100-op random body the benchmark used to refuse)
// print what the originals print, with dynamic trip counts 0, 1, 2, 3, 8
// and a lower bound above 0, and --hwsched-emulate-npu-sync
// (exec-check --emulate-npu-sync) aborts on a wait without a set, a flag
// set twice or a flag left set.
//
// RUN: %python %utils/exec-check.py %S/Inputs/npu-coarsen-exec.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/npu-coarsen-lib.mlir --transform-interpreter=entry-point=coarsen | FileCheck %s
// CHECK: EXEC-CHECK: PASS

// The checked loops really are coarsened: the chain merges flags, the large
// body also lets single-event flags that are never live at once share an
// event (in 2 stages: its 5 requested are clamped to the spec's 2).
// RUN: hwsched-opt %S/Inputs/npu-coarsen-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/npu-coarsen-lib.mlir \
// RUN:   --transform-interpreter=entry-point=coarsen_explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: npu-coarsen-exec.mlir:[[CHAIN:[0-9]+]]:{{.*}} remark: stages 6 of limit 6
// REMARK: npu-coarsen-exec.mlir:[[CHAIN]]:{{.*}} remark: npu flags mte2 -> vector coarsened: 3 channels need 14 event ids, the hardware has 8; now 1 channel with 6 event ids
// REMARK: npu-coarsen-exec.mlir:[[LARGE:[0-9]+]]:{{.*}} remark: stages 2 of limit 2
// REMARK: npu-coarsen-exec.mlir:[[LARGE]]:{{.*}} remark: npu flags mte2 -> vector coarsened: 13 channels need 23 event ids, the hardware has 8; now 13 channels with 4 event ids (11 channels share event ids with flags never live at once)
// REMARK-NOT: reduced

// The stage fallback: the K loop of npu-pipes-exec.mlir with 9 stages
// requested needs 9 events per copy-in flag and runs with 8 (same trip
// counts: dynamic 0, 1, 2, 3, 8, lower bound 8 with step 16, static ones
// unrolled completely).
// RUN: %python %utils/exec-check.py %S/Inputs/npu-pipes-exec.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/npu-coarsen-lib.mlir --transform-interpreter=entry-point=fallback | FileCheck %s
// RUN: hwsched-opt %S/Inputs/npu-pipes-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/npu-coarsen-lib.mlir \
// RUN:   --transform-interpreter=entry-point=fallback_explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=FALLBACK
// FALLBACK: remark: stages 8 of limit 8
// FALLBACK: remark: requested 9 stages reduced to 8: with 9 stages the flags from mte2 to cube need 9 event ids (9 with coarser or shared flags), the hardware has 8
