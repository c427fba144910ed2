// Stage assignment (explain remarks) and the rewritten structure of
// transform.pipeline.schedule_stages on GPU, NPU and CPU specs. Execution of
// the same kinds of loops is checked in exec.mlir.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s

// Matmul K loop on the H100: two copies global -> workgroup (async_copy),
// two loads from workgroup memory (smem_load) feeding one vector.contract
// (tensor_core) with the accumulator in an iter_arg. MII is 32 (the
// accumulator recurrence) but the copy -> load -> contract path takes 580
// cycles: with 3 stages no interval below 194 exists (floor(580 / II) + 1 <= 3).
// The modulo scheduler reaches 195 (the two copies share one async_copy
// unit, the second issues 4 cycles later): copies in stage 0, loads and the
// contract in stage 2, so each workgroup buffer gets 3 copies; gpu.barrier
// ops order the on-chip accesses (one for a run of non-conflicting ones).
// CHECK-LABEL: func.func @gpu_matmul_k
// CHECK-DAG: %[[A:.+]] = memref.alloc() : memref<3x4x8xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B:.+]] = memref.alloc() : memref<3x8x4xf32, #gpu.address_space<workgroup>>
// Prologue: copies of iterations 0 and 1, no load.
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK-NOT: vector.transfer_read
// CHECK: %[[K:.+]]:{{[0-9]+}} = scf.for %{{.+}} = %c0 to %{{.+}} step %c8 iter_args
// One barrier orders both copies (they touch different buffers), one both
// loads.
// CHECK: gpu.barrier
// CHECK-NEXT: memref.copy
// CHECK-NOT: gpu.barrier
// CHECK: memref.copy
// CHECK: gpu.barrier
// CHECK-NEXT: vector.transfer_read
// CHECK-NOT: gpu.barrier
// CHECK: vector.transfer_read
// CHECK-NOT: gpu.barrier
// CHECK: vector.contract
// CHECK: scf.yield
// Epilogue: the loads and contracts of the last two iterations.
// CHECK: vector.transfer_read
// CHECK: vector.contract
// CHECK: vector.transfer_read
// CHECK: vector.contract
// CHECK-NOT: scf.for
// CHECK: return
#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @gpu_matmul_k(%A: memref<4x64xf32>, %B: memref<64x4xf32>, %init: vector<4x4xf32>) -> vector<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %pad = arith.constant 0.0 : f32
    // expected-remark @below {{buffer 3 copies x 128 bytes on chip}}
    %a_s = memref.alloc() : memref<4x8xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{buffer 3 copies x 128 bytes on chip}}
    %b_s = memref.alloc() : memref<8x4xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 3 of limit 3: ResMII 8, RecMII 32, MII 32, achieved interval 195, lower bound with 3 stages 194}}
    // expected-remark @below {{on-chip bytes 768 of capacity 232448}}
    // expected-remark @below {{every allowed stage assignment enumerated: smallest latency-only interval 194}}
    // expected-remark-re @below {{RecMII 32 is set by the recurrence 'vector.contract' (line {{[0-9]+}}) -> 'vector.contract' (line {{[0-9]+}}) of the next iteration; 'vector.contract' (line {{[0-9]+}}) uses a value 'vector.contract' (line {{[0-9]+}}) computed in the previous iteration (an iter_arg)}}
    %r = scf.for %k = %c0 to %c64 step %c8 iter_args(%acc = %init) -> (vector<4x4xf32>) {
      %a = memref.subview %A[0, %k] [4, 8] [1, 1] : memref<4x64xf32> to memref<4x8xf32, strided<[64, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %a, %a_s : memref<4x8xf32, strided<[64, 1], offset: ?>> to memref<4x8xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %b, %b_s : memref<8x4xf32, strided<[4, 1], offset: ?>> to memref<8x4xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 2 on unit smem_load}}
      %va = vector.transfer_read %a_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf32, #gpu.address_space<workgroup>>, vector<4x8xf32>
      // expected-remark @below {{stage 2 on unit smem_load}}
      %vb = vector.transfer_read %b_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<8x4xf32>
      // expected-remark @below {{stage 2 on unit tensor_core}}
      %acc2 = vector.contract {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
      scf.yield %acc2 : vector<4x4xf32>
    }
    return %r : vector<4x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// The same K loop with separate_unit_stages: dependent ops on different units
// always go to different stages (copies 0, loads 1, contract 2), the classic
// partition. The rule costs interval here: 278 cycles instead of 195, with
// 2 copies of each workgroup buffer instead of 3.
// CHECK-LABEL: func.func @gpu_matmul_k_separate
// CHECK-DAG: memref.alloc() : memref<2x4x8xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloc() : memref<2x8x4xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @gpu_matmul_k_separate(%A: memref<4x64xf32>, %B: memref<64x4xf32>, %init: vector<4x4xf32>) -> vector<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %pad = arith.constant 0.0 : f32
    // expected-remark @below {{buffer 2 copies x 128 bytes on chip}}
    %a_s = memref.alloc() : memref<4x8xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{buffer 2 copies x 128 bytes on chip}}
    %b_s = memref.alloc() : memref<8x4xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 3 of limit 3: ResMII 8, RecMII 32, MII 32, achieved interval 278, lower bound with 3 stages 194}}
    // expected-remark @below {{on-chip bytes 512 of capacity 232448}}
    // expected-remark @below {{every allowed stage assignment enumerated: smallest latency-only interval 276}}
    // expected-remark-re @below {{RecMII 32 is set by the recurrence 'vector.contract' (line {{[0-9]+}}) -> 'vector.contract' (line {{[0-9]+}}) of the next iteration; 'vector.contract' (line {{[0-9]+}}) uses a value 'vector.contract' (line {{[0-9]+}}) computed in the previous iteration (an iter_arg)}}
    %r = scf.for %k = %c0 to %c64 step %c8 iter_args(%acc = %init) -> (vector<4x4xf32>) {
      %a = memref.subview %A[0, %k] [4, 8] [1, 1] : memref<4x64xf32> to memref<4x8xf32, strided<[64, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %a, %a_s : memref<4x8xf32, strided<[64, 1], offset: ?>> to memref<4x8xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %b, %b_s : memref<8x4xf32, strided<[4, 1], offset: ?>> to memref<8x4xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 1 on unit smem_load}}
      %va = vector.transfer_read %a_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf32, #gpu.address_space<workgroup>>, vector<4x8xf32>
      // expected-remark @below {{stage 1 on unit smem_load}}
      %vb = vector.transfer_read %b_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<8x4xf32>
      // expected-remark @below {{stage 2 on unit tensor_core}}
      %acc2 = vector.contract {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
      scf.yield %acc2 : vector<4x4xf32>
    }
    return %r : vector<4x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3, separate_unit_stages, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Without num_stages the H100 schedule may use up to pipeline.max_stages (5):
// the copy latency (550 cycles) is spread over more stages, which lowers the
// achieved interval to the 5-stage bound 117 (floor(580 / 117) + 1 = 5);
// buffers get one copy per stage they span.
// CHECK-LABEL: func.func @gpu_matmul_k_auto
// CHECK-DAG: memref.alloc() : memref<5x4x8xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloca() : memref<5x8x4xf32, 3>
// CHECK: scf.for
#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @gpu_matmul_k_auto(%A: memref<4x64xf32>, %B: memref<64x4xf32>, %init: vector<4x4xf32>) -> vector<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %pad = arith.constant 0.0 : f32
    // expected-remark @below {{buffer 5 copies x 128 bytes on chip}}
    %a_s = memref.alloc() : memref<4x8xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{buffer 5 copies x 128 bytes on chip}}
    %b_s = memref.alloca() : memref<8x4xf32, 3>
    // expected-remark @below {{stages 5 of limit 5: ResMII 8, RecMII 32, MII 32, achieved interval 117, lower bound with 5 stages 117}}
    // expected-remark @below {{on-chip bytes 1280 of capacity 232448}}
    // expected-remark-re @below {{RecMII 32 is set by the recurrence 'vector.contract' (line {{[0-9]+}}) -> 'vector.contract' (line {{[0-9]+}}) of the next iteration; 'vector.contract' (line {{[0-9]+}}) uses a value 'vector.contract' (line {{[0-9]+}}) computed in the previous iteration (an iter_arg)}}
    %r = scf.for %k = %c0 to %c64 step %c8 iter_args(%acc = %init) -> (vector<4x4xf32>) {
      %a = memref.subview %A[0, %k] [4, 8] [1, 1] : memref<4x64xf32> to memref<4x8xf32, strided<[64, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %a, %a_s : memref<4x8xf32, strided<[64, 1], offset: ?>> to memref<4x8xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %b, %b_s : memref<8x4xf32, strided<[4, 1], offset: ?>> to memref<8x4xf32, 3>
      // expected-remark @below {{stage 4 on unit smem_load}}
      %va = vector.transfer_read %a_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf32, #gpu.address_space<workgroup>>, vector<4x8xf32>
      // expected-remark @below {{stage 4 on unit smem_load}}
      %vb = vector.transfer_read %b_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x4xf32, 3>, vector<8x4xf32>
      // expected-remark @below {{stage 4 on unit tensor_core}}
      %acc2 = vector.contract {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
      scf.yield %acc2 : vector<4x4xf32>
    }
    return %r : vector<4x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Ascend 910B: MTE2 copy-in to the unified buffer, cube matmul accumulating
// in UB, MTE3 copy-out... max_stages is 2 (ping-pong), so the request for 3
// is clamped; copy-in and cube land in different stages. No barriers: the
// pipes are ordered by hwsched_npu set_flag/wait_flag (npu-flags.mlir).
// CHECK-LABEL: func.func @npu_k
// CHECK-DAG: memref.alloc() : memref<2x16x16xf16, "ub">
// CHECK-DAG: memref.alloc() : memref<2x16x16xf16, "ub">
// CHECK-NOT: gpu.barrier
// CHECK: hwsched_npu.set_flag cube -> mte2
// CHECK: scf.for
// CHECK: hwsched_npu.wait_flag mte2 -> cube
// CHECK: linalg.matmul
module attributes {transform.with_named_sequence} {
  func.func @npu_k(%A: memref<16x128xf16>, %B: memref<128x16xf16>, %C: memref<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    // expected-remark @below {{buffer 2 copies x 512 bytes on chip}}
    %a_ub = memref.alloc() : memref<16x16xf16, "ub">
    // expected-remark @below {{buffer 2 copies x 512 bytes on chip}}
    %b_ub = memref.alloc() : memref<16x16xf16, "ub">
    // expected-remark @below {{buffer 1 copy x 1024 bytes on chip}}
    %c_ub = memref.alloc() : memref<16x16xf32, "ub">
    memref.copy %C, %c_ub : memref<16x16xf32> to memref<16x16xf32, "ub">
    // expected-remark @below {{stages 2 of limit 2: ResMII 16, RecMII 16, MII 16, achieved interval 305, lower bound with 2 stages 301}}
    // expected-remark @below {{on-chip bytes 3072 of capacity 196608}}
    // expected-remark @below {{num_stages 3 clamped to pipeline.max_stages 2}}
    // expected-remark @below {{every allowed stage assignment enumerated: smallest latency-only interval 301}}
    // expected-remark @below {{npu flag mte2 -> cube: events 0..1, set in stage 0, wait in stage 1, distance 0, 2 dependences}}
    // expected-remark @below {{npu flag cube -> mte2: events 0..1, set in stage 1, wait in stage 0, distance 2, 2 dependences}}
    // expected-remark-re @below {{RecMII 16 is set by the recurrence 'linalg.matmul' (line {{[0-9]+}}) -> 'linalg.matmul' (line {{[0-9]+}}) of the next iteration; 'linalg.matmul' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) after 'linalg.matmul' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) in the previous iteration (RAW), one memory for both iterations (not multi-buffered: used outside the loop)}}
    scf.for %k = %c0 to %c128 step %c16 {
      %a = memref.subview %A[0, %k] [16, 16] [1, 1] : memref<16x128xf16> to memref<16x16xf16, strided<[128, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [16, 16] [1, 1] : memref<128x16xf16> to memref<16x16xf16, strided<[16, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit mte2}}
      memref.copy %a, %a_ub : memref<16x16xf16, strided<[128, 1], offset: ?>> to memref<16x16xf16, "ub">
      // expected-remark @below {{stage 0 on unit mte2}}
      memref.copy %b, %b_ub : memref<16x16xf16, strided<[16, 1], offset: ?>> to memref<16x16xf16, "ub">
      // expected-remark @below {{stage 1 on unit cube}}
      linalg.matmul ins(%a_ub, %b_ub : memref<16x16xf16, "ub">, memref<16x16xf16, "ub">) outs(%c_ub : memref<16x16xf32, "ub">)
    }
    // Copy-out after the loop (MTE3).
    memref.copy %c_ub, %C : memref<16x16xf32, "ub"> to memref<16x16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", num_stages = 3, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// x86 AVX-512: a copy into a local (cache-resident) tile on the load unit,
// an elementwise compute on the vector unit that writes the result back.
// Two stages (pipeline.max_stages), the tile is double-buffered; no
// synchronisation on the CPU.
// CHECK-LABEL: func.func @cpu_k
// CHECK: memref.alloc() : memref<2x8x8xf32>
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
module attributes {transform.with_named_sequence} {
  func.func @cpu_k(%A: memref<64x8xf32>, %O: memref<64x8xf32> {llvm.noalias}, %bias: memref<8x8xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    // expected-remark @below {{buffer 2 copies x 256 bytes on chip}}
    %t = memref.alloc() : memref<8x8xf32>
    // expected-remark @below {{stages 2 of limit 2: ResMII 1, RecMII 1, MII 1, achieved interval 3}}
    // expected-remark @below {{on-chip bytes 512 of capacity 1310720}}
    scf.for %i = %c0 to %c64 step %c8 {
      %a = memref.subview %A[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      %o = memref.subview %O[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit load}}
      memref.copy %a, %t : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32>
      // expected-remark @below {{stage 1 on unit vector}}
      linalg.add ins(%t, %bias : memref<8x8xf32>, memref<8x8xf32>) outs(%o : memref<8x8xf32, strided<[8, 1], offset: ?>>)
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "x86-avx512", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Function arguments may alias: without noalias the store to %O may feed
// the next copy from %A, so copy and store share a stage (one stage: the
// loop is returned unchanged).
// CHECK-LABEL: func.func @cpu_may_alias
// CHECK: scf.for
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.copy
// CHECK-NEXT: linalg.add
module attributes {transform.with_named_sequence} {
  func.func @cpu_may_alias(%A: memref<64x8xf32>, %O: memref<64x8xf32>, %bias: memref<8x8xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    // expected-remark @below {{buffer 1 copy x 256 bytes on chip}}
    %t = memref.alloc() : memref<8x8xf32>
    // expected-remark @below {{stages 1 of limit 2}}
    // expected-remark @below {{on-chip bytes 256 of capacity 1310720}}
    // expected-remark-re @below {{RecMII 9 is set by the recurrence 'memref.copy' (line {{[0-9]+}}) -> 'linalg.add' (line {{[0-9]+}}) -> 'memref.copy' (line {{[0-9]+}}) of the next iteration; 'memref.copy' (line {{[0-9]+}}) reads argument #0 of @cpu_may_alias after 'linalg.add' (line {{[0-9]+}}) writes argument #1 of @cpu_may_alias in the previous iteration (RAW): the two may be the same memory (function arguments may alias unless marked noalias); marking arguments #0 and #1 of @cpu_may_alias `llvm.noalias` (`bufferization.noalias` on tensor arguments, before bufferization) says they do not alias and lifts this recurrence}}
    scf.for %i = %c0 to %c64 step %c8 {
      %a = memref.subview %A[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      %o = memref.subview %O[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit load}}
      memref.copy %a, %t : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32>
      // expected-remark @below {{stage 0 on unit vector}}
      linalg.add ins(%t, %bias : memref<8x8xf32>, memref<8x8xf32>) outs(%o : memref<8x8xf32, strided<[8, 1], offset: ?>>)
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "x86-avx512", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// The upstream read-before-write hazard: the workgroup read has no SSA edge
// to the store that fills the buffer (the store is at the end of a longer
// chain), so an SSA-only scheduler may issue the read in an earlier stage
// than the write. The memory RAW edge keeps the read no earlier than the
// store: here both land in stage 0 (the 3-stage bound, II 15, leaves no room
// to separate them), the read after the store in body order; the final
// store waits for the read's 30-cycle latency in stage 2 (exec.mlir runs the
// same pattern).
// The store and the load of the workgroup buffer conflict, so each gets its
// own barrier even in one stage.
// CHECK-LABEL: func.func @read_after_write_hazard
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: memref.store %{{.+}}, %[[S:.+]][%c0] : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[S]][%c0]
// CHECK: scf.yield
module attributes {transform.with_named_sequence} {
  func.func @read_after_write_hazard(%A: memref<64xf32>, %O: memref<64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-remark @below {{buffer 1 copy x 4 bytes on chip}}
    %s = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 3 of limit 3}}
    // expected-remark @below {{on-chip bytes 4 of capacity 232448}}
    scf.for %i = %c0 to %c64 step %c1 {
      // expected-remark @below {{stage 0 on unit vector}}
      %x = memref.load %A[%i] : memref<64xf32>
      // expected-remark @below {{stage 0 on unit vector}}
      %y = arith.mulf %x, %x : f32
      // expected-remark @below {{stage 0 on unit vector}}
      memref.store %y, %s[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit smem_load}}
      %z = memref.load %s[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 2 on unit vector}}
      memref.store %z, %O[%i] : memref<64xf32>
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

// Capacity fallback: at the 5-stage bound (II 117) the buffers need 5
// copies each (1280 bytes); with onchip.capacity_bytes overridden to 600 the
// interval grows until the copies fit: 3 stages (512 bytes) at II 278, and a
// remark says why.
// CHECK-LABEL: func.func @capacity_fallback
// CHECK-DAG: memref.alloc() : memref<2x4x8xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloc() : memref<2x8x4xf32, #gpu.address_space<workgroup>>
#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @capacity_fallback(%A: memref<4x64xf32>, %B: memref<64x4xf32>, %init: vector<4x4xf32>) -> vector<4x4xf32> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %pad = arith.constant 0.0 : f32
    // expected-remark @below {{buffer 2 copies x 128 bytes on chip}}
    %a_s = memref.alloc() : memref<4x8xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{buffer 2 copies x 128 bytes on chip}}
    %b_s = memref.alloc() : memref<8x4xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 3 of limit 5: ResMII 8, RecMII 32, MII 32, achieved interval 278, lower bound with 5 stages 117 (modulo scheduled)}}
    // expected-remark @below {{on-chip bytes 512 of capacity 600}}
    // expected-remark @below {{stage limit 5 reduced to 3 stages to fit the capacity: at interval 117 5 stages need 1280 on-chip bytes > capacity 600; interval raised to 278}}
    // expected-remark-re @below {{RecMII 32 is set by the recurrence 'vector.contract' (line {{[0-9]+}}) -> 'vector.contract' (line {{[0-9]+}}) of the next iteration; 'vector.contract' (line {{[0-9]+}}) uses a value 'vector.contract' (line {{[0-9]+}}) computed in the previous iteration (an iter_arg)}}
    %r = scf.for %k = %c0 to %c64 step %c8 iter_args(%acc = %init) -> (vector<4x4xf32>) {
      %a = memref.subview %A[0, %k] [4, 8] [1, 1] : memref<4x64xf32> to memref<4x8xf32, strided<[64, 1], offset: ?>>
      %b = memref.subview %B[%k, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %a, %a_s : memref<4x8xf32, strided<[64, 1], offset: ?>> to memref<4x8xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %b, %b_s : memref<8x4xf32, strided<[4, 1], offset: ?>> to memref<8x4xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 1 on unit smem_load}}
      %va = vector.transfer_read %a_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf32, #gpu.address_space<workgroup>>, vector<4x8xf32>
      // expected-remark @below {{stage 1 on unit smem_load}}
      %vb = vector.transfer_read %b_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<8x4xf32>
      // expected-remark @below {{stage 2 on unit tensor_core}}
      %acc2 = vector.contract {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
      scf.yield %acc2 : vector<4x4xf32>
    }
    return %r : vector<4x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 5, "onchip.capacity_bytes" = 600, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// nvgpu async copies: the copy and its group are async_copy work in stage 0,
// the wait moves with the on-chip reads into stage 2 (the wait orders every
// read of the copied buffer), the compute joins them.
// The kernel runs the wait first, then one barrier, then the next copy and
// this step's read (Transforms/PipelineBarriers.h: checked over the whole
// expansion), so the user's wait (no count: wait for all) gets the stage
// distance minus the group not yet committed: 1 in the kernel, then 1 and 0
// in the epilogue (async-groups.mlir has the derivation).
// CHECK-LABEL: func.func @nvgpu_async
// CHECK: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: scf.for
// CHECK-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: arith.addf
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @nvgpu_async(%A: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %pad = arith.constant 0.0 : f32
    // expected-remark @below {{buffer 3 copies x 16 bytes on chip}}
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 3 of limit 3}}
    // expected-remark @below {{on-chip bytes 48 of capacity 232448}}
    // expected-remark-re @below {{RecMII 4 is set by the recurrence 'arith.addf' (line {{[0-9]+}}) -> 'arith.addf' (line {{[0-9]+}}) of the next iteration; 'arith.addf' (line {{[0-9]+}}) uses a value 'arith.addf' (line {{[0-9]+}}) computed in the previous iteration (an iter_arg)}}
    %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      // expected-remark @below {{stage 0 on unit async_copy}}
      %t = nvgpu.device_async_copy %A[%k, %c0], %s[%c0], 4 : memref<64x4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      %g = nvgpu.device_async_create_group %t
      // expected-remark @below {{stage 2 on unit smem_load}}
      nvgpu.device_async_wait %g
      // expected-remark @below {{stage 2 on unit smem_load}}
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      // expected-remark @below {{stage 2 on unit vector}}
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Writes through two subviews (halves) of one workgroup buffer, then a read
// of the whole buffer: the union of the two static boxes covers the read, so
// the buffer carries nothing between iterations and is double-buffered; the
// two halves do not depend on each other (both copies share stage 0).
// CHECK-LABEL: func.func @subview_halves
// CHECK: memref.alloc() : memref<2x2x4xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: memref.subview %{{.+}}[0, 0] [1, 4] [1, 1]
// CHECK: memref.subview %{{.+}}[1, 0] [1, 4] [1, 1]
module attributes {transform.with_named_sequence} {
  func.func @subview_halves(%G: memref<64x4xf32>, %init: vector<2x4xf32>) -> vector<2x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %pad = arith.constant 0.0 : f32
    // expected-remark @below {{buffer 2 copies x 32 bytes on chip}}
    %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 2 of limit 2}}
    // expected-remark @below {{on-chip bytes 64 of capacity 232448}}
    // expected-remark @below {{every allowed stage assignment enumerated: smallest latency-only interval 291}}
    %r = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %init) -> (vector<2x4xf32>) {
      %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
      %k1 = arith.addi %k, %c1 : index
      %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
      %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
      %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 1 on unit smem_load}}
      %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
      // expected-remark @below {{stage 1 on unit vector}}
      %acc2 = arith.addf %acc, %w : vector<2x4xf32>
      scf.yield %acc2 : vector<2x4xf32>
    }
    return %r : vector<2x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 2, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
