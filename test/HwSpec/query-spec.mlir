// transform.hwsched.query_spec reads figures of the resolved spec, overrides
// included, without knowing the target's kind.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.hwsched.query_spec %f { target = "nvidia-a100", key = "gpu.warp_size" } : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{32 : i64}}
    transform.debug.emit_param_as_remark %a : !transform.param<i64>
    %b = transform.hwsched.query_spec %f { target = "nvidia-a100", reg_limit = 96, key = "gpu.max_registers_per_thread" } : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{96 : i64}}
    transform.debug.emit_param_as_remark %b : !transform.param<i64>
    %c = transform.hwsched.query_spec %f { target = "ascend-910b", key = "npu.cube_tile" } : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{array<i64: 16, 16, 16>}}
    transform.debug.emit_param_as_remark %c : !transform.any_param
    %d = transform.hwsched.query_spec %f { target = "ascend-910b", key = "onchip.memory_space" } : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{"ub"}}
    transform.debug.emit_param_as_remark %d : !transform.any_param
    %e = transform.hwsched.query_spec %f { target = "x86-avx512", key = "compute.clock_ghz" } : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{3.400000e+00 : f64}}
    transform.debug.emit_param_as_remark %e : !transform.any_param
    %g = transform.hwsched.query_spec %f { target = "nvidia-h100", key = "onchip.memory_space" } : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{#gpu.address_space<workgroup>}}
    transform.debug.emit_param_as_remark %g : !transform.any_param
    // Arrays of strings (memory-space pairs), from the file and overridden.
    %h = transform.hwsched.query_spec %f { target = "x86-avx512", key = "onchip.direct_read_spaces" } : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{["* -> *"]}}
    transform.debug.emit_param_as_remark %h : !transform.any_param
    %i = transform.hwsched.query_spec %f { target = "nvidia-a100", "onchip.direct_read_spaces" = ["#gpu.address_space<global> -> #gpu.address_space<workgroup>"], key = "onchip.direct_read_spaces" } : (!transform.any_op) -> !transform.any_param
    // expected-remark @below {{["#gpu.address_space<global> -> #gpu.address_space<workgroup>"]}}
    transform.debug.emit_param_as_remark %i : !transform.any_param
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{has no figure 'gpu.warp_size'}}
    %a = transform.hwsched.query_spec %f { target = "x86-avx512", key = "gpu.warp_size" } : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}
