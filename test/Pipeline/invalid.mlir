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
    // expected-error @below {{the handle holds nested loops; schedule them in separate calls (inner loops first)}}
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
