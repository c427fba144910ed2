// Which spec an op uses when the script names none: the payload's recorded
// target, then the driver default (--hwsched-target or $HWSCHED_TARGET),
// then nvidia-a100. Scripts stay unchanged across targets.
//
// RUN: hwsched-opt %s --transform-interpreter --split-input-file \
// RUN:   --verify-diagnostics | FileCheck %s --check-prefix=DEFAULT
// RUN: hwsched-opt %s --transform-interpreter --split-input-file \
// RUN:   --hwsched-target=x86-avx512 | FileCheck %s --check-prefix=DRIVER
// RUN: env HWSCHED_TARGET=ascend-910b hwsched-opt %s --transform-interpreter \
// RUN:   --split-input-file | FileCheck %s --check-prefix=ENV
// A spec directory on HWSCHED_SPEC_PATH, and a spec named by path.
// RUN: env HWSCHED_SPEC_PATH=%S/Inputs hwsched-opt %s --transform-interpreter \
// RUN:   --split-input-file --hwsched-target=good-cpu \
// RUN:   | FileCheck %s --check-prefix=SEARCHPATH
// RUN: hwsched-opt %s --transform-interpreter --split-input-file \
// RUN:   --hwsched-target=%S/Inputs/good-cpu.json \
// RUN:   | FileCheck %s --check-prefix=BYPATH

// DEFAULT-LABEL: func.func @no_target
// DEFAULT-SAME: "hwsched.target" = "nvidia-a100"
// DRIVER-LABEL: func.func @no_target
// DRIVER-SAME: "hwsched.target" = "x86-avx512"
// ENV-LABEL: func.func @no_target
// ENV-SAME: "hwsched.target" = "ascend-910b"
// SEARCHPATH-LABEL: func.func @no_target
// SEARCHPATH-SAME: "name" = "good-cpu"
// SEARCHPATH-SAME: "hwsched.target" = "good-cpu"
// BYPATH-LABEL: func.func @no_target
// BYPATH-SAME: "hwsched.target" = "{{.*}}Inputs/good-cpu.json"
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{attached hardware spec 'nvidia-a100', chosen by default}}
  func.func @no_target() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { explain } : !transform.any_op
    transform.yield
  }
}

// -----

// A target recorded on an ancestor wins over the driver default: the inner
// function inherits the module's NPU spec.
// DEFAULT-LABEL: func.func @inherits
// DEFAULT-SAME: "hwsched.target" = "ascend-910b"
// DRIVER-LABEL: func.func @inherits
// DRIVER-SAME: "hwsched.target" = "ascend-910b"
module attributes {transform.with_named_sequence} {
  module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<"hwsched.target" = "ascend-910b">>} {
    // expected-remark @below {{attached hardware spec 'ascend-910b', chosen by payload}}
    func.func @inherits() { return }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { explain } : !transform.any_op
    transform.yield
  }
}
