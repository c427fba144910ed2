// Trip counts and loop-carried values: static trip counts 1 (unrolled), equal
// to the stage count and one above it (peeled prologue/epilogue), lower bound
// not 0 and step above 1, dynamic bounds (predicated prologue/epilogue),
// pass-through iter_args and an address carried to the next iteration.
// exec.mlir runs the same loops.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s



// One iteration, three stages: unrolled completely (no loop left).
// CHECK-LABEL: func.func @trip_1
// CHECK-NOT: scf.for
// CHECK: memref.copy
// CHECK: vector.transfer_read
// CHECK: arith.addf
// CHECK-NOT: scf.for
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @trip_1(%G: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:1 = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}


// -----

// Two iterations, three stages: unrolled completely.
// CHECK-LABEL: func.func @trip_2
// CHECK-NOT: scf.for
// CHECK-COUNT-2: arith.addf
// CHECK-NOT: scf.for
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @trip_2(%G: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:1 = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}


// -----

// Three iterations: prologue of two, a kernel of one iteration, epilogue.
// CHECK-LABEL: func.func @trip_eq_stages
// CHECK: memref.alloc() : memref<3x4xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: memref.copy
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// CHECK: memref.copy
// CHECK: vector.transfer_read
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK-COUNT-2: arith.addf
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @trip_eq_stages(%G: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:1 = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}


// -----

// Four iterations.
// CHECK-LABEL: func.func @trip_stages_plus_1
// CHECK-COUNT-2: memref.copy
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-COUNT-2: arith.addf
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @trip_stages_plus_1(%G: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:1 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}


// -----

// Lower bound 3, step 5, 8 iterations: the multi-buffer index is
// ((k - 3) floordiv 5) mod 2.
// CHECK-LABEL: func.func @lb_step
// CHECK: affine.apply #{{.+}}(%{{.+}})
// CHECK: scf.for %{{.+}} = %c3 to %{{.+}} step %c5
module attributes {transform.with_named_sequence} {
  func.func @lb_step(%G: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c40 = arith.constant 40 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:1 = scf.for %k = %c3 to %c40 step %c5 iter_args(%acc = %init) -> (vector<4xf32>) {
      %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}


// -----

// Dynamic bounds: the prologue and the kernel's early stages are
// predicated (scf.if on the iteration being in range); no epilogue.
// CHECK-LABEL: func.func @dynamic
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: memref.copy
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}}
// CHECK: scf.if
// CHECK: memref.copy
// CHECK: scf.yield
// CHECK: return
module attributes {transform.with_named_sequence} {
  func.func @dynamic(%G: memref<64x4xf32>, %init: vector<4xf32>, %lb: index, %ub: index, %st: index) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:1 = scf.for %k = %lb to %ub step %st iter_args(%acc = %init) -> (vector<4xf32>) {
      %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}


// -----

// A pass-through iter_arg (yielded unchanged) is dropped before pipelining,
// its uses read the init value.
// CHECK-LABEL: func.func @pass_through
// CHECK: scf.for %{{.+}} iter_args(%{{[^,]+}} = %{{[^,]+}}, %{{[^,]+}} = %{{[^,]+}}, %{{[^,]+}} = %{{[^)]+}}) -> (vector<4xf32>, memref
module attributes {transform.with_named_sequence} {
  func.func @pass_through(%G: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init, %keep = %pad) -> (vector<4xf32>, f32) {
      %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2, %keep : vector<4xf32>, f32
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}


// -----

// The row address is computed in one iteration for the next (an index
// iter_arg): the increment follows its users into stage 0.
// CHECK-LABEL: func.func @carried_address
// CHECK: scf.for
// CHECK: arith.addi
// CHECK: memref.copy
// CHECK: scf.yield
module attributes {transform.with_named_sequence} {
  func.func @carried_address(%G: memref<64x4xf32>, %init: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %pad = arith.constant 0.0 : f32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    %r:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init, %off = %c0) -> (vector<4xf32>, index) {
      %next = arith.addi %off, %c1 : index
      %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2, %next : vector<4xf32>, index
    }
    return %r#0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
