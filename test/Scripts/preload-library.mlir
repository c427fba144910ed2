// transform-scripts/ loads as a library and its sequences are called with
// transform.include; the same unedited script follows the driver's target.
//
// RUN: hwsched-opt %s --transform-preload-library=transform-library-paths=%scripts \
// RUN:   --transform-interpreter --verify-diagnostics --split-input-file \
// RUN:   | FileCheck %s
// RUN: hwsched-opt %s --transform-preload-library=transform-library-paths=%scripts/target.mlir \
// RUN:   --transform-interpreter --hwsched-target=ascend-910b --split-input-file \
// RUN:   2>&1 | FileCheck %s --check-prefix=NPU

// CHECK: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU"
// NPU: remark: attached hardware spec 'ascend-910b', chosen by driver
// NPU: remark: 196608 : i64
// expected-remark @below {{attached hardware spec 'nvidia-a100', chosen by default}}
module attributes {transform.with_named_sequence} {
  func.func @kernel() { return }

  transform.named_sequence private @hwsched_attach_target(!transform.any_op {transform.readonly})
  transform.named_sequence private @hwsched_onchip_capacity(!transform.any_op {transform.readonly}) -> !transform.any_param

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.include @hwsched_attach_target failures(propagate) (%root) : (!transform.any_op) -> ()
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %cap = transform.include @hwsched_onchip_capacity failures(propagate) (%f) : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{166912 : i64}}
    transform.debug.emit_param_as_remark %cap : !transform.any_param
    transform.yield
  }
}
