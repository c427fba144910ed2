// Inline attributes override single spec figures for one call; bad overrides
// are errors that leave the payload unchanged.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s
// The IR of every failed application, as the pass manager dumps it:
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED

// Shorthands and quoted key paths both apply; explain lists them.
// CHECK-LABEL: func.func @shorthand
// CHECK-SAME: "max_registers_per_thread" = 128 : i64
// CHECK-SAME: "sm_count" = 80 : i64
// CHECK-SAME: "capacity_bytes" = 49152 : i64
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{attached hardware spec 'nvidia-a100', chosen by attribute; override gpu.sm_count=80; override gpu.max_registers_per_thread=128; override onchip.capacity_bytes=49152}}
  func.func @shorthand() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100", reg_limit = 128, smem_limit_bytes = 49152, "gpu.sm_count" = 80, explain } : !transform.any_op
    transform.yield
  }
}

// -----

// The seed script's NPU call carries reg_limit, which means nothing to an
// NPU: it is ignored, and explain says so.
// CHECK-LABEL: func.func @npu_ignores_reg_limit
// CHECK-SAME: "capacity_bytes" = 245760 : i64
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{attached hardware spec 'ascend-910b', chosen by attribute; override reg_limit ignored (applies to gpu targets); override onchip.capacity_bytes=245760}}
  func.func @npu_ignores_reg_limit() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "ascend-910b", ub_limit_bytes = 245760, reg_limit = 128, explain } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @unknown_override()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @unknown_override() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown override 'reg_limt'; expected one of reg_limit, smem_limit_bytes, ub_limit_bytes, l2_limit_bytes, max_stages or a quoted spec key path such as "gpu.sm_count"}}
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100", reg_limt = 128 } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @unknown_key_path()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @unknown_key_path() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{nvidia-a100.json': override 'gpu.flux_capacitor' names 'gpu.flux_capacitor', which is not a figure of this spec}}
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100", "gpu.flux_capacitor" = 1 } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @conflicting_overrides()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @conflicting_overrides() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{conflicting overrides 'onchip.capacity_bytes' and 'smem_limit_bytes' both set 'onchip.capacity_bytes'}}
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100", smem_limit_bytes = 1024, "onchip.capacity_bytes" = 2048 } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @override_wrong_type()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @override_wrong_type() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{nvidia-a100.json': after applying overrides: at 'gpu.max_registers_per_thread': expected integer > 0, got string "lots"}}
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100", reg_limit = "lots" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @override_zero_capacity()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @override_zero_capacity() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ascend-910b.json': after applying overrides: at 'onchip.capacity_bytes': expected integer > 0, got integer 0}}
    transform.hwsched.attach_target_spec %f { target = "ascend-910b", ub_limit_bytes = 0 } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @override_not_a_value()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @override_not_a_value() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{override 'reg_limit' must be an integer, float, string, bool, array<i64> or array of strings attribute, got f32}}
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100", reg_limit = f32 } : !transform.any_op
    transform.yield
  }
}
