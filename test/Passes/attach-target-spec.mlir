// RUN: hwsched-opt %s --hwsched-attach-target-spec=target=nvidia-h100 | FileCheck %s
// RUN: hwsched-opt %s --hwsched-attach-target-spec --hwsched-target=ascend-910b \
// RUN:   | FileCheck %s --check-prefix=DRIVER
// RUN: not hwsched-opt %s --hwsched-attach-target-spec=target=nope 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERROR

// CHECK: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU"
// CHECK-SAME: "hwsched.target" = "nvidia-h100"
// DRIVER: "hwsched.target" = "ascend-910b"
// ERROR: error: unknown target 'nope': no 'nope.json' in the spec search path
module {
  func.func @f() { return }
}
