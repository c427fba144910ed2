// Coarsened NPU flags (ascend-910b, six stages requested with
// pipeline.max_stages = 6 and separate_unit_stages): three copy-ins (mte2)
// feed vector ops and matmuls in later stages. With six stages the cube ->
// vector flags need 12 event ids (8 per pipe pair on the hardware); the
// coarser plans that fit rotate fewer events than the pipelined order
// allows, and two of them were only correct in program order: on the
// hardware, where each pipe runs on its own, the cube pipe could set an
// event again before the vector pipe waited for its previous set (nothing
// orders that wait before the next set). They are refused and the stage
// fallback takes 5 stages, where merged flags fit and every reuse of an
// event is ordered by a flag chain (the buffers' reverse flags).
// Executed with the emulated flags in npu-coarsen-exec.mlir.
//
// RUN: hwsched-opt %s --transform-interpreter \
// RUN:   --canonicalize --cse 2>/dev/null | FileCheck %s
// RUN: hwsched-opt %s --transform-interpreter \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// REMARK: remark: stages 5 of limit 5
// REMARK: remark: requested 6 stages reduced to 5: with 6 stages the flags from cube to vector need 12 event ids (9 with coarser or shared flags), the hardware has 8; 2 plans within the budget were refused: their flags could be set again before the previous set was waited for, the pipes running out of program order
// REMARK: remark: npu flags cube -> vector coarsened: 4 channels need 10 event ids, the hardware has 8; now 3 channels with 8 event ids
// REMARK: remark: npu flags mte2 -> vector coarsened: 3 channels need 13 event ids, the hardware has 8; now 2 channels with 8 event ids
// REMARK: remark: npu flags vector -> cube coarsened: 4 channels need 10 event ids, the hardware has 8; now 3 channels with 7 event ids
// REMARK: remark: npu flags vector -> mte2 coarsened: 3 channels need 13 event ids, the hardware has 8; now 2 channels with 8 event ids
// The copy-ins of A (stage 1 add) and of B and C (stage 3) share sets: one
// after the copy of A, one after the copy of C.
// REMARK: remark: npu flag mte2 -> vector: events 0..2, set in stage 0, wait in stage 1, distance 0, 1 dependence
// REMARK: remark: npu flag mte2 -> vector: events 3..7, set in stage 0, wait in stage 3, distance 0, 2 dependences
// REMARK: remark: npu flag vector -> mte2: events 0..2, set in stage 0, wait in stage 0, distance 2, 1 dependence
// REMARK: remark: npu flag vector -> mte2: events 3..7, set in stage 0, wait in stage 0, distance 1, 2 dependences
// REMARK-NOT: back-pressure

// Prologue: pre-sets of the reverse flags, then iteration 0's copy-ins: a
// mte2 -> vector set after the copy of A and one after the copy of C, none
// after the copy of B.
// CHECK-LABEL: func.func @chain
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK: hwsched_npu.set_flag vector -> mte2, %[[C0]]
// CHECK: hwsched_npu.wait_flag vector -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[C0]]
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag vector -> mte2, %[[C3]]
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C3]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[C3]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C3]]
// CHECK: scf.for
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

