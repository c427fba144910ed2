// REQUIRES: plugin
//
// The stock mlir-opt runs hwsched scripts once the plugin is loaded, and does
// not know the ops without it.
//
// RUN: %mlir_opt --load-dialect-plugin=%hwsched_plugin %s \
// RUN:   --transform-interpreter | FileCheck %s
// RUN: %mlir_opt --load-dialect-plugin=%hwsched_plugin %s \
// RUN:   --pass-pipeline='builtin.module(hwsched-attach-target-spec{target=x86-avx512})' \
// RUN:   | FileCheck %s --check-prefix=PASS
// RUN: not %mlir_opt %s --transform-interpreter 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-LABEL: func.func @payload
// CHECK-SAME: "hwsched.target" = "ascend-910b"
// PASS: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU"
// NOPLUGIN: error: custom op 'transform.hwsched.attach_target_spec' is unknown
module attributes {transform.with_named_sequence} {
  func.func @payload() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "ascend-910b" } : !transform.any_op
    transform.yield
  }
}
