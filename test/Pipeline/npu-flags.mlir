// hwsched_npu.set_flag / wait_flag inserted by transform.pipeline.schedule_stages
// on an npu_flag target (ascend-910b): MTE2 copy-in (stage 0) -> cube matmul
// (stage 1) with ping-pong (2 copies of each input buffer). Forward flags
// mte2 -> cube use event k for buffer copy k; the reverse (WAR) flags
// cube -> mte2 are pre-set before the loop (both copies free), waited for by
// the copy that refills copy k, set by the matmul that read copy k, and
// drained after the loop. Every wait has exactly one set on every path:
// exec-checked with --hwsched-emulate-npu-sync in npu-flags-exec.mlir.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --canonicalize --cse | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Static trip count 8: prologue (iteration 0's copies), kernel, epilogue
// (iteration 7's matmul), then the WAR flags of the last two matmuls.
// CHECK-LABEL: func.func @npu_k_static
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: memref.alloc() : memref<2x16x16xf32, "ub">
// CHECK: hwsched_npu.set_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.set_flag cube -> mte2, %[[C1]]
// Prologue.
// CHECK: hwsched_npu.wait_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[C0]]
// Kernel: stage 0 of iteration k+1, stage 1 of iteration k.
// CHECK: scf.for %[[IV:.+]] = %[[C0]] to %{{.+}} step %[[C16]]
// CHECK: %[[NEXT:.+]] = arith.addi %[[IV]], %[[C16]]
// CHECK: %[[NEXTIT:.+]] = arith.divsi %[[NEXT]], %[[C16]]
// CHECK: %[[NEXTEV:.+]] = arith.remsi %[[NEXTIT]], %[[C2]]
// CHECK: hwsched_npu.wait_flag cube -> mte2, %[[NEXTEV]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[NEXTEV]]
// CHECK: %[[IT:.+]] = arith.divsi %[[IV]], %[[C16]]
// CHECK: %[[EV:.+]] = arith.remsi %[[IT]], %[[C2]]
// CHECK: hwsched_npu.wait_flag mte2 -> cube, %[[EV]]
// CHECK-NEXT: linalg.matmul
// CHECK: %[[REL:.+]] = arith.remsi %{{.+}}, %[[C2]]
// CHECK: hwsched_npu.set_flag cube -> mte2, %[[REL]]
// CHECK: scf.yield
// Epilogue: iteration 7 reads copy 1.
// CHECK: hwsched_npu.wait_flag mte2 -> cube, %[[C1]]
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: hwsched_npu.set_flag cube -> mte2, %[[C1]]
// Drain: the flags set by the matmuls of iterations 6 and 7.
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C1]]
// CHECK-NEXT: memref.copy
// CHECK-NOT: hwsched_npu
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @npu_k_static(%A: memref<16x128xf32>, %B: memref<128x16xf32>, %C: memref<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %a_ub = memref.alloc() : memref<16x16xf32, "ub">
    %b_ub = memref.alloc() : memref<16x16xf32, "ub">
    %c_ub = memref.alloc() : memref<16x16xf32, "ub">
    memref.copy %C, %c_ub : memref<16x16xf32> to memref<16x16xf32, "ub">
    // REMARK: remark: npu flag mte2 -> cube: events 0..1, set in stage 0, wait in stage 1, distance 0, 2 dependences
    // REMARK: remark: npu flag cube -> mte2: events 0..1, set in stage 1, wait in stage 0, distance 2, 2 dependences
    scf.for %k = %c0 to %c128 step %c16 {
      %a = memref.subview %A[0, %k] [16, 16] [1, 1] : memref<16x128xf32> to memref<16x16xf32, strided<[128, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [16, 16] [1, 1] : memref<128x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
      memref.copy %a, %a_ub : memref<16x16xf32, strided<[128, 1], offset: ?>> to memref<16x16xf32, "ub">
      memref.copy %b, %b_ub : memref<16x16xf32, strided<[16, 1], offset: ?>> to memref<16x16xf32, "ub">
      linalg.matmul ins(%a_ub, %b_ub : memref<16x16xf32, "ub">, memref<16x16xf32, "ub">) outs(%c_ub : memref<16x16xf32, "ub">)
    }
    memref.copy %c_ub, %C : memref<16x16xf32, "ub"> to memref<16x16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Dynamic trip count: the prologue's and the kernel's stage-0 flags are
// predicated together with the copies they order (scf.if on "iteration
// exists"); the drain computes the trip count N = max(0, ceil(ub / 16)) and
// waits for events N mod 2 and (N + 1) mod 2.
// CHECK-LABEL: func.func @npu_k_dynamic
// CHECK-SAME: %[[UB:[^:]+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: hwsched_npu.set_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.set_flag cube -> mte2, %[[C1]]
// CHECK: scf.if
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[C0]]
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK: scf.if %[[P:.+]] {
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube
// CHECK: hwsched_npu.wait_flag mte2 -> cube
// CHECK-NEXT: linalg.matmul
// CHECK: hwsched_npu.set_flag cube -> mte2
// CHECK: scf.yield
// CHECK: %[[R:.+]] = arith.addi %[[UB]], %[[C15]]
// CHECK: %[[Q:.+]] = arith.divsi %[[R]], %[[C16]]
// CHECK: %[[N:.+]] = arith.maxsi %[[Q]], %[[C0]]
// CHECK: %[[E0:.+]] = arith.remsi %[[N]], %[[C2]]
// CHECK: hwsched_npu.wait_flag cube -> mte2, %[[E0]]
// CHECK: %[[N1:.+]] = arith.addi %[[N]], %[[C1]]
// CHECK: %[[E1:.+]] = arith.remsi %[[N1]], %[[C2]]
// CHECK: hwsched_npu.wait_flag cube -> mte2, %[[E1]]
module attributes {transform.with_named_sequence} {
  func.func @npu_k_dynamic(%A: memref<16x128xf32>, %B: memref<128x16xf32>, %C: memref<16x16xf32>, %ub: index) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %a_ub = memref.alloc() : memref<16x16xf32, "ub">
    %b_ub = memref.alloc() : memref<16x16xf32, "ub">
    %c_ub = memref.alloc() : memref<16x16xf32, "ub">
    memref.copy %C, %c_ub : memref<16x16xf32> to memref<16x16xf32, "ub">
    scf.for %k = %c0 to %ub step %c16 {
      %a = memref.subview %A[0, %k] [16, 16] [1, 1] : memref<16x128xf32> to memref<16x16xf32, strided<[128, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [16, 16] [1, 1] : memref<128x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
      memref.copy %a, %a_ub : memref<16x16xf32, strided<[128, 1], offset: ?>> to memref<16x16xf32, "ub">
      memref.copy %b, %b_ub : memref<16x16xf32, strided<[16, 1], offset: ?>> to memref<16x16xf32, "ub">
      linalg.matmul ins(%a_ub, %b_ub : memref<16x16xf32, "ub">, memref<16x16xf32, "ub">) outs(%c_ub : memref<16x16xf32, "ub">)
    }
    memref.copy %c_ub, %C : memref<16x16xf32, "ub"> to memref<16x16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Trip count 1, below the 2 stages: unrolled completely, no multi-buffering,
// so every flag uses one event: the WAR flag is pre-set, consumed by the
// copy, set again by the matmul and drained.
// CHECK-LABEL: func.func @npu_k_short
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NOT: scf.for
// CHECK: hwsched_npu.set_flag cube -> mte2, %[[C0]]
// CHECK: hwsched_npu.wait_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
// CHECK-NEXT: hwsched_npu.set_flag mte2 -> cube, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag mte2 -> cube, %[[C0]]
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: hwsched_npu.set_flag cube -> mte2, %[[C0]]
// CHECK-NEXT: hwsched_npu.wait_flag cube -> mte2, %[[C0]]
module attributes {transform.with_named_sequence} {
  func.func @npu_k_short(%A: memref<16x128xf32>, %B: memref<128x16xf32>, %C: memref<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %a_ub = memref.alloc() : memref<16x16xf32, "ub">
    %b_ub = memref.alloc() : memref<16x16xf32, "ub">
    %c_ub = memref.alloc() : memref<16x16xf32, "ub">
    memref.copy %C, %c_ub : memref<16x16xf32> to memref<16x16xf32, "ub">
    // REMARK: remark: npu flag mte2 -> cube: events 0..0, set in stage 0, wait in stage 0, distance 0, 2 dependences
    // REMARK: remark: npu flag cube -> mte2: events 0..0, set in stage 0, wait in stage 0, distance 1, 2 dependences
    scf.for %k = %c0 to %c16 step %c16 {
      %a = memref.subview %A[0, %k] [16, 16] [1, 1] : memref<16x128xf32> to memref<16x16xf32, strided<[128, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [16, 16] [1, 1] : memref<128x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
      memref.copy %a, %a_ub : memref<16x16xf32, strided<[128, 1], offset: ?>> to memref<16x16xf32, "ub">
      memref.copy %b, %b_ub : memref<16x16xf32, strided<[16, 1], offset: ?>> to memref<16x16xf32, "ub">
      linalg.matmul ins(%a_ub, %b_ub : memref<16x16xf32, "ub">, memref<16x16xf32, "ub">) outs(%c_ub : memref<16x16xf32, "ub">)
    }
    memref.copy %c_ub, %C : memref<16x16xf32, "ub"> to memref<16x16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Four pipes in one body: MTE2 copy-in, cube matmul into a tile, vector
// max(tile, 0) into an output tile, MTE3 copy-out. One stage (num_stages = 1):
// the loop stays, each dependence between two pipes gets a flag in the body
// and each loop-carried WAR one pre-set before the loop and drained after it.
// The copy-in and the copy-out both touch off-chip arguments that may alias,
// so MTE2 and MTE3 are ordered too.
// CHECK-LABEL: func.func @npu_four_pipes
// CHECK: hwsched_npu.set_flag cube -> mte2
// CHECK: scf.for
// CHECK-DAG: hwsched_npu.wait_flag cube -> mte2
// CHECK-DAG: hwsched_npu.set_flag mte2 -> cube
// CHECK-DAG: hwsched_npu.wait_flag mte2 -> cube
// CHECK-DAG: hwsched_npu.set_flag cube -> vector
// CHECK-DAG: hwsched_npu.wait_flag cube -> vector
// CHECK-DAG: hwsched_npu.set_flag vector -> mte3
// CHECK-DAG: hwsched_npu.wait_flag vector -> mte3
// CHECK-DAG: hwsched_npu.set_flag mte3 -> vector
// CHECK-DAG: hwsched_npu.wait_flag mte3 -> vector
// CHECK: hwsched_npu.set_flag mte3 -> mte2
// CHECK-NEXT: }
// CHECK: hwsched_npu.wait_flag
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @npu_four_pipes(%A: memref<64x16xf32>, %B: memref<16x16xf32>, %O: memref<64x16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %a_ub = memref.alloc() : memref<16x16xf32, "ub">
    %b_ub = memref.alloc() : memref<16x16xf32, "ub">
    %t_ub = memref.alloc() : memref<16x16xf32, "ub">
    %o_ub = memref.alloc() : memref<16x16xf32, "ub">
    memref.copy %B, %b_ub : memref<16x16xf32> to memref<16x16xf32, "ub">
    // Channels in edge order; two channels of one pipe pair take events 0 and 1.
    // REMARK: remark: npu flag mte2 -> cube: events 0..0, set in stage 0, wait in stage 0, distance 0, 1 dependence
    // REMARK: remark: npu flag cube -> mte2: events 0..0, set in stage 0, wait in stage 0, distance 1, 1 dependence
    // REMARK: remark: npu flag mte2 -> mte3: events 0..0, set in stage 0, wait in stage 0, distance 0, 1 dependence
    // REMARK: remark: npu flag mte3 -> mte2: events 0..0, set in stage 0, wait in stage 0, distance 1, 1 dependence
    // REMARK: remark: npu flag vector -> cube: events 0..0, set in stage 0, wait in stage 0, distance 0, 2 dependences
    // REMARK: remark: npu flag cube -> vector: events 0..0, set in stage 0, wait in stage 0, distance 1, 2 dependences
    // REMARK: remark: npu flag cube -> vector: events 1..1, set in stage 0, wait in stage 0, distance 0, 1 dependence
    // REMARK: remark: npu flag vector -> cube: events 1..1, set in stage 0, wait in stage 0, distance 1, 1 dependence
    // REMARK: remark: npu flag vector -> mte3: events 0..0, set in stage 0, wait in stage 0, distance 0, 1 dependence
    // REMARK: remark: npu flag mte3 -> vector: events 0..0, set in stage 0, wait in stage 0, distance 1, 1 dependence
    scf.for %i = %c0 to %c64 step %c16 {
      %a = memref.subview %A[%i, 0] [16, 16] [1, 1] : memref<64x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
      %o = memref.subview %O[%i, 0] [16, 16] [1, 1] : memref<64x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
      memref.copy %a, %a_ub : memref<16x16xf32, strided<[16, 1], offset: ?>> to memref<16x16xf32, "ub">
      linalg.fill ins(%zero : f32) outs(%t_ub : memref<16x16xf32, "ub">)
      linalg.matmul ins(%a_ub, %b_ub : memref<16x16xf32, "ub">, memref<16x16xf32, "ub">) outs(%t_ub : memref<16x16xf32, "ub">)
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%t_ub : memref<16x16xf32, "ub">) outs(%o_ub : memref<16x16xf32, "ub">) {
      ^bb0(%x: f32, %y: f32):
        %m = arith.maximumf %x, %zero : f32
        linalg.yield %m : f32
      }
      memref.copy %o_ub, %o : memref<16x16xf32, "ub"> to memref<16x16xf32, strided<[16, 1], offset: ?>>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", num_stages = 1, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
