// nvgpu async copies without a group and a wait in the body: the rewrite
// inserts nvgpu.device_async_create_group after the last copy (in the copies'
// stage) and nvgpu.device_async_wait before the first op that depends on a
// copy (in that op's stage), with the number of groups left in flight equal
// to the stage distance d in the prologue and the kernel, and
// min(d, stage(wait) - 1 - e) in epilogue part e. Dynamic trip counts
// (predicated, groups may be skipped) and full unrolling wait for all groups.
// An existing group + wait-all pair gets the same counts. With a static trip
// count the kernel runs the wait first, then one barrier, then the next
// copies and the reads (Transforms/PipelineBarriers.h, when its simulation
// of the expansion accepts it): the wait then comes before its iteration's
// group is committed, and lets d - 1 groups stay in flight.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s

// Copy in stage 0, read and accumulate in stage 2 (3 stages, the 550-cycle
// copy latency needs them): in the kernel the wait comes first and leaves
// one group in flight (two during the read), 1 then 0 in the epilogue.
// CHECK-LABEL: func.func @insert_static
// Prologue: copies and groups of iterations 0 and 1, no wait.
// CHECK: nvgpu.device_async_copy
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_wait
// CHECK: nvgpu.device_async_copy
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_wait
// CHECK: scf.for
// CHECK-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK-NEXT: %[[G:.+]] = nvgpu.device_async_create_group
// CHECK-NEXT: vector.transfer_read
// CHECK: scf.yield
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// CHECK: vector.transfer_read
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// CHECK: vector.transfer_read
// CHECK-NOT: nvgpu.device_async_wait
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @insert_static(%A: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
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

// Two copies into two buffers, one group for both; dynamic trip count: the
// predicated prologue/epilogue may skip groups, so the wait waits for all.
// CHECK-LABEL: func.func @insert_dynamic
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group %{{.+}}, %{{.+}}
// CHECK: nvgpu.device_async_wait %{{[^ ]+}}{{$}}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.transfer_read
// CHECK: scf.yield
// CHECK-NOT: numGroups
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @insert_dynamic(%A: memref<64x4xf32>, %B: memref<64x4xf32>, %n: index, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %u = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      %t = nvgpu.device_async_copy %A[%k, %c0], %s[%c0], 4 : memref<64x4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      %t2 = nvgpu.device_async_copy %B[%k, %c0], %u[%c0], 4 : memref<64x4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %w = vector.transfer_read %u[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %m = arith.mulf %v, %w : vector<4xf32>
      %acc2 = arith.addf %acc, %m : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Trip count 2 below the 3 stages: unrolled completely, each copy's group
// waited for in full.
// CHECK-LABEL: func.func @insert_unrolled
// CHECK-NOT: scf.for
// CHECK: nvgpu.device_async_copy
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %{{[^ ]+}}{{$}}
// CHECK: nvgpu.device_async_copy
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %{{[^ ]+}}{{$}}
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @insert_unrolled(%A: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      %t = nvgpu.device_async_copy %A[%k, %c0], %s[%c0], 4 : memref<64x4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
