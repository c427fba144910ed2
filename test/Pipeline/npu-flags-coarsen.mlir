// Coarsened NPU flags (ascend-910b, six stages forced with
// pipeline.max_stages = 6 and separate_unit_stages): three copy-ins (mte2,
// stage 0) feed vector ops in stages 1, 3 and 5 and matmuls in stages 2 and
// 4. One flag per (stage, distance) class needs 14 event ids from mte2 to
// vector (2 + 4 + 6: one per buffer copy in flight) and 14 back; the
// hardware has 8 per pipe pair. Coarsened: the three copy-ins share one set
// (after the copy of C, the last) and one wait (before the stage-1 add, the
// earliest consumer), still with one event per copy of the deepest buffer
// (6); the reverse (WAR) flags likewise share one set, in stage 0 with the
// smallest distance that reaches the same iterations (1), and one wait.
// Executed with the emulated flags in npu-coarsen-exec.mlir.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --canonicalize --cse 2>/dev/null | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// REMARK: remark: npu flags cube -> vector coarsened: 4 channels need 12 event ids, the hardware has 8; now 4 channels with 8 event ids
// REMARK: remark: npu flags mte2 -> vector coarsened: 3 channels need 14 event ids, the hardware has 8; now 1 channel with 6 event ids
// REMARK: remark: npu flags vector -> cube coarsened: 4 channels need 12 event ids, the hardware has 8; now 2 channels with 6 event ids
// REMARK: remark: npu flags vector -> mte2 coarsened: 3 channels need 14 event ids, the hardware has 8; now 1 channel with 6 event ids
// REMARK: remark: npu flag mte2 -> vector: events 0..5, set in stage 0, wait in stage 1, distance 0, 3 dependences
// REMARK: remark: npu flag vector -> mte2: events 0..5, set in stage 0, wait in stage 0, distance 1, 3 dependences
// Pipe pairs within the budget keep one flag per class, with one event per
// buffer copy.
// REMARK: remark: npu flag mte2 -> cube: events 0..2, set in stage 0, wait in stage 2, distance 0, 1 dependence
// REMARK: remark: npu flag cube -> mte2: events 0..2, set in stage 2, wait in stage 0, distance 3, 1 dependence
// REMARK: remark: npu flag mte2 -> cube: events 3..7, set in stage 0, wait in stage 4, distance 0, 1 dependence
// REMARK: remark: npu flag cube -> mte2: events 3..7, set in stage 4, wait in stage 0, distance 5, 1 dependence

// Pre-sets for the reverse flags (1 vector -> mte2, 3 + 5 cube -> mte2,
// 1 cube -> vector), then iteration 0's copy-ins in the prologue: no
// mte2 -> vector set after the copies of A and B, one after the copy of C.
// CHECK-LABEL: func.func @chain
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : index
// CHECK: hwsched_npu.set_flag vector -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.set_flag cube -> mte2, %[[C0]]
// CHECK: hwsched_npu.set_flag cube -> mte2, %[[C7]]
// CHECK-NEXT: hwsched_npu.set_flag cube -> vector, %[[C0]]
// CHECK: hwsched_npu.wait_flag vector -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C3]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[C3]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// The kernel: one mte2 -> vector set (after the last copy-in) and one wait
// (before the stage-1 add, event i mod 6); the adds of stages 3 and 5 have
// none of their own.
// CHECK: scf.for
// CHECK: memref.copy
// CHECK-NOT: hwsched_npu.set_flag mte2 -> vector
// CHECK: memref.copy
// CHECK-NOT: hwsched_npu.set_flag mte2 -> vector
// CHECK: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector
// CHECK-NOT: mte2 -> vector
// CHECK: hwsched_npu.wait_flag mte2 -> vector
// CHECK: hwsched_npu.wait_flag cube -> vector
// CHECK-NEXT: linalg.add
// CHECK-NOT: mte2 -> vector
// CHECK: scf.yield
module attributes {transform.with_named_sequence} {
  func.func @chain(%A: memref<64x8xf32> {llvm.noalias}, %B: memref<64x8xf32> {llvm.noalias}, %C: memref<64x8xf32> {llvm.noalias},
                   %W: memref<8x8xf32> {llvm.noalias}, %O: memref<64x8xf32> {llvm.noalias}) {
    %a_ub = memref.alloc() : memref<8x8xf32, "ub">
    %b_ub = memref.alloc() : memref<8x8xf32, "ub">
    %c_ub = memref.alloc() : memref<8x8xf32, "ub">
    %w_ub = memref.alloc() : memref<8x8xf32, "ub">
    %t2 = memref.alloc() : memref<8x8xf32, "ub">
    %t3 = memref.alloc() : memref<8x8xf32, "ub">
    memref.copy %W, %w_ub : memref<8x8xf32> to memref<8x8xf32, "ub">
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c8 {
      %a = memref.subview %A[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      %b = memref.subview %B[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      %c = memref.subview %C[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      %o = memref.subview %O[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      memref.copy %a, %a_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
      memref.copy %b, %b_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
      memref.copy %c, %c_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
      linalg.add ins(%a_ub, %a_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t2 : memref<8x8xf32, "ub">)
      linalg.matmul ins(%a_ub, %w_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t2 : memref<8x8xf32, "ub">)
      linalg.add ins(%t2, %b_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t3 : memref<8x8xf32, "ub">)
      linalg.matmul ins(%b_ub, %w_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t3 : memref<8x8xf32, "ub">)
      linalg.add ins(%t3, %c_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%o : memref<8x8xf32, strided<[8, 1], offset: ?>>)
    } {coarsen_chain}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{coarsen_chain} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", "pipeline.max_stages" = 6, num_stages = 6, separate_unit_stages, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// One stage, nine copy-ins each consumed by its own vector op before the
// next copy-in: nine disjoint mte2 -> vector intervals, which no set/wait
// pair can share (9 event ids, the hardware has 8). Their flags are never
// live at the same time, so they all use event 0: set, wait, set, wait, ...
// in program order. The reverse (WAR) flags merge into one, pre-set before
// the loop and drained after it.
// REMARK: remark: npu flags mte2 -> vector coarsened: 9 channels need 9 event ids, the hardware has 8; now 9 channels with 1 event id (9 channels share event ids with flags never live at once)
// REMARK-COUNT-9: remark: npu flag mte2 -> vector: events 0..0, set in stage 0, wait in stage 0, distance 0, 1 dependence
// REMARK: remark: npu flag vector -> mte2: events 0..0, set in stage 0, wait in stage 0, distance 1, 9 dependences
// CHECK-LABEL: func.func @npu_shared_event
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: hwsched_npu.set_flag vector -> mte2, %[[C0]]
// CHECK: scf.for
// CHECK-NEXT: memref.subview
// CHECK-NEXT: hwsched_npu.wait_flag vector -> mte2, %[[C0]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
// CHECK-NEXT: hwsched_npu.set_flag vector -> mte2, %[[C0]]
// CHECK-NEXT: }
// CHECK-NEXT: hwsched_npu.wait_flag vector -> mte2, %[[C0]]
module attributes {transform.with_named_sequence} {
  func.func @npu_shared_event(%G: memref<64x4xf32> {llvm.noalias}, %O: memref<64x4xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %s0 = memref.alloc() : memref<4x4xf32, "ub">
    %t0 = memref.alloc() : memref<4x4xf32, "ub">
    %s1 = memref.alloc() : memref<4x4xf32, "ub">
    %t1 = memref.alloc() : memref<4x4xf32, "ub">
    %s2 = memref.alloc() : memref<4x4xf32, "ub">
    %t2 = memref.alloc() : memref<4x4xf32, "ub">
    %s3 = memref.alloc() : memref<4x4xf32, "ub">
    %t3 = memref.alloc() : memref<4x4xf32, "ub">
    %s4 = memref.alloc() : memref<4x4xf32, "ub">
    %t4 = memref.alloc() : memref<4x4xf32, "ub">
    %s5 = memref.alloc() : memref<4x4xf32, "ub">
    %t5 = memref.alloc() : memref<4x4xf32, "ub">
    %s6 = memref.alloc() : memref<4x4xf32, "ub">
    %t6 = memref.alloc() : memref<4x4xf32, "ub">
    %s7 = memref.alloc() : memref<4x4xf32, "ub">
    %t7 = memref.alloc() : memref<4x4xf32, "ub">
    %s8 = memref.alloc() : memref<4x4xf32, "ub">
    %t8 = memref.alloc() : memref<4x4xf32, "ub">
    scf.for %i = %c0 to %c64 step %c4 {
      %g = memref.subview %G[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
      memref.copy %g, %s0 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s0, %s0 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t0 : memref<4x4xf32, "ub">)
      memref.copy %g, %s1 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s1, %s1 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t1 : memref<4x4xf32, "ub">)
      memref.copy %g, %s2 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s2, %s2 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t2 : memref<4x4xf32, "ub">)
      memref.copy %g, %s3 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s3, %s3 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t3 : memref<4x4xf32, "ub">)
      memref.copy %g, %s4 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s4, %s4 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t4 : memref<4x4xf32, "ub">)
      memref.copy %g, %s5 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s5, %s5 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t5 : memref<4x4xf32, "ub">)
      memref.copy %g, %s6 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s6, %s6 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t6 : memref<4x4xf32, "ub">)
      memref.copy %g, %s7 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s7, %s7 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t7 : memref<4x4xf32, "ub">)
      memref.copy %g, %s8 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s8, %s8 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t8 : memref<4x4xf32, "ub">)
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", num_stages = 1, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
