// Where the CPU scripts' default comes from. An op's `default_target` is a
// script's own fallback (the CPU scripts say "host"): it applies only when
// neither the op (`target`), the payload (DLTI) nor the driver
// (--hwsched-target, $HWSCHED_TARGET) names a spec; ops without it keep the
// built-in nvidia-a100. The host is simulated so the test does not depend on
// the machine that runs it.
//
// RUN: env HWSCHED_HOST_CPU=znver3 HWSCHED_HOST_FEATURES=+avx,+avx2,+fma \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/zen3 \
// RUN:   hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s --check-prefix=DEFAULT
// A file spec named by the driver wins over the script's default.
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --hwsched-target=x86-avx512 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: env HWSCHED_TARGET=amd-zen3 hwsched-opt %s --split-input-file \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=ENV
// The driver can name the host too.
// RUN: env HWSCHED_HOST_CPU=znver3 HWSCHED_HOST_FEATURES=+avx,+avx2,+fma \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/zen3 \
// RUN:   hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --hwsched-target=host 2>&1 | FileCheck %s --check-prefix=DRIVERHOST

// DRIVER: attached hardware spec 'x86-avx512', chosen by driver
// DRIVER: attached hardware spec 'x86-avx512', chosen by driver
// DRIVER: attached hardware spec 'ascend-910b', chosen by payload
// DRIVER: attached hardware spec 'amd-zen4', chosen by attribute
// ENV: attached hardware spec 'amd-zen3', chosen by driver
// ENV: attached hardware spec 'amd-zen3', chosen by driver
// DRIVERHOST: attached hardware spec 'host', chosen by driver; read from host (znver3, detected)
// DRIVERHOST: attached hardware spec 'host', chosen by driver; read from host (znver3, detected)

// DEFAULT-LABEL: func.func @script_default
// DEFAULT-SAME: "vector_width_bits" = 256
// DEFAULT-SAME: "hwsched.target" = "host"
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{attached hardware spec 'host', chosen by script default; read from host (znver3, detected)}}
  func.func @script_default() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { default_target = "host", explain } : !transform.any_op
    transform.yield
  }
}

// -----

// Without a `default_target` the built-in default stays.
// DEFAULT-LABEL: func.func @builtin_default
// DEFAULT-SAME: "hwsched.target" = "nvidia-a100"
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{attached hardware spec 'nvidia-a100', chosen by default}}
  func.func @builtin_default() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { explain } : !transform.any_op
    transform.yield
  }
}

// -----

// A target recorded on the payload wins over the script's default.
// DEFAULT-LABEL: func.func @payload_wins
// DEFAULT-SAME: "hwsched.target" = "ascend-910b"
module attributes {transform.with_named_sequence} {
  module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<"hwsched.target" = "ascend-910b">>} {
    // expected-remark @below {{attached hardware spec 'ascend-910b', chosen by payload}}
    func.func @payload_wins() { return }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { default_target = "host", explain } : !transform.any_op
    transform.yield
  }
}

// -----

// The op's own `target` wins over everything.
// DEFAULT-LABEL: func.func @attribute_wins
// DEFAULT-SAME: "hwsched.target" = "amd-zen4"
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{attached hardware spec 'amd-zen4', chosen by attribute}}
  func.func @attribute_wins() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "amd-zen4", default_target = "host", explain } : !transform.any_op
    transform.yield
  }
}
