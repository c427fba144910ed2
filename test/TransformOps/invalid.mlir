// Malformed op syntax is rejected by the verifier with a clear message.
//
// RUN: hwsched-opt %s --split-input-file --verify-diagnostics

module attributes {transform.with_named_sequence} {
  transform.named_sequence @zero_stages(%loop: !transform.op<"scf.for">) {
    // expected-error @below {{attribute 'num_stages' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
    %0 = transform.pipeline.schedule_stages %loop { num_stages = 0 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @missing_metric(%op: !transform.any_op) {
    // expected-error @below {{requires attribute 'metric'}}
    %0 = transform.cost_model.estimate %op { target = "nvidia-a100" } : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @target_not_a_string(%op: !transform.any_op) {
    // expected-error @below {{attribute 'target' failed to satisfy constraint: string attribute}}
    transform.hwsched.attach_target_spec %op { target = 3 } : !transform.any_op
    transform.yield
  }
}
