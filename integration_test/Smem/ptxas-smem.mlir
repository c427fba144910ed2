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
// RUN:   | %python %test_src/Smem/Inputs/allocs-to-globals.py > %t.before.mlir
// RUN: %python %utils/ptxas-report.py %t.before.mlir --opt %mlir_opt \
// RUN:   --format text | FileCheck %s --check-prefix=BEFORE
// BEFORE: kernel gemm_bias_rowsum_kernel: {{.*}} smem_bytes=4096
//
// RUN: hwsched-opt %examples/smem-merge/input.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem \
// RUN:   -o %t.merged.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: merged 4 of 4 on-chip allocations: sum 4096 B, peak 2048 B
// RUN: %python %test_src/Smem/Inputs/allocs-to-globals.py < %t.merged.mlir > %t.after.mlir
// RUN: %python %utils/ptxas-report.py %t.after.mlir --opt %mlir_opt \
// RUN:   --format text | FileCheck %s --check-prefix=AFTER
// AFTER: kernel gemm_bias_rowsum_kernel: {{.*}} smem_bytes=2048

// gpu.func workgroup attributions (Inputs/attribution-kernel.mlir: a chain
// of three, 2560 B in all) lower to shared memory directly; merged, they
// become one byte attribution of the peak the op computed (1536 B).
// RUN: %python %utils/ptxas-report.py %test_src/Smem/Inputs/attribution-kernel.mlir \
// RUN:   --opt %mlir_opt --format text | FileCheck %s --check-prefix=ATTR-BEFORE
// ATTR-BEFORE: kernel attr_kernel: {{.*}} smem_bytes=2560
// RUN: hwsched-opt %test_src/Smem/Inputs/attribution-kernel.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem \
// RUN:   --mlir-print-op-on-diagnostic=false \
// RUN:   -o %t.attr.mlir 2>&1 | FileCheck %s --check-prefix=ATTR-REMARK
// ATTR-REMARK: remark: merged 3 of 3 on-chip allocations: sum 2560 B, peak 1536 B
// RUN: rm -rf %t.keep
// RUN: %python %utils/ptxas-report.py %t.attr.mlir --opt %mlir_opt \
// RUN:   --format text --keep-temps %t.keep | FileCheck %s --check-prefix=ATTR-AFTER
// ATTR-AFTER: kernel attr_kernel: {{.*}} smem_bytes=1536
// The merged attribution keeps the alignment the offsets rely on.
// RUN: cat %t.keep/*.ptx | FileCheck %s --check-prefix=ATTR-PTX
// ATTR-PTX: .shared .align 16 .b8 {{.*}}[1536];
