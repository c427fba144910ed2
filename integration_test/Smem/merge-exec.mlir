// Execution check: the merged IR (workgroup buffers packed into one byte
// buffer, with gpu.barrier where bytes are reused) prints exactly what the
// original prints on the CPU. Memory spaces are erased and barriers dropped
// before lowering (one thread runs each kernel: a barrier orders nothing).
// The kernels cover the chain case, a buffer live across a loop with
// loop-local buffers, ping-pong iter_args with a multi-buffered ring and
// scf.if branches, aliases and a bounded dynamic size.
//
// RUN: %python %utils/exec-check.py %test_src/Smem/Inputs/merge-exec.mlir \
// RUN:   --erase-memory-spaces --erase-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet \
// RUN: | FileCheck %s
// CHECK: EXEC-CHECK: PASS (10 output lines identical)

// The same kernels with their memory spaces erased, merged for the CPU
// target: default-space allocations are packed (no barriers).
// RUN: hwsched-opt %test_src/Smem/Inputs/merge-exec.mlir --hwsched-erase-memory-spaces \
// RUN:   -o %t.cpu.mlir
// RUN: %python %utils/exec-check.py %t.cpu.mlir --expect-changed -- \
// RUN:   --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet \
// RUN: | FileCheck %s --check-prefix=CPU
// CPU: EXEC-CHECK: PASS (10 output lines identical)

// The transformed payload really shares bytes: one buffer per kernel, and
// the chain kernel's first and third buffers both at offset 0.
// RUN: hwsched-opt %test_src/Smem/Inputs/merge-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_merge_smem_quiet \
// RUN: | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @chain_kernel
// IR: memref.alloc() {alignment = 16 : i64} : memref<384xi8, #gpu.address_space<workgroup>>
// IR-LABEL: func.func @loop_kernel
// IR: memref.alloc() {alignment = 16 : i64} : memref<768xi8, #gpu.address_space<workgroup>>
// IR-LABEL: func.func @pingpong_kernel
// IR: memref.alloc() {alignment = 16 : i64} : memref<1536xi8, #gpu.address_space<workgroup>>
// IR-LABEL: func.func @alias_kernel
// IR: memref.alloc() {alignment = 16 : i64} : memref<768xi8, #gpu.address_space<workgroup>>
// IR-LABEL: func.func @main
// IR-NOT: memref.view
