// REQUIRES: ptxas
//
// Ground truth for the merged shared-memory size: lower the example kernel
// (examples/smem-merge/input.mlir, four 1 KiB workgroup tiles) through NVVM
// to PTX and read the static shared memory ptxas reports, before and after
// transform.smem.merge_allocations. After the merge ptxas reports exactly
// the peak the op computed (2048 B), before it the sum (4096 B).
// Workgroup memref.alloc has no NVVM lowering, so Inputs/allocs-to-globals.py
// turns each remaining one into a workgroup memref.global first.
//
// RUN: hwsched-opt %examples/smem-merge/input.mlir \
// RUN:   | %python %S/Inputs/allocs-to-globals.py > %t.before.mlir
// RUN: %python %utils/ptxas-report.py %t.before.mlir --opt %mlir_opt \
// RUN:   --format text | FileCheck %s --check-prefix=BEFORE
// BEFORE: kernel gemm_bias_rowsum_kernel: {{.*}} smem_bytes=4096
//
// RUN: hwsched-opt %examples/smem-merge/input.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem \
// RUN:   -o %t.merged.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: merged 4 of 4 on-chip allocations: sum 4096 B, peak 2048 B
// RUN: %python %S/Inputs/allocs-to-globals.py < %t.merged.mlir > %t.after.mlir
// RUN: %python %utils/ptxas-report.py %t.after.mlir --opt %mlir_opt \
// RUN:   --format text | FileCheck %s --check-prefix=AFTER
// AFTER: kernel gemm_bias_rowsum_kernel: {{.*}} smem_bytes=2048
