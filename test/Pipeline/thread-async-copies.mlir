// schedule_stages on thread-level async copies: each of a block's threads
// copies its own 16-byte piece of a shared tile, at indices computed from the
// thread id. The union over the block's threads (Analysis/ThreadIndexSpace.h)
// decides what the block writes: when it covers the tile each iteration the
// tile is multi-buffered, and copies whose pieces are disjoint across
// threads need no order (and no barrier) between them. Each K step then runs
// the wait, one barrier, the next step's copies and this step's reads
// (Transforms/PipelineBarriers.h). The CPU execution of these kernels with
// concurrent threads is in integration_test/Pipeline/thread-async-exec.test.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s

// 64 threads, each copying 4 floats of a 16x16 tile (row tid/4, column
// 4 * (tid mod 4)), in two copies of two floats each: together they cover
// the tile, so it gets 3 buffers; the copies are disjoint, so no barrier
// between them. The user's group and wait get the counts.
// CHECK-LABEL: func.func @cover
// CHECK: memref.alloc() : memref<3x16x16xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: gpu.barrier
// CHECK: vector.transfer_read
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
#smem = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 4)>
#col2 = affine_map<()[s0] -> ((s0 mod 4) * 4 + 2)>
#src = affine_map<()[s0, s1] -> (s0 * 16 + s1 floordiv 4)>
module attributes {transform.with_named_sequence} {
  func.func @cover(%A: memref<128x16xf32>, %init: vector<16x16xf32>) -> vector<16x16xf32>
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %r = affine.apply #row()[%tx]
    %c = affine.apply #col()[%tx]
    %c2 = affine.apply #col2()[%tx]
    // expected-remark @below {{buffer 3 copies x 1024 bytes on chip}}
    %s = memref.alloc() : memref<16x16xf32, #smem>
    // expected-remark @below {{stages 3 of limit 3}}
    // expected-remark @below {{on-chip bytes 3072 of capacity 166912}}
    %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<16x16xf32>) {
      %g = affine.apply #src()[%k, %tx]
      // expected-remark @below {{stage 0 on unit async_copy}}
      %t0 = nvgpu.device_async_copy %A[%g, %c], %s[%r, %c], 2 : memref<128x16xf32> to memref<16x16xf32, #smem>
      // expected-remark @below {{stage 0 on unit async_copy}}
      %t1 = nvgpu.device_async_copy %A[%g, %c2], %s[%r, %c2], 2 : memref<128x16xf32> to memref<16x16xf32, #smem>
      // expected-remark @below {{stage 0 on unit async_copy}}
      %grp = nvgpu.device_async_create_group %t0, %t1
      // expected-remark @below {{stage 2 on unit smem_load}}
      nvgpu.device_async_wait %grp
      gpu.barrier
      // expected-remark @below {{stage 2 on unit smem_load}}
      %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #smem>, vector<16x16xf32>
      // expected-remark @below {{stage 2 on unit vector}}
      %acc2 = arith.addf %acc, %v : vector<16x16xf32>
      scf.yield %acc2 : vector<16x16xf32>
    }
    return %res : vector<16x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-a100", num_stages = 3, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// The same tile in a gpu.launch of 64 threads, with the column swizzled
// (XOR of the 16-byte chunk with the row, as against bank conflicts): still a
// permutation of the tile's chunks, so still covered; no group or wait in the
// body, so the rewrite inserts them.
// CHECK-LABEL: func.func @swizzled_launch
// CHECK: gpu.launch
// CHECK: memref.alloc() : memref<3x16x16xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.yield
#smem = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#src = affine_map<()[s0, s1] -> (s0 * 16 + s1 floordiv 4)>
module attributes {transform.with_named_sequence} {
  func.func @swizzled_launch(%A: memref<128x16xf32>, %O: memref<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %pad = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %r = affine.apply #row()[%tx]
      %chunk = arith.remui %tx, %c4 : index
      %rlow = arith.andi %r, %c3 : index
      %sw = arith.xori %chunk, %rlow : index
      %c = arith.muli %sw, %c4 : index
      %s = memref.alloc() : memref<16x16xf32, #smem>
      %init = arith.constant dense<0.0> : vector<16x16xf32>
      %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<16x16xf32>) {
        %g = affine.apply #src()[%k, %tx]
        %t0 = nvgpu.device_async_copy %A[%g, %c], %s[%r, %c], 4 : memref<128x16xf32> to memref<16x16xf32, #smem>
        %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #smem>, vector<16x16xf32>
        %acc2 = arith.addf %acc, %v : vector<16x16xf32>
        scf.yield %acc2 : vector<16x16xf32>
      }
      vector.transfer_write %res, %O[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-a100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// 32 threads copy only the tile's first 8 rows, but the whole tile is read:
// the other rows carry the previous iterations' data, so the tile is not
// multi-buffered (one buffer) and the copy of the next step waits for the
// reads of this one.
// CHECK-LABEL: func.func @half_covered
// CHECK: memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<3x16x16xf32
// CHECK: return
#smem = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 4)>
#src = affine_map<()[s0, s1] -> (s0 * 16 + s1 floordiv 4)>
module attributes {transform.with_named_sequence} {
  func.func @half_covered(%A: memref<128x16xf32>, %init: vector<16x16xf32>) -> vector<16x16xf32>
      attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %r = affine.apply #row()[%tx]
    %c = affine.apply #col()[%tx]
    %s = memref.alloc() : memref<16x16xf32, #smem>
    %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<16x16xf32>) {
      %g = affine.apply #src()[%k, %tx]
      %t0 = nvgpu.device_async_copy %A[%g, %c], %s[%r, %c], 4 : memref<128x16xf32> to memref<16x16xf32, #smem>
      %grp = nvgpu.device_async_create_group %t0
      nvgpu.device_async_wait %grp
      %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #smem>, vector<16x16xf32>
      %acc2 = arith.addf %acc, %v : vector<16x16xf32>
      scf.yield %acc2 : vector<16x16xf32>
    }
    return %res : vector<16x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-a100", max_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// The block size is not known (no gpu.known_block_size): the threads' pieces
// cannot be enumerated, nothing proves the tile covered, one buffer.
// CHECK-LABEL: func.func @unknown_block
// CHECK: memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<3x16x16xf32
// CHECK: return
#smem = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 4)>
#src = affine_map<()[s0, s1] -> (s0 * 16 + s1 floordiv 4)>
module attributes {transform.with_named_sequence} {
  func.func @unknown_block(%A: memref<128x16xf32>, %init: vector<16x16xf32>) -> vector<16x16xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %r = affine.apply #row()[%tx]
    %c = affine.apply #col()[%tx]
    %s = memref.alloc() : memref<16x16xf32, #smem>
    %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<16x16xf32>) {
      %g = affine.apply #src()[%k, %tx]
      %t0 = nvgpu.device_async_copy %A[%g, %c], %s[%r, %c], 4 : memref<128x16xf32> to memref<16x16xf32, #smem>
      %grp = nvgpu.device_async_create_group %t0
      nvgpu.device_async_wait %grp
      %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #smem>, vector<16x16xf32>
      %acc2 = arith.addf %acc, %v : vector<16x16xf32>
      scf.yield %acc2 : vector<16x16xf32>
    }
    return %res : vector<16x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-a100", max_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Two copies whose pieces overlap across threads (thread t's second copy
// lands on thread t+1's first one): two async copies in flight to one place
// lose their order, and with no group and wait to keep them apart the loop is
// refused, naming the copy.
#smem = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 4)>
#col1 = affine_map<()[s0] -> (((s0 + 1) mod 4) * 4)>
#src = affine_map<()[s0, s1] -> (s0 * 16 + s1 floordiv 4)>
module attributes {transform.with_named_sequence} {
  func.func @overlap(%A: memref<128x16xf32>, %init: vector<16x16xf32>) -> vector<16x16xf32>
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %r = affine.apply #row()[%tx]
    %c = affine.apply #col()[%tx]
    %c1x = affine.apply #col1()[%tx]
    %s = memref.alloc() : memref<16x16xf32, #smem>
    // expected-note @below {{loop}}
    %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<16x16xf32>) {
      %g = affine.apply #src()[%k, %tx]
      %t = nvgpu.device_async_copy %A[%g, %c], %s[%r, %c], 4 : memref<128x16xf32> to memref<16x16xf32, #smem>
      // expected-note @below {{'nvgpu.device_async_copy' here}}
      %t1 = nvgpu.device_async_copy %A[%g, %c1x], %s[%r, %c1x], 4 : memref<128x16xf32> to memref<16x16xf32, #smem>
      %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #smem>, vector<16x16xf32>
      %acc2 = arith.addf %acc, %v : vector<16x16xf32>
      scf.yield %acc2 : vector<16x16xf32>
    }
    return %res : vector<16x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: cannot insert the async-copy group and wait: async copies with a memory dependence between them}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-a100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A tile the user already multi-buffered (3 slots, slot k mod 3 picked by a
// subview, as transform.memref.multibuffer leaves it): recognised as
// rotating, not multi-buffered again; its dependences are 3 iterations
// apart, which allows the 3 stages.
// CHECK-LABEL: func.func @rotated
// CHECK: memref.alloc() : memref<3x16x16xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
#smem = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 4)>
#src = affine_map<()[s0, s1] -> (s0 * 16 + s1 floordiv 4)>
#slot = affine_map<(d0) -> (d0 mod 3)>
module attributes {transform.with_named_sequence} {
  func.func @rotated(%A: memref<128x16xf32>, %init: vector<16x16xf32>) -> vector<16x16xf32>
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %r = affine.apply #row()[%tx]
    %c = affine.apply #col()[%tx]
    // expected-remark @below {{buffer 1 copy x 3072 bytes on chip}}
    %s = memref.alloc() : memref<3x16x16xf32, #smem>
    // expected-remark @below {{stages 3 of limit 3}}
    // expected-remark @below {{on-chip bytes 3072 of capacity 166912}}
    // expected-remark-re @below {{RecMII 167 is set by the recurrence 'nvgpu.device_async_copy' (line {{[0-9]+}}) -> 'nvgpu.device_async_create_group' (line {{[0-9]+}}) -> 'nvgpu.device_async_wait' (line {{[0-9]+}}) -> 'nvgpu.device_async_copy' (line {{[0-9]+}}) 3 iterations later; {{.*}} 3 iterations earlier (WAW), the same slot of the 3 the loop already rotates through}}
    %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<16x16xf32>) {
      %i = affine.apply #slot(%k)
      %sv = memref.subview %s[%i, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xf32, #smem> to memref<16x16xf32, strided<[16, 1], offset: ?>, #smem>
      %g = affine.apply #src()[%k, %tx]
      // expected-remark @below {{stage 0 on unit async_copy}}
      %t0 = nvgpu.device_async_copy %A[%g, %c], %sv[%r, %c], 4 : memref<128x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>, #smem>
      // expected-remark @below {{stage 0 on unit async_copy}}
      %grp = nvgpu.device_async_create_group %t0
      // expected-remark @below {{stage 2 on unit smem_load}}
      nvgpu.device_async_wait %grp
      gpu.barrier
      // expected-remark @below {{stage 2 on unit smem_load}}
      %v = vector.transfer_read %sv[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, strided<[16, 1], offset: ?>, #smem>, vector<16x16xf32>
      // expected-remark @below {{stage 2 on unit vector}}
      %acc2 = arith.addf %acc, %v : vector<16x16xf32>
      gpu.barrier
      scf.yield %acc2 : vector<16x16xf32>
    }
    return %res : vector<16x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-a100", num_stages = 3, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A wait with a count of its own (numGroups = 0 here) is the user's
// decision: it keeps its place after its group (moving it before the group,
// as the one-barrier order does with a wait-all, would change what its
// count means), and the general barrier rule applies.
// CHECK-LABEL: func.func @own_count
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.transfer_read
// CHECK: scf.yield
#smem = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 4)>
#src = affine_map<()[s0, s1] -> (s0 * 16 + s1 floordiv 4)>
module attributes {transform.with_named_sequence} {
  func.func @own_count(%A: memref<128x16xf32>, %init: vector<16x16xf32>) -> vector<16x16xf32>
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %r = affine.apply #row()[%tx]
    %c = affine.apply #col()[%tx]
    %s = memref.alloc() : memref<16x16xf32, #smem>
    %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<16x16xf32>) {
      %g = affine.apply #src()[%k, %tx]
      %t0 = nvgpu.device_async_copy %A[%g, %c], %s[%r, %c], 4 : memref<128x16xf32> to memref<16x16xf32, #smem>
      %grp = nvgpu.device_async_create_group %t0
      nvgpu.device_async_wait %grp {numGroups = 0 : i32}
      gpu.barrier
      %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #smem>, vector<16x16xf32>
      %acc2 = arith.addf %acc, %v : vector<16x16xf32>
      scf.yield %acc2 : vector<16x16xf32>
    }
    return %res : vector<16x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-a100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
