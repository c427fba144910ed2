// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_bad_online()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_bad_online() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{host-sysfs/bad-online/online: expected a CPU list such as '0-7' or '0,2-3', got 'zero-to-seven'}}
    transform.hwsched.attach_target_spec %f { target = "host" } : !transform.any_op
    transform.yield
  }
}
