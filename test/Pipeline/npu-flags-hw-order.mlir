// NPU flags checked against the hardware order (ascend-910b): each pipe
// runs its own instructions in order, independently of the others, and
// only a set_flag -> wait_flag pair orders two pipes. An event id is used
// again only when the wait of its previous set happens before the new set
// in that order (see transform.pipeline.schedule_stages).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --canonicalize --cse 2>/dev/null | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// One stage, nine copy-ins into ONE buffer, each consumed by its own add
// before the next copy-in overwrites it: nine mte2 -> vector flags (and
// nine WAR flags back) never live at once. Sharing event 0 is legal here:
// the wait before add k happens before the set after copy k+1 on the
// hardware, through the WAR flag (vector -> mte2, set after add k, waited
// for before copy k+1). Compare invalid.mlir @npu_unordered_shared_event,
// nine separate buffers, where nothing orders it and sharing is refused.
// REMARK: remark: npu flags mte2 -> vector coarsened: 10 channels need 10 event ids, the hardware has 8; now 10 channels with 2 event ids (10 channels share event ids with flags never live at once)
// REMARK: remark: npu flags vector -> mte2 coarsened: 9 channels need 9 event ids, the hardware has 8; now 9 channels with 1 event id (9 channels share event ids with flags never live at once)
// REMARK-NOT: back-pressure
// CHECK-LABEL: func.func @npu_shared_ordered
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: scf.for
// CHECK: linalg.add
// CHECK-NEXT: hwsched_npu.set_flag vector -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag vector -> mte2, %[[C0]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C0]]
// CHECK-NEXT: linalg.add
module attributes {transform.with_named_sequence} {
  func.func @npu_shared_ordered(%G: memref<64x4xf32> {llvm.noalias}, %O: memref<64x4xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %s = memref.alloc() : memref<4x4xf32, "ub">
    %t0 = memref.alloc() : memref<4x4xf32, "ub">
    %t1 = memref.alloc() : memref<4x4xf32, "ub">
    %t2 = memref.alloc() : memref<4x4xf32, "ub">
    %t3 = memref.alloc() : memref<4x4xf32, "ub">
    %t4 = memref.alloc() : memref<4x4xf32, "ub">
    %t5 = memref.alloc() : memref<4x4xf32, "ub">
    %t6 = memref.alloc() : memref<4x4xf32, "ub">
    %t7 = memref.alloc() : memref<4x4xf32, "ub">
    %t8 = memref.alloc() : memref<4x4xf32, "ub">
    scf.for %i = %c0 to %c64 step %c4 {
      %g = memref.subview %G[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t0 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t1 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t2 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t3 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t4 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t5 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t6 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t7 : memref<4x4xf32, "ub">)
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%t8 : memref<4x4xf32, "ub">)
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", num_stages = 1, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A copy-in to a buffer allocated in the loop and its add one stage later.
// The graph puts the alloc on the vector unit, so a vector -> mte2 flag
// (K = 1) orders the alloc before the copy-in of the same iteration; no
// dependence leads from the copy-in back to the next alloc (the buffer is
// fresh every iteration), so nothing would keep the vector pipe from
// setting that event again before the mte2 pipe waited for it. The planner
// adds a back-pressure flag the other way: set after the copy-in, waited
// for before the next iteration's alloc.
// REMARK: remark: npu flag vector -> mte2: events 0..0, set in stage 0, wait in stage 0, distance 0, 2 dependences
// REMARK: remark: npu flag mte2 -> vector: events 0..1, set in stage 0, wait in stage 1, distance 0, 2 dependences
// REMARK: remark: npu flag mte2 -> vector: events 2..2, set in stage 0, wait in stage 0, distance 1, back-pressure
// CHECK-LABEL: func.func @npu_back_pressure
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK: hwsched_npu.set_flag mte2 -> vector, %[[C2]]
// CHECK: scf.for
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> vector, %[[C2]]
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: hwsched_npu.set_flag vector -> mte2
// CHECK: hwsched_npu.wait_flag vector -> mte2
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> vector, %[[C2]]
// CHECK: scf.yield
// CHECK: hwsched_npu.wait_flag mte2 -> vector, %[[C2]]
module attributes {transform.with_named_sequence} {
  func.func @npu_back_pressure(%G: memref<64x4xf32> {llvm.noalias}, %O: memref<64x4xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c4 {
      %s = memref.alloc() : memref<4x4xf32, "ub">
      %g = memref.subview %G[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
      %o = memref.subview %O[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
      memref.copy %g, %s : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      linalg.add ins(%s, %s : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%o : memref<4x4xf32, strided<[4, 1], offset: ?>>)
      memref.dealloc %s : memref<4x4xf32, "ub">
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", num_stages = 2, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
