// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_bad_default_target()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_bad_default_target() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'default_target' must be a string naming a spec (e.g. "host"), got 3 : i64}}
    transform.hwsched.attach_target_spec %f { default_target = 3 } : !transform.any_op
    transform.yield
  }
}
