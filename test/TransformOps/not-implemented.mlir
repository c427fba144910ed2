// Ops whose behaviour belongs to later issues validate their spec first, then
// fail silenceably; the payload is untouched either way.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics --mlir-print-ir-after-failure 2>&1 \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @pipeline_untouched
// CHECK: scf.for
// CHECK-NEXT: memref.store
module attributes {transform.with_named_sequence} {
  func.func @pipeline_untouched(%m: memref<8xf32>, %v: f32) {
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
    // expected-error @below {{transform.pipeline.schedule_stages is not implemented yet}}
    %0 = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A bad spec is reported before anything else.
module attributes {transform.with_named_sequence} {
  func.func @spec_first() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown target 'nvidia-a101'}}
    %0 = transform.smem.merge_allocations %f { target = "nvidia-a101" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
