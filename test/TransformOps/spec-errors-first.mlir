// A bad spec is reported before the op looks at its payload, and the payload
// is untouched.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics --mlir-print-ir-after-failure 2>&1 \
// RUN:   | FileCheck %s

// A bad spec is reported before anything else.
// CHECK-LABEL: func.func @spec_first
module attributes {transform.with_named_sequence} {
  func.func @spec_first() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown target 'nvidia-a101'}}
    %0 = transform.smem.merge_allocations %f { target = "nvidia-a101" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
