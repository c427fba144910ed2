// Barriers between stages are only inserted for dependences that may cross
// threads: when each thread writes and reads only the workgroup elements
// indexed by its own thread id (Analysis/ThreadPrivateAccess.h), program
// order inside the thread is enough and the barrier is skipped.
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s
//
// Inputs/thread-slice-exec.mlir runs such kernels once per emulated thread
// (integration_test/Pipeline/barriers.mlir); its kernels get the same
// barrier decisions as below.
// RUN: hwsched-opt %S/Inputs/thread-slice-exec.mlir --transform-preload-library=transform-library-paths=%S/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s3 | FileCheck %s --check-prefix=INPUT
// INPUT-LABEL: func.func @own_slice
// INPUT-NOT: gpu.barrier
// INPUT-LABEL: func.func @neighbour
// INPUT: gpu.barrier

// Each thread stores to and loads from %s[tid.x] (one thread dimension: the
// block is 64x1x1): no barrier in the kernel, prologue or epilogue.
// CHECK-LABEL: func.func @own_slice
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @own_slice(%A: memref<64x64xf32>, %O: memref<64x64xf32> {llvm.noalias})
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tx = gpu.thread_id x
    // expected-remark @below {{buffer 1 copy x 256 bytes on chip}}
    %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    // The 64 threads' stores together overwrite all of %s each iteration
    // (one element each, Analysis/ThreadIndexSpace.h): no recurrence through
    // it, so no RecMII remark.
    // expected-remark @below {{stages 3 of limit 3}}
    // expected-remark @below {{on-chip bytes 256 of capacity 232448}}
    scf.for %i = %c0 to %c64 step %c1 {
      // expected-remark @below {{stage 0 on unit vector}}
      %x = memref.load %A[%i, %tx] : memref<64x64xf32>
      // expected-remark @below {{stage 0 on unit vector}}
      %y = arith.mulf %x, %x : f32
      // expected-remark @below {{stage 0 on unit vector}}
      memref.store %y, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit smem_load}}
      %z = memref.load %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 2 on unit vector}}
      memref.store %z, %O[%i, %tx] : memref<64x64xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Kept: the load reads the neighbour's element (%s[tid.x + 1] is not the
// index the store used), so the store of one thread feeds another thread.
// CHECK-LABEL: func.func @neighbour_slice
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: memref.store %{{.+}}, %[[S:.+]][%[[TX:.+]]] : memref<65xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[S]][%{{.+}}]
// CHECK: scf.yield
module attributes {transform.with_named_sequence} {
  func.func @neighbour_slice(%A: memref<64x64xf32>, %O: memref<64x64xf32> {llvm.noalias})
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tx = gpu.thread_id x
    %tx1 = arith.addi %tx, %c1 : index
    %s = memref.alloc() : memref<65xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c64 step %c1 {
      %x = memref.load %A[%i, %tx] : memref<64x64xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %s[%tx] : memref<65xf32, #gpu.address_space<workgroup>>
      %z = memref.load %s[%tx1] : memref<65xf32, #gpu.address_space<workgroup>>
      memref.store %z, %O[%i, %tx] : memref<64x64xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Kept: the block size is unknown, so threads with the same tid.x but
// different tid.y share %s[tid.x].
// CHECK-LABEL: func.func @other_dims_unknown
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK: scf.yield
module attributes {transform.with_named_sequence} {
  func.func @other_dims_unknown(%A: memref<64x64xf32>, %O: memref<64x64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tx = gpu.thread_id x
    %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c64 step %c1 {
      %x = memref.load %A[%i, %tx] : memref<64x64xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %z = memref.load %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %z, %O[%i, %tx] : memref<64x64xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Skipped inside gpu.launch with a constant 32x1x1 block and a uniform
// offset (tid.x + block id * 0 is still tid.x plus a uniform value); kept
// for a load through a loop-variant index (%s[%tx + %i]: a different
// element every iteration, written by another thread).
// CHECK-LABEL: func.func @in_launch
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: memref.store %{{.+}}, %[[S:.+]][%[[IDX:.+]]] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.load %[[S]][%[[IDX]]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.+}}, %[[T:.+]][%{{.+}}] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load %[[T]][%{{.+}}] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.yield
module attributes {transform.with_named_sequence} {
  func.func @in_launch(%A: memref<64x64xf32>, %O: memref<64x64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
      %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      %off = arith.muli %bx, %c0 : index
      %idx = arith.addi %tx, %off : index
      scf.for %i = %c0 to %c32 step %c1 {
        %x = memref.load %A[%i, %tx] : memref<64x64xf32>
        %y = arith.mulf %x, %x : f32
        memref.store %y, %s[%idx] : memref<32xf32, #gpu.address_space<workgroup>>
        %z = memref.load %s[%idx] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %z, %t[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
        %j = arith.addi %tx, %i : index
        %w = memref.load %t[%j] : memref<64xf32, #gpu.address_space<workgroup>>
        %v = arith.addf %z, %w : f32
        memref.store %v, %O[%i, %tx] : memref<64x64xf32>
      }
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
