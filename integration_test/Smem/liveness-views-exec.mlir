// Execution check of first-access lifetimes: all views are made before any
// data flows, buffers then share bytes phase by phase (5 buffers, 1408 B,
// packed to the 640 B that two consecutive phases need, the lower bound),
// and the merged kernel prints exactly what the original prints.
//
// RUN: %python %utils/exec-check.py %test_src/Smem/Inputs/views-exec.mlir \
// RUN:   --erase-memory-spaces --erase-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet \
// RUN: | FileCheck %s
// CHECK: EXEC-CHECK: PASS
//
// RUN: hwsched-opt %test_src/Smem/Inputs/views-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet \
// RUN: | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @views_up_front
// IR: memref.alloc() {alignment = 16 : i64} : memref<640xi8, #gpu.address_space<workgroup>>
// IR-NOT: memref.alloc()
// IR-LABEL: func.func @main
