// Execution check of barrier-safe merging: a kernel whose control flow
// depends on a per-thread value (a divergent scf.if with buffers in both
// branches, an scf.for with a per-thread trip count) merged for a GPU target
// prints exactly what the original prints on the CPU, for a thread on each
// side of the branch. Memory spaces are erased and barriers dropped before
// lowering (one thread runs the kernel).
//
// RUN: %python %utils/exec-check.py %test_src/Smem/Inputs/merge-exec-divergence.mlir \
// RUN:   --erase-memory-spaces --erase-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet \
// RUN: | FileCheck %s
// CHECK: EXEC-CHECK: PASS (4 output lines identical)

// The merged payload: buffers used inside the divergent ops get bytes of their
// own; the only barriers are at points every thread reaches (right before
// the divergent loop and before %e's first use), none inside the divergent
// scf.if or scf.for.
// RUN: hwsched-opt %test_src/Smem/Inputs/merge-exec-divergence.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet \
// RUN: | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @branchy_kernel
// IR: memref.alloc() {alignment = 16 : i64} : memref<896xi8, #gpu.address_space<workgroup>>
// IR-NOT: gpu.barrier
// IR: scf.if
// IR-NOT: gpu.barrier
// IR: } else {
// IR-NOT: gpu.barrier
// IR: gpu.barrier
// IR-NEXT: scf.for %{{.*}} = %{{.*}} to %[[TID:[^ ]+]] step
// IR-NOT: gpu.barrier
// IR: gpu.barrier
// IR-NEXT: scf.for
// IR-NEXT: memref.load
// IR-NOT: gpu.barrier
// IR: return
