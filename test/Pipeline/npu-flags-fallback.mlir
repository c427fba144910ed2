// transform.pipeline.schedule_stages on npu_flag targets: when the flags of
// a pipe pair need more event ids than the hardware has (8 per pipe pair),
// even coarsened, the stage limit is lowered as for the on-chip capacity,
// and `explain` says why. A K loop with ping-pong copy-ins: 9 stages put
// the matmul 8 stages after the copies, so the copy-in flag needs 9 events
// (one per buffer copy in flight) and no merge can shorten a single
// channel; with 8 stages it needs 8.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --canonicalize --cse 2>/dev/null | FileCheck %s

// An explicit num_stages is an upper bound, reduced with a remark.
// CHECK-LABEL: func.func @npu_requested
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: memref.alloc() : memref<8x16x16xf32, "ub">
// CHECK: scf.for
// CHECK: %[[EV:.+]] = arith.remsi %{{.+}}, %[[C8]]
// CHECK: hwsched_npu.wait_flag cube -> mte2, %[[EV]]
// CHECK: hwsched_npu.set_flag mte2 -> cube
// CHECK: hwsched_npu.wait_flag mte2 -> cube
// CHECK-NEXT: linalg.matmul
module attributes {transform.with_named_sequence} {
  func.func @npu_requested(%A: memref<16x256xf32>, %B: memref<256x16xf32>, %C: memref<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    // expected-remark @below {{buffer 8 copies x 1024 bytes on chip}}
    %a_ub = memref.alloc() : memref<16x16xf32, "ub">
    // expected-remark @below {{buffer 8 copies x 1024 bytes on chip}}
    %b_ub = memref.alloc() : memref<16x16xf32, "ub">
    // expected-remark @below {{buffer 1 copy x 1024 bytes on chip}}
    %c_ub = memref.alloc() : memref<16x16xf32, "ub">
    // expected-remark @below {{stages 8 of limit 8: ResMII 16, RecMII 16, MII 16, achieved interval 77}}
    // expected-remark @below {{every allowed stage assignment enumerated}}
    // expected-remark @below {{requested 9 stages reduced to 8: with 9 stages the flags from cube to mte2 need 9 event ids (9 with coarser or shared flags), the hardware has 8; 2 plans within the budget were refused}}
    // expected-remark @below {{npu flag mte2 -> cube: events 0..7, set in stage 0, wait in stage 7, distance 0, 2 dependences}}
    // expected-remark @below {{npu flag cube -> mte2: events 0..7, set in stage 7, wait in stage 0, distance 8, 2 dependences}}
    // expected-remark @below {{on-chip bytes 17408 of capacity 196608}}
    // expected-remark-re @below {{RecMII 16 is set by the recurrence 'linalg.matmul' (line {{[0-9]+}}) -> 'linalg.matmul' (line {{[0-9]+}}) of the next iteration; 'linalg.matmul' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) after 'linalg.matmul' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) in the previous iteration (RAW), one memory for both iterations (not multi-buffered: used outside the loop)}}
    scf.for %k = %c0 to %c256 step %c16 {
      %a = memref.subview %A[0, %k] [16, 16] [1, 1] : memref<16x256xf32> to memref<16x16xf32, strided<[256, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [16, 16] [1, 1] : memref<256x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit mte2}}
      memref.copy %a, %a_ub : memref<16x16xf32, strided<[256, 1], offset: ?>> to memref<16x16xf32, "ub">
      // expected-remark @below {{stage 0 on unit mte2}}
      memref.copy %b, %b_ub : memref<16x16xf32, strided<[16, 1], offset: ?>> to memref<16x16xf32, "ub">
      // expected-remark @below {{stage 7 on unit cube}}
      linalg.matmul ins(%a_ub, %b_ub : memref<16x16xf32, "ub">, memref<16x16xf32, "ub">) outs(%c_ub : memref<16x16xf32, "ub">)
    }
    memref.copy %c_ub, %C : memref<16x16xf32, "ub"> to memref<16x16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", num_stages = 9, "pipeline.max_stages" = 9, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Without num_stages, the spec's maximum (overridden to 9) is reduced.
// CHECK-LABEL: func.func @npu_maximum
// CHECK: memref.alloc() : memref<8x16x16xf32, "ub">
module attributes {transform.with_named_sequence} {
  func.func @npu_maximum(%A: memref<16x256xf32>, %B: memref<256x16xf32>, %C: memref<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    // expected-remark @below {{buffer 8 copies x 1024 bytes on chip}}
    %a_ub = memref.alloc() : memref<16x16xf32, "ub">
    // expected-remark @below {{buffer 8 copies x 1024 bytes on chip}}
    %b_ub = memref.alloc() : memref<16x16xf32, "ub">
    // expected-remark @below {{buffer 1 copy x 1024 bytes on chip}}
    %c_ub = memref.alloc() : memref<16x16xf32, "ub">
    // expected-remark @below {{stages 8 of limit 8: ResMII 16, RecMII 16, MII 16, achieved interval 77}}
    // expected-remark @below {{every allowed stage assignment enumerated}}
    // expected-remark @below {{maximum 9 stages reduced to 8: with 9 stages the flags from cube to mte2 need 9 event ids (9 with coarser or shared flags), the hardware has 8; 2 plans within the budget were refused}}
    // expected-remark @below {{npu flag mte2 -> cube: events 0..7, set in stage 0, wait in stage 7, distance 0, 2 dependences}}
    // expected-remark @below {{npu flag cube -> mte2: events 0..7, set in stage 7, wait in stage 0, distance 8, 2 dependences}}
    // expected-remark @below {{on-chip bytes 17408 of capacity 196608}}
    // expected-remark-re @below {{RecMII 16 is set by the recurrence 'linalg.matmul' (line {{[0-9]+}}) -> 'linalg.matmul' (line {{[0-9]+}}) of the next iteration; 'linalg.matmul' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) after 'linalg.matmul' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) in the previous iteration (RAW), one memory for both iterations (not multi-buffered: used outside the loop)}}
    scf.for %k = %c0 to %c256 step %c16 {
      %a = memref.subview %A[0, %k] [16, 16] [1, 1] : memref<16x256xf32> to memref<16x16xf32, strided<[256, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [16, 16] [1, 1] : memref<256x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit mte2}}
      memref.copy %a, %a_ub : memref<16x16xf32, strided<[256, 1], offset: ?>> to memref<16x16xf32, "ub">
      // expected-remark @below {{stage 0 on unit mte2}}
      memref.copy %b, %b_ub : memref<16x16xf32, strided<[16, 1], offset: ?>> to memref<16x16xf32, "ub">
      // expected-remark @below {{stage 7 on unit cube}}
      linalg.matmul ins(%a_ub, %b_ub : memref<16x16xf32, "ub">, memref<16x16xf32, "ub">) outs(%c_ub : memref<16x16xf32, "ub">)
    }
    memref.copy %c_ub, %C : memref<16x16xf32, "ub"> to memref<16x16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", "pipeline.max_stages" = 9, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
