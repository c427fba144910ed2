// Every shipped spec loads, validates, and reaches upstream tooling as
// #dlti.target_system_spec: transform.dlti.query reads the same figures.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @a100
// CHECK-SAME: dlti.target_system_spec = #dlti.target_system_spec<"GPU" = #dlti.target_device_spec<
// CHECK-SAME: "memory_space" = #gpu.address_space<workgroup>
// CHECK-SAME: "hwsched.target" = "nvidia-a100"
module attributes {transform.with_named_sequence} {
  func.func @a100() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100" } : !transform.any_op
    %regs = transform.dlti.query ["GPU", "gpu", "registers_per_sm"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{65536 : i64}}
    transform.debug.emit_param_as_remark %regs : !transform.any_param
    %space = transform.dlti.query ["GPU", "onchip", "memory_space"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{#gpu.address_space<workgroup>}}
    transform.debug.emit_param_as_remark %space : !transform.any_param
    %cap = transform.dlti.query ["GPU", "onchip", "capacity_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{166912 : i64}}
    transform.debug.emit_param_as_remark %cap : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @h100
// CHECK-SAME: "hwsched.target" = "nvidia-h100"
module attributes {transform.with_named_sequence} {
  func.func @h100() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "nvidia-h100" } : !transform.any_op
    %cap = transform.dlti.query ["GPU", "onchip", "capacity_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{232448 : i64}}
    transform.debug.emit_param_as_remark %cap : !transform.any_param
    %cc = transform.dlti.query ["GPU", "gpu", "compute_capability"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{"sm_90"}}
    transform.debug.emit_param_as_remark %cc : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @rtx4090
// CHECK-SAME: "hwsched.target" = "nvidia-rtx4090"
module attributes {transform.with_named_sequence} {
  func.func @rtx4090() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "nvidia-rtx4090" } : !transform.any_op
    %threads = transform.dlti.query ["GPU", "gpu", "max_threads_per_sm"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{1536 : i64}}
    transform.debug.emit_param_as_remark %threads : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @ascend
// CHECK-SAME: #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<
// CHECK-SAME: "memory_space" = "ub"
// CHECK-SAME: "hwsched.target" = "ascend-910b"
module attributes {transform.with_named_sequence} {
  func.func @ascend() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "ascend-910b" } : !transform.any_op
    %pp = transform.dlti.query ["NPU", "npu", "ping_pong_factor"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{2 : i64}}
    transform.debug.emit_param_as_remark %pp : !transform.any_param
    %tile = transform.dlti.query ["NPU", "npu", "cube_tile"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{array<i64: 16, 16, 16>}}
    transform.debug.emit_param_as_remark %tile : !transform.any_param
    transform.yield
  }
}

// -----

// The CPU spec has no on-chip memory space; its device entry has none.
// CHECK-LABEL: func.func @cpu
// CHECK-SAME: #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<
// CHECK-NOT: memory_space
// CHECK-SAME: "hwsched.target" = "x86-avx512"
module attributes {transform.with_named_sequence} {
  func.func @cpu() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "x86-avx512" } : !transform.any_op
    %vw = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{512 : i64}}
    transform.debug.emit_param_as_remark %vw : !transform.any_param
    transform.yield
  }
}

// -----

// Two devices on one op: attaching a CPU spec keeps the GPU entry (the error
// lists both). Ops that name no target then refuse to guess.
module attributes {transform.with_named_sequence} {
  func.func @two_devices() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100" } : !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "x86-avx512" } : !transform.any_op
    // expected-error @below {{the payload records several hwsched targets (nvidia-a100, x86-avx512) in its dlti.target_system_spec; name one with `target`}}
    transform.hwsched.attach_target_spec %f : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @intel_skylake_client
// CHECK-SAME: "CPU" = #dlti.target_device_spec<
// CHECK-SAME: "hwsched.target" = "intel-skylake-client"
module attributes {transform.with_named_sequence} {
  func.func @intel_skylake_client() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "intel-skylake-client" } : !transform.any_op
    %w = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{256 : i64}}
    transform.debug.emit_param_as_remark %w : !transform.any_param
    %r = transform.dlti.query ["CPU", "cpu", "vector_registers"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{16 : i64}}
    transform.debug.emit_param_as_remark %r : !transform.any_param
    %u = transform.dlti.query ["CPU", "cpu", "fma_units_per_core"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{2 : i64}}
    transform.debug.emit_param_as_remark %u : !transform.any_param
    %l2 = transform.dlti.query ["CPU", "cpu", "l2_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{262144 : i64}}
    transform.debug.emit_param_as_remark %l2 : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @amd_zen3
// CHECK-SAME: "CPU" = #dlti.target_device_spec<
// CHECK-SAME: "hwsched.target" = "amd-zen3"
module attributes {transform.with_named_sequence} {
  func.func @amd_zen3() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "amd-zen3" } : !transform.any_op
    %w = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{256 : i64}}
    transform.debug.emit_param_as_remark %w : !transform.any_param
    %r = transform.dlti.query ["CPU", "cpu", "vector_registers"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{16 : i64}}
    transform.debug.emit_param_as_remark %r : !transform.any_param
    %u = transform.dlti.query ["CPU", "cpu", "fma_units_per_core"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{2 : i64}}
    transform.debug.emit_param_as_remark %u : !transform.any_param
    %l2 = transform.dlti.query ["CPU", "cpu", "l2_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{524288 : i64}}
    transform.debug.emit_param_as_remark %l2 : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @amd_zen4
// CHECK-SAME: "CPU" = #dlti.target_device_spec<
// CHECK-SAME: "hwsched.target" = "amd-zen4"
module attributes {transform.with_named_sequence} {
  func.func @amd_zen4() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "amd-zen4" } : !transform.any_op
    %w = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{512 : i64}}
    transform.debug.emit_param_as_remark %w : !transform.any_param
    %r = transform.dlti.query ["CPU", "cpu", "vector_registers"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{32 : i64}}
    transform.debug.emit_param_as_remark %r : !transform.any_param
    %u = transform.dlti.query ["CPU", "cpu", "fma_units_per_core"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{1 : i64}}
    transform.debug.emit_param_as_remark %u : !transform.any_param
    %l2 = transform.dlti.query ["CPU", "cpu", "l2_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{1048576 : i64}}
    transform.debug.emit_param_as_remark %l2 : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @intel_sapphire_rapids
// CHECK-SAME: "CPU" = #dlti.target_device_spec<
// CHECK-SAME: "hwsched.target" = "intel-sapphire-rapids"
module attributes {transform.with_named_sequence} {
  func.func @intel_sapphire_rapids() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "intel-sapphire-rapids" } : !transform.any_op
    %w = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{512 : i64}}
    transform.debug.emit_param_as_remark %w : !transform.any_param
    %r = transform.dlti.query ["CPU", "cpu", "vector_registers"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{32 : i64}}
    transform.debug.emit_param_as_remark %r : !transform.any_param
    %u = transform.dlti.query ["CPU", "cpu", "fma_units_per_core"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{2 : i64}}
    transform.debug.emit_param_as_remark %u : !transform.any_param
    %l2 = transform.dlti.query ["CPU", "cpu", "l2_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{2097152 : i64}}
    transform.debug.emit_param_as_remark %l2 : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @arm_neoverse_n1
// CHECK-SAME: "CPU" = #dlti.target_device_spec<
// CHECK-SAME: "hwsched.target" = "arm-neoverse-n1"
module attributes {transform.with_named_sequence} {
  func.func @arm_neoverse_n1() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "arm-neoverse-n1" } : !transform.any_op
    %w = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{128 : i64}}
    transform.debug.emit_param_as_remark %w : !transform.any_param
    %r = transform.dlti.query ["CPU", "cpu", "vector_registers"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{32 : i64}}
    transform.debug.emit_param_as_remark %r : !transform.any_param
    %u = transform.dlti.query ["CPU", "cpu", "fma_units_per_core"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{2 : i64}}
    transform.debug.emit_param_as_remark %u : !transform.any_param
    %l2 = transform.dlti.query ["CPU", "cpu", "l2_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{1048576 : i64}}
    transform.debug.emit_param_as_remark %l2 : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @arm_neoverse_v1
// CHECK-SAME: "CPU" = #dlti.target_device_spec<
// CHECK-SAME: "hwsched.target" = "arm-neoverse-v1"
module attributes {transform.with_named_sequence} {
  func.func @arm_neoverse_v1() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "arm-neoverse-v1" } : !transform.any_op
    %w = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{128 : i64}}
    transform.debug.emit_param_as_remark %w : !transform.any_param
    %r = transform.dlti.query ["CPU", "cpu", "vector_registers"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{32 : i64}}
    transform.debug.emit_param_as_remark %r : !transform.any_param
    %u = transform.dlti.query ["CPU", "cpu", "fma_units_per_core"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{4 : i64}}
    transform.debug.emit_param_as_remark %u : !transform.any_param
    %l2 = transform.dlti.query ["CPU", "cpu", "l2_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{1048576 : i64}}
    transform.debug.emit_param_as_remark %l2 : !transform.any_param
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @arm_neoverse_v2
// CHECK-SAME: "CPU" = #dlti.target_device_spec<
// CHECK-SAME: "hwsched.target" = "arm-neoverse-v2"
module attributes {transform.with_named_sequence} {
  func.func @arm_neoverse_v2() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.hwsched.attach_target_spec %f { target = "arm-neoverse-v2" } : !transform.any_op
    %w = transform.dlti.query ["CPU", "cpu", "vector_width_bits"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{128 : i64}}
    transform.debug.emit_param_as_remark %w : !transform.any_param
    %r = transform.dlti.query ["CPU", "cpu", "vector_registers"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{32 : i64}}
    transform.debug.emit_param_as_remark %r : !transform.any_param
    %u = transform.dlti.query ["CPU", "cpu", "fma_units_per_core"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{4 : i64}}
    transform.debug.emit_param_as_remark %u : !transform.any_param
    %l2 = transform.dlti.query ["CPU", "cpu", "l2_bytes"] at %f : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{2097152 : i64}}
    transform.debug.emit_param_as_remark %l2 : !transform.any_param
    transform.yield
  }
}
