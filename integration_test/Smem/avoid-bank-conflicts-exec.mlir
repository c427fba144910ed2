// Execution check of transform.smem.avoid_bank_conflicts
// (transform-scripts/smem.mlir @hwsched_avoid_bank_conflicts): the swizzled
// kernels print exactly what the originals print on the CPU, with the
// block's 64 threads running concurrently (--emulate-gpu-launch) and each
// thread's async copies deferred to its own wait (--emulate-async-copies).
// Both kernels write a 32x32 f32 tile transposed through shared memory, so
// a write and a read that disagree on where a chunk lives change the
// output. The swizzle rewrites async-copy destinations, vector.load /
// vector.store and memref.load indices.
//
// RUN: rm -rf %t
// RUN: %python %utils/exec-check.py %test_src/Smem/Inputs/bank-conflicts-exec.mlir \
// RUN:   --opt hwsched-opt --emulate-gpu-launch --emulate-async-copies --erase-memory-spaces \
// RUN:   --expect-changed --keep-temps %t -- --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/smem.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_avoid_bank_conflicts \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// CHECK: XOR swizzle, 16-byte chunk ^= (row >> 0) & 7; wavefronts per warp (actual/ideal) 36.0/8.0 -> 8.0/8.0 (1 x async copy 4.0/4.0 -> 4.0/4.0, 1 x vector.load 32.0/4.0 -> 4.0/4.0)
// CHECK: XOR swizzle, 16-byte chunk ^= (row >> 0) & 7; wavefronts per warp (actual/ideal) 36.0/5.0 -> 8.0/5.0 (1 x vector.store 4.0/4.0 -> 4.0/4.0, 1 x memref.load 32.0/1.0 -> 4.0/1.0)
// CHECK: EXEC-CHECK: PASS (66 output lines identical)
//
// The transformed kernels really read and write through the swizzle.
// RUN: FileCheck %s --check-prefix=IR < %t/after.transformed.mlir
// IR-LABEL: func.func @copy_kernel
// IR: %[[X:.+]] = arith.xori
// IR-NEXT: nvgpu.device_async_copy {{.+}}, %{{.+}}[%{{.+}}, %[[X]]], 4
// IR: %[[Y:.+]] = arith.xori
// IR-NEXT: vector.load %{{.+}}[%{{.+}}, %[[Y]]]
// IR-LABEL: func.func @scalar_kernel
// IR: %[[Z:.+]] = arith.xori
// IR-NEXT: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %[[Z]]]
// IR: %[[W:.+]] = arith.xori
// IR-NEXT: memref.load %{{.+}}[%{{.+}}, %[[W]]]
