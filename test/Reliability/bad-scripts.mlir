// Script errors around the implemented hwsched ops: consumed handles reused,
// handles of the wrong kind, odd targets. Each is a diagnostic naming the
// problem and the payload is left unchanged (checked on the IR dumped after
// the failure). Rows of docs/bad-input.md point here.
//
// RUN: hwsched-opt %s --split-input-file --verify-diagnostics \
// RUN:   --transform-interpreter=disable-expensive-checks=false
// RUN: hwsched-opt %s --split-input-file --verify-diagnostics \
// RUN:   --transform-interpreter --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED

// A handle consumed by an earlier op (here a registered pass run on the
// function) cannot feed attach_target_spec: the interpreter's handle checks
// reject it before our op runs.
// UNCHANGED-LABEL: func.func @consumed_attach()
// UNCHANGED-NOT: dlti.target_system_spec
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  // expected-note @below {{ancestor payload op}}
  // expected-note @below {{nested payload op}}
  func.func @consumed_attach() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    %g = transform.apply_registered_pass "cse" to %f : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{uses a handle invalidated by a previously executed transform op}}
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100" } : !transform.any_op
    transform.yield
  }
}

// -----

// The same for query_spec, whose handle is only read.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{ancestor payload op}}
  // expected-note @below {{nested payload op}}
  func.func @consumed_query() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    %g = transform.apply_registered_pass "cse" to %f : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{uses a handle invalidated by a previously executed transform op}}
    %v = transform.hwsched.query_spec %f { target = "nvidia-a100", key = "gpu.warp_size" } : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

// A handle to ops nested in a consumed handle's payload is invalid too; the
// check runs before schedule_stages does, so it holds whatever the op does.
// UNCHANGED-LABEL: func.func @consumed_twice(
// UNCHANGED: scf.for
// UNCHANGED-NEXT: memref.store
module attributes {transform.with_named_sequence} {
  // expected-note @below {{ancestor payload op}}
  func.func @consumed_twice(%m: memref<8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-note @below {{nested payload op}}
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    %g = transform.apply_registered_pass "cse" to %f : (!transform.any_op) -> !transform.any_op
    // The loop lives in the consumed function, so its handle is invalid too.
    // expected-error @below {{uses a handle invalidated by a previously executed transform op}}
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A parameter where an op handle is expected is rejected when the script is
// parsed or verified, before anything runs.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @param_as_handle(%p: !transform.param<i64>) {
    // expected-error @below {{operand #0 must be TransformHandleTypeInterface instance, but got '!transform.param<i64>'}}
    %v = transform.hwsched.query_spec %p { target = "nvidia-a100", key = "gpu.warp_size" } : (!transform.param<i64>) -> !transform.any_param
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @param_as_handle_attach(%p: !transform.param<i64>) {
    // expected-error @below {{invalid kind of type specified}}
    transform.hwsched.attach_target_spec %p { target = "nvidia-a100" } : !transform.param<i64>
    transform.yield
  }
}

// -----

// A handle where a parameter is expected (the result of query_spec).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @handle_as_param(%f: !transform.any_op) {
    // expected-error @below {{result #0 must be TransformParamTypeInterface instance, but got '!transform.any_op'}}
    %v = transform.hwsched.query_spec %f { target = "nvidia-a100", key = "gpu.warp_size" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A typed handle whose payload is of another kind: the interpreter checks
// the type of every handle it binds (here: functions in an scf.for handle).
// UNCHANGED-LABEL: func.func @wrong_payload_kind()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  // expected-note @below {{payload operation}}
  func.func @wrong_payload_kind() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{incompatible payload operation name expected scf.for vs func.func}}
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %f { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// An empty target name.
// UNCHANGED-LABEL: func.func @empty_target()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @empty_target() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{empty target name}}
    transform.hwsched.attach_target_spec %f { target = "" } : !transform.any_op
    transform.yield
  }
}

// -----

// A path that names a directory, not a spec file.
// UNCHANGED-LABEL: func.func @directory_target()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @directory_target() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{hardware spec file '/' does not exist}}
    %v = transform.hwsched.query_spec %f { target = "/", key = "onchip.capacity_bytes" } : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

// Unknown target names on the cost-model ops are reported the same way.
module attributes {transform.with_named_sequence} {
  func.func @unknown_target_estimate(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["linalg.add"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown target 'nvidia-a101': no 'nvidia-a101.json' in the spec search path}}
    %v = transform.cost_model.estimate %f { target = "nvidia-a101", metric = "flops" } : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

// An integer override wider than 64 bits used to be truncated silently
// (2^64 + 1 became a register limit of 1); it is an error now.
// UNCHANGED-LABEL: func.func @override_too_wide()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @override_too_wide() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{override 'reg_limit': value 18446744073709551617 does not fit in a signed 64-bit integer, got 18446744073709551617 : i128}}
    transform.hwsched.attach_target_spec %f { target = "nvidia-a100", reg_limit = 18446744073709551617 : i128 } : !transform.any_op
    transform.yield
  }
}

// -----

// Unsigned values above the signed 64-bit range likewise (they used to turn
// negative and be reported as "got integer -1").
module attributes {transform.with_named_sequence} {
  func.func @override_unsigned_too_wide() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{override 'onchip.capacity_bytes': value 18446744073709551615 does not fit in a signed 64-bit integer}}
    %v = transform.hwsched.query_spec %f { target = "nvidia-a100", key = "onchip.capacity_bytes", "onchip.capacity_bytes" = 18446744073709551615 : ui64 } : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

// Infinity used to pass the range check of a weight (>= 0) and reach the
// cost models; NaN and infinity are errors now.
module attributes {transform.with_named_sequence} {
  func.func @override_infinity() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{override 'cost_weights.register_pressure': value is not a finite number, got 0x7FF0000000000000 : f64}}
    %v = transform.hwsched.query_spec %f { target = "nvidia-a100", key = "cost_weights.register_pressure", "cost_weights.register_pressure" = 0x7FF0000000000000 : f64 } : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @override_nan() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{override 'max_stages': value is not a finite number}}
    transform.hwsched.attach_target_spec %f { target = "ascend-910b", max_stages = 0x7FF8000000000000 : f64 } : !transform.any_op
    transform.yield
  }
}

// -----

// A huge pipeline.max_stages override on a loop whose buffers never fit: the
// scheduler used to step the stage limit down one by one from 2^31 - 1 (a
// hang; found by the in-process op fuzzer with 49152 under ASan). Now it
// goes straight to the stage count a schedule uses.
// UNCHANGED-LABEL: func.func @huge_max_stages_no_fit(
// UNCHANGED: memref.alloc() : memref<1024x1024xf32, #gpu.address_space<workgroup>>
// UNCHANGED-NOT: memref<2x1024x1024xf32
module attributes {transform.with_named_sequence} {
  func.func @huge_max_stages_no_fit(%a: memref<1024x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c8 step %c1 {
      %b = memref.alloc() : memref<1024x1024xf32, #gpu.address_space<workgroup>>
      memref.copy %a, %b : memref<1024x1024xf32> to memref<1024x1024xf32, #gpu.address_space<workgroup>>
      linalg.add ins(%b, %b : memref<1024x1024xf32, #gpu.address_space<workgroup>>, memref<1024x1024xf32, #gpu.address_space<workgroup>>) outs(%a : memref<1024x1024xf32>)
      memref.dealloc %b : memref<1024x1024xf32, #gpu.address_space<workgroup>>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{even 1 stage needs 4194304 on-chip bytes > onchip.capacity_bytes 166912}}
    %r = transform.pipeline.schedule_stages %l { target = "nvidia-a100", max_stages = 2147483647 : i64 } : (!transform.op<"scf.for">) -> !transform.any_op
    transform.yield
  }
}

// -----

// Above what 32 bits hold, the limit saturates (it used to wrap to 0 stages).
module attributes {transform.with_named_sequence} {
  func.func @max_stages_beyond_32_bits(%a: memref<1024x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-note @below {{loop}}
    scf.for %i = %c0 to %c8 step %c1 {
      %b = memref.alloc() : memref<1024x1024xf32, #gpu.address_space<workgroup>>
      memref.copy %a, %b : memref<1024x1024xf32> to memref<1024x1024xf32, #gpu.address_space<workgroup>>
      linalg.add ins(%b, %b : memref<1024x1024xf32, #gpu.address_space<workgroup>>, memref<1024x1024xf32, #gpu.address_space<workgroup>>) outs(%a : memref<1024x1024xf32>)
      memref.dealloc %b : memref<1024x1024xf32, #gpu.address_space<workgroup>>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{even 1 stage needs 4194304 on-chip bytes > onchip.capacity_bytes 166912}}
    %r = transform.pipeline.schedule_stages %l { target = "nvidia-a100", max_stages = 4294967296 : i64 } : (!transform.op<"scf.for">) -> !transform.any_op
    transform.yield
  }
}
