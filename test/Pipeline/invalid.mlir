// Refusals of transform.pipeline.schedule_stages: silenceable failures that
// name the op and the reason, and leave the payload unchanged.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED

// UNCHANGED-LABEL: func.func @unsigned_loop
// UNCHANGED: scf.for unsigned
// UNCHANGED-NEXT: memref.copy
module attributes {transform.with_named_sequence} {
  func.func @unsigned_loop(%A: memref<4xf32>, %O: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    // expected-note @below {{loop}}
    scf.for unsigned %i = %c0 to %c8 step %c1 {
      memref.copy %A, %s : memref<4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      memref.copy %s, %O : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: unsigned loops are not supported}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A call has unknown memory effects.
// UNCHANGED-LABEL: func.func @unknown_effects
// UNCHANGED: scf.for
// UNCHANGED-NEXT: func.call @opaque
module attributes {transform.with_named_sequence} {
  func.func private @opaque(memref<4xf32>)
  func.func @unknown_effects(%A: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c8 step %c1 {
      // expected-note @below {{'func.call' here}}
      func.call @opaque(%A) : (memref<4xf32>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: 'func.call' has unknown memory effects}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Swapped iteration arguments: a distance-2 recurrence.
// UNCHANGED-LABEL: func.func @swap
// UNCHANGED: scf.yield %{{.+}}, %{{.+}} : f32, f32
module attributes {transform.with_named_sequence} {
  func.func @swap(%a: f32, %b: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-note @below {{loop}}
    %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %a, %y = %b) -> (f32, f32) {
      // expected-note @below {{'scf.yield' here}}
      scf.yield %y, %x : f32, f32
    }
    return %r#0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: 'scf.yield' yields another iteration argument (a distance-2 recurrence)}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A loop-invariant value yielded: the pipeliner needs yields defined in the
// loop.
module attributes {transform.with_named_sequence} {
  func.func @invariant_yield(%a: f32, %b: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-note @below {{loop}}
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %a) -> (f32) {
      // expected-note @below {{'scf.yield' here}}
      scf.yield %b : f32
    }
    return %r : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: 'scf.yield' yields a value defined outside the loop}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Even one stage does not fit the (overridden) capacity: the numbers are in
// the message.
// UNCHANGED-LABEL: func.func @capacity_even_one_stage
// UNCHANGED: memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  func.func @capacity_even_one_stage(%A: memref<64x64xf32>, %O: memref<64x64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c8 step %c1 {
      memref.copy %A, %s : memref<64x64xf32> to memref<64x64xf32, #gpu.address_space<workgroup>>
      linalg.add ins(%s, %s : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<workgroup>>) outs(%O : memref<64x64xf32>)
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{on-chip buffers do not fit (spec 'nvidia-h100'): even 1 stage needs 16384 on-chip bytes > onchip.capacity_bytes 8192}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", "onchip.capacity_bytes" = 8192 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// An i32 induction variable cannot index the multi-buffered copies.
module attributes {transform.with_named_sequence} {
  func.func @i32_iv(%A: memref<4xf32>, %O: memref<4xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c8 step %c1 : i32 {
      memref.copy %A, %s : memref<4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      memref.copy %s, %O : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: multi-buffering needs an index induction variable}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// The handle must hold scf.for ops.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{payload op}}
  func.func @not_a_loop() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects scf.for payload ops, got 'func.func'}}
    %p = transform.pipeline.schedule_stages %f { target = "nvidia-h100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A bad target is reported before any decision.
module attributes {transform.with_named_sequence} {
  func.func @bad_target(%m: memref<8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{unknown target 'nvidia-h101'}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h101" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// An async copy grouped but never waited for in the body: a partial group
// structure we do not complete by guessing (a body with neither a group nor
// a wait gets both, see async-groups.mlir).
module attributes {transform.with_named_sequence} {
  func.func @async_without_wait(%A: memref<64x4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %pad = arith.constant 0.0 : f32
    %init = arith.constant dense<0.0> : vector<4xf32>
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    // expected-note @below {{loop}}
    %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      // expected-note @below {{'nvgpu.device_async_copy' here}}
      %t = nvgpu.device_async_copy %A[%k, %c0], %s[%c0], 4 : memref<64x4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %t
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: 'nvgpu.device_async_copy' is not completed by an nvgpu.device_async_wait in the loop body}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// An async copy without group or wait whose data is read, at the top of the
// next iteration, before the copy: no single point for an inserted wait.
module attributes {transform.with_named_sequence} {
  func.func @async_read_before_copy(%A: memref<64x4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %pad = arith.constant 0.0 : f32
    %init = arith.constant dense<0.0> : vector<4xf32>
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    // expected-note @below {{loop}}
    %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
      // expected-note @below {{'vector.transfer_read' here}}
      %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %t = nvgpu.device_async_copy %A[%k, %c0], %s[%c0], 4 : memref<64x4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      %acc2 = arith.addf %acc, %v : vector<4xf32>
      scf.yield %acc2 : vector<4xf32>
    }
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot insert the async-copy group and wait: an op before the last async copy depends on an async copy}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Nested loops in one handle.
module attributes {transform.with_named_sequence} {
  func.func @nested(%m: memref<8x8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      // expected-note @below {{nested loop}}
      scf.for %j = %c0 to %c8 step %c1 {
        memref.store %v, %m[%i, %j] : memref<8x8xf32>
      }
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{the loops given include nested loops; schedule them in separate calls (inner loops first)}}
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// One stage, nine copy-ins into separate buffers, each consumed by its own
// vector op before the next copy-in: nine disjoint mte2 -> vector intervals
// (9 event ids, 8 on the hardware). In program order the flags are never
// live at once and could share event 0, but on the hardware nothing orders
// the vector pipe's wait before the mte2 pipe's next set (the copy-ins do
// not wait for the adds), so the mte2 pipe could set event 0 twice before
// the vector pipe waits. Sharing is refused; at one stage the stage
// fallback has nothing left: a silenceable failure, payload unchanged.
// UNCHANGED-LABEL: func.func @npu_unordered_shared_event
// UNCHANGED: scf.for
// UNCHANGED-NEXT: memref.subview
// UNCHANGED-NEXT: memref.copy
// UNCHANGED-NEXT: linalg.add
// UNCHANGED-NOT: hwsched_npu
// UNCHANGED: return
module attributes {transform.with_named_sequence} {
  func.func @npu_unordered_shared_event(%G: memref<64x4xf32> {llvm.noalias}, %O: memref<64x4xf32> {llvm.noalias}) {
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
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c64 step %c4 {
      %g = memref.subview %G[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
      memref.copy %g, %s0 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
      // expected-note @below {{'linalg.add' here}}
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
    // expected-error @below {{cannot pipeline the loop: cannot synchronise the NPU pipes: the flags from mte2 to vector need 9 event ids (9 with coarser or shared flags), the hardware has 8; 3 plans within the budget were refused: their flags could be set again before the previous set was waited for, the pipes running out of program order}}
    %p = transform.pipeline.schedule_stages %loop { target = "ascend-910b", num_stages = 1 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A loop on tensors: schedule_stages pipelines loops over buffers. (It used
// to pipeline this one into IR that default one-shot-bufferize rejects:
// "Yield operand #1 is not equivalent to the corresponding iter bbArg".)
// UNCHANGED-LABEL: func.func @tensor_iter_arg
// UNCHANGED: scf.for {{.*}} iter_args
// UNCHANGED-NEXT: tensor.extract_slice
module attributes {transform.with_named_sequence} {
  func.func @tensor_iter_arg(%A: tensor<4x16xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-note @below {{loop}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<16xf32>) {
      %row = tensor.extract_slice %A[%i, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<16xf32>
      %e = tensor.empty() : tensor<16xf32>
      %x = linalg.exp ins(%row : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
      %s = linalg.add ins(%acc, %x : tensor<16xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) -> tensor<16xf32>
      scf.yield %s : tensor<16xf32>
    }
    return %r : tensor<16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: 'scf.for' carries a tensor (iter_arg #0, tensor<16xf32>): schedule_stages pipelines loops over buffers; bufferize first (one-shot-bufferize), then schedule the loop}}
    %p = transform.pipeline.schedule_stages %loop { target = "x86-avx512", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// Tensors only in the body (results written back to a buffer each
// iteration): the same refusal, naming the op.
// UNCHANGED-LABEL: func.func @tensor_body
// UNCHANGED: scf.for
// UNCHANGED-NEXT: bufferization.to_tensor
module attributes {transform.with_named_sequence} {
  func.func @tensor_body(%A: memref<4x16xf32>, %O: memref<4x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c4 step %c1 {
      // expected-note @below {{'bufferization.to_tensor' here}}
      %t = bufferization.to_tensor %A restrict : memref<4x16xf32> to tensor<4x16xf32>
      %row = tensor.extract_slice %t[%i, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<16xf32>
      %o = memref.subview %O[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      bufferization.materialize_in_destination %row in restrict writable %o : (tensor<16xf32>, memref<16xf32, strided<[1], offset: ?>>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: 'bufferization.to_tensor' computes on tensors (a tensor<4x16xf32> result): schedule_stages pipelines loops over buffers; bufferize first (one-shot-bufferize), then schedule the loop}}
    %p = transform.pipeline.schedule_stages %loop { target = "x86-avx512", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// An scf.forall on tensors in the body (a tiled op not yet bufferized): its
// tensor.parallel_insert_slice used to be reported as an op of "unknown
// memory effects"; the refusal names the forall.
// UNCHANGED-LABEL: func.func @forall_on_tensors
// UNCHANGED: scf.for
// UNCHANGED-NEXT: bufferization.to_tensor
module attributes {transform.with_named_sequence} {
  func.func @forall_on_tensors(%A: memref<4x16xf32>, %O: memref<4x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c4 step %c1 {
      %t = bufferization.to_tensor %A restrict : memref<4x16xf32> to tensor<4x16xf32>
      %row = tensor.extract_slice %t[%i, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<16xf32>
      %e = tensor.empty() : tensor<16xf32>
      // expected-note @below {{'scf.forall' here}}
      %r = scf.forall (%j) in (4) shared_outs(%out = %e) -> tensor<16xf32> {
        %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%j)
        %in = tensor.extract_slice %row[%off] [4] [1] : tensor<16xf32> to tensor<4xf32>
        %o = tensor.extract_slice %out[%off] [4] [1] : tensor<16xf32> to tensor<4xf32>
        %x = linalg.exp ins(%in : tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %x into %out[%off] [4] [1] : tensor<4xf32> into tensor<16xf32>
        }
      }
      %dst = memref.subview %O[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      bufferization.materialize_in_destination %r in restrict writable %dst : (tensor<16xf32>, memref<16xf32, strided<[1], offset: ?>>) -> ()
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{cannot pipeline the loop: 'scf.forall' is an scf.forall on tensors in the loop body (results tensor<16xf32>): schedule_stages pipelines loops over buffers; bufferize first (one-shot-bufferize), then schedule the loop}}
    %p = transform.pipeline.schedule_stages %loop { target = "x86-avx512", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
